/**
 * Hand-ins that say whose work they are: names bounded and clean, variants
 * spread over every value the rules allow, a hand-in read strictly (each
 * malformed file named with its reason, never "missing"), the digest that
 * shows an edit, CSV that a spreadsheet cannot run, a table that fits 80
 * columns, and the sandbox's file rule kept for a teacher's folder.
 */
import assert from "node:assert/strict";
import { createHash } from "node:crypto";
import { join } from "node:path";
import { canonicalJson, parseJsonLikePython } from "../../lib/base/json.ts";
import config from "../../deno.json" with { type: "json" };
import {
  ANSWER_LIMITS,
  BUILTIN_COURSE,
  byFlagOrder,
  canonical,
  checkCourseCode,
  checkName,
  type ClassGrade,
  defaultParams,
  digestOf,
  type Flag,
  foreignValue,
  type HandIn,
  makeHandIn,
  MalformedHandIn,
  nameKey,
  paramsFor,
  paramsProblem,
  readHandIn,
  recordCheck,
} from "../../lib/exercises/mod.ts";
import {
  csvCell,
  csvTextCell,
  flagText,
  gradeCsv,
  gradeJson,
  gradeTable,
} from "../../lib/views/grade_table.ts";
import { displayWidth } from "../../lib/base/terminal.ts";
import { privateRootPath } from "../../lib/sandbox/sandbox.ts";
import { assertUsageError, cli } from "../_helpers/helpers.ts";
import { IS_ROOT } from "../_helpers/sandbox_fixtures.ts";
import { tempDir } from "../_helpers/tmp.ts";

Deno.test("names: trimmed, bounded, and never a control or invisible character", () => {
  assert.deepEqual(checkName("  李  雷 "), { name: "李 雷" });
  assert.deepEqual(checkName("x".repeat(40)), { name: "x".repeat(40) });
  for (
    const bad of [
      "",
      "   ",
      "x".repeat(41),
      "a\u0007b",
      "a\nb",
      "a\u202eb", // right-to-left override
      "a\u200bb", // zero-width space
      "a\u2028b",
      "\u001b[31mred",
      "y".repeat(100_000),
    ]
  ) {
    assert.ok("problem" in checkName(bad), JSON.stringify(bad.slice(0, 20)));
  }
  assert.equal(nameKey("Li  Lei"), nameKey("li lei"));
  assert.equal(nameKey("ＬＩ ＬＥＩ"), nameKey("li lei"));
  // Issue 28, item 9: a code point that shows nothing cannot make a name
  // another one (combining grapheme joiner, variation selectors, Hangul
  // fillers, zero-width, tags); a name of such code points alone is empty.
  for (
    const hidden of [
      "李\u034f雷",
      "李\ufe00雷",
      "李\u{e0100}雷",
      "\u3164李雷",
      "李雷\uffa0",
      "李\u115f雷",
    ]
  ) {
    assert.ok("name" in checkName(hidden), JSON.stringify(hidden));
    assert.equal(nameKey(hidden), nameKey("李雷"), JSON.stringify(hidden));
  }
  for (const empty of ["\u3164", "\u034f\ufe0f", "\u115f \u1160"]) {
    assert.ok("problem" in checkName(empty), JSON.stringify(empty));
  }
  assert.equal(nameKey("Li\u200b Lei\u{e0041}\u2060"), nameKey("li lei"));
  assert.ok("code" in checkCourseCode("NET-2026"));
  for (const bad of ["", "-x", "a b", "x".repeat(33), "课程"]) {
    assert.ok("problem" in checkCourseCode(bad), bad);
  }
});

Deno.test("names: config name and course refuse bad values, exit 2, and store good ones", async () => {
  await using baseFolder = await tempDir("guardlab-name-");
  const base = baseFolder.path;
  const say = (args: string[]) => cli(args, "", false, base);
  assertUsageError(
    await say(["config", "name", "a\u0007"]),
    /not a name: a name may not contain control/,
  );
  assertUsageError(
    await say(["config", "name", "x".repeat(41)]),
    /at most 40 characters/,
  );
  assertUsageError(
    await say(["config", "course", "a b"]),
    /not a course code/,
  );
  assert.equal((await say(["config", "name", " 李雷 "])).code, 0);
  assert.equal((await say(["config", "course", "NET-2026"])).code, 0);
  assert.deepEqual((await say(["config", "name"])).out, ["name 李雷"]);
  assert.deepEqual((await say(["config", "course"])).out, [
    "course NET-2026",
  ]);
  assert.match(
    (await say(["config", "name", "韩梅梅", "--lang", "zh"])).out[0],
    /^名字已设为“韩梅梅”：/,
  );
});

Deno.test("variants: deterministic, inside the rules, spread over every value", () => {
  assert.equal(paramsFor(null, "李雷", "retry-reuses"), defaultParams);
  assert.equal(paramsFor(undefined, "李雷", "retry-reuses"), defaultParams);
  const a = paramsFor("NET-2026", "李雷", "retry-reuses");
  assert.deepEqual(paramsFor("NET-2026", "李雷", "retry-reuses"), a);
  assert.deepEqual(paramsFor("NET-2026", "  李雷", "retry-reuses"), a);
  const jobs = new Set<string>();
  const seen = {
    topic: new Set<string>(),
    copies: new Set<number>(),
    overCopies: new Set<number>(),
    lowerLimit: new Set<number>(),
  };
  const names = Array.from({ length: 3000 }, (_, i) => `student ${i}`);
  for (const name of names) {
    for (const slug of ["output-check-cannot-unwrite", "stale-rule"]) {
      const p = paramsFor("NET-2026", name, slug);
      assert.equal(paramsProblem(p), null, `${name} ${slug}`);
      jobs.add(p.job);
      jobs.add(p.otherJob);
      seen.topic.add(p.topic);
      seen.copies.add(p.copies);
      seen.overCopies.add(p.overCopies);
      seen.lowerLimit.add(p.lowerLimit);
    }
  }
  assert.equal(jobs.size, 1000, "every key is used");
  assert.deepEqual([...seen.topic].sort(), ["forest", "river"]);
  assert.deepEqual([...seen.copies].sort(), [1, 2, 3]);
  assert.deepEqual([...seen.overCopies].sort(), [4, 5, 6, 7, 8, 9]);
  assert.deepEqual([...seen.lowerLimit].sort(), [0, 1, 2]);
  // Another student, another code or another exercise: other values.
  const others = [
    paramsFor("NET-2026", "韩梅梅", "retry-reuses"),
    paramsFor("NET-2027", "李雷", "retry-reuses"),
    paramsFor("NET-2026", "李雷", "key-conflict"),
  ];
  for (const o of others) assert.notDeepEqual(o, a);
});

Deno.test("variants: the values depend on the name and the seed, as chapter 6 says; older hand-ins keep theirs (issue 39)", () => {
  const seed = "00000000000000a1";
  const slug = "output-check-cannot-unwrite";
  const mine = paramsFor("NET-2026", "李雷", slug, seed);
  // The seed separates namesakes; the name separates a renamed copy,
  // an invisible character included.
  for (
    const other of [
      paramsFor("NET-2026", "李雷", slug, "00000000000000a2"),
      paramsFor("NET-2026", "刘洋", slug, seed),
      paramsFor("NET-2026", "李\u2060雷", slug, seed),
    ]
  ) {
    assert.notDeepEqual(other, mine);
    assert.equal(paramsProblem(other), null);
  }
  assert.deepEqual(paramsFor("NET-2026", "李雷", slug, seed), mine);
  // Hand-in format 2: from the seed alone, whatever the name.
  assert.deepEqual(
    paramsFor("NET-2026", "刘洋", slug, seed, "seed"),
    paramsFor("NET-2026", "李雷", slug, seed, "seed"),
  );
  // Format 1 (no seed): from the name, compared as names are.
  assert.deepEqual(
    paramsFor("NET-2026", "李\u034f雷", slug, null),
    paramsFor("NET-2026", "李雷", slug, null),
  );
});

Deno.test("progress: the first check is dated once, and a prediction keeps the hints it was made with (issue 39)", () => {
  const as = { course: null, name: null };
  const one = new Date("2026-03-02T09:00:00.000Z");
  const two = new Date("2026-03-02T10:00:00.000Z");
  const script = { kind: "script" as const };
  let p = recordCheck(
    { exercises: {}, hints: {} },
    "1",
    script,
    "{}",
    { passed: false, reason: null },
    false,
    as,
    one,
  );
  p = recordCheck(
    p,
    "1",
    script,
    "{}",
    { passed: true, reason: null },
    false,
    as,
    two,
  );
  assert.equal(p.exercises["1"].first, one.toISOString());
  assert.equal(p.exercises["1"].passed, two.toISOString());
  // A record an older guardlab kept has no first check: none is made up.
  const older = recordCheck(
    { exercises: { "1": { state: "attempted", answer: "{}" } }, hints: {} },
    "1",
    script,
    "{}",
    { passed: false, reason: null },
    false,
    as,
    two,
  );
  assert.equal(older.exercises["1"].first, undefined);
  // Two hints shown, then the guess: 2, kept; a hint after it changes nothing.
  const prediction = { kind: "prediction" as const };
  const guessed = recordCheck(
    { exercises: {}, hints: { "15": 2 } },
    "15",
    prediction,
    '{"outcome":"accepted"}',
    { passed: false, reason: null },
    false,
    as,
    one,
  );
  assert.equal(guessed.exercises["15"].guessHints, 2);
  const later = recordCheck(
    { ...guessed, hints: { "15": 3 } },
    "15",
    prediction,
    "",
    { passed: false, reason: null },
    false,
    as,
    two,
  );
  assert.equal(later.exercises["15"].guessHints, 2);
  // A malformed guess is no guess: no hints recorded against it.
  const refused = recordCheck(
    { exercises: {}, hints: { "15": 1 } },
    "15",
    prediction,
    "{",
    { passed: false, reason: { en: "x", zh: "x" } },
    false,
    as,
    one,
  );
  assert.equal(refused.exercises["15"].guessHints, undefined);
});

Deno.test("variants: a key of another variant is found, only in the lines a judge runs; a topic is not", () => {
  const p = { ...defaultParams, job: "JOB-123", otherJob: "JOB-456" };
  const foreign = (answer: string) => foreignValue(answer, p, ANSWER_LIMITS);
  const run = (job: string, topic = "river") =>
    JSON.stringify({ op: "run", args: { job, topic, copies: 2 } });
  assert.equal(
    foreign([run("JOB-123"), run("JOB-456")].join("\n")),
    null,
  );
  assert.deepEqual(foreign(`${run("JOB-123")}\n\n${run("JOB-001")}`), {
    line: 3,
    field: "job",
    value: "JOB-001",
  });
  // A topic is no sign of whose answer it is (there are two), and changing
  // it on one's own key is how exercise 4 makes its key conflict.
  assert.equal(
    foreign([run("JOB-123"), run("JOB-123", "forest")].join("\n")),
    null,
  );
  assert.deepEqual(
    foreign('{"op":"compensate","job":"JOB-777"}')?.value,
    "JOB-777",
  );
  // Past the step cap nothing is looked at (the judge stops there too).
  const padded = Array(200).fill('{"op":"count"}').join("\n") + "\n" +
    run("JOB-001");
  assert.equal(foreign(padded), null);
});

function handIn(fields: Partial<Omit<HandIn, "digest">> = {}): HandIn {
  return makeHandIn({
    name: "李雷",
    guardlab: config.version,
    course: { id: BUILTIN_COURSE.id, code: null },
    student: { variant: null, uid: null },
    exercises: {
      "output-check-cannot-unwrite": {
        answer:
          '{"op":"run","args":{"job":"JOB-001","topic":"river","copies":2},"faults":{"bad_output":true}}',
        passed: "2026-11-30T10:00:00.000Z",
        checks: 2,
        hints: 1,
        revealed: false,
        first: null,
        hints_before_guess: null,
      },
    },
    ...fields,
  });
}

Deno.test("hand-in: read strictly, each reason named; the digest shows an edit", async (t) => {
  const good = handIn();
  assert.deepEqual(readHandIn(JSON.stringify(good)), {
    handIn: good,
    intact: true,
    version: 3,
    handMadeName: null,
  });
  // Formats 1 (no "student") and 2 (no times of first checks) are still
  // read, as such: what they do not say is null.
  const olderEntry = (() => {
    const {
      first: _,
      hints_before_guess: __,
      ...e
    } = good.exercises["output-check-cannot-unwrite"];
    return e;
  })();
  for (const version of [1, 2]) {
    const { student, digest: _, ...rest } = {
      ...good,
      version,
      exercises: { "output-check-cannot-unwrite": olderEntry },
    };
    const body = version === 1 ? rest : { ...rest, student };
    const older = { ...body, digest: digestOf(body as unknown as HandIn) };
    const olderRead = readHandIn(JSON.stringify(older));
    assert.equal(olderRead.version, version);
    assert.deepEqual(
      olderRead.handIn.student,
      version === 1 ? { variant: null, uid: null } : good.student,
    );
    assert.deepEqual(olderRead.handIn.exercises, {
      "output-check-cannot-unwrite": {
        ...olderEntry,
        first: null,
        hints_before_guess: null,
      },
    });
    assert.equal(olderRead.intact, true);
  }
  // A name config would refuse (made or edited by hand) is read, and said.
  for (const name of ["李\u2060雷", "a\u0007", "李雷 "]) {
    const odd = makeHandIn({ ...good, name });
    const read = readHandIn(JSON.stringify(odd));
    assert.equal(read.handIn.name, name);
    assert.ok(read.handMadeName !== null, JSON.stringify(name));
  }
  const edited = structuredClone(good);
  edited.exercises["output-check-cannot-unwrite"].checks = 1;
  assert.equal(readHandIn(JSON.stringify(edited)).intact, false);
  const entry = good.exercises["output-check-cannot-unwrite"];
  const cases: [string, unknown, RegExp][] = [
    ["not JSON", "{", /^not JSON$/],
    ["an array", [], /^not a JSON object$/],
    [
      "the old format",
      { guardlab: "0.1.0", answers: {} },
      /older guardlab; hand in again/,
    ],
    ["an unknown format", { ...good, format: "zip" }, /unknown format "zip"/],
    [
      "another version",
      { ...good, version: 4 },
      /format version "4" is not known to this guardlab \(it reads 1 to 3\)/,
    ],
    // Said as missing, never as a version "undefined" (review).
    ["no version", { ...good, version: undefined }, /^missing key "version"$/],
    [
      "format 2 with the times of first checks",
      { ...good, version: 2 },
      /unknown key "first" in exercise/,
    ],
    [
      "format 1 with a student",
      { ...good, version: 1 },
      /unknown key "student"/,
    ],
    ["no student", { ...good, student: undefined }, /missing key "student"/],
    ["a variant that is no seed", {
      ...good,
      student: { variant: "abc", uid: null },
    }, /"student.variant" is not a variant seed/],
    ["a uid that is no uid", {
      ...good,
      student: { variant: null, uid: -1 },
    }, /"student.uid" is not a uid/],
    ["an unknown key in student", {
      ...good,
      student: { variant: null, uid: 1, gid: 1 },
    }, /unknown key "gid" in student/],
    ["an unknown key", { ...good, results: {} }, /unknown key "results"/],
    ["a missing key", { ...good, name: undefined }, /missing key "name"/],
    ["an empty name", { ...good, name: "  " }, /"name": the name is empty/],
    ["a name too long", {
      ...good,
      name: "王".repeat(41),
    }, /"name": a name has at most 40 characters/],
    ["a first check that is not a time", {
      ...good,
      exercises: {
        "output-check-cannot-unwrite": { ...entry, first: "soon" },
      },
    }, /"first" of exercise .* is not a time/],
    ["hints before a guess that are not a count", {
      ...good,
      exercises: {
        "output-check-cannot-unwrite": { ...entry, hints_before_guess: "1" },
      },
    }, /"hints_before_guess" .* is not a count/],
    ["an answer that is not text", {
      ...good,
      exercises: { "output-check-cannot-unwrite": { ...entry, answer: 7 } },
    }, /answer to exercise output-check-cannot-unwrite is not text/],
    ["an unknown key in an exercise", {
      ...good,
      exercises: { "output-check-cannot-unwrite": { ...entry, score: 1 } },
    }, /unknown key "score" in exercise/],
    ["a time that is not one", {
      ...good,
      exercises: {
        "output-check-cannot-unwrite": { ...entry, passed: "yesterday" },
      },
    }, /"passed" .* is not a time/],
    ["a negative count", {
      ...good,
      exercises: { "output-check-cannot-unwrite": { ...entry, checks: -1 } },
    }, /"checks" .* is not a count/],
    ["a bad course code", {
      ...good,
      course: { id: "guardlab", code: "a b" },
    }, /"course.code" is not a course code/],
    ["an exercise key that is no name", {
      ...good,
      exercises: { "../x": entry },
    }, /is not an exercise name/],
  ];
  for (const [what, value, reason] of cases) {
    await t.step(what, () => {
      const text = typeof value === "string" ? value : JSON.stringify(value);
      assert.throws(
        () => readHandIn(text),
        (e: unknown) => e instanceof MalformedHandIn && reason.test(e.text.en),
      );
    });
  }
});

Deno.test("hand-in: the digest is SHA-256 over the canonical text written here by hand (not the draft digest's canonicalJson)", () => {
  const h = makeHandIn({
    name: "李雷",
    guardlab: "0.1.0",
    course: { id: "guardlab", code: null },
    student: { variant: "0123456789abcdef", uid: 1001 },
    exercises: {
      "retry-reuses": {
        answer: '{"op":"count"}',
        passed: null,
        checks: 1,
        hints: 0,
        revealed: false,
        first: null,
        hints_before_guess: null,
      },
    },
  });
  // Keys sorted at every level, no spaces, non-ASCII as it is.
  const text = '{"course":{"code":null,"id":"guardlab"},' +
    '"exercises":{"retry-reuses":{"answer":"{\\"op\\":\\"count\\"}",' +
    '"checks":1,"first":null,"hints":0,"hints_before_guess":null,' +
    '"passed":null,"revealed":false}},' +
    '"format":"guardlab-hand-in","guardlab":"0.1.0","name":"李雷",' +
    '"student":{"uid":1001,"variant":"0123456789abcdef"},"version":3}';
  const { digest: _, ...body } = h;
  assert.equal(canonical(body), text);
  assert.equal(
    h.digest,
    "sha256:" + createHash("sha256").update(text).digest("hex"),
  );
  // The draft digest's form escapes 李雷: reusing it would change the
  // digest of every hand-in with a Chinese name already handed in.
  assert.notEqual(canonicalJson(body), text);
  assert.match(canonicalJson(body), /\\u674e\\u96f7/);
  // 1.0 and 1 are one number when answers are compared.
  assert.equal(
    canonical(parseJsonLikePython('{"b":1.0,"a":[2]}')),
    '{"a":[2],"b":1}',
  );
});

Deno.test("grade: malformed hand-ins are named with their reason, never 'missing'; exit 1", async () => {
  await using baseFolder = await tempDir("guardlab-grade-");
  const base = baseFolder.path;
  const folder = join(base, "class");
  await Deno.mkdir(folder, { mode: 0o700 });
  await Deno.mkdir(join(folder, "sub"));
  const write = (name: string, value: unknown) =>
    Deno.writeTextFile(
      join(folder, name),
      typeof value === "string" ? value : JSON.stringify(value),
    );
  await write("a-good.json", handIn());
  await write("b-old.json", { guardlab: "0.1.0", answers: { "1": "x" } });
  await write("c-number.json", {
    ...handIn(),
    exercises: {
      "output-check-cannot-unwrite": {
        ...handIn().exercises["output-check-cannot-unwrite"],
        answer: 1,
      },
    },
  });
  await write(
    "d-other.json",
    handIn({
      guardlab: "0.0.9",
      course: { id: "other", code: "X" },
      name: '=HYPERLINK("http://x")',
    }),
  );
  const extra = handIn().exercises["output-check-cannot-unwrite"];
  await write(
    "e-strangers.json",
    handIn({
      name: "韩梅梅",
      exercises: Object.fromEntries(
        Array.from({ length: 7 }, (_, i) => [`other-${i}`, extra]),
      ),
    }),
  );
  const r = await cli(["exercise", "grade", folder], "", false, base);
  assert.equal(r.code, 1);
  const text = r.out.join(" ").replace(/\s+/g, " ");
  assert.match(
    text,
    /b-old\.json: not graded: no "format": a hand-in from an older guardlab/,
  );
  assert.match(
    text,
    /c-number\.json: not graded: the answer to exercise output-check-cannot-unwrite is not text/,
  );
  assert.match(text, /sub: not graded: a folder, not a hand-in/);
  assert.match(
    text,
    /e-strangers\.json\): exercises not in this course, not graded: other-0, other-1, other-2, other-3, other-4 and 2 more/,
  );
  assert.match(
    text,
    /d-other\.json\): made by guardlab 0\.0\.9 \(graded by this version\)/,
  );
  assert.match(text, /d-other\.json\): from course other, code X/);
  const json = JSON.parse(
    (await cli(["exercise", "grade", folder, "--json"], "", false, base))
      .out[0],
  );
  const byFile = Object.fromEntries(
    json.students.map((s: { file: string }) => [s.file, s]),
  );
  assert.equal(byFile["a-good.json"].cells["1"], "done");
  assert.equal(byFile["b-old.json"].graded, false);
  assert.deepEqual(byFile["b-old.json"].cells, {}, "no cell says missing");
  assert.equal(byFile["d-other.json"].cells["1"], "done", "graded, flagged");
  // A spreadsheet never runs a name as a formula.
  const csv =
    (await cli(["exercise", "grade", folder, "--csv"], "", false, base)).out;
  assert.ok(
    csv.some((l) => l.includes(`"'=HYPERLINK(""http://x"")"`)),
    csv.join("\n"),
  );
  assertUsageError(
    await cli(
      ["exercise", "grade", folder, "--csv", "--json"],
      "",
      false,
      base,
    ),
    /choose one of --json, --csv and --format/,
  );
});

Deno.test("grade: a hand-in that is a link is refused (exit 4), unchanged", async () => {
  await using baseFolder = await tempDir("guardlab-grade-");
  const base = baseFolder.path;
  const folder = join(base, "class");
  await Deno.mkdir(folder, { mode: 0o700 });
  const outside = join(base, "outside.json");
  const text = JSON.stringify(handIn());
  await Deno.writeTextFile(outside, text);
  await Deno.symlink(outside, join(folder, "link.json"));
  const linked = await cli(["exercise", "grade", folder], "", false, base);
  assert.equal(linked.code, 4);
  assert.match(linked.err[0], /link\.json is a symbolic link/);
  await Deno.remove(join(folder, "link.json"));
});

Deno.test({
  name:
    "grade: a hand-in's owner uid is shown when it is not the student who handed it in (issue 28, item 4)" +
    (IS_ROOT ? "" : " [ignored: giving a file to a second user needs root]"),
  ignore: !IS_ROOT,
  async fn() {
    await using baseFolder = await tempDir("guardlab-grade-");
    const base = baseFolder.path;
    const folder = join(base, "class");
    await Deno.mkdir(folder, { mode: 0o700 });
    // A student (uid 65534) wrote each file into the teacher's folder.
    const put = async (file: string, uid: number | null, mode = 0o600) => {
      const text = JSON.stringify(handIn({
        name: file,
        student: { variant: null, uid },
        exercises: {
          // Each its own answer: no two are identical.
          "output-check-cannot-unwrite": {
            answer: JSON.stringify({ op: "count", note: file }),
            passed: null,
            checks: 1,
            hints: 0,
            revealed: false,
            first: null,
            hints_before_guess: null,
          },
        },
      }));
      await Deno.writeTextFile(join(folder, file), text, { mode });
      await Deno.chmod(join(folder, file), mode);
      await Deno.chown(join(folder, file), 65534, 65534);
      return text;
    };
    const own = await put("own.json", 65534);
    await put("claims-1001.json", 1001);
    await put("no-uid.json", null);
    await put("open.json", 65534, 0o666);
    const grade = (args: string[]) =>
      cli(["exercise", "grade", folder, ...args], "", false, base);
    const table = await grade([]);
    assert.equal(table.code, 0, table.err.join("\n"));
    const flags = table.out.slice(table.out.indexOf("Flags:") + 1).join(" ")
      .replace(/\s+/g, " ").trim();
    assert.equal(
      flags,
      "claims-1001.json (claims-1001.json): the file belongs to uid 65534, " +
        "but the hand-in names uid 1001: another account created this " +
        "file (its owner is the account that created it; the uid inside " +
        "is a claim anyone can edit) " +
        "no-uid.json (no-uid.json): the file belongs to uid 65534, but the " +
        "hand-in names no uid: another account created this file (its " +
        "owner is the account that created it; the uid inside is a claim " +
        "anyone can edit) " +
        "open.json (open.json): other users can write the file (mode " +
        "0666): anyone could have changed what it says",
    );
    const json = JSON.parse((await grade(["--json"])).out[0]);
    const codes = Object.fromEntries(
      json.students.map((
        s: { file: string; flags: { code: string }[] },
      ) => [s.file, s.flags.map((f) => f.code)]),
    );
    assert.deepEqual(codes, {
      "claims-1001.json": ["owner(uid=65534,named=1001)"],
      "no-uid.json": ["owner(uid=65534,named=none)"],
      "open.json": ["owner(uid=65534,named=65534,mode=0666)"],
      "own.json": [],
    });
    assert.equal(
      await Deno.readTextFile(join(folder, "own.json")),
      own,
      "read, not changed",
    );
    // The teacher's own copy says nothing about who wrote it: no flag.
    for (const file of ["claims-1001.json", "no-uid.json", "open.json"]) {
      await Deno.remove(join(folder, file));
    }
    await Deno.copyFile(join(folder, "own.json"), join(folder, "mine.json"));
    await Deno.chown(join(folder, "mine.json"), 0, 0);
    await Deno.remove(join(folder, "own.json"));
    const mine = await grade([]);
    assert.equal(mine.code, 0);
    assert.ok(mine.out.includes("Flags: none."), mine.out.join("\n"));
  },
});

Deno.test("grade: a name made to look like another with an invisible code point is flagged as looking the same, with the code points, and shown inert (issue 28, item 9; issue 49)", async () => {
  await using baseFolder = await tempDir("guardlab-grade-");
  const base = baseFolder.path;
  const folder = join(base, "class");
  await Deno.mkdir(folder, { mode: 0o700 });
  const answers = ["JOB-001", "JOB-002"];
  for (
    const [file, name, job] of [
      ["a.json", "李雷", answers[0]],
      ["b.json", "李\u034f雷", answers[1]],
      ["c.json", "\u3164李雷\ufe0f", answers[0] + " "],
    ]
  ) {
    const h = handIn({
      name,
      exercises: {
        "output-check-cannot-unwrite": {
          answer: JSON.stringify({
            op: "run",
            args: { job, topic: "river", copies: 2 },
          }),
          passed: null,
          checks: 1,
          hints: 0,
          revealed: false,
          first: null,
          hints_before_guess: null,
        },
      },
    });
    await Deno.writeTextFile(join(folder, file), JSON.stringify(h), {
      mode: 0o600,
    });
  }
  const r = await cli(["exercise", "grade", folder], "", false, base);
  assert.equal(r.code, 0, r.err.join("\n"));
  const rows = r.out.filter((l) => /^\S.*\s0\/20$/.test(l));
  assert.deepEqual(rows.map((l) => l.split(/\s{2,}/)[0]), [
    "李雷",
    "李\\u034f雷",
    "\\u3164李雷\\ufe0f",
  ]);
  const flags = r.out.slice(r.out.indexOf("Flags:") + 1).join(" ")
    .replace(/\s+/g, " ").trim();
  assert.equal(
    flags,
    "李雷 (a.json): a name that looks the same as b.json, c.json's: they " +
      "differ only in case, width, invisible characters or look-alike " +
      "letters (U+034F, U+3164, U+FE0F); each hand-in has values of its own " +
      "李\\u034f雷 (b.json): a name that looks the same as a.json, c.json's: " +
      "they differ only in case, width, invisible characters or look-alike " +
      "letters (U+034F, U+3164, U+FE0F); each hand-in has values of its own " +
      "\\u3164李雷\\ufe0f (c.json): a name that looks the same as a.json, " +
      "b.json's: they differ only in case, width, invisible characters or " +
      "look-alike letters (U+3164, U+FE0F, U+034F); each hand-in has values " +
      "of its own",
  );
  const json =
    (await cli(["exercise", "grade", folder, "--json"], "", false, base))
      .out[0];
  assert.ok(json.includes('"name":"李\\u034f雷"'), json);
  assert.equal(JSON.parse(json).students[1].name, "李\u034f雷");
});

Deno.test("table: 80 columns, whatever the names and however many exercises", () => {
  for (const count of [19, 20]) {
    const exercises = Array.from({ length: count }, (_, i) => i + 1);
    const cells = Object.fromEntries(
      exercises.map((n) => [n, "done" as const]),
    );
    const row = {
      file: "long.json",
      name: "王".repeat(40),
      cells,
      revealed: [2],
      hinted: [],
      first: {},
      total: count,
      ownTotal: 3,
      flags: [{
        kind: "duplicate-name" as const,
        others: ["x".repeat(30) + ".json"],
      }],
    };
    const grade: ClassGrade = {
      exercises,
      rows: [
        row,
        { ...row, file: "y".repeat(90) + ".json" },
        {
          file: "a".repeat(100),
          name: null,
          cells: {},
          revealed: [],
          hinted: [],
          first: {},
          total: null,
          ownTotal: null,
          flags: [],
        },
      ],
      perExercise: Object.fromEntries(exercises.map((n) => [n, 1])),
      notRerun: [17],
      builtinHandIns: 0,
      course: BUILTIN_COURSE.id,
      order: [],
      identicalCountedOnce: false,
    };
    for (const lang of ["en", "zh"] as const) {
      const lines = gradeTable(grade, lang, "NET-2026");
      for (const line of lines) {
        assert.ok(displayWidth(line) <= 80, `${displayWidth(line)}: ${line}`);
      }
      // The totals "19/19 (3)" leave 17 exercises a block; the second
      // block says which it holds, one or several (issue 29, item 5).
      const second = count === 19
        ? { en: "exercises 18-19 (continued):", zh: "练习 18-19（续）：" }
        : { en: "exercises 18-20 (continued):", zh: "练习 18-20（续）：" };
      assert.ok(lines.includes(second[lang]), lines.join("\n"));
    }
  }
  // One exercise left over is "exercise 19", not "exercises 19-19".
  const exercises = Array.from({ length: 19 }, (_, i) => i + 1);
  const lines = gradeTable(
    {
      exercises,
      rows: [{
        file: "a.json",
        name: "a",
        cells: Object.fromEntries(exercises.map((n) => [n, "done" as const])),
        revealed: [],
        hinted: [],
        first: {},
        total: 19,
        ownTotal: null,
        flags: [],
      }],
      perExercise: Object.fromEntries(exercises.map((n) => [n, 1])),
      notRerun: [],
      builtinHandIns: 0,
      course: BUILTIN_COURSE.id,
      order: [],
      identicalCountedOnce: false,
    },
    "en",
    null,
  );
  assert.ok(lines.includes("exercise 19 (continued):"), lines.join("\n"));
});

Deno.test("csv: a cell a spreadsheet would run is defused; every cell quoted", () => {
  assert.equal(csvCell("=1+1"), `"'=1+1"`);
  assert.equal(csvCell("+1"), `"'+1"`);
  assert.equal(csvCell("-1"), `"'-1"`);
  assert.equal(csvCell("@SUM(A1)"), `"'@SUM(A1)"`);
  assert.equal(csvCell("\tx"), `"'\tx"`);
  assert.equal(csvCell('a "b", c'), `"a ""b"", c"`);
  assert.equal(csvCell("李雷"), `"李雷"`);
});

Deno.test("csv: a name, file or code a spreadsheet would read as a number or a date stays text", () => {
  for (
    const [value, cell] of [
      ["3-1", `"'3-1"`], // 1 March
      ["MAR-26", `"'MAR-26"`], // 26 March
      ["2026-03-02", `"'2026-03-02"`],
      ["1/2", `"'1/2"`],
      ["9:30", `"'9:30"`],
      ["0042", `"'0042"`], // 42
      ["1e5", `"'1e5"`], // 100000
      ["true", `"'true"`], // TRUE
      ["-1", `"'-1"`], // one `'`, not two
      ["=A1", `"'=A1"`],
      ["NET-2026", `"NET-2026"`],
      ["NET-V4", `"NET-V4"`],
      ["1-2.json", `"1-2.json"`],
      ["李雷", `"李雷"`],
      ["JAN", `"JAN"`],
    ]
  ) assert.equal(csvTextCell(value), cell, value);
});

Deno.test("csv: a row not graded says why (in English, as the headers), and someone's texts stay text", () => {
  const lines = gradeCsv({
    exercises: [1],
    rows: [{
      file: "broken.json",
      name: null,
      cells: {},
      revealed: [],
      hinted: [],
      first: {},
      total: null,
      ownTotal: null,
      flags: [{
        kind: "malformed",
        reason: {
          en: 'no "format": a hand-in from an older guardlab; hand in again',
          zh: "没有“format”：较旧的 guardlab 的作业；请重新提交",
        },
      }],
    }, {
      file: "3-1.json",
      name: "0042",
      cells: { 1: "done" },
      revealed: [],
      hinted: [],
      code: "MAR-26",
      first: { 1: "2026-03-02T09:00:00.000Z" },
      total: 1,
      ownTotal: 1,
      flags: [],
    }],
    perExercise: { 1: 1 },
    notRerun: [],
    builtinHandIns: 0,
    course: "guardlab",
    order: [],
    identicalCountedOnce: false,
  });
  assert.deepEqual(lines.slice(1, 3), [
    // student, 1, total, own code total, code used, revealed, hints
    // before guess, first checked: empty; then the flags.
    '"broken.json","","","","","","","","",' +
    '"malformed(no ""format"": a hand-in from an older guardlab, hand in again)"',
    `"3-1.json","'0042","done","1","1","'MAR-26","","",` +
    '"1=2026-03-02T09:00:00.000Z",""',
  ]);
});

Deno.test("variants through the CLI: show states them, check needs a name, hand-in warns of a changed name", async () => {
  await using baseFolder = await tempDir("guardlab-variant-");
  const base = baseFolder.path;
  const say = (args: string[], input = "") => cli(args, input, false, base);
  const plain = (await say(["exercise", "show", "1"])).out.join(" ");
  assert.doesNotMatch(plain, /Your values/, "no course code: fixed values");
  assert.equal((await say(["config", "course", "NET-2026"])).code, 0);
  assertUsageError(
    await say(["exercise", "check", "1"], "{}"),
    /derive from your name: set it first/,
  );
  assert.equal((await say(["config", "name", "李雷"])).code, 0);
  // The values come from the code and the student's variant seed, made
  // once and kept in the progress (issue 29, item 2).
  const seed = () =>
    JSON.parse(
      Deno.readTextFileSync(join(privateRootPath(base), "exercises.json")),
    )
      .variant;
  const shown = (await say(["exercise", "show", "1", "--lang", "zh"])).out
    .join("").replace(/\s+/g, "");
  const variant = seed();
  assert.match(variant, /^[0-9a-f]{16}$/);
  const p = paramsFor(
    "NET-2026",
    "李雷",
    "output-check-cannot-unwrite",
    variant,
  );
  assert.ok(
    shown.includes(
      `你在练习1的取值（课程NET-2026，李雷）：job${p.job}，topic${p.topic}，copies${p.copies}。`,
    ),
    shown,
  );
  await say(["exercise", "show", "2"]);
  assert.equal(seed(), variant, "made once");
  const answer = JSON.stringify({
    op: "run",
    args: { job: p.job, topic: p.topic, copies: p.copies },
    faults: { bad_output: true },
  });
  assert.equal((await say(["exercise", "check", "1"], answer)).code, 0);
  // Exercise 4 makes its key conflict by changing the topic on the
  // student's own key: the other topic is no sign of a pasted answer.
  const q = paramsFor("NET-2026", "李雷", "key-conflict", variant);
  const otherTopic = q.topic === "river" ? "forest" : "river";
  const conflict = [q.topic, otherTopic].map((topic) =>
    JSON.stringify({
      op: "run",
      args: { job: q.job, topic, copies: q.copies },
    })
  ).join("\n");
  const four = await say(["exercise", "check", "4"], conflict);
  assert.equal(four.code, 0, four.out.join("\n"));
  const bundle = JSON.parse((await say(["exercise", "hand-in"])).out[0]);
  const entry = bundle.exercises["output-check-cannot-unwrite"];
  assert.equal(entry.answer, answer);
  assert.equal(entry.checks, 1);
  assert.equal(entry.hints, 0);
  assert.equal(entry.revealed, false);
  assert.ok(Date.parse(entry.passed) > 0);
  // Format 3: when it was first checked; a script has no guess to hint.
  assert.equal(bundle.version, 3);
  assert.ok(Date.parse(entry.first) <= Date.parse(entry.passed));
  assert.equal(entry.hints_before_guess, null);
  assert.deepEqual(bundle.course, {
    id: BUILTIN_COURSE.id,
    code: "NET-2026",
  });
  // A prediction guessed wrong, then revealed: the hand-in says so.
  assert.equal(
    (await say(
      ["exercise", "check", "15", "--reveal"],
      '{"outcome":"accepted","draft":false,"receipts":0}',
    )).code,
    1,
  );
  const revealed = JSON.parse((await say(["exercise", "hand-in"])).out[0])
    .exercises["predict-cancel-after-commit"];
  assert.equal(revealed.revealed, true);
  assert.equal(revealed.passed, null);
  assert.equal(revealed.hints_before_guess, 0, "guessed before any hint");
  // Work of an older guardlab (format 2: values from the seed alone),
  // renamed to another student: graded with the seed alone, as that
  // guardlab did, so the renamed copy passes; the flag says so.
  const three = JSON.parse((await say(["exercise", "hand-in"])).out[0]);
  const { format: _, version: __, digest: ___, ...fields } = three;
  const s = paramsFor(
    "NET-2026",
    "李雷",
    "output-check-cannot-unwrite",
    fields.student.variant,
    "seed",
  );
  const exercises = {
    "output-check-cannot-unwrite": {
      answer: JSON.stringify({
        op: "run",
        args: { job: s.job, topic: s.topic, copies: s.copies },
        faults: { bad_output: true },
      }),
      passed: null,
      checks: 1,
      hints: 0,
      revealed: false,
    },
  };
  const body = {
    format: "guardlab-hand-in",
    version: 2,
    ...fields,
    name: "刘洋",
    exercises,
  };
  const two = { ...body, digest: digestOf(body as unknown as HandIn) };
  await using teacherFolder = await tempDir("guardlab-v2-");
  const teacher = teacherFolder.path;
  assert.equal(
    (await cli(["config", "course", "NET-2026"], "", false, teacher)).code,
    0,
  );
  const graded = JSON.parse(
    (await cli(
      ["exercise", "grade", "--json"],
      JSON.stringify(two),
      false,
      teacher,
    )).out[0],
  );
  const [row] = graded.students;
  assert.equal(row.cells["1"], "done");
  const older = row.flags.find((f: { kind: string }) =>
    f.kind === "older-format"
  );
  assert.equal(older.code, "older-format(2)");
  assert.equal(
    older.message.en,
    "hand-in format 2, from an older guardlab: its values come from the " +
      "seed alone (a copy renamed to another student keeps passing) and " +
      "it says neither when each exercise was first checked nor the " +
      "hints before a prediction",
  );
  // Another name, other values: the student is told to check again.
  assert.equal((await say(["config", "name", "韩梅梅"])).code, 0);
  const again = await say(["exercise", "hand-in"]);
  assert.equal(again.code, 0);
  assert.match(again.err[0], /exercise 1 was checked under another name/);
  // A check an older guardlab kept (values from the seed alone, no
  // derivation on record): told too, since this guardlab's values differ.
  assert.equal((await say(["config", "name", "李雷"])).code, 0);
  const file = join(privateRootPath(base), "exercises.json");
  const kept = JSON.parse(Deno.readTextFileSync(file));
  delete kept.exercises["1"].as.derivation;
  Deno.writeTextFileSync(file, JSON.stringify(kept), { mode: 0o600 });
  const upgraded = await say(["exercise", "hand-in"]);
  assert.equal(upgraded.code, 0);
  assert.deepEqual(upgraded.err, [
    "guardlab: exercise 1 was checked under another name, course code or variant, or",
    "          by an older guardlab whose values differ: check it again (guardlab",
    "          exercise check 1)",
  ]);
});

Deno.test("grade: an empty stdin is no hand-in (usage error), not a malformed student", async () => {
  await using baseFolder = await tempDir("guardlab-grade-empty-");
  const base = baseFolder.path;
  for (const input of ["", "  \n\n"]) {
    assertUsageError(
      await cli(["exercise", "grade"], input, false, base),
      /no hand-in: give FILE or FOLDER, or pipe one on stdin/,
    );
  }
});

Deno.test("flags: a row lists them by kind, copies by exercise number (issue 29, item 5)", () => {
  const copy = (exercise: number): Flag => ({
    kind: "copy",
    exercise,
    of: ["a.json"],
  });
  const flags: Flag[] = [
    copy(11),
    copy(17),
    { kind: "revealed", exercises: [15], older: false },
    copy(4),
    { kind: "identical", of: ["b.json"] },
  ];
  assert.deepEqual(
    flags.sort(byFlagOrder).map((f) =>
      f.kind === "copy" ? `copy ${f.exercise}` : f.kind
    ),
    ["identical", "revealed", "copy 4", "copy 11", "copy 17"],
  );
});

Deno.test("flags: a hand-in under another course code, or none, names it and its own score (issue 29, item 3)", () => {
  const row = (code: string | null) => ({
    file: "sun-hao.json",
    name: "孙浩",
    cells: { 1: "not-yet" as const, 2: "not-yet" as const },
    revealed: [],
    hinted: [],
    first: {},
    total: 0,
    ownTotal: 2,
    flags: [{ kind: "other-course" as const, id: "guardlab", code, done: 2 }],
  });
  const grade = (code: string | null): ClassGrade => ({
    exercises: [1, 2],
    rows: [row(code)],
    perExercise: { 1: 0, 2: 0 },
    notRerun: [],
    builtinHandIns: 0,
    course: BUILTIN_COURSE.id,
    order: [],
    identicalCountedOnce: false,
  });
  const said = (code: string | null) => {
    const g = grade(code);
    return flagText(g.rows[0].flags[0], g);
  };
  assert.deepEqual(said("NET2026"), {
    en: "made under course code NET2026, not this one: 2 of 2 done under its " +
      "own code, shown (2) beside the total (graded with this course's values)",
    zh: "在课程代码 NET2026 下完成，不是本课程的代码：按它自己的代码完成 " +
      "2 / 2 个，显示在合计后的 (2) 里（已按本课程的取值评分）",
  });
  assert.deepEqual(said(null), {
    en: "made without a course code, not under this one: 2 of 2 done with " +
      "the fixed values, shown (2) beside the total (graded with this " +
      "course's values)",
    zh: "在没有课程代码时完成，不是本课程的代码：按固定取值完成 2 / 2 个，" +
      "显示在合计后的 (2) 里（已按本课程的取值评分）",
  });
  const table = gradeTable(grade(null), "en", "NET-2026");
  assert.ok(
    table.some((l) => /^孙浩 +\. +\. +0\/2 \(2\)$/.test(l)),
    table.join("\n"),
  );
  assert.deepEqual(
    JSON.parse(JSON.stringify(gradeJson(grade(null))))
      .students[0].flags[0].code,
    "other-course(id=guardlab,code=none,done=2)",
  );
});

Deno.test("table: hints before a prediction marked h, as a reveal is marked r; both widen the column, within 80 (issue 39)", () => {
  const exercises = Array.from({ length: 18 }, (_, i) => i + 1);
  const cells = Object.fromEntries(
    exercises.map((n) => [n, "not-yet" as const]),
  );
  const row = {
    file: "zhao-min.json",
    name: "赵敏",
    cells,
    revealed: [15],
    hinted: [15, 16],
    first: {},
    total: 0,
    ownTotal: null,
    flags: [],
  };
  const grade: ClassGrade = {
    exercises,
    rows: [row],
    perExercise: Object.fromEntries(exercises.map((n) => [n, 0])),
    notRerun: [],
    builtinHandIns: 0,
    course: BUILTIN_COURSE.id,
    order: [],
    identicalCountedOnce: false,
  };
  const lines = gradeTable(grade, "en", null);
  for (const line of lines) assert.ok(displayWidth(line) <= 80, line);
  // Four columns a mark (".hr" needs three, and a space): 13 a block.
  assert.ok(
    lines.includes(
      "student              1   2   3   4   5   6   7   8   9  10  11  12  13",
    ),
    lines.join("\n"),
  );
  assert.ok(lines.includes("exercises 14-18 (continued):"));
  assert.ok(
    lines.includes("student             14  15  16  17  18  total"),
  );
  assert.ok(
    lines.includes("赵敏                 . .hr  .h   .   .  0/18"),
    lines.join("\n"),
  );
  assert.ok(
    lines.includes(
      "h after a mark: the prediction was made after hints were shown",
    ),
  );
  const zh = gradeTable(grade, "zh", null);
  assert.ok(zh.includes("标记后的 h：这道预测题是在看过提示之后才预测的"));
});

Deno.test("table: rows whose names look the same once cut to the column each say their file, like a repeated name (review)", () => {
  const row = (file: string, name: string, one: "done" | "not-yet") => ({
    file,
    name,
    cells: { 1: one, 2: one === "done" ? "not-yet" as const : "done" as const },
    revealed: [],
    hinted: [],
    first: {},
    total: 1,
    ownTotal: null,
    flags: [],
  });
  const grade: ClassGrade = {
    exercises: [1, 2],
    rows: [
      row("a.json", "爱新觉罗·玄烨康熙大帝第一", "done"),
      row("b.json", "爱新觉罗·玄烨康熙大帝第二", "not-yet"),
      row("c.json", "Alexandria Ocasio-Cortez", "done"),
    ],
    perExercise: { 1: 2, 2: 1 },
    notRerun: [],
    builtinHandIns: 0,
    course: BUILTIN_COURSE.id,
    order: [],
    identicalCountedOnce: false,
  };
  const en = gradeTable(grade, "en", "NET-2026");
  const at = en.indexOf("student             1  2  total");
  assert.ok(at > 0, en.join("\n"));
  assert.deepEqual(en.slice(at, at + 7), [
    "student             1  2  total",
    "爱新觉罗·玄烨康熙…  +  .  1/2",
    "  file: a.json",
    "爱新觉罗·玄烨康熙…  .  +  1/2",
    "  file: b.json",
    "Alexandria Ocasio…  +  .  1/2",
    "done per exercise   2  1",
  ]);
  const zh = gradeTable(grade, "zh", "NET-2026");
  assert.ok(zh.includes("  文件：a.json"), zh.join("\n"));
  assert.ok(zh.includes("  文件：b.json"), zh.join("\n"));
  assert.ok(!zh.includes("  文件：c.json"), zh.join("\n"));
});
