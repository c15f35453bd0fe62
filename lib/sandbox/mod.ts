/**
 * The sandbox: where guardlab may read and write, checked by the program
 * itself, because Deno checks a permission against the path as written.
 * Nothing here follows a link; every folder on a path is owned by the user
 * or root, and one others can write must be sticky; a refusal is one line.
 *
 * - `grant.ts`: the folders of the grant, as `deno.json`'s permission sets
 *   state them.
 * - `sandbox.ts`: the private folder per user (or `--home`), named ledgers,
 *   reset.
 * - `safe_fs.ts`: path checks that never follow a link (owner, mode, every
 *   folder on the way) and the system's refusals as one line.
 * - `plain_file.ts`: a file given to read, opened without following a
 *   link, the open file the one checked and within its bound.
 * - `scratch.ts`: one unguessable scratch folder per process, removed when
 *   the command ends.
 * - `new_file.ts`: a file written for the user (a report, a trace),
 *   created new, never over an existing name.
 * - `private_file.ts`: small JSON files in the private folder, bounded
 *   before they are read, written whole.
 * - `read_bounded.ts`: the one bounded reader, for a file however it was
 *   opened or a stream: to its end, or one byte past its bound.
 * - `_messages.ts`: the sandbox's newer refusals.
 *
 * @module
 */
export * from "./grant.ts";
export * from "./new_file.ts";
export * from "./plain_file.ts";
export * from "./private_file.ts";
export * from "./read_bounded.ts";
export * from "./safe_fs.ts";
export * from "./sandbox.ts";
export * from "./scratch.ts";
