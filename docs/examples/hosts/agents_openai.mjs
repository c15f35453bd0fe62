// deno-lint-ignore-file no-import-prefix -- a host runner of its own, run outside the project: its packages are pinned here, not in import_map.json
// An agent host for `guardlab accept host`: @openai/agents-core 0.20.0 +
// @openai/agents-openai 0.20.0, a chat-completions model, the tool from
// GUARDLAB_MCP_CONFIG (MCPServerStdio for `command`, MCPServerStreamableHttp
// for `url`). The OpenAI client reads OPENAI_BASE_URL and OPENAI_API_KEY.
// Its one argument: the MCP call timeout in ms (default: the SDK's 60 s).
//
//   guardlab accept host -- deno run -A --no-config \
//     docs/examples/hosts/agents_openai.mjs 3000
import { readFileSync } from "node:fs";
import process from "node:process";
import OpenAI from "npm:openai@7.60.0";
import {
  Agent,
  MCPServerStdio,
  MCPServerStreamableHttp,
  run,
  setTracingDisabled,
} from "npm:@openai/agents-core@0.20.0";
import { OpenAIChatCompletionsModel } from "npm:@openai/agents-openai@0.20.0";

setTracingDisabled(true);
const servers = JSON.parse(
  readFileSync(process.env.GUARDLAB_MCP_CONFIG, "utf8"),
).mcpServers;
const [name, entry] = Object.entries(servers)[0];
const timeout = process.argv[2] ? { timeout: Number(process.argv[2]) } : {};
const server = entry.url
  ? new MCPServerStreamableHttp({ name, url: entry.url, ...timeout })
  : new MCPServerStdio({
    name,
    command: entry.command,
    args: entry.args,
    env: { ...process.env, ...entry.env },
    ...timeout,
  });
await server.connect();
const agent = new Agent({
  name: "writer",
  instructions: "Write the row.",
  model: new OpenAIChatCompletionsModel(new OpenAI(), "guardlab-model"),
  mcpServers: [server],
});
try {
  const result = await run(agent, "write a row");
  console.log("final:", JSON.stringify(result.finalOutput));
} catch (error) {
  console.log("the run threw:", String(error?.message ?? error).slice(0, 300));
} finally {
  await server.close().catch(() => {});
}
