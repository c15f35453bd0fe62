/**
 * `guardlab reset --ledger NAME`: remove one named ledger.
 *
 * @module
 */
import {
  LAB_FILE,
  POLICY_FILE,
  privateRoot,
  removeLedger,
} from "../../sandbox/sandbox.ts";
import { fill, say, type Text } from "../../base/i18n.ts";
import { EXIT } from "../exit.ts";
import { checkedName } from "../places.ts";
import { command, UsageError } from "../parser.ts";

/** What `reset` tells a person. */
export const RESET_MESSAGES = {
  removed: { en: "removed ledger {name}", zh: "已删除账本 {name}" },
  absent: {
    en: "no ledger named {name}; nothing removed",
    zh: "没有名为 {name} 的账本；什么也没删除",
  },
} as const satisfies Record<string, Text>;

/** The `reset` command. */
export const reset = command({
  name: "reset",
  summary: { en: "delete a named ledger", zh: "删除一个命名账本" },
  usage: "reset --ledger NAME",
  about: {
    en:
      `Deletes the named ledger's database files (${LAB_FILE}, ${POLICY_FILE} and
their -wal/-shm/-journal files) and then its folder. Anything else in that
folder (a link, a file guardlab did not make) refuses the whole reset before
anything is removed.`,
    zh:
      `删除命名账本的数据库文件（${LAB_FILE}、${POLICY_FILE} 及其 -wal/-shm/-journal
文件），再删除它的目录。目录里只要有别的东西（链接、不是 guardlab 建的文件），
整个 reset 都会被拒绝，什么也不删。`,
  },
  options: {
    ledger: {
      type: "string",
      value: "NAME",
      help: { en: "the ledger to delete", zh: "要删除的账本" },
    },
  },
  maxPositionals: 0,
  exits: {
    0: {
      en: "removed, or there was no such ledger",
      zh: "已删除，或本来就没有这个账本",
    },
    2: null,
    4: null,
  },
  run({ values, io, lang }) {
    if (values.ledger === undefined) {
      throw new UsageError({
        en: "--ledger NAME is required",
        zh: "需要 --ledger NAME",
      }, "reset");
    }
    const name = checkedName("reset", values.ledger);
    const root = privateRoot(io, { create: false });
    const removed = root !== null && removeLedger(root, name);
    io.out(say(
      fill(removed ? RESET_MESSAGES.removed : RESET_MESSAGES.absent, { name }),
      lang,
    ));
    return EXIT.ok;
  },
});
