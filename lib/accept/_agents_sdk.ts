/**
 * The agent host `accept host --example agents-core` and exercise 20 run
 * in process: the OpenAI Agents SDK's core, `@openai/agents-core` 0.20.0
 * (import_map.json pins it; its hash is in `deno.lock`). Only
 * `lib/accept/_host_example.ts` imports this module, through a dynamic
 * import of a literal specifier, when that host runs: no command loads
 * the package otherwise.
 *
 * agents-core and its `debug` dependency read `process.env` when they load
 * and when they run. The students' grant ignores the environment (deno.json:
 * `"env": {"ignore": true}`), so every such read answers "not set" there.
 *
 * @module
 */
export {
  Agent,
  MCPServerStreamableHttp,
  Runner,
  Usage,
} from "@openai/agents-core";
export type { Model, ModelRequest, ModelResponse } from "@openai/agents-core";
