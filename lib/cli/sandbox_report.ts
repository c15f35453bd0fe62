/**
 * `guardlab sandbox`: ask the runtime what this process may touch, so a
 * teacher can check a binary before handing it out.
 *
 * @module
 */
import { currentUid, privateFolderProblem } from "../safe_fs.ts";
import { privateRootPath, SANDBOX_ROOT } from "../sandbox.ts";
import { help } from "./commands.ts";
import { EXIT } from "./help.ts";
import type { Io } from "./io.ts";
import { atMostPositionals, parseCommand } from "./parse.ts";

/** One probe: a permission, what guardlab needs, what the runtime says. */
export interface Probe {
  /** What was asked. */
  what: string;
  /** Whether guardlab needs it granted. */
  needed: boolean;
  /** The runtime's answer: granted, prompt or denied. */
  state: Deno.PermissionState;
}

/** Ask the runtime about every permission kind, inside and outside the sandbox root. */
export function probeSandbox(): Probe[] {
  const outside = Deno.build.os === "windows" ? "C:\\" : "/";
  const asks: [string, Deno.PermissionDescriptor, boolean][] = [
    [`read ${SANDBOX_ROOT}`, { name: "read", path: SANDBOX_ROOT }, true],
    [`write ${SANDBOX_ROOT}`, { name: "write", path: SANDBOX_ROOT }, true],
    [`read ${outside}`, { name: "read", path: outside }, false],
    [`write ${outside}`, { name: "write", path: outside }, false],
    ["net", { name: "net" }, false],
    ["env", { name: "env" }, false],
    ["run", { name: "run" }, false],
    ["ffi", { name: "ffi" }, false],
    ["sys", { name: "sys" }, false],
    ["import", { name: "import" }, false],
  ];
  return asks.map(([what, descriptor, needed]) => ({
    what,
    needed,
    state: Deno.permissions.querySync(descriptor).state,
  }));
}

/** What the private folder looks like: guardlab only uses it when `private`. */
export interface RootReport {
  /** The folder, `guardlab-UID` inside the temp folder. */
  path: string;
  /** `private`: a real folder, yours, mode 0700-like; `absent`: made on first use; `unsafe`: refused. */
  state: "private" | "absent" | "unsafe";
  /** What is wrong, when `unsafe`. */
  problem?: string;
}

/** Look at the private folder without creating or changing anything. */
export function inspectRoot(base: string): RootReport {
  const path = privateRootPath(base);
  const problem = privateFolderProblem(path, currentUid(base));
  if (problem === null) return { path, state: "private" };
  if (problem === "does not exist") return { path, state: "absent" };
  return { path, state: "unsafe", problem };
}

/**
 * `guardlab sandbox [--json]`: exit 0 when the grant is exactly the narrow
 * one and the private folder is safe (or not made yet).
 */
export function sandbox(args: string[], io: Io): Promise<number> {
  const { values, positionals } = parseCommand("sandbox", args, {
    json: { type: "boolean" },
  });
  if (values.help) return Promise.resolve(help(io, "sandbox"));
  atMostPositionals("sandbox", positionals, 0);
  const probes = probeSandbox();
  const narrow = probes.every((p) => (p.state === "granted") === p.needed);
  const root = inspectRoot(io.base);
  const safe = root.state !== "unsafe";
  if (values.json) io.out(JSON.stringify({ narrow, probes, root }));
  else {
    for (const p of probes) {
      const verdict = (p.state === "granted") === p.needed
        ? "as intended"
        : "NOT as intended";
      io.out(`${p.what.padEnd(28)} ${p.state.padEnd(8)} ${verdict}`);
    }
    io.out(
      "(prompt: not granted; guardlab runs with --no-prompt, so it is refused)",
    );
    io.out(
      narrow
        ? `narrow: only ${SANDBOX_ROOT} can be read and written`
        : "this process has a different grant than the guardlab sandbox",
    );
    io.out(
      root.state === "private"
        ? `private folder: ${root.path} is yours alone`
        : root.state === "absent"
        ? `private folder: ${root.path} (made with mode 0700 on first use)`
        : `UNSAFE private folder: ${root.path} ${root.problem}`,
    );
  }
  return Promise.resolve(narrow && safe ? EXIT.ok : EXIT.failed);
}
