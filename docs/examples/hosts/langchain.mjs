// deno-lint-ignore-file no-import-prefix -- a host runner of its own, run outside the project: its packages are pinned here, not in import_map.json
// An agent host for `guardlab accept host`: @langchain/mcp-adapters 1.1.4
// (MultiServerMCPClient) + @langchain/openai 1.6.0 (ChatOpenAI, which reads
// OPENAI_BASE_URL and OPENAI_API_KEY) + langchain 1.5.14 (createAgent), the
// server in GUARDLAB_MCP_CONFIG (stdio for `command`, HTTP for `url`).
// Its one argument: `defaultToolTimeout` in ms (default: the SDK's 60 s).
//
//   guardlab accept host -- deno run -A --no-config \
//     docs/examples/hosts/langchain.mjs 3000
import { readFileSync } from "node:fs";
import process from "node:process";
import { MultiServerMCPClient } from "npm:@langchain/mcp-adapters@1.1.4";
import { ChatOpenAI } from "npm:@langchain/openai@1.6.0";
import { createAgent } from "npm:langchain@1.5.14";
import "npm:@langchain/core@1.4.0";
import "npm:@langchain/langgraph@1.7.3";

const servers = JSON.parse(
  readFileSync(process.env.GUARDLAB_MCP_CONFIG, "utf8"),
).mcpServers;
const mcpServers = {};
for (const [name, entry] of Object.entries(servers)) {
  mcpServers[name] = entry.url ? { transport: "http", url: entry.url } : {
    transport: "stdio",
    command: entry.command,
    args: entry.args,
    env: { ...process.env, ...entry.env },
  };
}
const client = new MultiServerMCPClient({
  mcpServers,
  ...(process.argv[2] ? { defaultToolTimeout: Number(process.argv[2]) } : {}),
});
try {
  const agent = createAgent({
    model: new ChatOpenAI({ model: "guardlab-model" }),
    tools: await client.getTools(),
  });
  const result = await agent.invoke(
    { messages: [{ role: "user", content: "write a row" }] },
    { recursionLimit: 12 },
  );
  console.log("final:", JSON.stringify(result.messages.at(-1).content));
} catch (error) {
  console.log("the run threw:", String(error?.message ?? error).slice(0, 300));
} finally {
  await client.close().catch(() => {});
}
