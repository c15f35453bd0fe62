/**
 * `guardlab explain [TOPIC|list]`: what each scenario and lesson shows.
 *
 * @module
 */
import { timingDemoWithAttempts } from "../../experiments/demo.ts";
import { ScriptSession } from "../../experiments/script.ts";
import {
  explanation,
  explanationLines,
  SCENARIOS,
  stepsOf,
  type Topic,
  TOPICS,
} from "../../content/explain.ts";
import { type Lang, say } from "../../base/i18n.ts";
import { LESSONS } from "../../content/lessons.ts";
import { sdkLensLines } from "../../content/sdk_lens.ts";
import {
  type PolicyRow,
  policyRow,
  policySvg,
} from "../../views/policy_view.ts";
import type { Io } from "../io.ts";
import type { Attempt } from "../../timing/attempt.ts";
import { labFilesIn, trustedFolders } from "../../sandbox/sandbox.ts";
import { scratchFolder } from "../../sandbox/scratch.ts";
import { timelineSvg } from "../../views/svg.ts";
import { wrap } from "../../base/terminal.ts";
import { EXIT } from "../exit.ts";
import { formatOf, REFUSED_ROOT } from "../places.ts";
import { choice, command, UsageError } from "../parser.ts";

/** The `explain` command. */
export const explain = command({
  name: "explain",
  summary: {
    en: "what each demo scenario shows, in English or Chinese",
    zh: "用中文或英文讲解每个演示场景",
  },
  usage: "explain [TOPIC|list] [--lang en|zh] [--format text|svg]",
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
    sdk: {
      type: "boolean",
      help: {
        en: "also show what an agent framework does with each guardrail " +
          "behaviour (OpenAI Agents SDK, as documented)",
        zh:
          "同时显示 Agent 框架对每种护栏行为的处理（OpenAI Agents SDK，按文档）",
      },
    },
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
        throw new UsageError({
          en: "explain list has only a text format",
          zh: "explain list 只有文本格式",
        }, "explain");
      }
      io.out(say({
        en: "Demo scenarios (guardlab demo; checked by guardlab verify):",
        zh: "演示场景（guardlab demo；由 guardlab verify 核对）：",
      }, lang));
      for (const name of SCENARIOS) {
        io.out(`  ${name}  (${explanation(name, lang).lab})`);
      }
      io.out(say({
        en: "More lessons (reproduce them with guardlab script):",
        zh: "更多课题（可用 guardlab script 复现）：",
      }, lang));
      for (const name of LESSONS) {
        io.out(`  ${name}  (${explanation(name, lang).lab})`);
      }
      return EXIT.ok;
    }
    const chosen: Topic[] = topic === undefined
      ? [...TOPICS]
      : [choice("explain", "topic", topic, TOPICS)!];
    const lens = (name: Topic) => values.sdk ? sdkLensLines(name, lang) : [];
    if (format === "svg") {
      io.out(await drawTopics(chosen, io, lang, chosen.flatMap(lens)));
      return EXIT.ok;
    }
    chosen.forEach((name, i) => {
      if (i > 0) io.out("");
      for (const line of explanationLines(name, lang)) {
        for (const part of wrap(line, 80)) io.out(part);
      }
      const extra = lens(name);
      if (extra.length > 0) io.out("");
      for (const line of extra) io.out(line);
    });
    return EXIT.ok;
  },
});

/**
 * The SVG of `topics`: a timing demo scenario as the demo ran it, any other
 * topic by replaying its steps in a scratch ledger (timelines for run steps,
 * the reader and editor lanes for policy steps), with its explanation below.
 */
async function drawTopics(
  topics: Topic[],
  io: Io,
  lang: Lang,
  extraNotes: string[],
): Promise<string> {
  await using folder = scratchFolder(io.base);
  const notes = [
    ...topics.flatMap((name) => explanationLines(name, lang))
      .flatMap((line) => wrap(line, 110)),
    ...(extraNotes.length > 0 ? ["", ...extraNotes] : []),
  ];
  const steps = topics.flatMap((t) => stepsOf(t));
  const demoLanes =
    topics.some((t) =>
        (SCENARIOS as readonly string[]).includes(t) && stepsOf(t).length === 0
      )
      ? (await timingDemoWithAttempts(folder.path)).attempts
        .filter((a) => (topics as string[]).includes(a.scenario))
        .map((a) => ({ title: a.scenario, attempt: a.attempt }))
      : [];
  const session = new ScriptSession({
    ...labFilesIn(folder.path),
    trusted: trustedFolders(io.base),
  });
  const lanes: { title: string; attempt: Attempt }[] = [...demoLanes];
  const policy: PolicyRow[] = [];
  try {
    for (const [i, line] of steps.entries()) {
      const result = await session.step(line);
      if (result.run) {
        lanes.push({
          title: `${i + 1}. run ${result.run.job ?? ""}`,
          attempt: result.run.attempt,
        });
      }
      const row = result.policy && policyRow(result.policy);
      if (row) policy.push(row);
    }
  } finally {
    session.close();
  }
  const title = topics.length === 1
    ? `guardlab explain ${topics[0]}`
    : "guardlab explain";
  if (policy.length > 0 && lanes.length === 0) {
    return policySvg(title, policy, lang, notes);
  }
  return timelineSvg(title, lanes, notes, lang);
}
