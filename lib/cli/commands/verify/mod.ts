/**
 * `guardlab verify`: every demo against the expected answers built in.
 *
 * @module
 */
import { scratchFolder } from "../../../sandbox/scratch.ts";
import {
  EXPECTED,
  renderChecks,
  verify as compare,
} from "../../../experiments/verify.ts";
import type { Lang } from "../../../base/i18n.ts";
import { command } from "../../command.ts";
import { EXIT } from "../../exit.ts";
import type { Io } from "../../io.ts";
import { REFUSED_ROOT } from "../../messages/places.ts";
import { VERIFY_HELP as H } from "./_messages.ts";
import { writerFor } from "../../output.ts";

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
  const out = writerFor(io, lang);
  if (json) out.json({ ok, scenarios: checks });
  else out.lines(renderChecks(checks, lang));
  return ok ? EXIT.ok : EXIT.failed;
}

/** The `verify` command. */
export const verify = command({
  name: "verify",
  usage: "verify [--json]",
  about: H.about,
  options: { json: { type: "boolean", help: H.json } },
  maxPositionals: 0,
  exits: { 0: H.exitOk, 1: H.exitFailed, 2: null, 4: REFUSED_ROOT },
  run: ({ values, io, lang }) =>
    runVerify(io, values.json ?? false, EXPECTED, lang),
});
