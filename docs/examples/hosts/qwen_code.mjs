// An agent host for `guardlab accept host`: qwen-code 0.24.4, headless, with
// a private HOME (no settings of yours are read or written). Install it in a
// folder of your own, outside any project:
//
//   npm i --ignore-scripts --omit=optional @qwen-code/qwen-code@0.24.4
//
// qwen-code reads OPENAI_BASE_URL and OPENAI_API_KEY itself. Its
// `mcpServers` entries need keys of its own, so this runner copies
// GUARDLAB_MCP_CONFIG with `alwaysLoadTools: true` (else the tool hides
// behind tool_search), `httpUrl` for `url` (its `url` is the old SSE
// transport), `timeout` and `trust` from the arguments. Arguments: the
// installed cli-entry.js, the MCP timeout in ms (default: qwen's 10
// minutes), `trust` (true or false, default false).
//
//   guardlab accept host -- node docs/examples/hosts/qwen_code.mjs \
//     FOLDER/node_modules/@qwen-code/qwen-code/cli-entry.js 3000 true
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import process from "node:process";

const [entry, timeout, trust] = process.argv.slice(2);
const config = JSON.parse(
  readFileSync(process.env.GUARDLAB_MCP_CONFIG, "utf8"),
);
for (const server of Object.values(config.mcpServers)) {
  server.alwaysLoadTools = true;
  server.trust = trust === "true";
  if (timeout) server.timeout = Number(timeout);
  // The server keeps your HOME (guardlab's relay finds its Deno cache there).
  if (server.command) server.env = { ...server.env, HOME: process.env.HOME };
  if (server.url) {
    server.httpUrl = server.url;
    delete server.url;
    delete server.type;
  }
}
const home = mkdtempSync(join(tmpdir(), "qwen-home-"));
const file = join(home, "mcp.json");
writeFileSync(file, JSON.stringify(config), { mode: 0o600 });
try {
  const run = spawnSync(process.execPath, [
    entry,
    "--auth-type",
    "openai",
    "--model",
    "guardlab-model",
    "--mcp-config",
    file,
    "--approval-mode",
    "yolo",
    "--output-format",
    "json",
    "write a row",
  ], { stdio: "inherit", env: { ...process.env, HOME: home }, cwd: home });
  process.exitCode = run.status ?? 1;
} finally {
  rmSync(home, { recursive: true, force: true });
}
