/**
 * The acceptance test of the article, run against any MCP server, and the
 * proxy that puts a real agent's calls to a real server on a timeline: the
 * accept wing. It imports only the ground floor, the sandbox and the wire
 * (`lib/wire/`, JSON-RPC for both ends); the lab reaches it only through
 * this door, and the lab's views know nothing of it.
 *
 * - `cases.ts`: the case and verdict names, each verdict's class;
 *   `verdict_messages.ts`: what each verdict means and the article's
 *   sentence it tests.
 * - `run.ts`, `_case_runs.ts`, `session.ts`: the cases, each
 *   a timeline in three lanes (client, guardlab, server) that acts and
 *   records; `_history.ts`: the history each case records, one record per
 *   attempt, versioned; `_checker.ts`: every verdict, judged from the
 *   history alone, one pure function per case; `judge.ts`: a saved
 *   report's histories judged again (`accept judge`).
 * - `oracle.ts`: the oracle format (which tool, its key, how to count its
 *   effect with a read tool), placeholders, JSON Pointers.
 * - `start.ts`: where a server comes from, and the grant it needs;
 *   `_examples.ts`, `_matrix.ts`: example servers built in, run in process.
 * - `draft.ts`: `accept init`, an oracle drafted from a server's tool list,
 *   its guesses marked; `baseline.ts`: `--baseline`, a previous report's
 *   verdicts excused, fixed, worse or new.
 * - `proxy.ts`, `faults.ts`, `record.ts`: `guardlab proxy`.
 * - `agent_hook.mjs`, `agent_record.ts`, `agent_match.ts`: the agent record
 *   an agent's hook writes (its tool guardrails, calls and spans), read as
 *   hostile input and matched with the proxy's calls.
 * - `views/`: the wing's screens: the matrix and its timelines, JUnit, the
 *   proxy's record and the agent's lane beside it.
 *
 * The door holds what the lab uses (the names, the built-in oracle, the
 * example matrix, loaded only when it runs) and the wing's types; the
 * commands reach the rest through its public files (`PUBLIC_FILES` in
 * `lib/_layers.ts`). A server guardlab starts
 * runs with the user's own rights: Deno's sandbox covers guardlab, not the
 * child.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { exampleMatrix } from "./mod.ts";
 * const { matrix } = await exampleMatrix("loses-updates", ["concurrent-distinct"]);
 * assert.equal(matrix["concurrent-distinct"]?.verdict, "LOST");
 * ```
 *
 * @module
 */
import type {
  CaseName,
  ExampleName,
  HostCaseName,
  HostExampleName,
  HostVariant,
} from "./cases.ts";
import type { HostCaseResult } from "./host_report.ts";
import type { AcceptReport } from "./run.ts";
import type { MatrixRow } from "./_matrix.ts";

export * from "./cases.ts";
export {
  type Count,
  type Oracle,
  parseOracle,
  type ToolCall,
  type WriteTool,
} from "./oracle.ts";
export type { AcceptOptions, AcceptReport, CaseResult } from "./run.ts";
export type { TimelineEvent } from "./session.ts";
export type { MatrixRow } from "./_matrix.ts";
export { EXAMPLE_ORACLE } from "./example_oracle.ts";
export type { Draft } from "./draft.ts";
export type { Baseline, BaselineStatus, Comparison } from "./baseline.ts";
export type { CaseHistory, HistoryRecord } from "./_history.ts";

/**
 * Run example server `name` through `cases` in process, on the built-in
 * oracle, and return its verdict per case and the whole report. The run
 * (the cases, the checker, the example servers and the MCP SDK) is loaded
 * only when called: the door itself stays light for the lab, which needs
 * the names at every start and a run only for exercise 18.
 */
export async function exampleMatrix(
  name: ExampleName,
  cases?: readonly CaseName[],
): Promise<
  {
    matrix: Partial<Record<CaseName, MatrixRow>>;
    report: AcceptReport;
  }
> {
  const run = await import("./_matrix.ts");
  return await run.exampleMatrix(name, cases);
}

/**
 * Run agent host `name` in process on case `caseName` of `accept host`
 * against the `variant` tool, with the scripted model, and return its
 * judged row (`accept host --example`, exercise 20). The host (a package)
 * and its run are loaded only when called; the ledger is made in a private
 * folder under `base` and removed with it. `runMs` is the run's limit
 * (`HOST_EXAMPLE_RUN_MS` by default; a test sets a short one).
 */
export async function hostExample(
  name: HostExampleName,
  caseName: HostCaseName,
  variant: HostVariant,
  base: string,
  runMs?: number,
): Promise<HostCaseResult> {
  const run = await import("./_host_example.ts");
  return await run.runHostExample(name, caseName, variant, {
    base,
    ...(runMs === undefined ? {} : { runMs }),
  });
}
