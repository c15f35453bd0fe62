/**
 * The command lines of the MCP servers someone else wrote that chapter 8
 * runs `accept` against, as the accept tests and
 * `scripts/chapter8_reports.ts` start them: each pinned npm package run
 * offline (`--cached-only`, `--frozen` against deno.lock), reading and
 * writing one folder of the test's own. The package's specifier is the
 * caller's (`tests/_helpers/deps.ts` for a test, import_map.json for the
 * script).
 */
import { join } from "node:path";
import { ROOT } from "./root.ts";

/** `deno run` of a pinned npm server `spec`, offline, with `flags`. */
export function npmServer(spec: string, flags: string[]): string[] {
  return [
    Deno.execPath(),
    "run",
    "-q",
    `--lock=${join(ROOT, "deno.lock")}`,
    "--frozen",
    "--cached-only",
    ...flags,
    spec,
  ];
}

/** `@modelcontextprotocol/server-memory` (`spec`), its graph in `dir`/memory.jsonl. */
export function memoryServer(spec: string, dir: string): string[] {
  return [
    "env",
    `MEMORY_FILE_PATH=${join(dir, "memory.jsonl")}`,
    ...npmServer(spec, [
      `--allow-read=${dir}`,
      `--allow-write=${dir}`,
      "--allow-env",
    ]),
  ];
}

/** `@modelcontextprotocol/server-filesystem` (`spec`), serving `root` only. */
export function filesystemServer(spec: string, root: string): string[] {
  return [
    ...npmServer(spec, [
      `--allow-read=${root}`,
      `--allow-write=${root}`,
      "--allow-env",
      "--allow-sys",
    ]),
    root,
  ];
}

/**
 * The filesystem server's oracle (`tests/accept/oracles/server-filesystem.json`),
 * its files named under `root`: the chapter's folder, `/tmp/fs-demo`,
 * becomes the caller's.
 */
export function filesystemOracle(root: string): string {
  return Deno.readTextFileSync(
    join(ROOT, "tests/accept/oracles/server-filesystem.json"),
  ).replaceAll("/tmp/fs-demo", root);
}
