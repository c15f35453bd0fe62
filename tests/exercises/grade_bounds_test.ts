/**
 * Bounded, whatever a student hands in: the crafted hand-in (8,000
 * runs, then 200,000 `receipts` steps, about 5 MB) is graded with that answer
 * "over the limit", inside a 1 GiB V8 heap; the caps on steps and on bytes
 * held per step hold at their edges; a hand-in file over its cap is refused
 * unread past it; and no scratch folder is left behind, on any path.
 */
import assert from "node:assert/strict";
import { fileURLToPath } from "node:url";
import {
  BUILTIN_COURSE,
  defaultParams,
  exerciseAt,
  judgeAnswer,
  makeHandIn,
  MAX_ANSWER_STEPS,
  MAX_STEP_BYTES,
} from "../../lib/exercises/mod.ts";
import { readStreamText } from "../../lib/sandbox/read_bounded.ts";
import { tempDir } from "../_helpers/tmp.ts";
const exerciseOf = (n: number) => exerciseAt(BUILTIN_COURSE, n);
import { SCRATCH_PREFIX } from "../../lib/sandbox/scratch.ts";
import { join } from "node:path";
import config from "../../deno.json" with { type: "json" };
import { cli } from "../_helpers/helpers.ts";
import { CAN_RUN, NEEDS_RUN, sandboxCommand } from "../_helpers/spawn.ts";

const RUN = (job: string) =>
  JSON.stringify({
    op: "run",
    args: { job, topic: "river", copies: 2 },
  });

/** The crafted answer: 8,000 runs, then 200,000 `receipts` steps. */
function hostileAnswer(): string {
  const lines: string[] = [];
  for (let i = 0; i < 8000; i++) {
    lines.push(RUN(`JOB-${String(i % 1000).padStart(3, "0")}`));
  }
  for (let i = 0; i < 200_000; i++) lines.push('{"op":"receipts"}');
  return lines.join("\n");
}

function hostileHandIn(): string {
  return JSON.stringify(makeHandIn({
    name: "Mallory",
    guardlab: config.version,
    course: { id: BUILTIN_COURSE.id, code: null },
    student: { variant: null, uid: null },
    exercises: {
      "output-check-cannot-unwrite": {
        answer: hostileAnswer(),
        passed: null,
        checks: 1,
        hints: 0,
        revealed: false,
        first: null,
        hints_before_guess: null,
      },
      "same-error-two-ledgers": {
        answer: [
          RUN("JOB-001").replace(
            "}}",
            '},"faults":{"fail_at":"inside_transaction"}}',
          ),
          RUN("JOB-002").replace(
            "}}",
            '},"faults":{"fail_at":"after_commit"}}',
          ),
        ].join("\n"),
        passed: null,
        checks: 1,
        hints: 0,
        revealed: false,
        first: null,
        hints_before_guess: null,
      },
    },
  }));
}

/** What is left inside this process's scratch folders in `base` (the folders themselves go at exit). */
function scratchLeft(base: string): string[] {
  return [...Deno.readDirSync(base)]
    .filter((e) => e.name.startsWith(SCRATCH_PREFIX))
    .flatMap((e) =>
      [...Deno.readDirSync(join(base, e.name))].map((f) => f.name)
    );
}

Deno.test("bounds: the crafted hand-in is graded, that answer over the limit, no scratch left", async () => {
  await using baseFolder = await tempDir("guardlab-bounds-");
  const base = baseFolder.path;
  const text = hostileHandIn();
  assert.ok(text.length > 4_800_000, `${text.length} bytes`);
  const r = await cli(["exercise", "grade", "--json"], text, false, base);
  assert.equal(r.code, 0, r.err.join("\n"));
  const [student] = JSON.parse(r.out[0]).students;
  assert.equal(student.cells["1"], "over-limit");
  // The cap stops one answer, not the hand-in: the next is still judged.
  assert.equal(student.cells["2"], "done");
  assert.deepEqual(scratchLeft(base), []);
  const table = await cli(["exercise", "grade"], text, false, base);
  assert.match(
    table.out.find((l) => l.startsWith("Mallory"))!,
    /^Mallory +!/,
  );
  assert.ok(table.out.some((l) => l.includes("! over the limit")));
  const check = await cli(
    ["exercise", "check", "1"],
    hostileAnswer(),
    false,
    base,
  );
  assert.equal(check.code, 1);
  assert.match(
    check.out.join(" "),
    new RegExp(`over the limit: more than ${MAX_ANSWER_STEPS} steps`),
  );
  assert.deepEqual(scratchLeft(base), []);
});

const TRUSTED = (dir: string) => [dir, "/tmp"];

async function verdictOf(
  answer: string,
  limits: { maxSteps?: number; maxStepBytes?: number } = {},
) {
  await using dirFolder = await tempDir("guardlab-bounds-");
  const dir = dirFolder.path;
  const v = await judgeAnswer(exerciseOf(1)!, answer, defaultParams, {
    scratch: dir,
    trusted: TRUSTED(dir),
    ...limits,
  });
  assert.deepEqual([...Deno.readDirSync(dir)], [], "scratch removed");
  return v;
}

Deno.test("bounds: the step cap holds at its edge, and the step over it never runs", async () => {
  const steps = (n: number) =>
    Array.from(
      { length: n },
      (_, i) => RUN(`JOB-${String(i % 1000).padStart(3, "0")}`),
    ).join("\n\n"); // blank lines are not steps
  const at = await verdictOf(steps(MAX_ANSWER_STEPS));
  assert.equal(at.overLimit, false);
  assert.equal(at.reason, null, "judged in full");
  const over = await verdictOf(steps(MAX_ANSWER_STEPS + 1));
  assert.equal(over.overLimit, true);
  assert.equal(over.passed, false);
  assert.equal(
    over.reason?.en,
    `over the limit: more than ${MAX_ANSWER_STEPS} steps ` +
      `(stopped at line ${2 * MAX_ANSWER_STEPS + 1})`,
  );
  // A passing answer followed by padding past the cap is still over the limit.
  const padded = await verdictOf(
    [
      JSON.stringify({
        op: "run",
        args: { job: "JOB-001", topic: "river", copies: 2 },
        faults: { bad_output: true },
      }),
      ...Array(MAX_ANSWER_STEPS).fill('{"op":"count"}'),
    ].join("\n"),
  );
  assert.equal(padded.overLimit, true);
  assert.equal(padded.passed, false);
});

Deno.test("bounds: a line, or a step's output, over the bytes cap stops the answer", async () => {
  const long = RUN("JOB-001") + " ".repeat(MAX_STEP_BYTES);
  const v = await verdictOf(RUN("JOB-002") + "\n" + long);
  assert.equal(v.overLimit, true);
  assert.match(v.reason!.en, /^over the limit: line 2 /);
  assert.match(v.reason!.zh, /^第 2 行/);
  // A line exactly at the cap is held and judged.
  const edge = RUN("JOB-001");
  const ok = await verdictOf(edge + " ".repeat(MAX_STEP_BYTES - edge.length));
  assert.equal(ok.overLimit, false);
  assert.equal(ok.reason, null);
  // An output over the cap (a small cap here: `receipts` after three runs).
  const answer = [RUN("JOB-001"), RUN("JOB-002"), RUN("JOB-003")].join("\n") +
    '\n{"op":"count"}\n{"op":"receipts"}';
  const small = await verdictOf(answer, { maxStepBytes: 300 });
  assert.equal(small.overLimit, true);
  assert.match(small.reason!.en, /^over the limit: line 5 /);
  assert.equal(
    (await verdictOf(answer, { maxStepBytes: 4000 })).overLimit,
    false,
  );
});

Deno.test("bounds: judging removes its scratch folder when the judging fails", async () => {
  await using dirFolder = await tempDir("guardlab-bounds-");
  const dir = dirFolder.path;
  // A scratch folder others can write: opening a ledger inside it is refused.
  await Deno.chmod(dir, 0o777);
  await assert.rejects(
    judgeAnswer(exerciseOf(1)!, RUN("JOB-001"), defaultParams, {
      scratch: dir,
      trusted: ["/tmp"],
    }),
    /can be written by other users/,
  );
  assert.deepEqual([...Deno.readDirSync(dir)], []);
});

Deno.test("bounds: a hand-in over its size cap is refused without reading on", async () => {
  let pulled = 0;
  let cancelled = false;
  const endless = new ReadableStream<Uint8Array>({
    pull(controller) {
      pulled++;
      controller.enqueue(new Uint8Array(64 << 10));
    },
    cancel() {
      cancelled = true;
    },
  });
  assert.equal(await readStreamText(endless, 1 << 20), null);
  assert.ok(cancelled, "the stream was cancelled");
  assert.ok(pulled <= 20, `${pulled} chunks pulled`);
  assert.equal(
    await readStreamText(new Blob(["x".repeat(1 << 20)]).stream(), 1 << 20),
    "x".repeat(1 << 20),
    "exactly at the cap is read",
  );
});

Deno.test(
  "bounds: the crafted hand-in is graded inside a 1 GiB V8 heap" + NEEDS_RUN,
  { ignore: !CAN_RUN },
  async () => {
    const { program, args } = sandboxCommand();
    const [sub, ...rest] = args;
    const child = new Deno.Command(program, {
      args: [
        sub,
        "--v8-flags=--max-old-space-size=1024",
        ...rest,
        "exercise",
        "grade",
        "--json",
      ],
      cwd: fileURLToPath(new URL("../..", import.meta.url)),
      stdin: "piped",
      stdout: "piped",
      stderr: "piped",
      env: { NO_COLOR: "1" },
    }).spawn();
    const writer = child.stdin.getWriter();
    await writer.write(new TextEncoder().encode(hostileHandIn()));
    await writer.close();
    const { code, stdout, stderr } = await child.output();
    assert.equal(code, 0, new TextDecoder().decode(stderr));
    const [student] = JSON.parse(new TextDecoder().decode(stdout)).students;
    assert.equal(student.cells["1"], "over-limit");
  },
);
