/**
 * The bench's same-work peer: a plain MCP server written the usual way (the
 * SDK's `Server` on its own `StdioServerTransport`, Deno, `node:sqlite`),
 * whose one tool, `create_draft`, writes the rows guardlab's lab writes
 * (`same_work.ts`). No checkpoints, no faults, no second reading of its
 * input.
 *
 *     deno run --allow-read=DIR --allow-write=DIR scripts/bench/peer_mcp_server.ts DIR/peer.sqlite one|two
 *
 * `one` commits the draft and the receipt in one synced transaction; `two`
 * in two, as the article's lab does (a reuse then commits only the receipt,
 * either way). Only `deno task bench` starts it.
 *
 * @module
 */
import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import {
  type CallToolRequest,
  CallToolRequestSchema,
  ListToolsRequestSchema,
} from "@modelcontextprotocol/sdk/types.js";
import { sameWork, valid } from "./same_work.ts";

const [path, commits] = Deno.args;
if (path === undefined || (commits !== "one" && commits !== "two")) {
  console.error("usage: peer_mcp_server.ts DB one|two");
  Deno.exit(2);
}

const { createDraft } = sameWork(path, commits);

const server = new Server(
  { name: "peer", version: "0" },
  { capabilities: { tools: {} } },
);
server.setRequestHandler(ListToolsRequestSchema, () => ({
  tools: [{
    name: "create_draft",
    inputSchema: { type: "object" },
  }],
}));
server.setRequestHandler(CallToolRequestSchema, (request: CallToolRequest) => {
  const args = request.params.arguments;
  if (!valid(args)) {
    return { content: [{ type: "text", text: "refused" }], isError: true };
  }
  const structured = createDraft(args);
  return {
    content: [
      { type: "text", text: `accepted; receipt #${structured.receipt}` },
      { type: "text", text: JSON.stringify(structured) },
    ],
    structuredContent: { ...structured },
  };
});
await server.connect(new StdioServerTransport());
