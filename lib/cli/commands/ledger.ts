/**
 * `guardlab ledger`: a ledger's drafts and receipts, read-only.
 *
 * @module
 */
import { PolicyLab } from "../../policy/policy.ts";
import {
  ledgerFolder,
  POLICY_FILE,
  privateRoot,
  trustedFolders,
} from "../../sandbox/sandbox.ts";
import { inert, wrap } from "../../base/terminal.ts";
import { fill, say, type Text } from "../../base/i18n.ts";
import { type Io, styleFor } from "../io.ts";
import { EXIT } from "../exit.ts";
import { LEDGER_OPTIONS, openExisting } from "../places.ts";
import { command, UsageError } from "../parser.ts";
import { formatOf } from "../places.ts";
import {
  attemptTitle,
  historyOf,
  renderHistory,
} from "../../views/ledger_timeline.ts";
import { timelineSvg } from "../../views/svg.ts";
import { PLAIN } from "../../views/timeline.ts";

/** What `ledger` shows a person. */
export const LEDGER_MESSAGES = {
  drafts: {
    en: "drafts ({n}): the business effect",
    zh: "草稿（{n} 条）：业务效果",
  },
  voidedTag: { en: "  [voided]", zh: "  [已作废]" },
  requestedTag: {
    en: "  [compensation requested]",
    zh: "  [补偿已请求，未确认]",
  },
  receipts: {
    en: "receipts ({n}): the audit trail",
    zh: "回执（{n} 条）：审计记录",
  },
  draftPresent: { en: "draft present", zh: "草稿存在" },
  draftAbsent: { en: "draft absent", zh: "草稿不存在" },
  noJob: { en: "(no job)", zh: "（无业务键）" },
  policyLab: { en: "policy lab ({file}):", zh: "规则实验（{file}）：" },
  policyNotCreated: {
    en: "  not created yet (a script's policy steps create it)",
    zh: "  尚未创建（script 的 policy 步骤会创建它）",
  },
  ruleMissing: {
    en: "  rule: missing (deleted)",
    zh: "  当前规则：缺失（已被删除）",
  },
  rule: {
    en: "  rule: revision {revision}, max_copies {max_copies}",
    zh: "  当前规则：修订号 {revision}，max_copies {max_copies}",
  },
  policyDrafts: {
    en: "  drafts ({n}), each with the revision its check saw:",
    zh: "  草稿（{n} 条），附前检所见的修订号：",
  },
  policyDraft: {
    en: "    {job}  copies={copies}  checked at revision {revision}",
    zh: "    {job}  copies={copies}  按修订号 {revision} 检查",
  },
} as const satisfies Record<string, Text>;

/** The `ledger` command. */
export const ledger = command({
  name: "ledger",
  summary: {
    en: "show a ledger's drafts and receipts (read-only)",
    zh: "查看账本里的草稿和回执（只读）",
  },
  usage: `ledger (--ledger NAME | --ledger-file PATH) [--json]
                    [--timeline [--format text|json|svg]]`,
  about: {
    en:
      `Shows the drafts (the business effect) and the receipts (the audit trail).
--timeline draws every attempt in order from the receipts instead, each with
its stage marks and whether it committed, reused or never reached the commit
point; a draft whose attempt left no receipt is drawn as an attempt too. Use it
after an agent's session over guardlab mcp to read what the agent did.
The file is opened read-only: not a byte of it changes.`,
    zh:
      `显示草稿（业务效果）和回执（审计记录）。--timeline 改为按回执顺序画出每次调用，
各带阶段标记，以及它是提交、复用还是没到提交点；调用没有留下回执的草稿也画成一次
调用。Agent 通过 guardlab mcp 会话之后，用它读懂 Agent 实际做了什么。
以只读方式打开，文件一个字节都不改。`,
  },
  options: {
    ...LEDGER_OPTIONS,
    json: {
      type: "boolean",
      help: {
        en: 'print {"drafts": [...], "receipts": [...]}',
        zh: '输出 {"drafts": [...], "receipts": [...]}',
      },
    },
    timeline: {
      type: "boolean",
      help: {
        en: "every attempt in order, with its stage marks",
        zh: "按顺序列出每次调用及其阶段标记",
      },
    },
    format: {
      type: "string",
      value: "FORMAT",
      help: {
        en: "with --timeline: text (default), json or svg",
        zh: "与 --timeline 一起：text（默认）、json 或 svg",
      },
    },
  },
  maxPositionals: 0,
  exits: { 0: null, 2: null, 4: null },
  run({ values, io, lang }) {
    if (values.format !== undefined && !values.timeline) {
      throw new UsageError({
        en: "--format needs --timeline",
        zh: "--format 需要与 --timeline 一起使用",
      }, "ledger");
    }
    const format = values.timeline ? formatOf("ledger", values) : undefined;
    const book = openExisting("ledger", io, values);
    let drafts, receipts, voids;
    try {
      drafts = book.drafts();
      receipts = book.receipts();
      voids = book.compensations();
    } finally {
      book.close();
    }
    if (!values.json && format !== "json") {
      // Stored text is shown, never obeyed: a control character or a line
      // break in a key, a status or an event becomes visible as \uXXXX.
      ({ drafts, receipts, voids } = shownAsText(drafts, receipts, voids));
    }
    if (format !== undefined) {
      const history = historyOf(receipts, drafts.map((d) => d.job), voids);
      if (format === "json") {
        io.out(JSON.stringify({
          attempts: history.attempts.map((a) => ({
            receipt: a.receipt,
            job: a.job,
            status: a.status,
            commit: a.timeline.commit,
            stages: [...a.timeline.before, ...a.timeline.after].map((r) => ({
              stage: r.stage,
              mark: r.mark,
            })),
          })),
          omitted: history.omitted,
          compensations: history.compensations,
        }));
      } else if (format === "svg") {
        io.out(timelineSvg(
          say({
            en: "guardlab ledger: every attempt",
            zh: "guardlab 账本：每次调用",
          }, lang),
          history.attempts.map((a) => ({
            title: attemptTitle(a, lang),
            attempt: a.attempt,
            timeline: a.timeline,
          })),
          renderHistory({ ...history, attempts: [] }, PLAIN, lang).slice(1),
          lang,
        ));
      } else {
        for (const line of renderHistory(history, styleFor(io), lang)) {
          io.out(line);
        }
      }
      return EXIT.ok;
    }
    // A named ledger's policy database, beside it, read-only too.
    const policy = values.ledger === undefined
      ? undefined
      : policyOf(io, values.ledger);
    if (values.json) {
      io.out(JSON.stringify({
        drafts,
        receipts,
        ...(voids.length > 0 ? { compensations: voids } : {}),
        ...(policy === undefined ? {} : { policy }),
      }));
      return EXIT.ok;
    }
    const m = LEDGER_MESSAGES;
    const put = (text: Text, values: Record<string, string | number> = {}) =>
      io.out(say(fill(text, values), lang));
    put(m.drafts, { n: drafts.length });
    const stateOf = new Map(voids.map((c) => [c.job, c.state]));
    for (const d of drafts) {
      const text = (d.body as { text?: unknown })?.text;
      const state = stateOf.get(d.job);
      const tag = state === "voided"
        ? say(m.voidedTag, lang)
        : state === "requested"
        ? say(m.requestedTag, lang)
        : "";
      io.out(
        `  ${d.job}  ${
          typeof text === "string" ? text : JSON.stringify(d.body)
        }${tag}`,
      );
    }
    put(m.receipts, { n: receipts.length });
    for (const r of receipts) {
      const draft = say(r.effect_exists ? m.draftPresent : m.draftAbsent, lang);
      io.out(
        `  #${r.attempt}  ${
          r.job ?? say(m.noJob, lang)
        }  ${r.status}  ${draft}`,
      );
      for (const line of wrap(`      ${(r.events ?? []).join(" > ")}`, 80)) {
        io.out(line);
      }
    }
    if (policy === undefined) return EXIT.ok;
    put(m.policyLab, { file: POLICY_FILE });
    if (policy === null) {
      put(m.policyNotCreated);
      return EXIT.ok;
    }
    if (policy.rule === null) put(m.ruleMissing);
    else {
      put(m.rule, {
        revision: policy.rule.revision,
        max_copies: policy.rule.max_copies,
      });
    }
    put(m.policyDrafts, { n: policy.drafts.length });
    for (const [job, copies, revision] of policy.drafts) {
      put(m.policyDraft, { job: inert(job), copies, revision });
    }
    return EXIT.ok;
  },
});

/** The policy database beside named ledger `name`: `null` when it was never made. */
function policyOf(io: Io, name: string): PolicyView | null {
  const root = privateRoot(io, { create: false });
  const folder = root === null
    ? null
    : ledgerFolder(root, name, { create: false });
  if (folder === null) return null;
  try {
    Deno.lstatSync(folder.policy);
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) return null;
    throw error;
  }
  const db = PolicyLab.openForReading(folder.policy, trustedFolders(io.base));
  try {
    const rule = db.currentPolicy();
    return {
      rule: rule && { revision: rule.revision, max_copies: rule.max_copies },
      drafts: db.rows(),
    };
  } finally {
    db.close();
  }
}

/** What `ledger` shows of the policy lab. */
interface PolicyView {
  /** The current rule, or `null` when its row was deleted. */
  rule: { revision: number; max_copies: number } | null;
  /** `[job, copies, checked_revision]`, by job. */
  drafts: [string, number, number][];
}

/** The rows with every stored string made inert (see {@linkcode inert}). */
function shownAsText<D, R, V>(
  drafts: D,
  receipts: R,
  voids: V,
): { drafts: D; receipts: R; voids: V } {
  const walk = (value: unknown): unknown =>
    typeof value === "string"
      ? inert(value)
      : Array.isArray(value)
      ? value.map(walk)
      : value !== null && typeof value === "object"
      ? Object.fromEntries(
        Object.entries(value).map(([k, v]) => [k, walk(v)]),
      )
      : value;
  return {
    drafts: walk(drafts) as D,
    receipts: walk(receipts) as R,
    voids: walk(voids) as V,
  };
}
