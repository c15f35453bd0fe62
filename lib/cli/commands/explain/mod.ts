/**
 * `guardlab explain [TOPIC|list]`: what each scenario and lesson shows.
 *
 * @module
 */
import { timingDemoWithAttempts } from "../../../experiments/demo.ts";
import { ScriptSession } from "../../../experiments/script.ts";
import {
  explanationLines,
  listedTopic,
  SCENARIOS,
  stepsOf,
  type Topic,
  TOPICS,
} from "../../../content/explain.ts";
import type { Lang } from "../../../base/i18n.ts";
import { LESSONS } from "../../../content/lessons.ts";
import { sdkLensLines } from "../../../content/sdk_lens.ts";
import {
  type PolicyRow,
  policyRow,
  policySvg,
} from "../../../views/policy_view.ts";
import type { Io } from "../../io.ts";
import type { Attempt } from "../../../timing/attempt.ts";
import { labFilesIn, trustedFolders } from "../../../sandbox/sandbox.ts";
import { scratchFolder } from "../../../sandbox/scratch.ts";
import { timelineSvg } from "../../../views/svg.ts";
import { wrap } from "../../../base/terminal.ts";
import { command } from "../../command.ts";
import { EXIT } from "../../exit.ts";
import { EXPLAIN_HELP as H, EXPLAIN_MESSAGES as M } from "./_messages.ts";
import { REFUSED_ROOT } from "../../messages/places.ts";
import { writerFor } from "../../output.ts";
import { choice, UsageError } from "../../parser.ts";
import { formatOf } from "../../places.ts";

/** The `explain` command. */
export const explain = command({
  name: "explain",
  usage: "explain [TOPIC|list] [--sdk] [--format text|svg]",
  about: H.about,
  options: {
    sdk: { type: "boolean", help: H.sdk },
    format: { type: "string", value: "FORMAT", help: H.format },
  },
  maxPositionals: 1,
  exits: { 0: null, 2: null, 4: REFUSED_ROOT },
  async run({ values, positionals, io, lang }) {
    const format = formatOf("explain", values, ["text", "svg"]);
    const topic = positionals[0];
    const out = writerFor(io, lang);
    if (topic === "list") {
      if (format !== "text") {
        throw new UsageError(M.listTextOnly, "explain");
      }
      const listed = (names: readonly Topic[]) =>
        out.lines(names.map((n) => listedTopic(n, lang)));
      out.say(M.scenarios);
      listed(SCENARIOS);
      out.say(M.lessons);
      listed(LESSONS);
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
      for (const line of explanationLines(name, lang)) out.wrapped(line);
      const extra = lens(name);
      if (extra.length > 0) io.out("");
      out.lines(extra);
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
