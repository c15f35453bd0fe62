/**
 * What `explain` covers beyond the demo scenarios (`_scenarios.ts`): every
 * other fault and outcome a student can produce, and the article's two
 * caveats, each explained side by side in English and Chinese. The steps
 * that reproduce a lesson, where it can be shown, are in
 * `lib/experiments/lesson_scenarios.ts`, so `explain LESSON --format svg`
 * draws what really happens.
 *
 * @module
 */
import {
  LESSON_SCENARIOS,
  type LessonName,
} from "../experiments/lesson_scenarios.ts";
import type { Explanation } from "./_explanation.ts";

/** A lesson name. */
export type Lesson = LessonName;

/** The lessons, in the order `explain list` shows them. */
export const LESSONS: readonly Lesson[] = LESSON_SCENARIOS.map((lesson) =>
  lesson.name
);

/** Each lesson's explanation. */
export const LESSON_EXPLANATIONS: Readonly<Record<Lesson, Explanation>> = {
  inside_vs_after_commit: {
    lab: "timing",
    happened: {
      en:
        "Two attempts both end with status error. JOB-001 failed inside the " +
        "transaction; JOB-002 failed right after its COMMIT returned.",
      zh: "两次尝试的状态都是 error。JOB-001 在事务内失败；" +
        "JOB-002 在 COMMIT 返回之后失败。",
    },
    why: {
      en:
        "The same status hides two different ledgers: the first rolled back " +
        "and wrote nothing, the second left a committed draft. Only the " +
        "commit point tells them apart, which is why the receipt records " +
        "the events.",
      zh: "同一个状态背后是两种账本：第一次回滚，什么也没写；" +
        "第二次留下了已提交的草稿。只有提交点能区分二者，所以回执要记录事件。",
    },
    next: {
      en: "Reconcile: JOB-002 has a draft without an accepted receipt; retry " +
        "it with the same key and arguments. JOB-001 needs nothing undone.",
      zh: "对账：JOB-002 有草稿而没有 accepted 回执，" +
        "用同一业务键和同样参数重试；JOB-001 不需要撤销任何东西。",
    },
  },
  audit_unavailable: {
    lab: "timing",
    happened: {
      en: "The draft was committed and the output check passed, then the " +
        "receipt write failed (audit unavailable).",
      zh: "草稿已提交、后检也通过，随后回执写入失败（审计不可用）。",
    },
    why: {
      en: "The receipt is a later, separate transaction; its failure cannot " +
        "undo the draft. The run raises instead of claiming accepted.",
      zh: "回执是之后另开的一次事务，它失败撤销不了草稿。这次调用抛出异常，" +
        "而不是声称 accepted。",
    },
    next: {
      en: "The effect is there and no receipt says so: reconcile finds the " +
        "key (no receipt at all); a retry reuses the draft and writes a " +
        "receipt.",
      zh: "效果已发生却没有回执：对账会找到这个业务键（完全没有回执）；" +
        "重试会复用草稿并写下回执。",
    },
  },
  key_conflict: {
    lab: "timing",
    happened: {
      en:
        "JOB-001 was created with 2 copies; a second call used the same key " +
        "with 3 copies.",
      zh: "JOB-001 以 2 份创建；第二次调用用同一业务键、3 份。",
    },
    why: {
      en: "The business key identifies one request. The same key with other " +
        "arguments is refused inside the transaction: no draft is written " +
        "and the first draft stays as it was. The refused attempt is still " +
        "on record: a key_conflict receipt (attempt 2) is written.",
      zh: "业务键标识一笔请求。同键换参数在事务内被拒绝：不写草稿，" +
        "第一份草稿保持原样。被拒的尝试仍有记录：" +
        "写下了一条 key_conflict 回执（attempt 2）。",
    },
    next: {
      en: "Use a new key for a new request, or the original arguments to " +
        "retry.",
      zh: "新请求请用新业务键；重试请用原来的参数。",
    },
  },
  killed_after_commit: {
    lab: "timing",
    happened: {
      en: "A process is killed after the commit and before its receipt (try: " +
        "guardlab run --ledger mine ... --pause-at after_commit, then kill " +
        "it).",
      zh: "进程在提交之后、写回执之前被杀掉（试试：" +
        "guardlab run --ledger mine ... " +
        "--pause-at after_commit，然后杀掉它）。",
    },
    why: {
      en:
        "No code runs after a kill: the draft is committed, and no receipt, " +
        "not even cancelled, records the attempt. A missing receipt does " +
        "not mean nothing happened.",
      zh: "被杀之后不再有代码运行：草稿已提交，" +
        "却没有任何回执（连 cancelled 都没有）记录这次尝试。" +
        "缺回执不等于什么都没发生。",
    },
    next: {
      en:
        "reconcile lists the key (effect present, receipt missing); a retry " +
        "with the same key and arguments reuses the draft and writes the " +
        "receipt.",
      zh: "reconcile 会列出这个业务键（效果存在、回执缺失）；" +
        "用同一业务键和同样参数重试，会复用草稿并写下回执。",
    },
  },
  receipt_ignore_trigger: {
    lab: "timing",
    happened: {
      en: "A test-only trigger makes the receipt INSERT a silent no-op " +
        "(RAISE(IGNORE)). The draft commits; the receipt insert changes 0 " +
        "rows.",
      zh: "仅用于测试的触发器让回执 INSERT 静默失效" +
        "（RAISE(IGNORE)）。草稿已提交；回执插入改动了 0 行。",
    },
    why: {
      en: "No error is raised, and the last row id is no proof. guardlab " +
        "checks that exactly one row was inserted, so it raises " +
        "audit_unavailable instead of returning accepted without a receipt.",
      zh: "没有抛出任何异常，lastrowid 也不能作为证据。" +
        "guardlab 检查恰好插入了一行，" +
        "所以抛出 audit_unavailable，" +
        "而不是没有回执却返回 accepted。",
    },
    next: {
      en: "Remove the fixture and retry the same request: the draft is " +
        "reused, the output is checked again, and one receipt is written.",
      zh: "移除这个夹具后用同一请求重试：草稿被复用，后检重新运行，" +
        "写下一条回执。",
    },
  },
  new_key_second_draft: {
    lab: "timing",
    happened: {
      en:
        "JOB-001 and then JOB-002 were sent with the same topic and copies. " +
        "Both were accepted: two drafts.",
      zh: "先后发送 JOB-001 和 JOB-002，" +
        "topic 和 copies 相同。两次都被接受：两份草稿。",
    },
    why: {
      en:
        "Idempotency covers one business key in one ledger. A retry under a " +
        "new key is a new request, so the effect happens twice.",
      zh: "幂等只覆盖同一账本里的同一个业务键。换新键重试就是新请求，" +
        "效果发生两次。",
    },
    next: {
      en: "After an unknown outcome, look up or reconcile the old key; never " +
        "retry by minting a new key.",
      zh: "结果未知时，先按旧业务键查询或对账；不要靠生成新业务键来重试。",
    },
  },
  lock_busy: {
    lab: "policy",
    happened: {
      en: "The editor held the write lock when the reader's conditional " +
        "insert ran; BEGIN IMMEDIATE failed at once (database is locked).",
      zh: "读者执行条件写入时，编辑者正持有写锁；" +
        "BEGIN IMMEDIATE 立即失败（" +
        "“database is locked”）。",
    },
    why: {
      en: "A busy lock is an error, not a rule change: it is raised, never " +
        "folded into inserted=false, and nothing is written.",
      zh: "锁忙是错误，不是规则变化：它被抛出，" +
        "不会折叠成 inserted=false，也什么都没写。",
    },
    next: {
      en: "Retry the conditional insert after the lock is released, with a " +
        "snapshot that is still current.",
      zh: "等锁释放后，用仍然有效的 Snapshot 重新做条件写入。",
    },
  },
  missing_rule: {
    lab: "policy",
    happened: {
      en:
        "The rule row was deleted between the pre-check and the insert. The " +
        "conditional insert found no rule to match and wrote nothing.",
      zh: "规则行在前检和写入之间被删除。条件写入找不到可匹配的规则，" +
        "什么也没写。",
    },
    why: {
      en: "INSERT … SELECT selects from the rule: no row, no insert. The " +
        "pre-check that saw the rule is no licence once the rule is gone.",
      zh: "INSERT … SELECT 从规则表里选择：没有行就没有插入。" +
        "规则没了，之前看到规则的前检也就不再是许可。",
    },
    next: {
      en: "A fresh pre-check now refuses (missing_policy); restore the rule " +
        "through its trusted setup before any write.",
      zh: "重新前检会拒绝（missing_policy）；" +
        "写入之前，先经由受控的规则写入口恢复规则。",
    },
  },
  inserted_false_is_not_proof: {
    lab: "policy",
    happened: {
      en: "The rule was set to the same limit again (3); the revision " +
        "advanced; the conditional insert with the old snapshot said " +
        "inserted=false, although the limit still allows 2 copies.",
      zh: "规则被设成同样的上限（3），修订号推进；" +
        "拿旧 Snapshot 做条件写入得到" +
        " inserted=false，尽管上限仍然允许 2 份。",
    },
    why: {
      en: "inserted=false only says the condition did not match. A lower " +
        "limit, a new revision with the same value, or a missing rule all " +
        "give the same false: it does not prove the limit dropped.",
      zh: "inserted=false 只说明条件没有匹配。上限降低、" +
        "数值相同但修订号变了、规则缺失，都会得到同样的 false：" +
        "它不能证明上限降低了。",
    },
    next: {
      en:
        "Re-read the rule and check the request again; decide from what the " +
        "fresh check says, not from the false alone.",
      zh: "重新读取规则、重新检查请求，依据新的检查结论决定，" +
        "而不是只看这个 false。",
    },
  },
  compensation_can_fail: {
    // guardlab's extension, as the demo and the README call compensation.
    lab: "extension",
    happened: {
      en: "A committed draft turns out to be unwanted (its output was " +
        "rejected, or its caller was cancelled).",
      zh:
        "一份已提交的草稿事后发现不该要（它的结果被后检拒绝，或调用方已取消）" +
        "。",
    },
    why: {
      en: "No guardrail and no later check undoes a commit. Undoing it takes " +
        "the business's own cancel or compensation flow, which is another " +
        "write with its own commit point, and which can itself fail.",
      zh: "没有任何护栏或之后的检查能撤销提交。" +
        "撤销要靠业务自己的取消或补偿流程，那是另一次写入，有自己的提交点，" +
        "补偿本身也可能失败。",
    },
    next: {
      en: "Treat a compensation like any call: give it a key, check its " +
        "result separately, and reconcile until the ledger says it " +
        "happened.",
      zh: "把补偿当成一次普通调用：给它业务键，单独核对它的结果，" +
        "对账直到账本证明它已发生。",
    },
  },
  tool_types: {
    lab: "article",
    happened: {
      en: "An agent's tools are not one kind. A function tool takes tool " +
        "guardrails directly; a local MCP server's guardrail list attaches " +
        "to its tools in JS (the Python source read has no such list); a " +
        "handoff, the hosted tools, the built-in execution tools (computer, " +
        "shell, apply patch, local shell) and an agent used as a tool pass " +
        "through no tool guardrail.",
      zh: "Agent 的工具不是同一种东西。函数工具可以直接挂工具护栏；" +
        "JS 里本地 MCP 服务器的护栏列表会附到它暴露的工具上（" +
        "读取的 Python 源码里没有这种列表）；handoff、" +
        "托管工具、内建执行工具（computer、shell、" +
        "apply patch、local shell）" +
        "以及被当作工具的 Agent，都不经过工具护栏。",
    },
    why: {
      en: "A tool guardrail stops only the calls that pass through its " +
        "pipeline. For any other tool nothing checks the call before its " +
        "commit point: only the tool, its service, or an approval stands " +
        "before the effect.",
      zh: "工具护栏只拦得住经过它那条管线的调用。" +
        "其他工具在提交点之前没有任何检查：挡在效果前面的只有工具本身、" +
        "它的服务或审批。",
    },
    next: {
      en: "Before relying on a guardrail, list every tool the agent can call " +
        "and its type; explain tool_types --sdk shows which rows were run " +
        "against the SDK and which were read in its source.",
      zh: "依赖护栏之前，先列出 Agent 能调用的每个工具及其类型；" +
        "explain tool_types --sdk 会标出哪些行对照" +
        " SDK 运行过，哪些只读了源码。",
    },
  },
  approval_recheck: {
    lab: "policy",
    happened: {
      en: "A tool that needs approval stops the run, and the approval may " +
        "come much later. The SDK runs the tool input guardrail after " +
        "approval, right before execution; with pre-approval checks on, it " +
        "also checks before the interrupt and again after approval. The " +
        "steps replay the wait in the policy lab: a pre-check, a rule " +
        "change while waiting, then the conditional insert.",
      zh: "需要审批的工具会让运行停下，批准可能很久之后才来。" +
        "SDK 在批准之后、执行之前运行工具输入护栏；开启“审批之前也检查”（pre_approval_tool_input_guardrails）时，" +
        "还会在审批中断之前先检查一次，批准后再检查一次。" +
        "这些步骤在规则实验里重演这段等待：前检、等待期间规则修改、" +
        "然后条件写入。",
    },
    why: {
      en:
        "A verdict is about the facts it saw, and the rule can change while " +
        "the call waits: a check before the wait is no licence at the " +
        "moment of the effect. Even the re-check after approval is a step " +
        "before the write; only a condition decided in the write's own " +
        "transaction (the revision-conditioned insert) holds at the commit " +
        "point.",
      zh: "结论只对应它看到的事实，而调用等待期间规则可能改变：" +
        "等待之前的检查在效果发生时已不是许可。" +
        "批准后的重检也仍是写入之前的一步；只有在写入自己的事务里判断的条件（" +
        "带修订号的条件写入）在提交点成立。",
    },
    next: {
      en: "Keep the re-check after approval, and make the write itself " +
        "conditional on the revision the check saw. On inserted=false, " +
        "check again instead of writing.",
      zh: "保留批准后的重检，并让写入本身以检查所见的修订号为条件。" +
        "得到 inserted=false 时重新检查，而不是照写。",
    },
  },
};
