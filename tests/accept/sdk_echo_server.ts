/**
 * The fair peer of the proxy bench: an MCP server written with the official
 * SDK (its own `Server` and `StdioServerTransport`, as a real tool server
 * is), whose one tool `get_notes` answers at once with no notes. The bench
 * times a round trip to it directly and through `guardlab proxy`, in one
 * run, so the ratio is what the proxy adds to a server built the usual way.
 *
 *   deno run --config deno.json --allow-read --allow-env sdk_echo_server.ts
 */
import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import {
  CallToolRequestSchema,
  ListToolsRequestSchema,
} from "@modelcontextprotocol/sdk/types.js";

const server = new Server(
  { name: "sdk-echo", version: "1" },
  { capabilities: { tools: {} } },
);
server.setRequestHandler(ListToolsRequestSchema, () => ({
  tools: [{
    name: "get_notes",
    description: "No notes, at once.",
    inputSchema: {
      type: "object",
      properties: { id: { type: "string" } },
      required: ["id"],
    },
  }],
}));
server.setRequestHandler(CallToolRequestSchema, () => {
  const value = { notes: [] };
  return {
    content: [{ type: "text", text: JSON.stringify(value) }],
    structuredContent: value,
  };
});
await server.connect(new StdioServerTransport());
