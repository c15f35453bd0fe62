/**
 * The wire: JSON-RPC 2.0 for both ends, as the MCP SDK has it, one
 * message module under several transports.
 *
 * - `message.ts`: the one parser. A text is parsed with the depth bound,
 *   then told apart as a request, a notification or a response; ids are
 *   keyed, the error codes named once.
 * - `line_transport.ts`: the stdio server end, `guardlab mcp`'s transport.
 * - `channel.ts`: the client end, a channel to a server, and its stdio
 *   transport over a child's pipes; `http.ts`: the same over Streamable
 *   HTTP; `http_api.ts`: an HTTP API's endpoints presented as tools, each
 *   call one request (the idempotency-key contract under accept's cases).
 * - `server_process.ts`: a server guardlab starts, every end of its life
 *   bounded.
 * - `limits.ts`: every bound of the wire, stated once.
 *
 * This area imports only the ground floor. A server guardlab starts runs
 * with the user's own rights: Deno's sandbox covers guardlab, not the child.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { parseMessage } from "./mod.ts";
 * const deep = '{"jsonrpc":"2.0","id":1,"result":' +
 *   "[".repeat(100) + "]".repeat(100) + "}";
 * assert.deepEqual(parseMessage(deep), { refused: "too-deep", id: 1 });
 * ```
 *
 * @module
 */
export * from "./message.ts";
export * from "./limits.ts";
export * from "./channel.ts";
export * from "./http.ts";
export * from "./http_api.ts";
export * from "./line_transport.ts";
export * from "./server_process.ts";
