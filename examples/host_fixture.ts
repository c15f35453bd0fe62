/**
 * Two agent hosts of our own, for `accept host`'s tests and `deno task
 * example:host`: a model loop over
 * OpenAI chat completions (plain fetch to `OPENAI_BASE_URL`) and the MCP
 * SDK's own client (1.32.2: stdio or Streamable HTTP, from the
 * `mcpServers` file in `GUARDLAB_MCP_CONFIG`). They really behave as their
 * names say:
 * - `resends`: a tool call that failed (the SDK's timeout, the connection
 *   lost, an HTTP error) is sent again once with the same arguments, after
 *   a reconnect when the connection went; the model is told what the last
 *   attempt got.
 * - `says-unknown`: such a call is never sent again; the model is told its
 *   outcome is unknown. A tool's own error (`isError`) is passed on.
 * Both give the SDK's `callTool` a timeout of TIMEOUT_MS (the second
 * argument; 1500 ms by default), so the SDK sends `notifications/cancelled` when it passes.
 *
 * Run: deno run --allow-env --allow-read --allow-run --allow-net=127.0.0.1
 *      examples/host_fixture.ts resends|says-unknown [TIMEOUT_MS]
 */
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import {
  getDefaultEnvironment,
  StdioClientTransport,
} from "@modelcontextprotocol/sdk/client/stdio.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";

const mode = Deno.args[0];
if (mode !== "resends" && mode !== "says-unknown") {
  console.error("usage: host_fixture.ts resends|says-unknown");
  Deno.exit(2);
}
// The SDK's timeout of each call, from the command line (the host's
// environment is the one accept host gives it).
const timeout = Number(Deno.args[1] ?? "1500");
const base = Deno.env.get("OPENAI_BASE_URL")!;
const key = Deno.env.get("OPENAI_API_KEY")!;
const config = JSON.parse(
  Deno.readTextFileSync(Deno.env.get("GUARDLAB_MCP_CONFIG")!),
);
const [[serverName, entry]] = Object.entries(config.mcpServers) as [
  string,
  { command?: string; args?: string[]; url?: string },
][];

/** DENO_DIR, when this host was given one. */
function denoDir(): Record<string, string> {
  const dir = Deno.env.get("DENO_DIR");
  return dir === undefined ? {} : { DENO_DIR: dir };
}

/** A connected client to the tool's server. */
async function connect(): Promise<Client> {
  const client = new Client({ name: `host-fixture-${mode}`, version: "1.0.0" });
  const transport = entry.url !== undefined
    ? new StreamableHTTPClientTransport(new URL(entry.url))
    : new StdioClientTransport({
      command: entry.command!,
      args: entry.args ?? [],
      // The test's Deno cache, when it is not the default one, for the
      // server the entry names (guardlab's relay, a deno run).
      env: { ...getDefaultEnvironment(), ...denoDir() },
      stderr: "ignore",
    });
  await client.connect(transport);
  return client;
}

let client = await connect();
const listed = await client.listTools();
const tools = listed.tools.map((
  t: { name: string; description?: string; inputSchema: unknown },
) => ({
  type: "function",
  function: {
    name: t.name,
    description: t.description ?? "",
    parameters: t.inputSchema,
  },
}));

/** One attempt at the tool: its text, or the error it threw. */
async function attempt(
  name: string,
  args: Record<string, unknown>,
): Promise<{ text: string; failed: boolean }> {
  try {
    const result = await client.callTool({ name, arguments: args }, undefined, {
      timeout,
    });
    const content = (result.content ?? []) as { type: string; text?: string }[];
    return { text: content.map((c) => c.text ?? "").join("\n"), failed: false };
  } catch (error) {
    return {
      text: `error: ${error instanceof Error ? error.message : String(error)}`,
      failed: true,
    };
  }
}

/** The tool's result, as this host hands it to the model. */
async function run(
  name: string,
  args: Record<string, unknown>,
): Promise<string> {
  const first = await attempt(name, args);
  if (!first.failed) return first.text;
  if (mode === "says-unknown") {
    return `The outcome of ${name} is unknown: it may have taken effect. Check by its key before calling again.`;
  }
  // resends: the same call again, on a fresh connection if this one went.
  try {
    await client.ping({ timeout });
  } catch {
    await client.close().catch(() => {});
    client = await connect();
  }
  return (await attempt(name, args)).text;
}

const messages: Record<string, unknown>[] = [
  { role: "user", content: `Write one row with ${serverName}.` },
];
for (let turn = 0; turn < 6; turn++) {
  const response = await fetch(`${base}/chat/completions`, {
    method: "POST",
    headers: {
      "content-type": "application/json",
      authorization: `Bearer ${key}`,
    },
    body: JSON.stringify({ model: "fixture-model", messages, tools }),
  });
  const body = await response.json();
  const message = body.choices[0].message;
  messages.push(message);
  if (!message.tool_calls?.length) break;
  for (const call of message.tool_calls) {
    const text = await run(
      call.function.name,
      JSON.parse(call.function.arguments),
    );
    messages.push({ role: "tool", tool_call_id: call.id, content: text });
  }
}
await client.close().catch(() => {});
Deno.exit(0);
