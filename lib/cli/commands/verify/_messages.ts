/**
 * What `guardlab verify` says about itself (the scenario lines are the
 * experiments' own).
 *
 * @module
 */
import type { Text } from "../../../base/i18n.ts";

/** `verify --help`: what it does, its flag, its exit codes. */
export const VERIFY_HELP = {
  about: {
    en:
      `Runs every demo in fresh scratch ledgers and compares every scenario with
the expected JSON built into this program (written by hand from the article).
Prints one line per scenario and, for a mismatch, the expected and the actual
value.`,
    zh: `在新的临时账本里运行全部演示，把每个场景与程序内置的预期 JSON（依据文章
手工写成）比对。每个场景一行；不一致时给出预期值和实际值。`,
  },
  json: {
    en: 'print {"ok", "scenarios": [...]} instead',
    zh: '改为输出 {"ok", "scenarios": [...]}',
  },
  exitOk: { en: "every scenario matches", zh: "每个场景都一致" },
  exitFailed: { en: "a scenario does not match", zh: "有场景不一致" },
} as const satisfies Record<string, Text>;
