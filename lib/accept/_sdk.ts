/**
 * The MCP SDK pieces `accept` uses (the release `import_map.json` pins, as
 * for `lib/mcp/_sdk.ts`; its hash in `deno.lock`): the SDK's own `Server`
 * and in-memory transport, for the example servers that run in process.
 * Only `lib/accept/_examples.ts` imports this module, and it is reached only
 * through a dynamic import of a literal specifier when an example runs.
 *
 * @module
 */
export { Server } from "@modelcontextprotocol/sdk/server/index.js";
export { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
export {
  CallToolRequestSchema,
  ListToolsRequestSchema,
} from "@modelcontextprotocol/sdk/types.js";
