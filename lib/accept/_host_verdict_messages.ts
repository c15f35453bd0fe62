/**
 * What each of `accept host`'s verdicts means, and the sentence of the
 * article it tests, in both languages: spread into accept's one table of
 * verdict texts (`verdict_messages.ts`).
 *
 * @module
 */
import type { Text } from "../base/i18n.ts";

/** What each host verdict means. */
export const HOST_VERDICT_MEANING = {
  "TOLD-SUCCESS": {
    en:
      "the host handed the tool's success to the model, and the ledger holds one effect for the key",
    zh: "宿主把工具的成功应答交给了模型，账本中该业务键恰好一个效果",
  },
  "RESENT-REUSED": {
    en:
      "the host sent the same call again by itself; the tool, declared idempotent, reused the key: one effect",
    zh:
      "宿主自行再次发送了同一调用；声明为幂等的工具按业务键复用：只有一个效果",
  },
  "RESENT-DUPLICATED": {
    en:
      "the host sent the same call again by itself, and the tool, not declared idempotent, wrote a second effect",
    zh: "宿主自行再次发送了同一调用，而没有声明幂等的工具又写了一个效果",
  },
  "TOLD-UNKNOWN": {
    en:
      "the host did not send the call again, and told the model its outcome is unknown",
    zh: "宿主没有再次发送该调用，并告诉模型结果未知",
  },
  "TOLD-FAILED": {
    en:
      "the host told the model the call failed while its effect exists: a model that calls again under a new key doubles it",
    zh:
      "效果已经存在，宿主却告诉模型调用失败：换新业务键再调用一次的模型会让效果翻倍",
  },
  "PASSED-ON-ERROR": {
    en:
      "the host handed the model the tool's own error, which the tool answered after its commit: the false failure is the tool's, not the host's",
    zh:
      "宿主把工具自己的错误交给了模型，而工具是在提交之后才回答这个错误的：这个虚假失败出在工具，不在宿主",
  },
  "RUN-ABORTED": {
    en:
      "the host ended the run without telling the model what became of the call, while its effect exists: whoever called the host must check by the key",
    zh:
      "效果已经存在，宿主却没有告诉模型这次调用的结果就结束了运行：调用宿主的一方必须按业务键核对",
  },
  "STILL-WAITING": {
    en:
      "the host was still waiting for the reply when the case's time ran out: what it does after its own timeout was not seen",
    zh: "用例的时限到了，宿主仍在等待应答：它在自己超时之后会做什么，没有看到",
  },
  "HOST-NOT-REACHED": {
    en:
      "the host never called the tool: it was not pointed at the model or at the tool, or did not offer the tool to the model: nothing was tested",
    zh:
      "宿主从未调用工具：它没有接到模型或工具上，或者没有把工具提供给模型：什么也没有测到",
  },
  "CANCELLED-AFTER-COMMIT": {
    en:
      "the host sent notifications/cancelled for the call after the tool's commit: the effect stays",
    zh: "宿主在工具提交之后为该调用发送了 notifications/cancelled：效果仍在",
  },
  "NEW-KEY-DOUBLED": {
    en:
      "the model called again under a new key, and the host's call made a second effect for the same request",
    zh: "模型换了新业务键再次调用，宿主的这次调用为同一个请求留下了第二个效果",
  },
} as const satisfies Record<string, Text>;

/** The sentence of the article each host verdict tests. */
export const HOST_VERDICT_ARTICLE = {
  "TOLD-SUCCESS": {
    en: "to judge this attempt, look at effect_committed or effect_reused too",
    zh: "判断本次行为，要同时看 effect_committed 或 effect_reused",
  },
  "RESENT-REUSED": {
    en: "same key, same arguments: the old draft is read back",
    zh: "同键、同参数会读回旧草稿",
  },
  "RESENT-DUPLICATED": {
    en: "sending again on a timeout alone may duplicate the effect",
    zh: "仅凭一个超时异常就再次发送，可能造成重复效果",
  },
  "TOLD-UNKNOWN": {
    en: "an unknown result: record the key to check and reconcile",
    zh: "正式系统遇到未知结果时，应记录待核对的业务键并对账",
  },
  "TOLD-FAILED": {
    en: "the same error status: once with no row, once with a row",
    zh: "相同 error 状态，一次没有行，一次有行",
  },
  "PASSED-ON-ERROR": {
    en: "when the exception came, the function had already written",
    zh: "异常发生时，函数已经做完了写入",
  },
  "RUN-ABORTED": {
    en: "after a timeout, query by the stable business key first",
    zh: "应先按稳定业务键查询、对账或使用对方的幂等能力",
  },
  "STILL-WAITING": {
    en:
      "a remote call that times out after sending may not know whether it was accepted",
    zh: "真实远程调用若在发送后超时，应用可能不知道对方是否接受请求",
  },
  "HOST-NOT-REACHED": {
    en: "before connecting, confirm each tool's real kind one by one",
    zh: "接入前应逐个确认实际工具类型",
  },
  "CANCELLED-AFTER-COMMIT": {
    en: "a cancelled task means what follows was asked to stop",
    zh: "任务取消，代表后续执行被请求停止",
  },
  "NEW-KEY-DOUBLED": {
    en: "a caller that makes a new job for every retry gets a new draft",
    zh: "调用方若每次重试都生成新 job，就会得到新草稿",
  },
} as const satisfies Record<string, Text>;
