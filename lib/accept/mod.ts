/**
 * The acceptance test of the article, run against any MCP server, and the
 * proxy that puts a real agent's calls to a real server on a timeline.
 *
 * - `oracle.ts`: the oracle format (which tool, its key, how to count its
 *   effect with a read tool), placeholders, JSON Pointers.
 * - `cases.ts`: the case and verdict names, each verdict's class;
 *   `verdict_messages.ts`: what each verdict means and the article's
 *   sentence it tests.
 * - `session.ts`, `run.ts`: the cases, each a timeline in three lanes
 *   (client, guardlab, server), judged by the effect counted by key and
 *   what the client was told; two-processes and crash-after-commit start
 *   servers of their own, annotations checks the tool's declared hints.
 * - `channel.ts`, `http.ts`: a server over stdio or Streamable HTTP, every
 *   message and every wait bounded, a started server ended with its process
 *   group; `start.ts`: where a server comes from, and the grant it needs.
 * - `_examples.ts`, `matrix.ts`: example servers built in, run in process.
 * - `draft.ts`: `accept init`, an oracle drafted from a server's tool list,
 *   its guesses marked; `baseline.ts`: `--baseline`, a previous report's
 *   verdicts excused, fixed, worse or new.
 * - `proxy.ts`, `faults.ts`, `record.ts`: `guardlab proxy`.
 * - `agent_hook.mjs`, `agent_record.ts`, `agent_match.ts`: the agent record an agent's hook
 *   writes (its tool guardrails, calls and spans), read as hostile input and
 *   matched with the proxy's calls.
 *
 * A server guardlab starts runs with the user's own rights: Deno's sandbox
 * covers guardlab, not the child.
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
export * from "./cases.ts";
export {
  type Count,
  type Oracle,
  parseOracle,
  type ToolCall,
  type WriteTool,
} from "./oracle.ts";
export {
  type AcceptOptions,
  type AcceptReport,
  type CaseResult,
  runAccept,
} from "./run.ts";
export { InitializeFailed, type TimelineEvent } from "./session.ts";
export { exampleMatrix, type MatrixRow } from "./matrix.ts";
export { EXAMPLE_ORACLE } from "./example_oracle.ts";
export { type Draft, draftOracle } from "./draft.ts";
export {
  type Baseline,
  type BaselineStatus,
  compareWithBaseline,
  type Comparison,
  isFailing,
  oracleDigest,
  parseBaseline,
  statusOf,
} from "./baseline.ts";
