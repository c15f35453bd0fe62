/**
 * What grade makes of a class where nothing was copied but something looks
 * alike (issue 48, issue 49 "Names that look the same"):
 *
 * - three students who each made only the right predictions are not one
 *   piece of work: a prediction has one right answer (chapter 6), so they
 *   are not flagged identical and each counts in "done per exercise";
 * - a course code typed in another case or width is the course's code:
 *   `config course net-2026` keeps NET-2026 and gives NET-2026's values,
 *   and a hand-in that says net-2026 is graded as this course, not flagged
 *   as another;
 * - "Li Lei" and "Li Leі" (U+0456, a Cyrillic letter) are two names that
 *   look the same: flagged, with the odd letter's code point, and the
 *   name shown with it made visible, where before they were two rows and
 *   "Flags: none".
 *
 * Expected values are written by hand.
 */
import assert from "node:assert/strict";
import config from "../../deno.json" with { type: "json" };
import {
  BUILTIN_COURSE,
  grade,
  type HandedExercise,
  makeHandIn,
  paramsFor,
  type Source,
} from "../../lib/exercises/mod.ts";
import { gradeCsv, gradeTable } from "../../lib/views/grade_table.ts";
import { cli, TEST_BASE } from "../_helpers/helpers.ts";

const CODE = "NET-2026";

function answer(text: string): HandedExercise {
  return {
    answer: text,
    passed: null,
    checks: 1,
    hints: 0,
    revealed: false,
    first: null,
    hints_before_guess: 0,
  };
}

/** A hand-in of `name` under `code`, made in memory, as a source named `file`. */
function source(
  file: string,
  name: string,
  exercises: Record<string, HandedExercise>,
  code: string | null = CODE,
  variant: string | null = "00000000000000a1",
): Source {
  const text = JSON.stringify(makeHandIn({
    name,
    guardlab: config.version,
    course: { id: BUILTIN_COURSE.id, code },
    student: { variant, uid: null },
    exercises,
  }));
  return {
    file,
    read: () => Promise.resolve({ text, owner: null, mode: null }),
  };
}

async function graded(sources: Source[], code: string | null = CODE) {
  return await grade(sources, {
    course: BUILTIN_COURSE,
    code,
    version: config.version,
    base: TEST_BASE,
  });
}

const RIGHT_15 = '{"outcome":"cancelled","draft":true,"receipts":1}';
const RIGHT_19 = '{"side":"after","draft":true,"receipts":1}';

Deno.test("class rules: identical right predictions are no copies; each counts (issue 48)", async () => {
  const predictions = {
    "predict-cancel-after-commit": answer(RIGHT_15),
    "predict-output-guardrail": answer(RIGHT_19),
  };
  const g = await graded(
    ["a", "b", "c"].map((who, i) =>
      source(`${who}.json`, `学生${who}`, predictions, CODE, `${i}`.repeat(16))
    ),
  );
  for (const row of g.rows) {
    assert.equal(row.cells[15], "done");
    assert.equal(row.cells[19], "done");
    assert.deepEqual(row.flags, [], row.file);
  }
  // Before: all three "identical ... byte for byte", and 1 done each.
  assert.equal(g.perExercise[15], 3);
  assert.equal(g.perExercise[19], 3);
  assert.equal(g.identicalCountedOnce, false);
  // A script answer handed in twice, byte for byte, still makes them one.
  const script = answer(
    '{"op":"run","args":{"job":"JOB-001","topic":"river","copies":2}}',
  );
  const twice = await graded(
    ["a", "b"].map((who, i) =>
      source(
        `${who}.json`,
        `学生${who}`,
        { ...predictions, "output-check-cannot-unwrite": script },
        CODE,
        `${i}`.repeat(16),
      )
    ),
  );
  assert.deepEqual(twice.rows[0].flags, [{
    kind: "identical",
    of: ["b.json"],
  }]);
  assert.equal(twice.perExercise[15], 1);
});

Deno.test("class rules: a course code in another case or width is the course's, with its values (issue 48)", async () => {
  const slug = "output-check-cannot-unwrite";
  const seed = "00000000000000b2";
  const mine = paramsFor(CODE, "李雷", slug, seed);
  assert.deepEqual(paramsFor("net-2026", "李雷", slug, seed), mine);
  assert.deepEqual(paramsFor("ＮＥＴ－２０２６", "李雷", slug, seed), mine);
  // Another code is still another course: the fold is case and width only.
  assert.notDeepEqual(paramsFor("NET-2O26", "李雷", slug, seed), mine);
  const right = answer(JSON.stringify({
    op: "run",
    args: { job: mine.job, topic: mine.topic, copies: mine.copies },
    faults: { bad_output: true },
  }));
  const g = await graded([
    source("li.json", "李雷", { [slug]: right }, "net-2026", seed),
  ]);
  const [row] = g.rows;
  assert.equal(row.cells[1], "done");
  // Before: "made under course code net-2026, not this one" and (1) beside 0.
  assert.deepEqual(row.flags, []);
  assert.equal(row.total, 1);
  assert.equal(row.ownTotal, null);
  // What config keeps, and says: the code in capitals.
  const base = await Deno.makeTempDir({ prefix: "guardlab-code-" });
  try {
    const set = await cli(["config", "course", "net-2026"], "", false, base);
    assert.equal(set.code, 0, set.err.join("\n"));
    assert.match(set.out[0], /^course code set to NET-2026:/);
    const wide = await cli(
      ["config", "course", "ＮＥＴ－２０２６"],
      "",
      false,
      base,
    );
    assert.equal(wide.code, 0, wide.err.join("\n"));
    assert.deepEqual((await cli(["config", "course"], "", false, base)).out, [
      "course NET-2026",
    ]);
    // A letter of another script is no course code at all: refused.
    const cyrillic = await cli(
      ["config", "course", "N\u0415T-2026"],
      "",
      false,
      base,
    );
    assert.equal(cyrillic.code, 2);
  } finally {
    await Deno.remove(base, { recursive: true });
  }
});

Deno.test("class rules: two names that only look the same are flagged, with the odd letter's code point (issue 49)", async () => {
  const exercises = {
    "output-check-cannot-unwrite": answer(
      '{"op":"run","args":{"job":"JOB-001","topic":"river","copies":2}}',
    ),
  };
  const g = await graded([
    source("li-lei.json", "Li Lei", exercises, CODE, "00000000000000c1"),
    source(
      "li-lei-2.json",
      "Li Le\u0456",
      {
        ...exercises,
        "same-error-two-ledgers": answer("{}"),
      },
      CODE,
      "00000000000000c2",
    ),
    source("ivan.json", "Иван Li", {}, CODE, "00000000000000c3"),
  ]);
  assert.deepEqual(g.rows[0].flags, [{
    kind: "look-alike-name",
    others: ["li-lei-2.json"],
    letters: ["U+0456"],
  }]);
  assert.deepEqual(g.rows[1].flags, [{
    kind: "look-alike-name",
    others: ["li-lei.json"],
    letters: ["U+0456"],
  }]);
  // A name of two scripts, each word of one, is no disguise.
  assert.deepEqual(g.rows[2].flags, []);
  const table = gradeTable(g, "en", CODE);
  const flags = table.slice(table.indexOf("Flags:") + 1).join(" ")
    .replace(/\s+/g, " ").trim();
  assert.equal(
    flags,
    "Li Lei (li-lei.json): a name that looks the same as li-lei-2.json's: " +
      "they differ only in case, width, invisible characters or look-alike " +
      "letters (U+0456); each hand-in has values of its own " +
      "Li Le\\u0456 (li-lei-2.json): a name that looks the same as " +
      "li-lei.json's: they differ only in case, width, invisible characters " +
      "or look-alike letters (U+0456); each hand-in has values of its own",
  );
  assert.ok(table.some((l) => l.startsWith("Li Le\\u0456 ")), table.join("\n"));
  const zh = gradeTable(g, "zh", CODE).join("\n");
  assert.ok(
    zh.includes(
      "Li Lei (li-lei.json)：名字与 li-lei-2.json 的看起来一样：只差大小写、",
    ),
    zh,
  );
  const csv = gradeCsv(g).join("\n");
  assert.ok(csv.includes('"Li Le\\u0456"'), csv);
  assert.ok(
    csv.includes('"look-alike-name(li-lei.json,letters=U+0456)"'),
    csv,
  );
});
