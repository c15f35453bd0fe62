/**
 * A minimal local MCP server over stdio, for the SDK conformance tests: one
 * tool, `create_draft`, whose call runs guardlab's `Lab` on the ledger named
 * by the first argument. It speaks just enough of MCP (newline-delimited
 * JSON-RPC: initialize, tools/list, tools/call, ping) for a client to list
 * and call the tool; it imports no package.
 *
 * Run: deno run --allow-read --allow-write tests/mcp_stdio_server.ts LEDGER
 *
 * @module
 */
import { Lab } from "../lib/mod.ts";

const ledger = Deno.args[0];
const encoder = new TextEncoder();

const TOOL = {
  name: "create_draft",
  description: "Create the draft for a print job in guardlab's ledger.",
  inputSchema: {
    type: "object",
    properties: {
      job: { type: "string" },
      topic: { type: "string" },
      copies: { type: "integer" },
    },
    required: ["job", "topic", "copies"],
    additionalProperties: false,
  },
};

function send(message: unknown): void {
  Deno.stdout.writeSync(encoder.encode(JSON.stringify(message) + "\n"));
}

async function answer(
  method: string,
  params: Record<string, unknown>,
): Promise<unknown> {
  switch (method) {
    case "initialize":
      return {
        protocolVersion: params.protocolVersion,
        capabilities: { tools: {} },
        serverInfo: { name: "guardlab-conformance", version: "0.0.0" },
      };
    case "ping":
      return {};
    case "tools/list":
      return { tools: [TOOL] };
    case "tools/call": {
      if (params.name !== TOOL.name) throw new Error("unknown tool");
      const lab = Lab.open(ledger);
      try {
        const result = await lab.run(params.arguments);
        const text = result.released === null
          ? `status ${result.status}`
          : `${result.status}: ${result.released.text}`;
        return { content: [{ type: "text", text }], isError: false };
      } finally {
        lab.close();
      }
    }
    default:
      throw Object.assign(new Error(`no method ${method}`), { code: -32601 });
  }
}

let buffer = "";
const decoder = new TextDecoder();
for await (const chunk of Deno.stdin.readable) {
  buffer += decoder.decode(chunk, { stream: true });
  let end: number;
  while ((end = buffer.indexOf("\n")) >= 0) {
    const line = buffer.slice(0, end).trim();
    buffer = buffer.slice(end + 1);
    if (line === "") continue;
    const request = JSON.parse(line);
    // A notification has no id and gets no answer.
    if (request.id === undefined) continue;
    try {
      send({
        jsonrpc: "2.0",
        id: request.id,
        result: await answer(request.method, request.params ?? {}),
      });
    } catch (error) {
      send({
        jsonrpc: "2.0",
        id: request.id,
        error: {
          code: (error as { code?: number }).code ?? -32603,
          message: String((error as Error).message),
        },
      });
    }
  }
}
