/**
 * Hostile input, property-based (fast-check): arbitrary JSON as tool
 * arguments, arbitrary script lines, arbitrary argv. Each property states an
 * invariant of the ledger or of the CLI's contract with its user.
 */
import assert from "node:assert/strict";
import { fc } from "../_helpers/deps.ts";
import { DatabaseSync } from "node:sqlite";
import { main } from "../../main.ts";
import { memoryIo } from "../../lib/cli/io.ts";
import {
  AuditUnavailable,
  Cancelled,
  CHECKPOINTS,
  FAIL_POINTS,
} from "../../lib/mod.ts";
import { STEP_FIELDS } from "../../lib/experiments/script.ts";
import { resultOf } from "../../lib/timing/attempt.ts";
import {
  ACCEPTED_EVENTS,
  assertUsageError,
  tempLab,
  TEST_BASE,
} from "../_helpers/helpers.ts";

/** The argument rules, written again independently of lib/args.ts. */
function exactlyValid(raw: unknown): boolean {
  if (typeof raw !== "object" || raw === null || Array.isArray(raw)) {
    return false;
  }
  const proto = Object.getPrototypeOf(raw);
  if (proto !== Object.prototype && proto !== null) return false;
  const keys = Reflect.ownKeys(raw).map(String).sort();
  if (keys.join(",") !== "copies,job,topic") return false;
  const { job, topic, copies } = raw as Record<string, unknown>;
  return typeof job === "string" && /^JOB-\d{3}$/.test(job) &&
    job.length === 7 &&
    (topic === "river" || topic === "forest") &&
    typeof copies === "number" && Number.isInteger(copies) && copies >= 1 &&
    copies <= 9;
}

// The two orders a run can take; a run's events are always a prefix of one.
const PATHS = [
  ACCEPTED_EVENTS,
  ACCEPTED_EVENTS.map((e) => e === "effect_committed" ? "effect_reused" : e),
];

function isPrefixPath(events: string[]): boolean {
  return PATHS.some((path) => events.every((e, i) => path[i] === e));
}

/** Arguments that are often almost right, sometimes exactly right, sometimes anything. */
const toolArgs = fc.oneof(
  fc.jsonValue(),
  fc.record({
    job: fc.oneof(
      fc.integer({ min: 0, max: 5 }).map((n) => `JOB-00${n}`),
      fc.constantFrom(
        "JOB-001\n",
        "job-001",
        "JOB-1",
        "JOB-0001",
        "../x",
        " JOB-001",
      ),
      fc.jsonValue(),
    ),
    topic: fc.oneof(
      fc.constantFrom("river", "forest", "River", "lake", ""),
      fc.jsonValue(),
    ),
    copies: fc.oneof(
      fc.integer({ min: -2, max: 11 }),
      fc.constantFrom(true, 2.5, "2", null, 1e308),
    ),
  }, { requiredKeys: [] }),
  fc.record({
    job: fc.constant("JOB-001"),
    topic: fc.constant("river"),
    copies: fc.constant(2),
    extra: fc.jsonValue(),
  }).map((r) => r as Record<string, unknown>),
  fc.constant(
    JSON.parse('{"job":"JOB-001","topic":"river","copies":2,"__proto__":1}'),
  ),
);

const faults = fc.record({
  cancelAt: fc.constantFrom(undefined, ...CHECKPOINTS),
  failAt: fc.constantFrom(undefined, ...FAIL_POINTS),
  badOutput: fc.boolean(),
  auditFailure: fc.boolean(),
}, { requiredKeys: [] });

Deno.test("property: arbitrary tool arguments and faults keep the ledger honest", async () => {
  await using s = await tempLab();
  const observer = () => new DatabaseSync(s.path, { readOnly: true });
  await fc.assert(
    fc.asyncProperty(toolArgs, faults, async (raw, fault) => {
      const before = {
        drafts: s.lab.ledger.countDrafts(),
        receipts: s.lab.ledger.countReceipts(),
      };
      const record = await s.lab.attempt(raw, fault);
      const result = record.outcome.kind === "result"
        ? resultOf(record)
        : undefined;
      if (record.outcome.kind === "thrown") {
        const error = record.outcome.error;
        assert.ok(
          error instanceof Cancelled || error instanceof AuditUnavailable,
          `only cancellation or audit failure escape: ${error}`,
        );
      }
      const events = [...record.events];
      assert.ok(
        isPrefixPath(events),
        `events follow the stage order: ${events}`,
      );
      const valid = exactlyValid(raw);
      assert.equal(
        events.includes("arguments_valid"),
        valid,
        `validation of ${JSON.stringify(raw)}`,
      );
      const db = observer();
      try {
        const drafts = Number(
          (db.prepare("SELECT COUNT(*) AS n FROM drafts").get() as {
            n: number;
          }).n,
        );
        if (!events.includes("effect_committed")) {
          assert.equal(
            drafts,
            before.drafts,
            "no new draft without effect_committed",
          );
        }
        if (result !== undefined) {
          assert.equal(result.released !== null, result.status === "accepted");
          assert.ok(isPrefixPath(result.events));
          const row = db.prepare("SELECT status FROM receipts WHERE attempt=?")
            .get(result.attempt) as
              | { status: string }
              | undefined;
          assert.equal(
            row?.status,
            result.status,
            "every returned result has its receipt row",
          );
        }
        const receipts = Number(
          (db.prepare("SELECT COUNT(*) AS n FROM receipts").get() as {
            n: number;
          }).n,
        );
        assert.ok(
          receipts === before.receipts || receipts === before.receipts + 1,
        );
      } finally {
        db.close();
      }
    }),
    { numRuns: 300 },
  );
});

function assertCleanOutcome(
  code: number,
  io: { stdout: string[]; stderr: string[] },
) {
  assert.ok(
    [0, 1, 2, 3, 4].includes(code),
    `documented exit code, got ${code}`,
  );
  for (const line of io.stderr) {
    assert.doesNotMatch(
      line,
      /^\s+at |internal error/,
      "no stack trace, no internal error",
    );
  }
  if (code === 2) assertUsageError({ code, out: io.stdout, err: io.stderr });
}

Deno.test("property: any script input gives one JSON line per step, never a crash", async () => {
  const values: Record<string, fc.Arbitrary<unknown>> = {
    args: toolArgs,
    job: fc.oneof(fc.constant("JOB-001"), fc.jsonValue()),
    copies: fc.oneof(fc.integer({ min: 0, max: 10 }), fc.jsonValue()),
    max_copies: fc.oneof(fc.integer({ min: -1, max: 10 }), fc.jsonValue()),
    as: fc.constantFrom("a", "b"),
    snapshot: fc.oneof(fc.constantFrom("a", "b"), fc.jsonValue()),
    receipt_fault: fc.oneof(
      fc.constantFrom("ignore", "abort", "none"),
      fc.jsonValue(),
    ),
    faults: fc.oneof(
      fc.jsonValue(),
      fc.record({ cancel_at: fc.constantFrom("", ...CHECKPOINTS) }),
    ),
    fail_before_commit: fc.oneof(fc.boolean(), fc.jsonValue()),
    receipt: fc.oneof(fc.constantFrom("checked", "naive"), fc.jsonValue()),
    input_guardrail: fc.oneof(
      fc.constantFrom("sequential", "parallel"),
      fc.jsonValue(),
    ),
  };
  for (const [op, names] of Object.entries(STEP_FIELDS)) {
    for (const name of names) {
      assert.ok(name in values, `the fuzzer has values for ${op}.${name}`);
    }
  }
  // Steps with an op's own fields (each maybe missing), sometimes with a stray one.
  const step = fc.constantFrom(...Object.keys(STEP_FIELDS), "nope").chain((
    op,
  ) =>
    fc.tuple(
      fc.record(
        Object.fromEntries(
          (STEP_FIELDS[op] ?? []).map((name) => [name, values[name]]),
        ),
        { requiredKeys: [] },
      ),
      fc.option(
        fc.tuple(
          fc.constantFrom(...Object.keys(values), "fualts"),
          fc.jsonValue(),
        ),
        {
          freq: 5,
        },
      ),
    ).map(([fields, stray]) =>
      JSON.stringify({
        op,
        ...fields,
        ...(stray ? { [stray[0]]: stray[1] } : {}),
      })
    )
  );
  const line = fc.oneof(
    fc.string(),
    fc.jsonValue().map((v) => JSON.stringify(v)),
    step,
    step,
  );
  await fc.assert(
    fc.asyncProperty(fc.array(line, { maxLength: 12 }), async (lines) => {
      const io = memoryIo(lines.join("\n"), false, TEST_BASE);
      const code = await main(["script"], io);
      assertCleanOutcome(code, io);
      assert.ok(code === 0 || code === 1);
      const steps = lines.flatMap((l) => l.split(/\r?\n/)).filter((l) =>
        l.trim() !== ""
      );
      assert.equal(io.stdout.length, steps.length, "one output line per step");
      for (const out of io.stdout) JSON.parse(out);
      assert.equal(
        code === 1,
        io.stdout.some((l) => JSON.parse(l).raised === "invalid_step"),
      );
    }),
    { numRuns: 150 },
  );
});

Deno.test("property: any argv ends in a documented exit code and at most one error line", async () => {
  // A folder of its own: a fuzzed `config lang zh` must not change the
  // language of the other tests; unique names: never a user's ledger.
  const FUZZ_BASE = Deno.makeTempDirSync({ prefix: "gl-fuzz-" });
  const tag = crypto.randomUUID().slice(0, 6);
  const ledgers = [`fz-a-${tag}`, `fz-b-${tag}`];
  const word = fc.oneof(
    fc.constantFrom(
      "demo",
      "verify",
      "run",
      "ledger",
      "reconcile",
      "reset",
      "script",
      "explain",
      "sandbox",
      "config",
      "lang",
      "zh",
      "compensate",
      "exercise",
      "list",
      "show",
      "hint",
      "check",
      "1",
      "help",
      "--json",
      "--help",
      "--version",
      "--ledger",
      "--job",
      "--topic",
      "--copies",
      "--args",
      "--cancel-at",
      "--fail-at",
      "--bad-output",
      "--audit-failure",
      "--format",
      "--lang",
      "--view",
      "timing",
      "policy",
      "svg",
      "JOB-001",
      "river",
      "2",
      "after_business",
      "-h",
      "--",
      ...ledgers,
    ),
    fc.string(),
  );
  try {
    await fc.assert(
      fc.asyncProperty(fc.array(word, { maxLength: 6 }), async (argv) => {
        // Never a harness pause, never a path outside the temp dir (the sandbox test covers that).
        fc.pre(
          !argv.some((a) =>
            a.includes("pause-at") || a.includes("ledger-file")
          ),
        );
        fc.pre(
          !(argv[0] === "script" && argv.length > 1 &&
            !argv[1].startsWith("-")),
        );
        const io = memoryIo("", false, FUZZ_BASE);
        const code = await main(argv, io);
        assertCleanOutcome(code, io);
        if (code === 2) assert.equal(io.stdout.length, 0);
      }),
      { numRuns: 200 },
    );
  } finally {
    Deno.removeSync(FUZZ_BASE, { recursive: true });
  }
});
