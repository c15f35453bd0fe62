/**
 * The official MCP SDK, pinned here and only here (its hash is in
 * `deno.lock`). Only `lib/mcp/` imports this module, and the `mcp` command
 * loads `lib/mcp/` with a dynamic import of a literal specifier: every other
 * command, and `deno task demo` on an empty cache, never fetches it.
 *
 * @module
 */
export { Server } from "npm:@modelcontextprotocol/sdk@1.32.2/server/index.js";
export {
  CallToolRequestSchema,
  ErrorCode,
  JSONRPCMessageSchema,
  ListToolsRequestSchema,
  McpError,
} from "npm:@modelcontextprotocol/sdk@1.32.2/types.js";
export type {
  CallToolRequest,
  CallToolResult,
  JSONRPCMessage,
} from "npm:@modelcontextprotocol/sdk@1.32.2/types.js";
