/**
 * `guardlab verify`: every demo against the expected answers built in.
 *
 * @module
 */
import { scratchFolder } from "../../sandbox/scratch.ts";
import {
  EXPECTED,
  renderChecks,
  verify as compare,
} from "../../experiments/verify.ts";
import { EXIT } from "../exit.ts";
import type { Io } from "../io.ts";
import { REFUSED_ROOT } from "../places.ts";
import { command } from "../parser.ts";
import type { Lang } from "../../base/i18n.ts";

/** Run every demo, compare with `expected` (the built-in fixtures by default), print, return the exit code. */
export async function runVerify(
  io: Io,
  json: boolean,
  expected: Parameters<typeof compare>[1] = EXPECTED,
  lang: Lang = "en",
): Promise<number> {
  await using folder = scratchFolder(io.base);
  const checks = await compare(folder.path, expected);
  const ok = checks.every((c) => c.pass);
  if (json) io.out(JSON.stringify({ ok, scenarios: checks }));
  else for (const line of renderChecks(checks, lang)) io.out(line);
  return ok ? EXIT.ok : EXIT.failed;
}

/** The `verify` command. */
export const verify = command({
  name: "verify",
  summary: {
    en: "run every demo and compare it with the built-in expected answers",
    zh: "运行全部演示，并与程序内置的预期答案逐项比对",
  },
  usage: "verify [--json]",
  about: {
    en:
      `Runs every demo in fresh scratch ledgers and compares every scenario with
the expected JSON built into this program (written by hand from the article).
Prints one line per scenario and, for a mismatch, the expected and the actual
value.`,
    zh: `在新的临时账本里运行全部演示，把每个场景与程序内置的预期 JSON（依据文章
手工写成）比对。每个场景一行；不一致时给出预期值和实际值。`,
  },
  options: {
    json: {
      type: "boolean",
      help: {
        en: 'print {"ok", "scenarios": [...]} instead',
        zh: '改为输出 {"ok", "scenarios": [...]}',
      },
    },
  },
  maxPositionals: 0,
  exits: {
    0: { en: "every scenario matches", zh: "每个场景都一致" },
    1: { en: "a scenario does not match", zh: "有场景不一致" },
    2: null,
    4: REFUSED_ROOT,
  },
  run: ({ values, io, lang }) =>
    runVerify(io, values.json ?? false, EXPECTED, lang),
});
