/**
 * The few path functions every command needs (`basename`, `dirname`,
 * `isAbsolute`, `join`, `resolve`, `sep`), with `node:path`'s results, so
 * that a call that starts fast never loads `node:path`. Loading any `node:`
 * module but `node:sqlite` first sets up Deno's Node compatibility layer,
 * 3–6 ms of every start measured by `deno task bench`; `node:path` itself
 * is the largest such import on every command's path. On POSIX systems
 * these are written here (`tests/base/path_test.ts` holds them to
 * `node:path` on a list of odd paths); on Windows, where drive letters and
 * UNC names make them another matter, they are `node:path`'s own, loaded
 * on first use.
 *
 * @module
 */
import type * as NodePath from "node:path";
import { nodeBuiltin } from "./node_builtin.ts";

const WINDOWS = Deno.build.os === "windows";

let win32: typeof NodePath | undefined;

/** `node:path` for Windows, loaded on first use (see the module doc). */
function windowsPath(): typeof NodePath {
  win32 ??= nodeBuiltin<typeof NodePath>("node:path");
  return win32;
}

/** The platform's path separator: `/`, or `\` on Windows. */
export const sep: string = WINDOWS ? "\\" : "/";

/**
 * `path` with `.` and empty parts dropped and each `..` taken back where it
 * can be (above the root it stays, for a relative path, or is dropped).
 */
function normalized(path: string): string {
  const absolute = path.startsWith("/");
  const parts: string[] = [];
  for (const part of path.split("/")) {
    if (part === "" || part === ".") continue;
    if (part === "..") {
      if (parts.length > 0 && parts[parts.length - 1] !== "..") parts.pop();
      else if (!absolute) parts.push("..");
      continue;
    }
    parts.push(part);
  }
  const body = parts.join("/");
  if (absolute) return "/" + body;
  return body === "" ? "." : body;
}

/**
 * Whether `path` is absolute.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { isAbsolute } from "./path.ts";
 * assert.equal(isAbsolute("/tmp/x"), Deno.build.os !== "windows");
 * assert.equal(isAbsolute("x"), false);
 * ```
 */
export function isAbsolute(path: string): boolean {
  if (WINDOWS) return windowsPath().isAbsolute(path);
  return path.startsWith("/");
}

/**
 * The parts joined with the separator and normalized (`.` for nothing).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { join } from "./path.ts";
 * if (Deno.build.os !== "windows") {
 *   assert.equal(join("/tmp", "a", "../b/"), "/tmp/b/");
 * }
 * ```
 */
export function join(...parts: string[]): string {
  if (WINDOWS) return windowsPath().join(...parts);
  const joined = parts.filter((p) => p !== "").join("/");
  if (joined === "") return ".";
  const body = normalized(joined);
  // A trailing separator is kept, as node:path keeps it.
  return joined.endsWith("/") && body !== "/" ? body + "/" : body;
}

/**
 * `parts` resolved from the right into an absolute, normalized path, the
 * current folder when none is absolute; no trailing separator.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { resolve } from "./path.ts";
 * if (Deno.build.os !== "windows") {
 *   assert.equal(resolve("/tmp", "a/", "../b"), "/tmp/b");
 * }
 * ```
 */
export function resolve(...parts: string[]): string {
  if (WINDOWS) return windowsPath().resolve(...parts);
  let path = "";
  for (let i = parts.length - 1; i >= 0 && !path.startsWith("/"); i--) {
    if (parts[i] === "") continue;
    path = path === "" ? parts[i] : `${parts[i]}/${path}`;
  }
  if (!path.startsWith("/")) path = `${Deno.cwd()}/${path}`;
  return normalized(path);
}

/**
 * The folder part of `path`: everything before its last part and the
 * separator just before it (`.` for a bare name, `/` for the root), as
 * `node:path` cuts it.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { dirname } from "./path.ts";
 * if (Deno.build.os !== "windows") {
 *   assert.equal(dirname("/tmp/a/"), "/tmp");
 *   assert.equal(dirname("a"), ".");
 * }
 * ```
 */
export function dirname(path: string): string {
  if (WINDOWS) return windowsPath().dirname(path);
  if (path === "") return ".";
  const rooted = path.startsWith("/");
  let end = -1;
  let inLastPart = false;
  for (let i = path.length - 1; i >= 1; i--) {
    if (path[i] !== "/") inLastPart = true;
    else if (inLastPart) {
      end = i;
      break;
    }
  }
  if (end === -1) return rooted ? "/" : ".";
  if (rooted && end === 1) return "//";
  return path.slice(0, end);
}

/**
 * The last part of `path`, trailing separators ignored.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { basename } from "./path.ts";
 * if (Deno.build.os !== "windows") assert.equal(basename("/tmp/a/"), "a");
 * ```
 */
export function basename(path: string): string {
  if (WINDOWS) return windowsPath().basename(path);
  let end = path.length;
  while (end > 0 && path[end - 1] === "/") end--;
  return path.slice(path.lastIndexOf("/", end - 1) + 1, end);
}
