/**
 * `guardlab sandbox`: ask the runtime what this process may touch, so a
 * teacher can check a binary before handing it out.
 *
 * @module
 */
import {
  currentUid,
  privateFolderProblem,
  PROBLEM,
} from "../../../sandbox/safe_fs.ts";
import {
  type Place,
  privateRootPath,
  privateRootRemedy,
  SANDBOX_ROOT,
} from "../../../sandbox/sandbox.ts";
import { say, type Text } from "../../../base/i18n.ts";
import { displayWidth } from "../../../base/terminal.ts";
import { command } from "../../command.ts";
import { EXIT } from "../../exit.ts";
import { SANDBOX_HELP as H, SANDBOX_MESSAGES as M } from "./_messages.ts";
import { writerFor } from "../../output.ts";

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

/** What is wrong with an unsafe folder, in both languages (read again, unchanged). */
function inspectRootProblem(root: RootReport, base: string): Text | null {
  if (root.state !== "unsafe") return null;
  return privateFolderProblem(root.path, currentUid(base));
}

/** Look at the private folder without creating or changing anything. */
export function inspectRoot(place: string | Place): RootReport {
  const path = privateRootPath(place);
  const base = typeof place === "string" ? place : place.base;
  const problem = privateFolderProblem(path, currentUid(base));
  if (problem === null) return { path, state: "private" };
  if (problem === PROBLEM.missing) return { path, state: "absent" };
  // The JSON report is for machines: English, whatever the screen's language.
  return { path, state: "unsafe", problem: say(problem, "en") };
}

/** `text` padded to `width` columns (a CJK character is two). */
function pad(text: string, width: number): string {
  return text + " ".repeat(Math.max(0, width - displayWidth(text)));
}

/** The `sandbox` command. */
export const sandbox = command({
  name: "sandbox",
  usage: "sandbox [--json]",
  about: H.about,
  options: { json: { type: "boolean", help: H.json } },
  maxPositionals: 0,
  exits: { 0: H.exitOk, 1: H.exitFailed, 2: null },
  run({ values, io, lang }) {
    const probes = probeSandbox();
    const narrow = probes.every((p) => (p.state === "granted") === p.needed);
    const root = inspectRoot(io);
    const safe = root.state !== "unsafe";
    const out = writerFor(io, lang);
    if (values.json) out.json({ narrow, probes, root });
    else {
      for (const p of probes) {
        const intended = (p.state === "granted") === p.needed;
        const verdict = out.text(intended ? M.asIntended : M.notAsIntended);
        // "read /tmp" as the reader says it; the JSON keeps the runtime's words.
        const [kind, ...rest] = p.what.split(" ");
        const what = Object.hasOwn(M.access, kind)
          ? [out.text(M.access[kind as keyof typeof M.access]), ...rest]
            .join(" ")
          : p.what;
        io.out(
          `${pad(what, 28)} ${pad(out.text(M.state[p.state]), 8)} ${verdict}`,
        );
      }
      out.say(M.prompt);
      if (probes.some((p) => p.state === "denied")) out.say(M.denied);
      out.say(narrow ? M.narrow : M.differentGrant, { root: SANDBOX_ROOT });
      const problem = inspectRootProblem(root, io.base);
      if (root.state === "unsafe") {
        out.say(M.unsafe, {
          path: root.path,
          problem: problem ? out.text(problem) : root.problem ?? "",
          remedy: out.text(privateRootRemedy(io)),
        });
      } else {
        out.say(root.state === "private" ? M.private : M.absent, {
          path: root.path,
        });
      }
    }
    return narrow && safe ? EXIT.ok : EXIT.failed;
  },
});
