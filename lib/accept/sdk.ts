/**
 * The MCP SDK pieces `accept` uses, pinned here (the same release as
 * `lib/mcp/sdk.ts`, its hash in `deno.lock`): the SDK's own `Server` and
 * in-memory transport, for the example servers that run in process. Only
 * `lib/accept/examples.ts` imports this module, and it is reached only
 * through the `accept` command's dynamic import.
 *
 * @module
 */
export { Server } from "npm:@modelcontextprotocol/sdk@1.32.2/server/index.js";
export { InMemoryTransport } from "npm:@modelcontextprotocol/sdk@1.32.2/inMemory.js";
export {
  CallToolRequestSchema,
  ListToolsRequestSchema,
} from "npm:@modelcontextprotocol/sdk@1.32.2/types.js";
