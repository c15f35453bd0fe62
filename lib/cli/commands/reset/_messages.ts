/**
 * What `guardlab reset` says: its help and what it removed.
 *
 * @module
 */
import type { Text } from "../../../base/i18n.ts";
import { LAB_FILE, POLICY_FILE } from "../../../sandbox/sandbox.ts";

/** `reset --help`: what it does, its flag, its exit code. */
export const RESET_HELP = {
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
  ledger: { en: "the ledger to delete", zh: "要删除的账本" },
  exitOk: {
    en: "removed, or there was no such ledger",
    zh: "已删除，或本来就没有这个账本",
  },
} as const satisfies Record<string, Text>;

/** What `reset` tells a person. */
export const RESET_MESSAGES = {
  removed: { en: "removed ledger {name}", zh: "已删除账本 {name}" },
  absent: {
    en: "no ledger named {name}; nothing removed",
    zh: "没有名为 {name} 的账本；什么也没删除",
  },
} as const satisfies Record<string, Text>;
