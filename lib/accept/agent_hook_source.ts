/**
 * The agent hook's source text (`agent_hook.mjs`), as `guardlab proxy
 * --print-agent-hook` prints it and the release ships it: one file, read
 * into the program as text (the binary embeds it), never run here.
 *
 * @module
 */
import source from "./agent_hook.mjs" with { type: "text" };

/** The agent hook, byte for byte: a module for Node and Deno that writes an agent record. */
export const AGENT_HOOK_SOURCE: string = source;
