/**
 * The test suite's npm packages, imported here and only here.
 * `import_map.json` pins their versions and `deno.lock` holds their
 * integrity hashes; `deno task test`, `deno task bench` and CI read the
 * lock with `--frozen`, so a changed or stale lock fails instead of
 * updating. The program's own graph never reaches this file, so the first
 * `deno task demo` on an empty cache fetches none of them.
 */
import importMap from "../../import_map.json" with { type: "json" };
export { default as fc } from "fast-check";
export { XMLParser, XMLValidator } from "fast-xml-parser";
export { parse as babelParse } from "@babel/parser";
/**
 * The MCP SDK's own client, for tests that spawn `guardlab mcp`. Loaded on
 * demand: its stdio transport reads the environment when its module loads,
 * so a static import would break every test under the plain
 * `deno test --allow-read --allow-write`.
 */
export async function mcpClientSdk() {
  const [{ Client }, { StdioClientTransport }] = await Promise.all([
    import("@modelcontextprotocol/sdk/client/index.js"),
    import("@modelcontextprotocol/sdk/client/stdio.js"),
  ]);
  return { Client, StdioClientTransport };
}

/**
 * `@openai/agents-core`, the OpenAI Agents SDK for JavaScript, exactly as the
 * SDK lens was verified against it (the version import_map.json pins).
 * Loaded only when called: evaluating it reads all of `process.env` (a
 * dependency lists it), so a test checks the env permission first and
 * reports itself ignored without it. The literal specifier keeps the package
 * in the type-checked graph and in `deno.lock`.
 */
export const loadAgentsCore = () => import("@openai/agents-core");

/**
 * Real MCP servers written by someone else, run by the accept tests as
 * child processes (`deno run … npm:…`, offline, `--frozen` against
 * `deno.lock`), at the version import_map.json pins. The pin functions keep
 * them in the type-checked graph and their hashes in `deno.lock`; they are
 * never called in this process.
 */
export const SERVER_MEMORY: string =
  importMap.imports["@modelcontextprotocol/server-memory"];
/** Keeps {@linkcode SERVER_MEMORY} in the graph and the lock. */
export const pinServerMemory = () =>
  import("@modelcontextprotocol/server-memory");

/** The reference filesystem server, as {@linkcode SERVER_MEMORY}. */
export const SERVER_FILESYSTEM: string =
  importMap.imports["@modelcontextprotocol/server-filesystem"];
/** Keeps {@linkcode SERVER_FILESYSTEM} in the graph and the lock. */
export const pinServerFilesystem = () =>
  import("@modelcontextprotocol/server-filesystem");

/**
 * A third MCP server nobody here wrote, `accept init`'s walk-through in
 * chapter 8 (a memory bank: files by project and name), as
 * {@linkcode SERVER_MEMORY}.
 */
export const SERVER_MEMORY_BANK: string =
  importMap.imports["@allpepper/memory-bank-mcp"];
/** Keeps {@linkcode SERVER_MEMORY_BANK} in the graph and the lock. */
export const pinServerMemoryBank = () => import("@allpepper/memory-bank-mcp");

/**
 * libxml2's `xmllint`, built to WebAssembly: validates the JUnit report
 * against the schemas CI systems read, offline. Loaded only when called.
 */
export const loadXmllint = () => import("xmllint-wasm");

/**
 * OpenTelemetry's own decoder of a trace: the protobufjs classes generated
 * from the OTLP `.proto` files, shipped by `@opentelemetry/otlp-transformer`
 * up to 0.216.0 (the version import_map.json pins; later versions dropped
 * them). `tests/_helpers/otlp.ts` reads guardlab's OTLP JSON with them.
 */
export { default as otlpProtoRoot } from "@opentelemetry/otlp-transformer/build/src/generated/root.js";

/**
 * OpenTelemetry's attribute names, as `@opentelemetry/semantic-conventions`
 * 1.41.1 defines them (the stable entry and the incubating one, where the
 * MCP and GenAI names live).
 */
export * as semconvStable from "@opentelemetry/semantic-conventions";
/** The incubating names, beside {@linkcode semconvStable}. */
export * as semconvIncubating from "@opentelemetry/semantic-conventions/incubating";

/**
 * Express, and express-idempotency (a middleware nobody here wrote): the
 * HTTP APIs the accept tests start as child processes
 * (examples/http_orders_api.ts, docs/examples/idem/), offline, as
 * {@linkcode SERVER_MEMORY}. Kept in the graph and the lock; never called.
 */
export const pinExpress = () =>
  Promise.all([import("express"), import("express-idempotency")]);

/**
 * @node-idempotency/core and its in-memory storage adapter (another
 * middleware nobody here wrote), for docs/examples/idem/, as
 * {@linkcode pinExpress}. Kept in the graph and the lock; never called.
 */
export const pinNodeIdempotency = () =>
  Promise.all([
    import("@node-idempotency/core"),
    import("@node-idempotency/storage-adapter-memory"),
  ]);
