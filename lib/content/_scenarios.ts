/**
 * The explanations of every demo scenario, side by side in English and
 * Chinese: what happened, why the check could (or could not) prevent the
 * effect, and the safe next step. The scenarios themselves, as steps, are
 * in `lib/experiments/`, in demo order: the timing lab's, the policy lab's,
 * then the article's other claims.
 *
 * @module
 */
import {
  TIMING_SCENARIOS,
  type TimingScenarioName,
} from "../experiments/timing_scenarios.ts";
import {
  POLICY_SCENARIOS,
  type PolicyScenarioName,
} from "../experiments/policy_scenarios.ts";
import {
  ARTICLE_SCENARIOS,
  type ArticleScenarioName,
} from "../experiments/article_scenarios.ts";
import type { Explanation } from "./_explanation.ts";
import { SDK_JS_VERSION, SDK_PY_COMMIT } from "./sdk_sources.ts";

const PY = SDK_PY_COMMIT.slice(0, 8);
const JS = SDK_JS_VERSION;

/** A demo scenario's name. */
export type ScenarioName =
  | TimingScenarioName
  | PolicyScenarioName
  | ArticleScenarioName;

/** Every scenario `guardlab demo` runs, in demo order. */
export const SCENARIOS: readonly ScenarioName[] = [
  ...TIMING_SCENARIOS,
  ...POLICY_SCENARIOS,
  ...ARTICLE_SCENARIOS,
].map((scenario) => scenario.name);

/** Each demo scenario's explanation. */
export const SCENARIO_EXPLANATIONS: Readonly<
  Record<ScenarioName, Explanation>
> = {
  input_rejected: {
    lab: "timing",
    happened: {
      en: "JOB-001 asked for 4 copies. The arguments were well formed, but " +
        "the business input check allows at most 3, so it said no.",
      zh: "JOB-001 请求 4 份。参数结构合法，" +
        "但业务前检把单次上限定为 3，于是拒绝。",
    },
    why: {
      en:
        "The check ran before the business step, so nothing was written: no " +
        "draft, only a receipt saying input_rejected.",
      zh: "前检发生在业务步骤之前，所以什么也没写：没有草稿，" +
        "只有一条 input_rejected 回执。",
    },
    next: {
      en: "Nothing to undo. Send a request within the limit if one is wanted.",
      zh: "无需撤销。如仍需要，按上限内的份数重新发起请求。",
    },
  },
  output_rejected: {
    lab: "timing",
    happened: {
      en: "JOB-001 (river, 2 copies) was stored and committed; then the " +
        "result handed to the output check was corrupted and the check " +
        "refused it.",
      zh: "JOB-001（river，2 份）已写入并提交；" +
        "随后交给后检的结果被污染，后检拒绝了它。",
    },
    why: {
      en: "The output check runs after the commit point. Refusing the result " +
        "stops the caller from using it; it cannot take back the committed " +
        "draft.",
      zh: "后检位于提交点之后。拒绝结果只能阻止调用方继续使用它，" +
        "不能收回已提交的草稿。",
    },
    next: {
      en:
        "Reconcile: the draft exists without an accepted receipt. Retry the " +
        "same key and arguments; the draft is reused and checked again.",
      zh: "对账：草稿存在但没有 accepted 回执。用相同的键和参数重试，" +
        "草稿会被复用并再次后检。",
    },
  },
  retry_same_request: {
    lab: "timing",
    happened: {
      en: "The same JOB-001 request was sent again. The business step found " +
        "the draft with the same digest and reused it (effect_reused).",
      zh: "同一个 JOB-001 请求再次发送。" +
        "业务步骤找到摘要相同的草稿并复用（effect_reused）。",
    },
    why: {
      en: "The business key makes the retry idempotent: one draft, several " +
        "receipts. The output check still ran on this attempt's result.",
      zh:
        "业务键让重试幂等：一条草稿，多条回执。本次尝试的结果仍然经过了后检。",
    },
    next: {
      en: "Done: the caller received the checked value; the ledger holds one " +
        "draft.",
      zh: "完成：调用方拿到已检查的结果，账本里只有一条草稿。",
    },
  },
  cancelled_after_business: {
    lab: "timing",
    happened: {
      en: "JOB-002 was cancelled right after its transaction committed.",
      zh: "JOB-002 在事务提交之后立即被取消。",
    },
    why: {
      en: "A cancellation stops what comes next; it does not roll back a " +
        "commit that already returned. The draft stays, the receipt says " +
        "cancelled.",
      zh: "取消只能阻止后续步骤，不会回滚已经返回的提交。草稿留下，" +
        "回执记为 cancelled。",
    },
    next: {
      en: "Do not assume nothing happened. Look the key up (or reconcile), " +
        "then retry the same key and arguments instead of sending a new " +
        "key.",
      zh: "不要假定什么都没发生。先按键查询或对账，再用相同的键和参数重试，" +
        "而不是换新键。",
    },
  },
  naive_stale: {
    lab: "policy",
    happened: {
      en: "The pre-check saw revision 1 (limit 3) and allowed 2 copies; the " +
        "rule then changed to limit 1; the naive insert wrote anyway.",
      zh: "前检看到修订号 1（上限 3），允许 2 份；之后规则改成上限 1；" +
        "对照实现 insert_naive 照样写入了。",
    },
    why: {
      en: "A pre-check judges the facts it saw. Trusting it at commit time " +
        "writes a draft that breaks the rule in force when it committed.",
      zh: "前检只能判断它当时看到的事实。提交时仍信任旧结论，" +
        "写下的草稿违反了提交时生效的规则。",
    },
    next: {
      en: "This is the wrong control on purpose: never write on an old check " +
        "alone.",
      zh: "这是故意保留的对照实现：不能只凭旧的检查结论写入。",
    },
  },
  checked_stale: {
    lab: "policy",
    happened: {
      en: "Same interleaving, but the insert is conditional: it commits only " +
        "if the revision is still the one checked and the limit still fits.",
      zh: "同样的交错，但写入是条件式的：只有修订号仍等于前检所见、" +
        "上限仍容纳份数时才提交。",
    },
    why: {
      en: "The condition is evaluated in the same write transaction as the " +
        "insert, so no rule change can slip in between. It matched nothing: " +
        "no draft.",
      zh: "条件与插入在同一个写事务里判断，规则修改无法插到两者之间。" +
        "条件不匹配：没有草稿。",
    },
    next: {
      en:
        "Re-read the rule and the request. The same request fails the fresh " +
        "check; a deliberately new request (JOB-002, 1 copy) passes and " +
        "commits.",
      zh: "重新读取规则和请求。同一请求在新的前检中仍被拒绝；" +
        "明确换成新请求（JOB-002，1 份）后通过并提交。",
    },
  },
  restored_value_old_revision: {
    lab: "policy",
    happened: {
      en: "The limit went 3 → 1 → 3. The value is back, but the revision " +
        "moved from 1 to 3, and the old snapshot was refused.",
      zh: "上限经历 3 → 1 → 3。数值回来了，" +
        "但修订号已从 1 变为 3，旧 Snapshot 被拒绝。",
    },
    why: {
      en: "Every rule change advances the revision, even back to an old " +
        "value, so an old check can never count as a check of the current " +
        "rule.",
      zh: "每次修改规则都推进修订号，即使改回旧值，" +
        "所以旧的检查永远不能冒充对当前规则的检查。",
    },
    next: {
      en: "Run a fresh pre-check and insert with the new snapshot.",
      zh: "重新前检，用新的 Snapshot 写入。",
    },
  },
  precommit_error: {
    lab: "policy",
    happened: {
      en: "The insert ran, then a failure was injected before COMMIT.",
      zh: "插入已执行，随后在 COMMIT 之前注入了失败。",
    },
    why: {
      en: "The failure came before the commit point, so the transaction " +
        "rolled back; the other connection sees no draft.",
      zh: "失败发生在提交点之前，事务回滚；另一个连接查不到草稿。",
    },
    next: {
      en: "Nothing to undo. Investigate the error; retry only with a fresh " +
        "check.",
      zh: "无需撤销。先排查错误；重试前重新检查。",
    },
  },
  naive_receipt: {
    lab: "article",
    happened: {
      en: "With a test-only RAISE(IGNORE) trigger on the receipts, the " +
        "original receipt code (the last row id, no row count check) " +
        "returned accepted, attempt 1 and the released value.",
      zh: "回执表上装了仅用于测试的 RAISE(IGNORE) 触发器；" +
        "修正前的回执代码（只取 lastrowid、不检查行数）" +
        "返回 accepted、attempt 1 和放行的结果。",
    },
    why: {
      en: "The INSERT added no row and raised nothing; the last row id was " +
        "the draft's. A second connection sees 1 draft and 0 receipts: the " +
        "receipt that succeeded is a lie.",
      zh: "这次 INSERT 没有新增任何行，也没有抛异常；" +
        "lastrowid 其实是草稿的行号。另一条连接看到 1 条草稿、" +
        "0 条回执：声称成功的回执是假的。",
    },
    next: {
      en: "Never trust the last row id as proof of a write: check that " +
        "exactly one row was inserted (the next scenario).",
      zh: "不要把 lastrowid 当成写入成功的凭据：" +
        "要检查恰好插入了一行（见下一个场景）。",
    },
  },
  checked_receipt: {
    lab: "article",
    happened: {
      en: "The same trigger, with the receipt write that checks its row " +
        "count: the run raises audit_unavailable.",
      zh: "同样的触发器，换成检查行数的回执写入：" +
        "调用抛出 audit_unavailable。",
    },
    why: {
      en:
        "The check cannot undo the committed draft, but it refuses to claim " +
        "a receipt that does not exist: 1 draft, 0 receipts, and no " +
        "accepted.",
      zh: "这个检查撤销不了已提交的草稿，但它拒绝声称一条不存在的回执：" +
        "1 条草稿、0 条回执，没有 accepted。",
    },
    next: {
      en: "Reconcile: the key has a draft and no receipt; after the fixture " +
        "is removed, a retry reuses the draft and writes one receipt.",
      zh: "对账：该业务键有草稿而没有回执；移除夹具后重试，" +
        "会复用草稿并写下一条回执。",
    },
  },
  parallel_input_guardrail: {
    lab: "article",
    happened: {
      en: "JOB-001 asked for 4 copies with the Agent input guardrail in " +
        "parallel (run_in_parallel=True / runInParallel: true, the SDKs' " +
        "default). guardlab's --input-guardrail parallel is a model of the " +
        "Python SDK's scheduling: the guardrail was slower than the first " +
        "turn, and its tripwire arrived after the draft was committed.",
      zh: "JOB-001 请求 4 份，Agent 输入护栏并行运行" +
        "（run_in_parallel=True / " +
        "runInParallel: true，两个 SDK 的默认）。" +
        "guardlab 的 --input-guardrail parallel " +
        "模拟的是 Python SDK 的调度：护栏比第一轮慢，" +
        "tripwire 在草稿提交之后才到。",
    },
    why: {
      en: "A parallel guardrail does not hold the call. What is certain: the " +
        "model was called, so tokens were spent. What depends on the SDK: " +
        `whether tools ran. Python (read at ${PY}) runs the first turn's ` +
        "tools beside the guardrail, so they can run before the tripwire; " +
        `@openai/agents-core ${JS} (run by the conformance tests, streamed ` +
        "or not) waits for the guardrail before the turn's tools. The real " +
        "guardrail sees the user's input, not the tool's arguments, and " +
        "overlaps the first turn only. Here the receipt says input_rejected " +
        "with effect_exists true, and its events show the commit first.",
      zh: "并行护栏不会拦住调用。确定的是：模型已被调用，token 已经消耗。" +
        "取决于 SDK 的是：工具是否执行。" +
        `Python（读取于 ${PY}）让第一轮的工具与护栏并行，` +
        "工具可能在 tripwire 之前执行；" +
        `@openai/agents-core ${JS}（一致性测试已运` +
        "行，流式与非流式）在执行本轮工具之前等待护栏。" +
        "真实护栏看到的是用户输入，不是工具参数，且只与第一轮重叠。" +
        "这里回执记为 input_rejected 且" +
        " effect_exists 为 true，事件里提交在前。",
    },
    next: {
      en: "Reconcile the draft the rejected request left. Where the effect " +
        "must not happen, use the blocking mode (run_in_parallel=False): " +
        "the agent does not start until the check passes (next scenario).",
      zh: "对账被拒请求留下的草稿。效果绝不能发生时，" +
        "用阻塞模式（run_in_parallel=False）：" +
        "检查通过之前 Agent 不会启动（见下一个场景）。",
    },
  },
  sequential_input_guardrail: {
    lab: "article",
    happened: {
      en: "The same request with the guardrail blocking " +
        "(run_in_parallel=False / runInParallel: false): it refused before " +
        "the business step.",
      zh: "同一请求，护栏改为阻塞（run_in_parallel=False / " +
        "runInParallel: false）：在业务写入之前拒绝。",
    },
    why: {
      en: "Waiting for the verdict is what makes a pre-check a pre-check: " +
        "nothing was written, only an input_rejected receipt. In both SDKs " +
        "the model is not called either.",
      zh: "等到结论再继续，前检才名副其实：什么也没写，" +
        "只有一条 input_rejected 回执。" +
        "两个 SDK 里模型也都不会被调用。",
    },
    next: {
      en: "Nothing to undo. Send a request within the limit if one is wanted.",
      zh: "无需撤销。如仍需要，按上限内的份数重新发起请求。",
    },
  },
  compensation_confirmed: {
    lab: "extension",
    happened: {
      en: "guardlab's extension, grown from the article's warning that a " +
        "compensation can itself fail. JOB-001's output was rejected after " +
        "its draft committed; a compensation voided the draft in its own " +
        "transaction and wrote its own receipt. A retry of the same request " +
        "was then refused as key_voided.",
      zh: "guardlab 的扩展，源自文章的提醒“补偿本身也可能失败”。" +
        "JOB-001 的草稿提交后结果被后检拒绝；" +
        "补偿在自己的事务里作废了草稿，并写下自己的回执。随后用同一请求重试，" +
        "被拒绝，状态 key_voided。",
    },
    why: {
      en: "Undoing a commit takes the business's own flow, with its own " +
        "commit point. The draft row stays and the void is recorded beside " +
        "it, so the key is closed rather than silently re-created.",
      zh: "撤销提交要走业务自己的流程，它有自己的提交点。草稿行保留，" +
        "作废记录在旁边，所以该业务键被关闭，而不是被悄悄重新创建。",
    },
    next: {
      en: "Nothing left: reconcile shows the key as voided, with its receipt.",
      zh: "无事可做：对账显示该业务键已作废，补偿回执已写。",
    },
  },
  compensation_failed: {
    lab: "extension",
    happened: {
      en: "guardlab's extension (origin: the article's warning that a " +
        "compensation can itself fail). The same compensation failed before " +
        "its commit: the request was recorded, the void rolled back. A " +
        "retry of the request then reused the draft, which still stands.",
      zh: "guardlab 的扩展（出处：“补偿本身也可能失败”）。" +
        "同样的补偿在提交前失败：请求已记录，作废被回滚。随后重试同一请求，" +
        "复用了仍然有效的草稿。",
    },
    why: {
      en: "A compensation can itself fail. Its request is a fact of its own, " +
        "so reconcile can tell 'requested, never confirmed' from 'voided'.",
      zh: "补偿本身也可能失败。补偿请求单独记录，所以对账能区分“已请求、" +
        "未确认”和“已作废”。",
    },
    next: {
      en: "Run the compensation again (reconcile prints the command) and " +
        "check the ledger until it says voided.",
      zh: "再执行一次补偿（reconcile 会给出命令），" +
        "并核对账本直到显示已作废。",
    },
  },
};
