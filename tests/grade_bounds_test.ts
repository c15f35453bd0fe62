/**
 * Bounded, whatever a student hands in: the crafted hand-in (8,000
 * runs, then 200,000 `receipts` steps, about 5 MB) is graded with that answer
 * "over the limit", inside a 1 GiB V8 heap; the caps on steps and on bytes
 * held per step hold at their edges; a hand-in file over its cap is refused
 * unread past it; and no scratch folder is left behind, on any path.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import {
  gather,
  MAX_ANSWER_STEPS,
  MAX_STEP_BYTES,
} from "../lib/exercises/evidence.ts";
import { judge } from "../lib/exercises/judge.ts";
import { exerciseOf } from "../lib/exercises/catalog.ts";
import { makeHandIn, readBounded } from "../lib/exercises/handin.ts";
import { privateRoot } from "../lib/sandbox/sandbox.ts";
import config from "../deno.json" with { type: "json" };
import { cli } from "./helpers.ts";
import { CAN_RUN, NEEDS_RUN, sandboxCommand } from "./spawn.ts";

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
    course: { id: "guardlab-builtin", code: null },
    exercises: {
      "1": {
        answer: hostileAnswer(),
        passed: null,
        checks: 1,
        hints: 0,
        revealed: false,
      },
      "2": {
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
      },
    },
  }));
}

function scratchLeft(base: string): string[] {
  const root = privateRoot(base, false);
  if (root === null) return [];
  return [...Deno.readDirSync(root)].map((e) => e.name).filter((n) =>
    n.startsWith(".scratch-") || n.startsWith("judge-")
  );
}

Deno.test("bounds: the crafted hand-in is graded, that answer over the limit, no scratch left", async () => {
  const base = await Deno.makeTempDir({ prefix: "guardlab-bounds-" });
  try {
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
  } finally {
    await Deno.remove(base, { recursive: true });
  }
});

Deno.test("bounds: the step cap holds at its edge, and what is over it is never run", async () => {
  const dir = await Deno.makeTempDir({ prefix: "guardlab-bounds-" });
  try {
    const trusted = [dir, "/tmp"];
    const steps = (n: number) =>
      Array.from(
        { length: n },
        (_, i) => RUN(`JOB-${String(i).padStart(3, "0")}`),
      ).join("\n\n"); // blank lines are not steps
    await Deno.mkdir(join(dir, "a"));
    const at = await gather(
      new Blob([steps(MAX_ANSWER_STEPS)]).stream(),
      join(dir, "a"),
      trusted,
    );
    assert.equal(at.overLimit, null);
    assert.equal(at.steps.length, MAX_ANSWER_STEPS);
    await Deno.mkdir(join(dir, "b"));
    const over = await gather(
      new Blob([steps(MAX_ANSWER_STEPS + 1)]).stream(),
      join(dir, "b"),
      trusted,
    );
    assert.deepEqual(over.overLimit, {
      line: 2 * MAX_ANSWER_STEPS + 1,
      cap: "steps",
    });
    // The step over the cap never ran: the ledger (second connection) holds 200 drafts.
    assert.equal(over.ledger.drafts.length, MAX_ANSWER_STEPS);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("bounds: a line, or a step's output, over the bytes cap stops the answer", async () => {
  const dir = await Deno.makeTempDir({ prefix: "guardlab-bounds-" });
  try {
    const trusted = [dir, "/tmp"];
    const long = RUN("JOB-001") + " ".repeat(MAX_STEP_BYTES);
    await Deno.mkdir(join(dir, "a"));
    const e = await gather(
      new Blob([RUN("JOB-002") + "\n" + long]).stream(),
      join(dir, "a"),
      trusted,
    );
    assert.deepEqual(e.overLimit, { line: 2, cap: "bytes" });
    // A line exactly at the cap is held and run.
    await Deno.mkdir(join(dir, "b"));
    const edge = RUN("JOB-001");
    const padded = edge + " ".repeat(MAX_STEP_BYTES - edge.length);
    const ok = await gather(
      new Blob([padded]).stream(),
      join(dir, "b"),
      trusted,
    );
    assert.equal(ok.overLimit, null);
    assert.equal(ok.steps.length, 1);
    // An output over the cap (a small cap here: `receipts` after three runs).
    await Deno.mkdir(join(dir, "c"));
    const answer = [RUN("JOB-001"), RUN("JOB-002"), RUN("JOB-003")].join("\n") +
      '\n{"op":"count"}\n{"op":"receipts"}';
    const small = await gather(
      new Blob([answer]).stream(),
      join(dir, "c"),
      trusted,
      { steps: MAX_ANSWER_STEPS, stepBytes: 300 },
    );
    assert.deepEqual(small.overLimit, { line: 5, cap: "bytes" });
    assert.equal(small.steps.length, 4, "the count step (small) was held");
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("bounds: a judge removes its scratch folder when a checker throws", async () => {
  const dir = await Deno.makeTempDir({ prefix: "guardlab-bounds-" });
  try {
    const broken = {
      ...exerciseOf(1)!,
      check(): never {
        throw new Error("checker failed");
      },
    };
    await assert.rejects(
      judge(broken, RUN("JOB-001"), dir, [dir, "/tmp"]),
      /checker failed/,
    );
    assert.deepEqual([...Deno.readDirSync(dir)], []);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
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
  assert.equal(await readBounded(endless, 1 << 20), null);
  assert.ok(cancelled, "the stream was cancelled");
  assert.ok(pulled <= 20, `${pulled} chunks pulled`);
  assert.equal(
    await readBounded(new Blob(["x".repeat(1 << 20)]).stream(), 1 << 20),
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
      cwd: fileURLToPath(new URL("..", import.meta.url)),
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
