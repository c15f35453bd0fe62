/**
 * `guardlab explain [SCENARIO|list]`: what each scenario shows.
 *
 * @module
 */
import { timingDemoWithAttempts } from "../../experiments/demo.ts";
import {
  explanation,
  explanationLines,
  SCENARIOS,
} from "../../views/explain.ts";
import { privateRoot, scratchFolder } from "../../sandbox/sandbox.ts";
import { timelineSvg } from "../../views/svg.ts";
import { wrap } from "../../views/text.ts";
import { EXIT } from "../exit.ts";
import { formatOf, REFUSED_ROOT } from "../places.ts";
import { choice, command, UsageError } from "../registry.ts";

/** The `explain` command. */
export const explain = command({
  name: "explain",
  summary: {
    en: "what each demo scenario shows, in English or Chinese",
    zh: "用中文或英文讲解每个演示场景",
  },
  usage: "explain [SCENARIO|list] [--lang en|zh] [--format text|svg]",
  about: {
    en:
      `Explains a demo scenario: what happened, why the check could not undo the
effect (or why the conditional write refused), and the safe next step.
Without SCENARIO, explains all of them; "list" lists their names.`,
    zh:
      `讲解一个演示场景：发生了什么，为什么检查撤销不了效果（或者条件写入为什么
拒绝），以及安全的下一步。不给 SCENARIO 时讲解全部；"list" 列出场景名。`,
  },
  options: {
    format: {
      type: "string",
      value: "FORMAT",
      help: {
        en: "text (default) or svg (the scenario's timeline)",
        zh: "text（默认）或 svg（该场景的时间线）",
      },
    },
  },
  maxPositionals: 1,
  exits: { 0: null, 2: null, 4: REFUSED_ROOT },
  async run({ values, positionals, io, lang }) {
    const format = formatOf("explain", values, ["text", "svg"]);
    const topic = positionals[0];
    if (topic === "list") {
      if (format !== "text") {
        throw new UsageError("explain list has only a text format", "explain");
      }
      for (const name of SCENARIOS) {
        io.out(`${name}  (${explanation(name, lang).lab})`);
      }
      return EXIT.ok;
    }
    const chosen = topic === undefined
      ? [...SCENARIOS]
      : [choice("explain", "scenario", topic, SCENARIOS)!];
    if (format === "svg") {
      await using folder = scratchFolder(privateRoot(io.base)!);
      const { attempts } = await timingDemoWithAttempts(folder.path);
      const lanes = attempts
        .filter((a) => (chosen as string[]).includes(a.scenario))
        .map((a) => ({ title: a.scenario, attempt: a.attempt }));
      const notes = chosen.flatMap((name) => explanationLines(name, lang))
        .flatMap((line) => wrap(line, 110));
      io.out(timelineSvg("guardlab explain", lanes, notes, lang));
      return EXIT.ok;
    }
    chosen.forEach((name, i) => {
      if (i > 0) io.out("");
      for (const line of explanationLines(name, lang)) {
        for (const part of wrap(line, 80)) io.out(part);
      }
    });
    return EXIT.ok;
  },
});
