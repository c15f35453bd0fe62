/** Shared test fixtures: temp ledgers, a second observing connection, receipt faults. */
import { DatabaseSync } from "node:sqlite";
import { join } from "node:path";
import { Lab } from "../lib/mod.ts";
import { main } from "../main.ts";
import { memoryIo } from "../lib/cli/io.ts";

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

/** Whether a draft for `job` is committed, read through a separate connection. */
export function persistedDraft(path: string, job: string): boolean {
  const observer = new DatabaseSync(path, { readOnly: true });
  try {
    return observer.prepare("SELECT 1 FROM drafts WHERE job=?").get(job) !==
      undefined;
  } finally {
    observer.close();
  }
}

/** Test-only trigger on the receipts table: RAISE(IGNORE) or RAISE(ABORT). */
export function installReceiptFault(
  db: DatabaseSync,
  action: "ignore" | "abort",
): void {
  const statement = action === "ignore"
    ? "SELECT RAISE(IGNORE);"
    : "SELECT RAISE(ABORT, 'fixture_receipt_abort');";
  db.exec(
    `CREATE TRIGGER fixture_receipt_fault BEFORE INSERT ON receipts BEGIN ${statement} END`,
  );
}

/** The demo arguments. */
export const ARGS = { job: "JOB-001", topic: "river", copies: 2 } as const;

/** The full accepted timeline of a new draft. */
export const ACCEPTED_EVENTS = [
  "arguments_valid",
  "input_allowed",
  "business_started",
  "effect_committed",
  "output_started",
  "output_allowed",
];

/** Run the CLI in process with `input` on stdin. */
export async function cli(args: string[], input = "", color = false) {
  const io = memoryIo(input, color);
  const code = await main(args, io);
  return { code, out: io.stdout, err: io.stderr };
}
