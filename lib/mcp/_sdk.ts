/**
 * The official MCP SDK, imported here and only here (`import_map.json`
 * pins its version; `deno.lock` holds its hash). Only `lib/mcp/` imports
 * this module, and the `mcp` command loads `lib/mcp/` with a dynamic import
 * of a literal specifier: every other command, and `deno task demo` on an
 * empty cache, never fetches it.
 *
 * @module
 */
export { Server } from "@modelcontextprotocol/sdk/server/index.js";
export {
  CallToolRequestSchema,
  ErrorCode,
  JSONRPCMessageSchema,
  ListToolsRequestSchema,
  McpError,
} from "@modelcontextprotocol/sdk/types.js";
export type {
  CallToolRequest,
  CallToolResult,
  JSONRPCMessage,
} from "@modelcontextprotocol/sdk/types.js";
