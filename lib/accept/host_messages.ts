/**
 * The texts of `accept host`'s screen, JUnit report and progress, in both
 * languages. The verdicts' own texts (what each means, the article's
 * sentence it tests) are with accept's, in `verdict_messages.ts`.
 *
 * @module
 */
import type { Text } from "../base/i18n.ts";
import type { Told } from "./_host_checker.ts";

/** What the host told the model, in words. */
export const TOLD_WORDS = {
  "success": { en: "success", zh: "成功" },
  "unknown": { en: "outcome unknown", zh: "结果未知" },
  "tool-error": { en: "the tool's own error", zh: "工具自己的错误" },
  "failure": { en: "failed", zh: "失败" },
  "nothing": { en: "nothing", zh: "什么也没说" },
} as const satisfies Record<Told, Text>;

/** The words of `accept host`'s matrix. */
export const HOST_WORDS = {
  title: {
    en:
      "guardlab accept host: {program}, the tool over {transport}; a host still running after {seconds} s is ended",
    zh:
      "guardlab accept host：{program}，工具经由 {transport} 提供；宿主运行超过 {seconds} 秒即被结束",
  },
  titleInProcess: {
    en:
      "guardlab accept host: {program}, the tool over {transport}; a host run still going after {seconds} s is aborted",
    zh:
      "guardlab accept host：{program}，工具经由 {transport} 提供；宿主的运行超过 {seconds} 秒即被中止",
  },
  rights: {
    en:
      "The model and the tool are guardlab's, on loopback; the host ran with your own rights.",
    zh:
      "模型和工具由 guardlab 扮演，只在本机回环地址上；宿主以你自己的权限运行。",
  },
  rightsInProcess: {
    en:
      "The model and the tool are guardlab's; the host ran in guardlab's own process, under its grant: no socket, no process.",
    zh:
      "模型和工具由 guardlab 扮演；宿主在 guardlab 自己的进程里、在它的授权下运行：没有套接字，也没有进程。",
  },
  headCase: { en: "case", zh: "用例" },
  headVariant: { en: "tool", zh: "工具" },
  headVerdict: { en: "verdict", zh: "结论" },
  yes: { en: "yes", zh: "是" },
  no: { en: "no", zh: "否" },
  facts: {
    en:
      "sent again by the host: {resent}; cancel sent: {cancelled}; the model was told: {told}; effects: {effects} (first key {key}, new key {newKey})",
    zh:
      "宿主自行重发：{resent}；发送取消：{cancelled}；模型被告知：{told}；效果：{effects} 个（第一个业务键 {key} 个，新业务键 {newKey} 个）",
  },
  resentTimes: { en: "yes, {n} times", zh: "是，{n} 次" },
  otherArguments: {
    en: "the host sent the call again with other arguments",
    zh: "宿主重发调用时换了参数",
  },
  notCounted: { en: "not counted", zh: "未能计数" },
  toldText: {
    en: "the host told the model: “{text}”",
    zh: "宿主告诉模型：“{text}”",
  },
  hostEnd: {
    en: "the host exited with {code}",
    zh: "宿主以 {code} 退出",
  },
  hostReturned: {
    en: "the host's run returned",
    zh: "宿主的运行正常返回",
  },
  hostThrew: {
    en: "the host's run threw: {line}",
    zh: "宿主的运行抛出了错误：{line}",
  },
  hostLimitInProcess: {
    en:
      "the host's run was still going at the case's limit; guardlab aborted it",
    zh: "到用例时限时宿主的运行仍未结束；guardlab 中止了它",
  },
  hostSignal: {
    en: "a signal ended the host",
    zh: "宿主被信号结束",
  },
  hostLimit: {
    en:
      "the host was still running at the case's limit; guardlab ended its process group",
    zh: "到用例时限时宿主仍在运行；guardlab 结束了它的进程组",
  },
  clients: {
    en: "the host's MCP client: {clients}",
    zh: "宿主的 MCP 客户端：{clients}",
  },
  output: {
    en: "the host's last lines: {lines}",
    zh: "宿主输出的最后几行：{lines}",
  },
  info: {
    en: "also: {verdict}, {meaning}",
    zh: "另外：{verdict}，{meaning}",
  },
  verdictLine: {
    en: "{verdict}: {meaning}",
    zh: "{verdict}：{meaning}",
  },
  article: {
    en: "the article: “{sentence}”",
    zh: "文章：“{sentence}”",
  },
  summary: {
    en:
      "{cases} cases: {safe} safe, {unsafe} unsafe, {inconclusive} inconclusive, {info} information",
    zh:
      "{cases} 个用例：{safe} 个安全，{unsafe} 个不安全，{inconclusive} 个无法判断，{info} 个信息",
  },
  progress: {
    en: "{case} on the {variant} tool: {verdict} ({seconds} s)",
    zh: "{case}（{variant} 工具）：{verdict}（{seconds} 秒）",
  },
  changed: {
    en: "{row}: the report said {was}; its history gives {now}",
    zh: "{row}：报告写的是 {was}；它的历史记录给出的是 {now}",
  },
  judgedFrom: {
    en: "judged again from the histories in {file}",
    zh: "根据 {file} 中的历史记录重新判定",
  },
  junitFacts: {
    en: "what the host did: {facts}",
    zh: "宿主做了什么：{facts}",
  },
} as const satisfies Record<string, Text>;
