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
} from "../../sandbox/safe_fs.ts";
import {
  type Place,
  privateRootPath,
  privateRootRemedy,
  SANDBOX_ROOT,
} from "../../sandbox/sandbox.ts";
import { fill, say, type Text } from "../../base/i18n.ts";
import { EXIT } from "../exit.ts";
import { command } from "../parser.ts";

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

/** What `sandbox` tells a person. */
export const SANDBOX_MESSAGES = {
  asIntended: { en: "as intended", zh: "符合预期" },
  notAsIntended: { en: "NOT as intended", zh: "不符合预期" },
  prompt: {
    en:
      "(prompt: not granted; guardlab runs with --no-prompt, so it is refused)",
    zh: "（prompt：未授权；guardlab 以 --no-prompt 运行，因此会被拒绝）",
  },
  narrow: {
    en: "narrow: only {root} can be read and written",
    zh: "narrow: 只能读写 {root}",
  },
  differentGrant: {
    en: "this process has a different grant than the guardlab sandbox",
    zh: "本进程的授权与 guardlab 沙箱不同",
  },
  private: {
    en: "private folder: {path} is yours alone",
    zh: "private folder: {path} 只属于你",
  },
  absent: {
    en: "private folder: {path} (made with mode 0700 on first use)",
    zh: "private folder: {path}（首次使用时以 0700 权限创建）",
  },
} as const satisfies Record<string, Text>;

/** The `sandbox` command. */
export const sandbox = command({
  name: "sandbox",
  summary: {
    en: "what this process may touch, and whether your folder is safe",
    zh: "查看本进程能访问什么，以及你的私有目录是否安全",
  },
  usage: "sandbox [--json]",
  about: {
    en:
      `Asks the runtime what this process may read, write and do, and compares it
with the grant guardlab is built with: read and write under ${SANDBOX_ROOT}
only; no network, environment, subprocess, FFI, system-info or import access.
Then looks at your private folder without creating or changing anything.
"prompt" means not granted: guardlab runs with --no-prompt, so it is refused.`,
    zh:
      `向运行时询问本进程能读、写、做什么，并与 guardlab 编译时的授权比较：只能读写
${SANDBOX_ROOT}；没有网络、环境变量、子进程、FFI、系统信息或动态导入权限。然后
查看你的私有目录，不创建也不修改任何东西。"prompt" 表示未授权：guardlab 以
--no-prompt 运行，因此会被拒绝。`,
  },
  options: {
    json: {
      type: "boolean",
      help: {
        en: 'print {"narrow", "probes": [...], "root": {...}}',
        zh: '输出 {"narrow", "probes": [...], "root": {...}}',
      },
    },
  },
  maxPositionals: 0,
  exits: {
    0: {
      en: "the grant is exactly the narrow one and the folder is safe",
      zh: "授权正好是最小授权，且私有目录安全",
    },
    1: {
      en: "a different grant, or an unsafe private folder",
      zh: "授权不同，或私有目录不安全",
    },
    2: null,
  },
  run({ values, io, lang }) {
    const probes = probeSandbox();
    const narrow = probes.every((p) => (p.state === "granted") === p.needed);
    const root = inspectRoot(io);
    const safe = root.state !== "unsafe";
    if (values.json) io.out(JSON.stringify({ narrow, probes, root }));
    else {
      const m = SANDBOX_MESSAGES;
      const text = (t: Text, values: Record<string, string> = {}) =>
        say(fill(t, values), lang);
      for (const p of probes) {
        const intended = (p.state === "granted") === p.needed;
        const verdict = text(intended ? m.asIntended : m.notAsIntended);
        io.out(`${p.what.padEnd(28)} ${p.state.padEnd(8)} ${verdict}`);
      }
      io.out(text(m.prompt));
      io.out(
        text(narrow ? m.narrow : m.differentGrant, { root: SANDBOX_ROOT }),
      );
      const problem = inspectRootProblem(root, io.base);
      io.out(
        root.state === "unsafe"
          ? `UNSAFE private folder: ${root.path} ${
            problem ? say(problem, lang) : root.problem
          }; ${say(privateRootRemedy(io), lang)}`
          : text(root.state === "private" ? m.private : m.absent, {
            path: root.path,
          }),
      );
    }
    return narrow && safe ? EXIT.ok : EXIT.failed;
  },
});
