/**
 * `guardlab mcp`: the timing lab's tools over the Model Context Protocol,
 * on stdin and stdout.
 *
 * - `server.ts`: {@linkcode serveMcp}, the server; every `create_draft`
 *   goes through the lab's one observation of an attempt (`Lab.observe`),
 *   and every call to a tool is recorded with its session and number.
 * - `_gate.ts`: backpressure, at most 16 calls in flight, the next one
 *   waiting in the client's pipe.
 * - `_results.ts`: tool results and `create_draft`'s summary line;
 *   `_read_tools.ts`: `ledger`, `reconcile` and `compensate`.
 * - `host_config.ts`: the `mcpServers` block `mcp --print-config` prints.
 * - `_tools.ts`: the tools as data (names, JSON Schemas, annotations).
 * - `faults.ts`: the `--faults` schedule, one fault set per call number.
 * - its stdio transport is the wire's server end,
 *   `lib/wire/line_transport.ts`: bounded JSON lines on stdin and stdout.
 * - `_messages.ts`: every text the server speaks, in both languages.
 * - `_sdk.ts`: the pinned MCP SDK, imported here and nowhere else.
 *
 * This area sits below the views and imports only the ground floor, the
 * sandbox, the wire, the store and the labs. The `mcp` command loads `server.ts` with
 * a dynamic import, so no other command loads the SDK; nothing imports this
 * door, which would load it too.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { TOOLS } from "./mod.ts";
 *
 * assert.deepEqual(TOOLS.map((t) => t.name), [
 *   "create_draft",
 *   "ledger",
 *   "reconcile",
 *   "compensate",
 * ]);
 * ```
 *
 * @module
 */
export * from "./faults.ts";
export * from "./_gate.ts";
export * from "./host_config.ts";
export * from "./_messages.ts";
export * from "./_read_tools.ts";
export * from "./_results.ts";
export * from "./server.ts";
export * from "./_tools.ts";
