/**
 * `guardlab reconcile`: keys whose effect exists without an accepted receipt.
 *
 * @module
 */
import { needsAttention, pendingKeys } from "../../timing/reconcile.ts";
import { displayWidth, inert, shellQuote, wrap } from "../../base/terminal.ts";
import { JOB_PATTERN } from "../../timing/args.ts";
import { fill, say, type Text } from "../../base/i18n.ts";
import { EXIT } from "../exit.ts";
import { LEDGER_OPTIONS, openExisting } from "../places.ts";
import { command } from "../parser.ts";

/** What `reconcile` tells a person. */
export const RECONCILE_MESSAGES = {
  next: { en: "  next: ", zh: "  下一步：" },
  noReceipt: {
    en: "no receipt at all (effect present, receipt missing)",
    zh: "没有任何回执（效果已发生，回执缺失）",
  },
  receipts: { en: "receipts {list}", zh: "回执 {list}" },
  receiptWritten: { en: "its receipt written", zh: "补偿回执已写" },
  receiptMissing: { en: "its receipt missing", zh: "补偿回执缺失" },
  voided: {
    en: "{job}: voided by a compensation (draft row kept; {receipt})",
    zh: "{job}：已被补偿作废（草稿行保留；{receipt}）",
  },
  keyClosed: {
    en: "        (the key is closed: a retry is refused as key_voided)",
    zh: "        （该业务键已关闭：重试会被拒绝为 key_voided）",
  },
  requested: {
    en:
      "{job}: compensation requested, never confirmed; the draft still stands",
    zh: "{job}：补偿已请求，但从未确认；草稿仍有效",
  },
  compensateAgain: {
    en: "        (a compensation can fail too: run it again, then check)",
    zh: "        （补偿本身也可能失败：重做补偿，再核对账本）",
  },
  neverAccepted: {
    en: "{job}: draft present, never accepted; {seen}",
    zh: "{job}：草稿存在，但从未 accepted；{seen}",
  },
  retryOriginal: {
    en: "retry {job} with the arguments that created it",
    zh: "用当初创建 {job} 的那组参数重试",
  },
  sameKey: {
    en:
      "        (same key, same arguments: the draft is reused, checked again)",
    zh: "        （同一业务键、同样参数：草稿被复用，后检重新运行）",
  },
  nothing: {
    en: "nothing to reconcile: every live draft has an accepted receipt",
    zh: "无需对账：每份有效草稿都有 accepted 回执",
  },
  foreignKey: {
    en: "(none: this key is not one guardlab would write)",
    zh: "（无：这个业务键不是 guardlab 会写下的）",
  },
} as const satisfies Record<string, Text>;

/** The `reconcile` command. */
export const reconcile = command({
  name: "reconcile",
  summary: {
    en: "list keys with a draft but no accepted receipt, and the next step",
    zh: "对账：列出有草稿但没有 accepted 回执的业务键，以及下一步",
  },
  usage: "reconcile (--ledger NAME | --ledger-file PATH) [--json]",
  about: {
    en:
      `Lists every business key whose draft exists but for which no receipt says
accepted, including drafts with no receipt at all (the effect is there, the
receipt is missing), with the safe next step: retry the same key and
arguments; the draft is reused and the output check runs again. The retry
arguments are the ones whose digest equals the stored digest. Read-only.`,
    zh:
      `列出每个"草稿存在、却没有任何回执写着 accepted"的业务键，包括完全没有回执
的草稿（效果已发生，回执缺失），并给出安全的下一步：用同一业务键和同样参数
重试——草稿被复用（幂等），后检重新运行。重试参数是摘要与已存摘要一致的那一组。
只读。`,
  },
  options: {
    ...LEDGER_OPTIONS,
    json: {
      type: "boolean",
      help: { en: 'print {"pending": [...]}', zh: '输出 {"pending": [...]}' },
    },
  },
  maxPositionals: 0,
  exits: {
    0: { en: "nothing needs reconciling", zh: "没有需要对账的业务键" },
    2: null,
    3: null,
    4: null,
  },
  run({ values, io, lang }) {
    const book = openExisting("reconcile", io, values);
    let pending;
    try {
      pending = pendingKeys(book);
    } finally {
      book.close();
    }
    const m = RECONCILE_MESSAGES;
    const text = (t: Text, values: Record<string, string | number> = {}) =>
      say(fill(t, values), lang);
    const open = pending.filter(needsAttention);
    if (values.json) {
      io.out(JSON.stringify({ pending }));
      return open.length === 0 ? EXIT.ok : EXIT.reconcile;
    }
    const where = values.ledger !== undefined
      ? `--ledger ${values.ledger}`
      : `--ledger-file ${shellQuote(values["ledger-file"]!)}`;
    const next = text(m.next);
    // A command too long for one line continues with a backslash, so a
    // pasted copy is still one command.
    const command = (verb: string, args: string) => {
      const line = `guardlab ${verb} ${where} ${args}`;
      if (displayWidth(next + line) <= 80) io.out(next + line);
      else {
        io.out(`${next}guardlab ${verb} ${where} \\`);
        io.out(`          ${args}`);
      }
    };
    // A key goes into a suggested command only when it is one guardlab
    // writes (JOB- and three digits), and quoted even then; any other key
    // from a ledger is shown inert and no command is suggested for it.
    const suggest = (raw: string, verb: string, args: string) => {
      if (JOB_PATTERN.test(raw)) command(verb, args);
      else io.out(next + text(m.foreignKey));
    };
    for (const stored of pending) {
      const raw = stored.job;
      const p = {
        ...stored,
        job: inert(stored.job),
        receipts: stored.receipts.map((r) => ({
          ...r,
          status: inert(r.status),
        })),
      };
      const seen = p.receipts.length === 0
        ? text(m.noReceipt)
        : text(m.receipts, {
          list: p.receipts.map((r) => `#${r.attempt} ${r.status}`).join(", "),
        });
      if (p.state === "voided") {
        const receipt = text(
          p.compensationReceipt ? m.receiptWritten : m.receiptMissing,
        );
        for (const line of wrap(text(m.voided, { job: p.job, receipt }), 80)) {
          io.out(line);
        }
        io.out(text(m.keyClosed));
        continue;
      }
      if (p.state === "compensation_requested") {
        for (const line of wrap(text(m.requested, { job: p.job }), 80)) {
          io.out(line);
        }
        suggest(raw, "compensate", `--job ${shellQuote(raw)}`);
        io.out(text(m.compensateAgain));
        continue;
      }
      for (
        const line of wrap(text(m.neverAccepted, { job: p.job, seen }), 80)
      ) {
        io.out(line);
      }
      if (!JOB_PATTERN.test(raw)) {
        io.out(next + text(m.foreignKey));
      } else if (p.retry) {
        suggest(
          raw,
          "run",
          `--job ${shellQuote(raw)} --topic ${
            shellQuote(p.retry.topic)
          } --copies ${p.retry.copies}`,
        );
      } else {
        io.out(next + text(m.retryOriginal, { job: p.job }));
      }
      io.out(text(m.sameKey));
    }
    if (open.length === 0) io.out(text(m.nothing));
    return open.length === 0 ? EXIT.ok : EXIT.reconcile;
  },
});
