/** Shared test fixtures: temp ledgers, a second observing connection, receipt faults. */
import assert from "node:assert/strict";
import { DatabaseSync } from "node:sqlite";
import { join } from "node:path";
import { Lab } from "../../lib/mod.ts";
import { main } from "../../main.ts";
import { memoryIo } from "../../lib/cli/io.ts";
import { receiptFaultTrigger } from "../../lib/timing/ledger.ts";
import { privateRoot } from "../../lib/sandbox/sandbox.ts";

/**
 * The temp folder in-process CLI tests use in place of the shared one: each
 * test process gets its own, so a user's real guardlab folder and ledgers
 * are never touched. Removed when the process ends.
 */
export const TEST_BASE: string = Deno.makeTempDirSync({
  prefix: "gl-test-",
});
globalThis.addEventListener("unload", () => {
  try {
    Deno.removeSync(TEST_BASE, { recursive: true });
  } catch {
    // Already gone, or the test process lacks write permission: nothing to do.
  }
});

/** The private guardlab folder inside {@linkcode TEST_BASE}. */
export const TEST_ROOT: string = privateRoot(TEST_BASE)!;

/** A lab on a fresh temp file; `using` removes it. */
export async function tempLab(): Promise<
  { lab: Lab; path: string; dir: string; reopen(): Lab } & AsyncDisposable
> {
  const dir = await Deno.makeTempDir({ prefix: "guardlab-test-" });
  const path = join(dir, "lab.sqlite");
  const scope = {
    lab: Lab.open(path),
    path,
    dir,
    reopen() {
      scope.lab.close();
      scope.lab = Lab.open(path);
      return scope.lab;
    },
    async [Symbol.asyncDispose]() {
      scope.lab.close();
      await Deno.remove(dir, { recursive: true });
    },
  };
  return scope;
}

/** Committed state, read through a separate connection: `[drafts, receipts]`. */
export function persistedCounts(path: string): [number, number] {
  const observer = new DatabaseSync(path, { readOnly: true });
  try {
    const n = (table: string) =>
      Number(
        (observer.prepare(`SELECT COUNT(*) AS n FROM ${table}`).get() as {
          n: number;
        }).n,
      );
    return [n("drafts"), n("receipts")];
  } finally {
    observer.close();
  }
}

/** Receipt statuses, read through a separate connection, in attempt order. */
export function persistedReceipts(
  path: string,
): { attempt: number; job: string | null; status: string }[] {
  const observer = new DatabaseSync(path, { readOnly: true });
  try {
    return (observer.prepare(
      "SELECT attempt, job, status FROM receipts ORDER BY attempt",
    ).all() as unknown as {
      attempt: number;
      job: string | null;
      status: string;
    }[]).map((r) => ({
      attempt: Number(r.attempt),
      job: r.job,
      status: r.status,
    }));
  } finally {
    observer.close();
  }
}

/** Test-only trigger on the receipts table: RAISE(IGNORE) or RAISE(ABORT). */
export function installReceiptFault(
  db: DatabaseSync,
  action: "ignore" | "abort",
): void {
  db.exec(receiptFaultTrigger(action));
}

/** The arguments of the article's first run (defined in `lab_flags.ts`). */
export { ARGS } from "./lab_flags.ts";

/** The full accepted timeline of a new draft. */
export const ACCEPTED_EVENTS = [
  "arguments_valid",
  "input_allowed",
  "business_started",
  "effect_committed",
  "output_started",
  "output_allowed",
];

/** Run the CLI in process with `input` on stdin, in {@linkcode TEST_BASE} unless `base` is given. */
export async function cli(
  args: string[],
  input: string | Uint8Array = "",
  color = false,
  base: string = TEST_BASE,
) {
  const io = memoryIo(input, color, base);
  const code = await main(args, io);
  return { code, out: io.stdout, err: io.stderr };
}

/**
 * A usage error as the user sees it: exit 2, nothing on stdout, one line,
 * then the usage (the command's own synopsis, or the command list), no
 * stack trace.
 */
export function assertUsageError(
  r: { code: number; out: string[]; err: string[] },
  message: RegExp = /./,
): void {
  assert.equal(r.code, 2, r.err.join("\n"));
  assert.deepEqual(r.out, [], "nothing on stdout");
  assert.match(r.err[0], /^guardlab: /);
  assert.match(r.err[0], message);
  assert.match(r.err[1], /^(usage: |用法：)guardlab /);
  assert.ok(
    r.err.slice(2).every((l) => l.startsWith("  ")),
    `one line plus the usage: ${r.err.join(" | ")}`,
  );
  assert.ok(!r.err.some((l) => /^\s+at /.test(l)), "no stack trace");
}

/** Whether `path` exists now. */
export function exists(path: string): boolean {
  try {
    Deno.statSync(path);
    return true;
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) return false;
    throw error;
  }
}

/** The error `promise` rejects with; fails the test if it resolves. */
export async function rejection(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  assert.fail("expected the run to throw");
}
