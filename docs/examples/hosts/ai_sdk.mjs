// deno-lint-ignore-file no-import-prefix -- a host runner of its own, run outside the project: its packages are pinned here, not in import_map.json
// An agent host for `guardlab accept host`: ai 7.0.185 + @ai-sdk/mcp 2.0.99
// + @ai-sdk/openai 4.0.126 (`createOpenAI().chat`, which reads
// OPENAI_BASE_URL and OPENAI_API_KEY), `generateText` with the tools of the
// server in GUARDLAB_MCP_CONFIG (stdio for `command`, HTTP for `url`).
// Arguments: the tool timeout in ms (`timeout.toolMs`; 0: none, the
// default), then `maxRetries` of createMCPClient (default 0).
//
//   guardlab accept host -- deno run -A --no-config \
//     docs/examples/hosts/ai_sdk.mjs 3000 2
import { readFileSync } from "node:fs";
import process from "node:process";
import { generateText, stepCountIs } from "npm:ai@7.0.185";
import { createMCPClient } from "npm:@ai-sdk/mcp@2.0.99";
import { Experimental_StdioMCPTransport } from "npm:@ai-sdk/mcp@2.0.99/mcp-stdio";
import { createOpenAI } from "npm:@ai-sdk/openai@4.0.126";

const servers = JSON.parse(
  readFileSync(process.env.GUARDLAB_MCP_CONFIG, "utf8"),
).mcpServers;
const [, entry] = Object.entries(servers)[0];
const toolMs = Number(process.argv[2] ?? "0");
const maxRetries = Number(process.argv[3] ?? "0");
const client = await createMCPClient({
  transport: entry.url
    ? { type: "http", url: entry.url }
    : new Experimental_StdioMCPTransport({
      command: entry.command,
      args: entry.args,
      env: { ...process.env, ...entry.env },
    }),
  maxRetries,
});
try {
  const result = await generateText({
    model: createOpenAI().chat("guardlab-model"),
    tools: await client.tools(),
    prompt: "write a row",
    stopWhen: stepCountIs(5),
    ...(toolMs > 0 ? { timeout: { toolMs } } : {}),
  });
  console.log("final:", JSON.stringify(result.text));
} catch (error) {
  console.log("the run threw:", String(error?.message ?? error).slice(0, 300));
} finally {
  await client.close().catch(() => {});
}
