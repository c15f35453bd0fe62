/**
 * `guardlab explain [SCENARIO|list] [--lang en|zh] [--format text|svg]`
 *
 * @module
 */
import { timingDemoWithAttempts } from "../demo.ts";
import {
  explanation,
  explanationLines,
  type Lang,
  LANGS,
  SCENARIOS,
} from "../explain.ts";
import { privateRoot, scratchFolder } from "../sandbox.ts";
import { timelineSvg } from "../svg.ts";
import { wrap } from "../text.ts";
import { help } from "./commands.ts";
import { EXIT } from "./help.ts";
import type { Io } from "./io.ts";
import { atMostPositionals, choice, parseCommand } from "./parse.ts";

/** `guardlab explain …` */
export async function explain(args: string[], io: Io): Promise<number> {
  const { values, positionals } = parseCommand("explain", args, {
    lang: { type: "string" },
    format: { type: "string" },
  });
  if (values.help) return help(io, "explain");
  atMostPositionals("explain", positionals, 1);
  const lang: Lang = choice("explain", "--lang", values.lang, LANGS) ?? "en";
  const format =
    choice("explain", "--format", values.format, ["text", "svg"] as const) ??
      "text";
  const topic = positionals[0];
  if (topic === "list") {
    for (const name of SCENARIOS) {
      io.out(`${name}  (${explanation(name, lang).lab})`);
    }
    return EXIT.ok;
  }
  const chosen = topic === undefined ? [...SCENARIOS] : [
    choice("explain", "scenario", topic, SCENARIOS)!,
  ] as typeof SCENARIOS[number][];
  if (format === "svg") {
    await using folder = scratchFolder(privateRoot(io.base)!);
    const { attempts } = await timingDemoWithAttempts(folder.path);
    const lanes = attempts
      .filter((a) => (chosen as string[]).includes(a.scenario))
      .map((a) => ({ title: a.scenario, attempt: a.attempt }));
    const notes = chosen.flatMap((name) => explanationLines(name, lang))
      .flatMap((line) => wrap(line, 110));
    io.out(timelineSvg("guardlab explain", lanes, notes));
    return EXIT.ok;
  }
  chosen.forEach((name, i) => {
    if (i > 0) io.out("");
    for (const line of explanationLines(name, lang)) {
      for (const part of wrap(line, 80)) io.out(part);
    }
  });
  return EXIT.ok;
}
