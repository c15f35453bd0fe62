/**
 * Chapter 6's autograder script (`docs/examples/lms/guardlab-autograde`),
 * run against a student's submission laid out as each system lays it out,
 * with the system's root moved to a temp folder (AUTOGRADER_ROOT for
 * Gradescope's /autograder, GRADE_ROOT for PrairieLearn's /grade) and
 * GUARDLAB naming guardlab run with the binary's exact flags (`deno
 * compile` cannot run here). The student works as a student does: a name,
 * the course code, a check, a hand-in; the teacher's files sit where the
 * chapter puts them. The results file must be the one the system reads,
 * with the grade written by hand; a submission that is no hand-in still
 * leaves a results file that says so.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { cli } from "../_helpers/helpers.ts";
import { CAN_RUN, NEEDS_RUN, sandboxCommand } from "../_helpers/spawn.ts";

const ROOT = fileURLToPath(new URL("../..", import.meta.url));
const SCRIPT = join(ROOT, "docs/examples/lms/guardlab-autograde");
const CODE = "NET-2026";

/** A shell wrapper that runs guardlab as the binary would (its flags, from the repo). */
async function guardlabWrapper(dir: string): Promise<string> {
  const { program, args } = sandboxCommand();
  const quote = (s: string) => `'${s.replaceAll("'", `'\\''`)}'`;
  const path = join(dir, "guardlab");
  await Deno.writeTextFile(
    path,
    `#!/bin/sh\ncd ${quote(ROOT)} && exec ${
      [program, ...args].map(quote).join(" ")
    } "$@"\n`,
    { mode: 0o755 },
  );
  return path;
}

/** A student of NET-2026 who passed exercise 1 and handed in: the hand-in's text. */
async function handIn(): Promise<string> {
  const base = await Deno.makeTempDir({ prefix: "guardlab-lms-student-" });
  try {
    const say = (args: string[], input = "") => cli(args, input, false, base);
    assert.equal((await say(["config", "name", "李雷"])).code, 0);
    assert.equal((await say(["config", "course", CODE])).code, 0);
    const shown = (await say(["exercise", "show", "1"])).out.join(" ")
      .replace(/\s+/g, " ");
    const [, job, topic, copies] = shown.match(
      /job (JOB-\d{3}), topic (river|forest), copies (\d)/,
    )!;
    const answer = JSON.stringify({
      op: "run",
      args: { job, topic, copies: Number(copies) },
      faults: { bad_output: true },
    });
    assert.equal((await say(["exercise", "check", "1"], answer)).code, 0);
    const r = await say(["exercise", "hand-in"]);
    assert.equal(r.code, 0, r.err.join("\n"));
    return r.out[0];
  } finally {
    await Deno.remove(base, { recursive: true });
  }
}

async function autograde(
  system: string,
  env: Record<string, string>,
): Promise<{ code: number; err: string }> {
  const out = await new Deno.Command("sh", {
    args: [SCRIPT, system],
    env: { ...env, NO_COLOR: "1" },
    stdin: "null",
    stdout: "piped",
    stderr: "piped",
  }).output();
  return { code: out.code, err: new TextDecoder().decode(out.stderr) };
}

async function readJson(path: string): Promise<Record<string, unknown>> {
  return JSON.parse(await Deno.readTextFile(path));
}

Deno.test({
  name:
    "autograder: Gradescope's layout, one hand-in in submission/, results.json in results/" +
    NEEDS_RUN,
  ignore: !CAN_RUN,
  async fn() {
    const root = await Deno.makeTempDir({ prefix: "guardlab-gradescope-" });
    try {
      for (const d of ["source", "submission", "results"]) {
        await Deno.mkdir(join(root, d));
      }
      const guardlab = await guardlabWrapper(join(root, "source"));
      await Deno.writeTextFile(join(root, "source/course-code"), `${CODE}\n`);
      await Deno.writeTextFile(
        join(root, "submission/li-lei.json"),
        await handIn(),
      );
      const r = await autograde("gradescope", {
        AUTOGRADER_ROOT: root,
        GUARDLAB: guardlab,
      });
      assert.equal(r.code, 0, r.err);
      const results = await readJson(join(root, "results/results.json"));
      assert.equal(results.score, 1);
      assert.equal(
        results.output,
        "1 of 20 exercises done (course guardlab, code NET-2026): each answer " +
          "re-run by guardlab with your own values",
      );
      const tests = results.tests as Record<string, unknown>[];
      assert.equal(tests.length, 20);
      assert.deepEqual(tests[0], {
        name: "1. A rejected output leaves its draft",
        number: "1",
        score: 1,
        max_score: 1,
        output: "done",
        visibility: "visible",
      });
      assert.equal(tests[1].output, "not handed in");
      // Chapter 6 shows this file (its first three tests), in both languages.
      for (const lang of ["en", "zh"]) {
        const chapter = await Deno.readTextFile(
          join(ROOT, `docs/${lang}/06-course-and-grading.md`),
        );
        const block = chapter.match(/```json\n(\{\n {2}"score"[^]*?)```/)?.[1];
        assert.ok(block, lang);
        assert.deepEqual(JSON.parse(block), {
          ...results,
          tests: tests.slice(0, 3),
        });
        assert.ok(tests.slice(3).every((t) => t.output === "not handed in"));
      }
      // The private folder in the temp folder is gone; nothing else is left.
      assert.deepEqual(
        [...Deno.readDirSync(join(root, "results"))].map((e) => e.name),
        ["results.json"],
      );
      // In Chinese, for a class that reads Chinese.
      await Deno.remove(join(root, "results/results.json"));
      const zh = await autograde("gradescope", {
        AUTOGRADER_ROOT: root,
        GUARDLAB: guardlab,
        GUARDLAB_LANG: "zh",
      });
      assert.equal(zh.code, 0, zh.err);
      const zhTests = (await readJson(join(root, "results/results.json")))
        .tests as {
          name: string;
        }[];
      assert.equal(zhTests[0].name, "1. 后检拒绝了，草稿还在");
    } finally {
      await Deno.remove(root, { recursive: true });
    }
  },
});

Deno.test({
  name:
    "autograder: PrairieLearn's layout, the hand-in in student/, results/ made" +
    NEEDS_RUN,
  ignore: !CAN_RUN,
  async fn() {
    const root = await Deno.makeTempDir({ prefix: "guardlab-prairielearn-" });
    try {
      const files = join(root, "serverFilesCourse/guardlab");
      await Deno.mkdir(files, { recursive: true });
      await Deno.mkdir(join(root, "student"));
      await Deno.mkdir(join(root, "data"));
      await Deno.writeTextFile(join(root, "data/data.json"), "{}");
      const guardlab = await guardlabWrapper(files);
      await Deno.writeTextFile(join(files, "course-code"), `${CODE}\n`);
      const text = await handIn();
      await Deno.writeTextFile(join(root, "student/hand-in.json"), text);
      const env = { GRADE_ROOT: root, GUARDLAB: guardlab };
      const r = await autograde("prairielearn", env);
      assert.equal(r.code, 0, r.err);
      const results = await readJson(join(root, "results/results.json"));
      assert.equal(results.gradable, true);
      assert.equal(results.score, 1 / 20);
      const tests = results.tests as Record<string, unknown>[];
      assert.deepEqual(
        [tests[0].points, tests[0].max_points, tests[0].message],
        [1, 1, "done"],
      );
      // A hand-in edited into something that is no hand-in: not gradable,
      // with guardlab's reason, so the student loses no attempt.
      await Deno.writeTextFile(join(root, "student/hand-in.json"), "{nope");
      const bad = await autograde("prairielearn", env);
      assert.equal(bad.code, 0, bad.err);
      assert.deepEqual(await readJson(join(root, "results/results.json")), {
        gradable: false,
        format_errors: ["not graded: not JSON"],
      });
      // Two files, or a link in place of the hand-in: not graded, said so.
      await Deno.writeTextFile(join(root, "student/other.json"), text);
      const two = await autograde("prairielearn", env);
      assert.equal(two.code, 0, two.err);
      assert.deepEqual(await readJson(join(root, "results/results.json")), {
        gradable: false,
        format_errors: [
          "the submission must be one hand-in file (*.json), made with guardlab exercise hand-in",
        ],
      });
      await Deno.remove(join(root, "student"), { recursive: true });
      await Deno.mkdir(join(root, "student"));
      await Deno.symlink("/etc/hostname", join(root, "student/hand-in.json"));
      const link = await autograde("prairielearn", env);
      assert.equal(link.code, 0, link.err);
      assert.equal(
        (await readJson(join(root, "results/results.json"))).gradable,
        false,
      );
    } finally {
      await Deno.remove(root, { recursive: true });
    }
  },
});

Deno.test("grade --format: one hand-in; --output needs it; the results file is new, never a link, a FIFO or a file that is there", async () => {
  const base = await Deno.makeTempDir({ prefix: "guardlab-lms-cli-" });
  try {
    const say = (args: string[], input = "") => cli(args, input, false, base);
    const text = await handIn();
    const dir = join(base, "mine");
    /** `grade a.json --format FORMAT --output TO`, as the student runs it. */
    const writeTo = (format: string, to: string) =>
      say([
        "exercise",
        "grade",
        join(dir, "a.json"),
        "--format",
        format,
        "--output",
        to,
      ]);
    await Deno.mkdir(dir, { mode: 0o700 });
    await Deno.writeTextFile(join(dir, "a.json"), text, { mode: 0o600 });
    await Deno.writeTextFile(join(dir, "b.json"), text, { mode: 0o600 });
    const two = await say(["exercise", "grade", dir, "--format", "gradescope"]);
    assert.equal(two.code, 2);
    assert.match(
      two.err.join(" "),
      /--format writes one student's results file: give one hand-in, not 2/,
    );
    const noFormat = await say([
      "exercise",
      "grade",
      join(dir, "a.json"),
      "--output",
      join(dir, "r.json"),
    ]);
    assert.equal(noFormat.code, 2);
    assert.match(noFormat.err.join(" "), /give --format too/);
    const unknown = await say([
      "exercise",
      "grade",
      join(dir, "a.json"),
      "--format",
      "moodle",
    ]);
    assert.equal(unknown.code, 2);
    assert.match(unknown.err.join(" "), /gradescope, prairielearn, exercism/);
    const both = await say([
      "exercise",
      "grade",
      "--csv",
      "--format",
      "exercism",
    ]);
    assert.equal(both.code, 2);
    // On stdout by default: one JSON line, in the format asked.
    const out = await say([
      "exercise",
      "grade",
      join(dir, "a.json"),
      "--format",
      "exercism",
    ]);
    assert.equal(out.code, 0, out.err.join("\n"));
    assert.equal(JSON.parse(out.out[0]).version, 3);
    // --output: a new file, mode 0600; what is there is refused, untouched.
    const target = join(dir, "results.json");
    const made = await writeTo("prairielearn", target);
    assert.equal(made.code, 0, made.err.join("\n"));
    assert.equal((await Deno.stat(target)).mode! & 0o777, 0o600);
    const before = await Deno.readTextFile(target);
    const again = await writeTo("prairielearn", target);
    assert.equal(again.code, 4);
    assert.equal(await Deno.readTextFile(target), before);
    const planted = join(dir, "planted.json");
    await Deno.symlink(join(dir, "a.json"), planted);
    const link = await writeTo("gradescope", planted);
    assert.equal(link.code, 4);
    assert.equal(await Deno.readTextFile(join(dir, "a.json")), text);
    const fifo = join(dir, "fifo.json");
    // A FIFO needs mkfifo (--allow-run): under the plain command, not made.
    const mk = CAN_RUN
      ? await new Deno.Command("mkfifo", { args: [fifo] }).output()
        .catch(() => null)
      : null;
    if (mk?.success) {
      const r = await writeTo("gradescope", fifo);
      assert.equal(r.code, 4);
    }
    // A folder others can write (as the shared /tmp) is no folder of one's own.
    const shared = join(base, "shared");
    await Deno.mkdir(shared);
    await Deno.chmod(shared, 0o1777);
    const open = await writeTo("gradescope", join(shared, "results.json"));
    assert.equal(open.code, 4);
    assert.match(
      open.err.join(" "),
      /write the results file inside a folder of your own/,
    );
    assert.deepEqual([...Deno.readDirSync(shared)], []);
  } finally {
    await Deno.remove(base, { recursive: true });
  }
});
