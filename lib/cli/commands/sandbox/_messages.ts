/**
 * What `guardlab sandbox` says: its help, each probe's verdict and the state
 * of the private folder.
 *
 * @module
 */
import type { Text } from "../../../base/i18n.ts";
import { SANDBOX_ROOT } from "../../../sandbox/grant.ts";

/** `sandbox --help`: what it does, its flag, its exit codes. */
export const SANDBOX_HELP = {
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
查看你的私有目录，不创建也不修改任何东西。“未授权”即 Deno 的 prompt 状态：
guardlab 以 --no-prompt 运行，因此会被拒绝。`,
  },
  json: {
    en: 'print {"narrow", "probes": [...], "root": {...}}',
    zh: '输出 {"narrow", "probes": [...], "root": {...}}',
  },
  exitOk: {
    en: "the grant is exactly the narrow one and the folder is safe",
    zh: "授权正好是最小授权，且私有目录安全",
  },
  exitFailed: {
    en: "a different grant, or an unsafe private folder",
    zh: "授权不同，或私有目录不安全",
  },
} as const satisfies Record<string, Text>;

/** What `sandbox` tells a person. */
export const SANDBOX_MESSAGES = {
  asIntended: { en: "as intended", zh: "符合预期" },
  notAsIntended: { en: "NOT as intended", zh: "不符合预期" },
  prompt: {
    en:
      "(prompt: not granted; guardlab runs with --no-prompt, so it is refused)",
    zh:
      "（未授权即 Deno 的 prompt 状态：guardlab 以 --no-prompt 运行，因此会被拒绝）",
  },
  denied: {
    en:
      '(denied: refused; the environment is ignored: a read of any variable the grant does not name answers "not set")',
    zh:
      "（已拒绝：会被拒绝；环境变量被忽略：读取授权未列出的任何变量，都得到“未设置”）",
  },
  /** The runtime's answer for one permission, as a reader says it. */
  state: {
    granted: { en: "granted", zh: "已授权" },
    prompt: { en: "prompt", zh: "未授权" },
    denied: { en: "denied", zh: "已拒绝" },
  } as Readonly<Record<Deno.PermissionState, Text>>,
  /** A read or write probe of a folder. */
  access: {
    read: { en: "read", zh: "读" },
    write: { en: "write", zh: "写" },
  },
  unsafe: {
    en: "UNSAFE private folder: {path} {problem}; {remedy}",
    zh: "私有目录不安全：{path} {problem}；{remedy}",
  },
  narrow: {
    en: "narrow: only {root} can be read and written",
    zh: "授权范围：只能读写 {root}",
  },
  differentGrant: {
    en: "this process has a different grant than the guardlab sandbox",
    zh: "本进程的授权与 guardlab 沙箱不同",
  },
  private: {
    en: "private folder: {path} is yours alone",
    zh: "私有目录：{path} 只属于你",
  },
  absent: {
    en: "private folder: {path} (made with mode 0700 on first use)",
    zh: "私有目录：{path}（首次使用时以 0700 权限创建）",
  },
} as const;
