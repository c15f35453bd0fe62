/**
 * `guardlab sandbox`: ask the runtime what this process may touch, so a
 * teacher can check a binary before handing it out.
 *
 * @module
 */
import { SANDBOX_ROOT } from "../sandbox.ts";
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

/** `guardlab sandbox [--json]`: exit 0 when the grant is exactly the narrow one. */
export function sandbox(args: string[], io: Io): Promise<number> {
  const { values, positionals } = parseCommand("sandbox", args, {
    json: { type: "boolean" },
  });
  if (values.help) return Promise.resolve(help(io, "sandbox"));
  atMostPositionals("sandbox", positionals, 0);
  const probes = probeSandbox();
  const narrow = probes.every((p) => (p.state === "granted") === p.needed);
  if (values.json) io.out(JSON.stringify({ narrow, probes }));
  else {
    for (const p of probes) {
      const verdict = (p.state === "granted") === p.needed
        ? "as intended"
        : "NOT as intended";
      const shown = p.state === "granted" ? "granted" : "refused";
      io.out(`${p.what.padEnd(28)} ${shown.padEnd(8)} ${verdict}`);
    }
    io.out(
      narrow
        ? `narrow: only ${SANDBOX_ROOT} can be read and written`
        : "this process has a different grant than the guardlab sandbox",
    );
  }
  return Promise.resolve(narrow ? EXIT.ok : EXIT.failed);
}
