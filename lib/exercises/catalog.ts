/**
 * The exercises: each asks a student to make something happen (or to
 * predict it), names the article's claim it proves, offers graded hints that
 * never give the answer, and is judged by invariants over the evidence: the
 * outcomes the answer produced and the ledger it left.
 *
 * @module
 */
import type { Text } from "../i18n.ts";
import { plainValue } from "../plain.ts";
import type { Evidence } from "./evidence.ts";

/** One invariant a checker looked at. */
export interface Finding {
  /** Whether it held. */
  held: boolean;
  /** What it says, in both languages. */
  text: Text;
}

/** One exercise. */
export interface Exercise {
  /** Its number, from 1. */
  n: number;
  /** A short name. */
  slug: string;
  /** `script`: make it happen; `prediction`: say what will happen. */
  kind: "script" | "prediction";
  /** The title. */
  title: Text;
  /** What to do. */
  task: Text;
  /** The article's claim it proves, with the article's term. */
  claim: Text;
  /** Starting steps, where they help (never the answer). */
  skeleton?: string;
  /** Graded hints: a nudge first, then the principle; never the answer. */
  hints: readonly Text[];
  /** Shown after success: why it came out this way. */
  why: Text;
  /** For a prediction: the steps whose outcome is predicted. */
  setup?: readonly string[];
  /** Judge the evidence (for a prediction: the setup's evidence and the answer). */
  check(e: Evidence, prediction?: Record<string, unknown>): Finding[];
}

interface Run {
  line: number;
  args: Record<string, unknown>;
  faults: Record<string, unknown>;
  receipt: unknown;
  inputGuardrail: unknown;
  output: Record<string, unknown>;
}

function runs(e: Evidence): Run[] {
  return e.steps.filter((s) => s.step.op === "run").map((s) => ({
    line: s.line,
    args: (s.step.args ?? {}) as Record<string, unknown>,
    faults: (s.step.faults ?? {}) as Record<string, unknown>,
    receipt: s.step.receipt,
    inputGuardrail: s.step.input_guardrail,
    output: s.output,
  }));
}

const status = (r: Run) => r.output.status as string | undefined;
const events = (r: Run) => (r.output.events ?? []) as string[];
const hasDraft = (e: Evidence, job: unknown) =>
  e.ledger.drafts.some((d) => d.job === job);
const receiptsOf = (e: Evidence, job: unknown) =>
  e.ledger.receipts.filter((r) => r.job === job);

function finding(held: boolean, en: string, zh: string): Finding {
  return { held, text: { en, zh } };
}

function ops(e: Evidence, op: string) {
  return e.steps.filter((s) => s.step.op === op);
}

/** The exercises, in order. */
export const EXERCISES: readonly Exercise[] = [
  {
    n: 1,
    slug: "output-check-cannot-unwrite",
    kind: "script",
    title: {
      en: "A rejected output leaves its draft",
      zh: "后检拒绝了，草稿还在",
    },
    task: {
      en: "Make one call whose output check refuses the result after its " +
        "draft was committed. Leave the ledger showing that draft.",
      zh: "制造一次调用：草稿已提交之后，后检拒绝了结果。让账本留下这份草稿。",
    },
    claim: {
      en: "An output check (post-check) runs after the commit point; it " +
        "cannot un-write the draft.",
      zh: "后检位于提交点之后，它撤销不了已写入的草稿。",
    },
    skeleton:
      '{"op":"run","args":{"job":"JOB-001","topic":"river","copies":2}}',
    hints: [
      {
        en: "Which fault corrupts only the copy handed to the output check?",
        zh: "哪个故障开关只污染交给后检的那份结果？",
      },
      {
        en: "The post-check sees a result that already exists; ask the " +
          "ledger, through `count` or `drafts`, what is left.",
        zh: "后检看到的结果已经存在；用 count 或 drafts 问问账本还剩什么。",
      },
    ],
    why: {
      en: "The draft was committed before the check looked at the result: a " +
        "refusal only stops the caller from using it.",
      zh: "后检看结果之前草稿已经提交：拒绝只能阻止调用方继续使用它。",
    },
    check(e) {
      const hit = runs(e).find((r) =>
        status(r) === "output_rejected" && r.output.effect_exists === true
      );
      const job = hit?.args.job;
      return [
        finding(
          hit !== undefined,
          "a run ended output_rejected with effect_exists true",
          "有一次调用以 output_rejected 结束且 effect_exists 为 true",
        ),
        finding(
          hit !== undefined && hasDraft(e, job),
          "the ledger (second connection) still holds that job's draft",
          "账本（另一条连接）仍有该业务键的草稿",
        ),
        finding(
          hit !== undefined &&
            !receiptsOf(e, job).some((r) => r.status === "accepted"),
          "no receipt for that job says accepted",
          "该业务键没有任何 accepted 回执",
        ),
      ];
    },
  },
  {
    n: 2,
    slug: "same-error-two-ledgers",
    kind: "script",
    title: { en: "One status, two ledgers", zh: "同一个状态，两种账本" },
    task: {
      en: "Produce two calls that both end with status error: after one, no " +
        "draft exists; after the other, its draft exists.",
      zh:
        "制造两次都以 error 结束的调用：一次之后没有草稿，另一次之后草稿存在。",
    },
    claim: {
      en: "A failure before the commit point rolls back; one after it leaves " +
        "the effect, under the same status.",
      zh: "提交点之前的失败会回滚，之后的失败留下效果，而状态相同。",
    },
    hints: [
      {
        en: "There are two places to fail right around the commit point.",
        zh: "提交点前后各有一个可以注入失败的位置。",
      },
      {
        en: "Compare the events of the two receipts: which one has " +
          "effect_committed?",
        zh: "比较两条回执的事件：哪一条有 effect_committed？",
      },
    ],
    why: {
      en: "Status error says the call failed, not where; the commit point " +
        "decides what the ledger holds.",
      zh: "error 只说明调用失败，不说明失败在哪里；账本留下什么由提交点决定。",
    },
    check(e) {
      const errors = runs(e).filter((r) => status(r) === "error");
      const without = errors.find((r) => !hasDraft(e, r.args.job));
      const withDraft = errors.find((r) =>
        hasDraft(e, r.args.job) && events(r).includes("effect_committed")
      );
      return [
        finding(
          errors.length >= 2,
          "two runs ended with status error",
          "两次调用以 error 结束",
        ),
        finding(
          without !== undefined,
          "after one of them, its job has no draft",
          "其中一次之后，该业务键没有草稿",
        ),
        finding(
          withDraft !== undefined,
          "after another, its draft exists and its events show the commit",
          "另一次之后草稿存在，事件里有提交",
        ),
      ];
    },
  },
  {
    n: 3,
    slug: "retry-reuses",
    kind: "script",
    title: {
      en: "A retry reuses, and checks again",
      zh: "重试复用草稿并重新后检",
    },
    task: {
      en:
        "Get a key accepted on a retry, after a first call that did not end " +
        "accepted, with exactly one draft for that key.",
      zh:
        "让一个业务键在重试时被 accepted（第一次调用没有 accepted），且该键只有一份草稿。",
    },
    claim: {
      en:
        "The same key and arguments are idempotent: the draft is reused and " +
        "the output check runs again.",
      zh: "同一业务键、同样参数是幂等的：草稿被复用，后检重新运行。",
    },
    hints: [
      {
        en:
          "What must a retry send so that the business step finds the old draft?",
        zh: "重试要发送什么，业务写入才能找到旧草稿？",
      },
      {
        en: "Look for effect_reused in the accepted receipt's events.",
        zh: "看 accepted 回执的事件里有没有 effect_reused。",
      },
    ],
    why: {
      en: "The digest of the same arguments matched the stored one, so no " +
        "second draft was written, and this attempt's output was checked.",
      zh:
        "同样参数的摘要与已存摘要一致，没有写第二份草稿，并且本次结果经过了后检。",
    },
    check(e) {
      const reuse = runs(e).find((r) =>
        status(r) === "accepted" && events(r).includes("effect_reused") &&
        events(r).includes("output_allowed")
      );
      const job = reuse?.args.job;
      const earlier = reuse
        ? receiptsOf(e, job).some((r) =>
          r.status !== "accepted" && r.events.includes("effect_committed")
        )
        : false;
      return [
        finding(
          reuse !== undefined,
          "a run was accepted with effect_reused, after its output check",
          "有一次调用以 effect_reused 被接受，且经过了后检",
        ),
        finding(
          earlier,
          "an earlier attempt on that key committed the draft and was not accepted",
          "该键更早的一次尝试提交了草稿且没有被接受",
        ),
        finding(
          reuse !== undefined &&
            e.ledger.drafts.filter((d) => d.job === job).length === 1,
          "exactly one draft for that key",
          "该键恰好只有一份草稿",
        ),
      ];
    },
  },
  {
    n: 4,
    slug: "key-conflict",
    kind: "script",
    title: { en: "Same key, other arguments", zh: "同键换参数" },
    task: {
      en: "Make a call refused as key_conflict, and show that the first " +
        "draft under that key is unchanged.",
      zh: "制造一次 key_conflict，并证明该键下的第一份草稿没有被改动。",
    },
    claim: {
      en: "The business key names one request; other arguments under it " +
        "write nothing.",
      zh: "业务键标识一笔请求；同键换参数什么也不写。",
    },
    hints: [
      { en: "Two calls, one key.", zh: "两次调用，一个业务键。" },
      {
        en: "The stored draft's text says which arguments made it.",
        zh: "已存草稿的文本说明了是哪组参数写的。",
      },
    ],
    why: {
      en: "The stored digest differed, so the transaction refused before " +
        "writing: the first draft stays exactly as it was.",
      zh: "已存摘要不同，事务在写入前拒绝：第一份草稿原样保留。",
    },
    check(e) {
      const conflict = runs(e).find((r) => status(r) === "key_conflict");
      const job = conflict?.args.job;
      const first = runs(e).find((r) =>
        r.args.job === job && events(r).includes("effect_committed")
      );
      const draft = e.ledger.drafts.find((d) => d.job === job);
      const text = first
        ? `${first.args.topic} / copies=${first.args.copies}`
        : "";
      return [
        finding(
          conflict !== undefined,
          "a run ended key_conflict",
          "有一次调用以 key_conflict 结束",
        ),
        finding(
          first !== undefined && draft?.text === text,
          "the key's draft still has the first call's text",
          "该键的草稿仍是第一次调用的文本",
        ),
      ];
    },
  },
  {
    n: 5,
    slug: "new-key-duplicates",
    kind: "script",
    title: { en: "A new key is a new effect", zh: "换新键就是新效果" },
    task: {
      en: "Leave two drafts with the same text, both accepted, under two keys.",
      zh: "让账本留下两份文本相同、都被接受的草稿，分属两个业务键。",
    },
    claim: {
      en: "Idempotency covers one business key; a retry under a new key " +
        "duplicates the effect.",
      zh: "幂等只覆盖同一个业务键；换新键重试会重复产生效果。",
    },
    hints: [
      { en: "What is the key of a draft?", zh: "草稿的键是什么？" },
      {
        en: "Keep topic and copies the same; change only one field.",
        zh: "topic 和 copies 不变，只改一个字段。",
      },
    ],
    why: {
      en: "The ledger cannot know two keys meant one request: the guarantee " +
        "stops at the key.",
      zh: "账本无法知道两个键其实是同一笔请求：保证止于业务键。",
    },
    check(e) {
      const accepted = runs(e).filter((r) =>
        status(r) === "accepted" && events(r).includes("effect_committed")
      );
      const byText = new Map<string, Set<unknown>>();
      for (const r of accepted) {
        const text = e.ledger.drafts.find((d) => d.job === r.args.job)?.text;
        if (text === undefined) continue;
        byText.set(text, (byText.get(text) ?? new Set()).add(r.args.job));
      }
      const twins = [...byText.values()].some((jobs) => jobs.size >= 2);
      return [
        finding(
          twins,
          "two accepted new drafts with the same text, under different keys",
          "两份被接受的新草稿文本相同，分属不同业务键",
        ),
      ];
    },
  },
  {
    n: 6,
    slug: "lying-receipt",
    kind: "script",
    title: { en: "The receipt that lied", zh: "说谎的回执" },
    task: {
      en: "With the IGNORE receipt fixture, get a naive receipt to report " +
        "accepted while no receipt row exists; then show the checked receipt " +
        "refusing on the same fixture.",
      zh: "装上 IGNORE 回执夹具，让朴素回执报告 accepted 而实际没有回执行；" +
        "再在同一夹具下证明检查过的回执会拒绝。",
    },
    claim: {
      en: "A receipt that succeeded without inserting a row is a lie: check " +
        "that exactly one row was inserted.",
      zh: "没有插入行却“成功”的回执是假的：要检查恰好插入了一行。",
    },
    hints: [
      {
        en: "Two trusted switches matter here: a fixture step, and how the " +
          "receipt is written.",
        zh: "这里有两个可信开关：一个夹具步骤，以及回执的写法。",
      },
      {
        en: "The last row id is the connection's, not this INSERT's.",
        zh: "lastrowid 属于连接，而不是这次 INSERT。",
      },
    ],
    why: {
      en: "RAISE(IGNORE) made the INSERT a silent no-op; only the row count " +
        "tells, and the checked receipt reads it.",
      zh:
        "RAISE(IGNORE) 让 INSERT 静默失效；只有行数能说明，检查过的回执读取了它。",
    },
    check(e) {
      const ignored = ops(e, "fixture").some((s) =>
        s.step.receipt_fault === "ignore"
      );
      const lie = runs(e).find((r) =>
        r.receipt === "naive" && status(r) === "accepted" &&
        typeof r.output.attempt === "number"
      );
      const refused = runs(e).find((r) =>
        r.receipt !== "naive" && r.output.raised === "audit_unavailable"
      );
      return [
        finding(
          ignored,
          "the IGNORE fixture was installed",
          "装上了 IGNORE 夹具",
        ),
        finding(
          lie !== undefined,
          "a naive receipt returned accepted with an attempt number",
          "朴素回执返回了 accepted 和 attempt 编号",
        ),
        finding(
          lie !== undefined &&
            !e.ledger.receipts.some((r) =>
              r.attempt === lie.output.attempt && r.job === lie.args.job
            ),
          "no receipt row exists for that attempt",
          "该 attempt 没有对应的回执行",
        ),
        finding(
          refused !== undefined,
          "a checked receipt raised audit_unavailable",
          "检查过的回执抛出了 audit_unavailable",
        ),
      ];
    },
  },
  {
    n: 7,
    slug: "cancel-after-commit",
    kind: "script",
    title: { en: "A cancel after the commit", zh: "提交之后的取消" },
    task: {
      en: "Cancel a call after its draft was committed, and leave the ledger " +
        "showing both the draft and a cancelled receipt.",
      zh: "在草稿提交之后取消一次调用，让账本同时留下草稿和 cancelled 回执。",
    },
    claim: {
      en:
        "A cancellation stops what comes next; it does not roll back a commit.",
      zh: "取消只阻止后续步骤，不回滚已完成的提交。",
    },
    hints: [
      { en: "Where can a cancel arrive?", zh: "取消可以在哪些位置到达？" },
      {
        en: "Pick a checkpoint after the business step.",
        zh: "选一个业务写入之后的检查点。",
      },
    ],
    why: {
      en: "The commit had returned; the cancel could only keep the result " +
        "from being used, and the receipt records it.",
      zh: "提交已经返回；取消只能阻止结果被使用，回执把它记了下来。",
    },
    check(e) {
      const cancelled = runs(e).find((r) =>
        r.output.raised === "cancelled" &&
        ["after_business", "output_check"].includes(String(r.faults.cancel_at))
      );
      const job = cancelled?.args.job;
      return [
        finding(
          cancelled !== undefined,
          "a run was cancelled after the business step",
          "有一次调用在业务写入之后被取消",
        ),
        finding(
          cancelled !== undefined && hasDraft(e, job),
          "its draft exists",
          "它的草稿存在",
        ),
        finding(
          cancelled !== undefined &&
            receiptsOf(e, job).some((r) => r.status === "cancelled"),
          "a receipt says cancelled",
          "有一条 cancelled 回执",
        ),
      ];
    },
  },
  {
    n: 8,
    slug: "audit-fails-during-cancel",
    kind: "script",
    title: {
      en: "When the audit fails while cancelling",
      zh: "取消时审计失败",
    },
    task: {
      en: "Make a cancelled call whose receipt write then fails, so the " +
        "caller gets audit_unavailable caused by the cancel, and no receipt exists.",
      zh: "制造一次取消，随后回执写入失败：调用方得到由取消引起的 " +
        "audit_unavailable，且没有回执。",
    },
    claim: {
      en:
        "The audit error wins, and the cancellation stays on record as its cause.",
      zh: "审计错误优先冒出，取消作为它的原因保留下来。",
    },
    hints: [
      { en: "Two faults at once.", zh: "同时用两个故障。" },
      {
        en: "Look at the raised object's cause.",
        zh: "看抛出对象里的 cause。",
      },
    ],
    why: {
      en: "The receipt for the cancel could not be written; the failure is " +
        "reported with the cancel as its cause, and no receipt pretends otherwise.",
      zh:
        "取消的回执写不进去；失败被报告，取消作为原因，没有回执假装一切正常。",
    },
    check(e) {
      const hit = runs(e).find((r) =>
        r.output.raised === "audit_unavailable" &&
        r.output.cause === "cancelled"
      );
      const job = hit?.args.job;
      return [
        finding(
          hit !== undefined,
          "a run raised audit_unavailable with cause cancelled",
          "有一次调用抛出 audit_unavailable，cause 为 cancelled",
        ),
        finding(
          hit !== undefined && receiptsOf(e, job).length === 0,
          "no receipt exists for that job",
          "该业务键没有任何回执",
        ),
      ];
    },
  },
  {
    n: 9,
    slug: "stale-rule",
    kind: "script",
    title: {
      en: "The rule changed after the pre-check",
      zh: "前检之后规则变了",
    },
    task: {
      en: "After a pre-check, change the rule; show the naive insert writing " +
        "under the stale revision and the checked insert refusing.",
      zh:
        "前检之后修改规则；证明朴素写入按旧修订号写下了草稿，而条件写入拒绝。",
    },
    claim: {
      en: "A check made before commit must be re-verified at commit time " +
        "(conditional write on the revision).",
      zh: "提交前的检查必须在提交时重新核对（按修订号的条件写入）。",
    },
    skeleton: '{"op":"policy.precheck","job":"JOB-001","copies":2,"as":"seen"}',
    hints: [
      {
        en: "Two connections: a reader and an editor.",
        zh: "两个连接：读者和编辑者。",
      },
      {
        en: "Use the same snapshot for both inserts, with different keys.",
        zh: "两次写入用同一个快照，业务键不同。",
      },
    ],
    why: {
      en: "The condition revision=seen is evaluated inside the insert's own " +
        "write transaction; the naive insert never asks.",
      zh:
        "revision=所见修订号 这个条件在写入自己的写事务内判断；朴素写入从不过问。",
    },
    check(e) {
      const naive = ops(e, "policy.insert_naive").find((s) =>
        s.output.inserted === true
      );
      const refused = ops(e, "policy.insert_checked").find((s) =>
        s.output.inserted === false
      );
      const stale = e.ledger.rule !== null &&
        e.ledger.policyDrafts.some(([job, , rev]) =>
          job === naive?.step.job && rev < e.ledger.rule!.revision
        );
      return [
        finding(
          ops(e, "policy.change").length > 0,
          "the rule was changed",
          "规则被修改了",
        ),
        finding(
          naive !== undefined && stale,
          "a naive insert wrote a draft checked at an older revision",
          "朴素写入留下了按旧修订号检查的草稿",
        ),
        finding(
          refused !== undefined,
          "a checked insert returned inserted false",
          "条件写入返回 inserted false",
        ),
      ];
    },
  },
  {
    n: 10,
    slug: "value-back-revision-not",
    kind: "script",
    title: {
      en: "The value came back, the revision did not",
      zh: "数值回来了，修订号没有",
    },
    task: {
      en:
        "Pre-check, lower the limit, restore it, then show the old snapshot " +
        "refused although the limit is back.",
      zh:
        "前检、降低上限、再改回原值，然后证明旧快照仍被拒绝，尽管上限已恢复。",
    },
    claim: {
      en: "Every rule change advances the revision; an old check never " +
        "counts for the current rule.",
      zh: "每次规则修改都推进修订号；旧检查永远不算对当前规则的检查。",
    },
    hints: [
      { en: "Two changes, one snapshot.", zh: "两次修改，一个快照。" },
      {
        en: "Compare the revision the snapshot saw with the one now.",
        zh: "比较快照所见的修订号和现在的修订号。",
      },
    ],
    why: {
      en: "The condition is on the revision, not the value: 3 → 1 → 3 is " +
        "revision 1 → 3.",
      zh: "条件看的是修订号而不是数值：3 → 1 → 3 对应修订号 1 → 3。",
    },
    check(e) {
      const snaps = ops(e, "policy.precheck")
        .map((s) =>
          s.output.snapshot as { revision: number; max_copies: number }
        )
        .filter(Boolean);
      const first = snaps[0];
      const refused = ops(e, "policy.insert_checked").some((s) =>
        s.output.inserted === false
      );
      return [
        finding(
          first !== undefined && ops(e, "policy.change").length >= 2,
          "a snapshot was taken and the rule changed twice",
          "取了快照，规则改了两次",
        ),
        finding(
          first !== undefined &&
            e.ledger.rule?.max_copies === first.max_copies &&
            e.ledger.rule.revision > first.revision,
          "the limit is back to the snapshot's value, at a newer revision",
          "上限回到了快照时的数值，但修订号更新了",
        ),
        finding(
          refused,
          "the checked insert with the old snapshot returned false",
          "用旧快照的条件写入返回 false",
        ),
      ];
    },
  },
  {
    n: 11,
    slug: "failure-before-commit",
    kind: "script",
    title: {
      en: "A failure before COMMIT rolls back",
      zh: "COMMIT 之前的失败会回滚",
    },
    task: {
      en: "Make a conditional insert fail after its INSERT and before its " +
        "COMMIT, and show the other connection sees no draft for that key.",
      zh:
        "让一次条件写入在 INSERT 之后、COMMIT 之前失败，并证明另一条连接看不到该键的草稿。",
    },
    claim: {
      en:
        "Before the commit point nothing is a fact yet: the transaction rolls back.",
      zh: "提交点之前一切都还不是事实：事务回滚。",
    },
    hints: [
      {
        en: "The checked insert has a trusted fault of its own.",
        zh: "条件写入有自己的可信故障开关。",
      },
      {
        en: "policy.rows reads through the editor.",
        zh: "policy.rows 通过编辑者读取。",
      },
    ],
    why: {
      en:
        "The failure came before COMMIT; the write lock and the insert went away together.",
      zh: "失败发生在 COMMIT 之前；写锁和插入一起消失。",
    },
    check(e) {
      const failed = ops(e, "policy.insert_checked").find((s) =>
        s.output.raised === "injected"
      );
      return [
        finding(
          failed !== undefined,
          "a conditional insert failed before its commit",
          "有一次条件写入在提交前失败",
        ),
        finding(
          failed !== undefined &&
            !e.ledger.policyDrafts.some(([job]) => job === failed.step.job),
          "no draft for that key exists",
          "该键没有草稿",
        ),
      ];
    },
  },
  {
    n: 12,
    slug: "parallel-input-guardrail",
    kind: "script",
    title: {
      en: "An input guardrail that finishes late",
      zh: "来得太晚的输入护栏",
    },
    task: {
      en:
        "With the same over-limit request, leave a committed draft with the " +
        "input guardrail in parallel, and no draft with it in sequence.",
      zh: "同一个超限请求：输入护栏并行时留下已提交的草稿，顺序时不留草稿。",
    },
    claim: {
      en: "A parallel input guardrail (run_in_parallel=True) may trip after " +
        "the tool ran; only a sequential one prevents the effect.",
      zh:
        "并行的输入护栏（run_in_parallel=True）可能在工具执行之后才触发；只有顺序运行才能阻止效果。",
    },
    hints: [
      {
        en: "A run step has a field for this.",
        zh: "run 步骤有一个字段管这个。",
      },
      { en: "Use two different keys.", zh: "用两个不同的业务键。" },
    ],
    why: {
      en: "In parallel the verdict arrived after the commit point; in " +
        "sequence the call waited for it.",
      zh: "并行时结论在提交点之后才到；顺序时调用等待结论。",
    },
    check(e) {
      const late = runs(e).find((r) =>
        r.inputGuardrail === "parallel" && status(r) === "input_rejected" &&
        hasDraft(e, r.args.job)
      );
      const early = runs(e).find((r) =>
        r.inputGuardrail !== "parallel" && status(r) === "input_rejected" &&
        r.output.effect_exists === false && !hasDraft(e, r.args.job) &&
        r.args.copies === late?.args.copies
      );
      return [
        finding(
          late !== undefined,
          "a parallel guardrail rejected a request whose draft was committed",
          "并行护栏拒绝了一个草稿已提交的请求",
        ),
        finding(
          early !== undefined,
          "the same request in sequence was refused with no draft",
          "同样的请求顺序运行时被拒绝，没有草稿",
        ),
      ];
    },
  },
  {
    n: 13,
    slug: "reconcile-to-empty",
    kind: "script",
    title: {
      en: "Reconcile without a second draft",
      zh: "对账而不产生第二份草稿",
    },
    task: {
      en:
        "Leave a key with a draft and no accepted receipt, then close it so " +
        "that nothing is left to reconcile, without a second draft.",
      zh:
        "先让一个业务键有草稿而没有 accepted 回执，再把它关闭，使对账无事可做，且不产生第二份草稿。",
    },
    claim: {
      en:
        "After an unknown outcome, look the key up and retry it; never a new key.",
      zh: "结果未知时，按原业务键查询并重试；不要换新键。",
    },
    hints: [
      { en: "What does reconcile suggest?", zh: "reconcile 建议怎么做？" },
      {
        en:
          "Every draft needs an accepted receipt (or a confirmed void) in the end.",
        zh: "最后每份草稿都要有 accepted 回执（或已确认的作废）。",
      },
    ],
    why: {
      en: "The same key and arguments reused the draft; the ledger ends with " +
        "one draft per key, each settled.",
      zh: "同一业务键和参数复用了草稿；账本最后每个键一份草稿，且都已了结。",
    },
    check(e) {
      const settled = e.ledger.drafts.every((d) =>
        receiptsOf(e, d.job).some((r) => r.status === "accepted") ||
        e.ledger.compensations.some((c) =>
          c.job === d.job && c.state === "voided"
        )
      );
      const recovered = e.ledger.drafts.some((d) => {
        const mine = receiptsOf(e, d.job);
        const firstAccepted = mine.findIndex((r) => r.status === "accepted");
        return firstAccepted > 0 &&
          mine[firstAccepted].events.includes("effect_reused");
      });
      const texts = e.ledger.drafts.map((d) => d.text);
      return [
        finding(
          recovered,
          "a key was first left unaccepted, then accepted by a reuse",
          "有一个键先未被接受，后来通过复用被接受",
        ),
        finding(
          e.ledger.drafts.length > 0 && settled,
          "every draft ends with an accepted receipt or a confirmed void",
          "每份草稿最后都有 accepted 回执或已确认的作废",
        ),
        finding(
          new Set(texts).size === texts.length,
          "no second draft repeats an effect under a new key",
          "没有换新键重复同一效果的第二份草稿",
        ),
      ];
    },
  },
  {
    n: 14,
    slug: "compensation-fails",
    kind: "script",
    title: { en: "A compensation that fails", zh: "失败的补偿" },
    task: {
      en: "Compensate a committed draft and make the compensation fail, so " +
        "that reconcile still has work: it was requested and never confirmed, " +
        "or voided without its receipt.",
      zh:
        "对已提交的草稿做补偿并让补偿失败，使对账仍有事可做：已请求但未确认，或已作废却缺回执。",
    },
    claim: {
      en: "Undoing a commit takes the business's own compensation, and the " +
        "compensation itself can fail (补偿本身也可能失败).",
      zh: "撤销提交要靠业务自己的补偿流程，补偿本身也可能失败。",
    },
    hints: [
      { en: "There is a step for compensation.", zh: "有一个做补偿的步骤。" },
      {
        en:
          "A compensation has its own commit point, with a fault on either side.",
        zh: "补偿有自己的提交点，两侧都可以注入故障。",
      },
    ],
    why: {
      en:
        "The request was recorded before the void; the void and its receipt " +
        "are separate facts, so each failure leaves a different trace.",
      zh:
        "请求在作废之前记录；作废和它的回执是分开的事实，所以每种失败留下不同的痕迹。",
    },
    check(e) {
      const failed = ops(e, "compensate").find((s) =>
        s.output.raised === "injected"
      );
      const trace = e.ledger.compensations.find((c) =>
        c.job === failed?.step.job &&
        (c.state === "requested" || (c.state === "voided" && c.receipts === 0))
      );
      return [
        finding(
          failed !== undefined,
          "a compensation step failed",
          "有一个补偿步骤失败了",
        ),
        finding(
          trace !== undefined,
          "its key is left requested-but-unconfirmed, or voided without a receipt",
          "该键停留在“已请求未确认”，或“已作废却缺回执”",
        ),
        finding(
          failed !== undefined && hasDraft(e, failed.step.job),
          "the draft row is still there",
          "草稿行仍然存在",
        ),
      ];
    },
  },
  {
    n: 15,
    slug: "predict-cancel-after-commit",
    kind: "prediction",
    title: {
      en: "Predict: a cancel after the commit",
      zh: "预测：提交之后的取消",
    },
    task: {
      en: "A fresh ledger runs JOB-002 (river, 2 copies) with cancel_at " +
        'after_business. Answer with one JSON line: {"outcome": "accepted" | ' +
        '"cancelled" | STATUS, "draft": true|false, "receipts": N}.',
      zh: "新账本里以 cancel_at after_business 运行 JOB-002（river，2 份）。" +
        '用一行 JSON 回答：{"outcome": "accepted" | "cancelled" | 状态, ' +
        '"draft": true|false, "receipts": N}。',
    },
    claim: {
      en: "Predict before you look: the commit point decides what stays.",
      zh: "先预测再看：提交点决定留下什么。",
    },
    setup: [
      '{"op":"run","args":{"job":"JOB-002","topic":"river","copies":2},"faults":{"cancel_at":"after_business"}}',
    ],
    hints: [
      {
        en: "Where is after_business relative to the commit?",
        zh: "after_business 在提交点的哪一侧？",
      },
      { en: "Does a cancel write a receipt?", zh: "取消会写回执吗？" },
    ],
    why: {
      en:
        "Cancelled after the commit: the draft stays, and a cancelled receipt records it.",
      zh: "提交之后取消：草稿留下，一条 cancelled 回执记录了它。",
    },
    check: predictionCheck,
  },
  {
    n: 16,
    slug: "predict-parallel-guardrail",
    kind: "prediction",
    title: { en: "Predict: the parallel guardrail", zh: "预测：并行的护栏" },
    task: {
      en:
        "A fresh ledger runs JOB-001 (river, 4 copies) with input_guardrail " +
        'parallel. Answer with one JSON line: {"outcome": STATUS, "draft": ' +
        'true|false, "receipts": N}.',
      zh: "新账本里以 input_guardrail parallel 运行 JOB-001（river，4 份）。" +
        '用一行 JSON 回答：{"outcome": 状态, "draft": true|false, "receipts": N}。',
    },
    claim: {
      en: "A parallel input guardrail promises less than 前置 suggests.",
      zh: "并行的输入护栏做不到“前置”二字所暗示的保证。",
    },
    setup: [
      '{"op":"run","args":{"job":"JOB-001","topic":"river","copies":4},"input_guardrail":"parallel"}',
    ],
    hints: [
      { en: "Does the call wait for the verdict?", zh: "调用会等待结论吗？" },
      {
        en: "Is 4 copies within the batch limit?",
        zh: "4 份在批量上限之内吗？",
      },
    ],
    why: {
      en:
        "The verdict arrived after the commit: input_rejected, with the draft present.",
      zh: "结论在提交之后才到：input_rejected，草稿却已存在。",
    },
    check: predictionCheck,
  },
];

/** A prediction against what the setup really did. */
function predictionCheck(
  e: Evidence,
  prediction?: Record<string, unknown>,
): Finding[] {
  const run = runs(e)[0];
  const actual = {
    outcome: (run?.output.status ?? run?.output.raised) as string,
    draft: hasDraft(e, run?.args.job),
    receipts: e.ledger.receipts.length,
  };
  return (["outcome", "draft", "receipts"] as const).map((key) =>
    finding(
      prediction !== undefined && prediction[key] === actual[key],
      `${key}: predicted ${plainValue(prediction?.[key], "en")}, ` +
        `happened ${plainValue(actual[key], "en")}`,
      `${key}：预测 ${plainValue(prediction?.[key], "zh")}，` +
        `实际 ${plainValue(actual[key], "zh")}`,
    )
  );
}

/** The exercise numbered `n`, if there is one. */
export function exerciseOf(n: number): Exercise | undefined {
  return EXERCISES.find((x) => x.n === n);
}
