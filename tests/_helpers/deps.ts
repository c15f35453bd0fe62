/**
 * The test suite's npm packages, pinned here and only here. They are not in
 * deno.json's import map, so the program's own import graph (and the first
 * `deno task demo` on an empty cache) never fetches them. `deno.lock` holds
 * their integrity hashes; `deno task test`, `deno task bench` and CI read it
 * with `--frozen`, so a changed or stale lock fails instead of updating.
 */
export { default as fc } from "npm:fast-check@4.11.0";
export { XMLParser, XMLValidator } from "npm:fast-xml-parser@5.12.1";
export { parse as babelParse } from "npm:@babel/parser@7.28.5";
/**
 * The MCP SDK's own client, for tests that spawn `guardlab mcp`. Loaded on
 * demand: its stdio transport reads the environment when its module loads,
 * so a static import would break every test under the plain
 * `deno test --allow-read --allow-write`.
 */
export async function mcpClientSdk() {
  const [{ Client }, { StdioClientTransport }] = await Promise.all([
    // deno-lint-ignore no-import-prefix -- pinned here, as the static ones above
    import("npm:@modelcontextprotocol/sdk@1.32.2/client/index.js"),
    // deno-lint-ignore no-import-prefix -- pinned here, as the static ones above
    import("npm:@modelcontextprotocol/sdk@1.32.2/client/stdio.js"),
  ]);
  return { Client, StdioClientTransport };
}

/**
 * `@openai/agents-core`, the OpenAI Agents SDK for JavaScript, exactly as the
 * SDK lens was verified against it. Loaded only when called: evaluating it
 * reads all of `process.env` (a dependency lists it), so a test checks the
 * env permission first and reports itself ignored without it. The literal
 * specifier keeps the package in the type-checked graph and in `deno.lock`.
 */
// deno-lint-ignore no-import-prefix -- pinned here, like the exports above
export const loadAgentsCore = () => import("npm:@openai/agents-core@0.20.0");

/**
 * Real MCP servers written by someone else, run by the accept tests as
 * child processes (`deno run … npm:…`, offline, `--frozen` against
 * `deno.lock`). Named here so their exact versions are in the type-checked
 * graph and their hashes in `deno.lock`; never called in this process.
 */
export const SERVER_MEMORY =
  "npm:@modelcontextprotocol/server-memory@2026.8.31";
export const pinServerMemory = () =>
  // deno-lint-ignore no-import-prefix -- pinned here, like the exports above
  import("npm:@modelcontextprotocol/server-memory@2026.8.31");

/** The reference filesystem server, as {@linkcode SERVER_MEMORY}. */
export const SERVER_FILESYSTEM =
  "npm:@modelcontextprotocol/server-filesystem@2026.8.31";
export const pinServerFilesystem = () =>
  // deno-lint-ignore no-import-prefix -- pinned here, like the exports above
  import("npm:@modelcontextprotocol/server-filesystem@2026.8.31");
