/**
 * `guardlab reconcile`: keys whose effect exists without an accepted receipt.
 *
 * @module
 */
import { pendingKeys } from "../../timing/reconcile.ts";
import { displayWidth, shellQuote, wrap } from "../../views/text.ts";
import { EXIT } from "../exit.ts";
import { LEDGER_OPTIONS, openExisting } from "../places.ts";
import { command } from "../registry.ts";

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
    const zh = lang === "zh";
    if (values.json) io.out(JSON.stringify({ pending }));
    else if (pending.length === 0) {
      io.out(
        zh
          ? "无需对账：每份草稿都有 accepted 回执"
          : "nothing to reconcile: every draft has an accepted receipt",
      );
    } else {
      const where = values.ledger !== undefined
        ? `--ledger ${values.ledger}`
        : `--ledger-file ${shellQuote(values["ledger-file"]!)}`;
      for (const p of pending) {
        const seen = p.receipts.length === 0
          ? (zh
            ? "没有任何回执（效果已发生，回执缺失）"
            : "no receipt at all (effect present, receipt missing)")
          : (zh ? "回执 " : "receipts ") +
            p.receipts.map((r) => `#${r.attempt} ${r.status}`).join(", ");
        const head = zh
          ? `${p.job}：草稿存在，但从未 accepted；${seen}`
          : `${p.job}: draft present, never accepted; ${seen}`;
        for (const line of wrap(head, 80)) io.out(line);
        const next = zh ? "  下一步：" : "  next: ";
        if (p.retry) {
          const args =
            `--job ${p.job} --topic ${p.retry.topic} --copies ${p.retry.copies}`;
          const command = `guardlab run ${where} ${args}`;
          // A command too long for one line continues with a backslash, so a
          // pasted copy is still one command.
          if (displayWidth(next + command) <= 80) io.out(next + command);
          else {
            io.out(`${next}guardlab run ${where} \\`);
            io.out(`          ${args}`);
          }
        } else {
          io.out(
            next +
              (zh
                ? `用当初创建 ${p.job} 的那组参数重试`
                : `retry ${p.job} with the arguments that created it`),
          );
        }
        io.out(
          zh
            ? "        （同一业务键、同样参数：草稿被复用，后检重新运行）"
            : "        (same key, same arguments: the draft is reused, checked again)",
        );
      }
    }
    return pending.length === 0 ? EXIT.ok : EXIT.reconcile;
  },
});
