/**
 * `guardlab ledger`: a ledger's drafts and receipts, read-only.
 *
 * @module
 */
import { wrap } from "../../views/text.ts";
import { EXIT } from "../exit.ts";
import { LEDGER_OPTIONS, openExisting } from "../places.ts";
import { command } from "../registry.ts";

/** The `ledger` command. */
export const ledger = command({
  name: "ledger",
  summary: {
    en: "show a ledger's drafts and receipts (read-only)",
    zh: "查看账本里的草稿和回执（只读）",
  },
  usage: "ledger (--ledger NAME | --ledger-file PATH) [--json]",
  about: {
    en:
      `Shows the drafts (the business effect) and the receipts (the audit trail).
The file is opened read-only: not a byte of it changes.`,
    zh:
      `显示草稿（业务效果）和回执（审计记录）。以只读方式打开，文件一个字节都不改。`,
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
  },
  maxPositionals: 0,
  exits: { 0: null, 2: null, 4: null },
  run({ values, io }) {
    const book = openExisting("ledger", io, values);
    try {
      const drafts = book.drafts();
      const receipts = book.receipts();
      if (values.json) {
        io.out(JSON.stringify({ drafts, receipts }));
        return EXIT.ok;
      }
      io.out(`drafts (${drafts.length}): the business effect`);
      for (const d of drafts) {
        const text = (d.body as { text?: unknown })?.text;
        io.out(
          `  ${d.job}  ${
            typeof text === "string" ? text : JSON.stringify(d.body)
          }`,
        );
      }
      io.out(`receipts (${receipts.length}): the audit trail`);
      for (const r of receipts) {
        io.out(
          `  #${r.attempt}  ${r.job ?? "(no job)"}  ${r.status}  draft ${
            r.effect_exists ? "present" : "absent"
          }`,
        );
        for (const line of wrap(`      ${(r.events ?? []).join(" > ")}`, 80)) {
          io.out(line);
        }
      }
      return EXIT.ok;
    } finally {
      book.close();
    }
  },
});
