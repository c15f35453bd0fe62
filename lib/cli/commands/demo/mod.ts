/**
 * `guardlab demo [timing|policy|article]`: the article's fixed scenarios.
 *
 * @module
 */
import {
  articleDemo,
  type ArticleDemoResult,
} from "../../../experiments/article_demo.ts";
import { compensationLines } from "../../../views/compensation_view.ts";
import {
  policyDemo,
  timingDemoWithAttempts,
} from "../../../experiments/demo.ts";
import { scratchFolder } from "../../../sandbox/scratch.ts";
import { timelineSvg } from "../../../views/svg.ts";
import { renderTimeline, timelineOf } from "../../../views/timeline.ts";
import { LAB_NAMES } from "../../../experiments/verify.ts";
import type { Lang } from "../../../base/i18n.ts";
import type { Attempt } from "../../../timing/attempt.ts";
import { policyLines } from "../../../views/policy_demo.ts";
import { command } from "../../command.ts";
import { EXIT } from "../../exit.ts";
import type { Io } from "../../io.ts";
import { DEMO_HELP as H, DEMO_MESSAGES as M } from "./_messages.ts";
import { REFUSED_ROOT } from "../../messages/places.ts";
import { styleFor, writerFor } from "../../output.ts";
import { choice } from "../../parser.ts";
import { FORMAT_OPTIONS, formatOf, FORMATS } from "../../places.ts";

/** The `demo` command. */
export const demo = command({
  name: "demo",
  usage: `demo [${LAB_NAMES.join("|")}] [--json] [--format ${
    FORMATS.join("|")
  }]`,
  about: H.about,
  options: FORMAT_OPTIONS,
  maxPositionals: 1,
  exits: { 0: null, 2: null, 4: REFUSED_ROOT },
  async run({ values, positionals, io, lang }) {
    const which = choice("demo", "lab", positionals[0], LAB_NAMES);
    const format = formatOf("demo", values);
    await using folder = scratchFolder(io.base);
    const all = which === undefined;
    const ran: Ran = {
      timing: all || which === "timing"
        ? await timingDemoWithAttempts(folder.path)
        : undefined,
      policy: all || which === "policy"
        ? await policyDemo(folder.path)
        : undefined,
      article: all || which === "article"
        ? await articleDemo(folder.path)
        : undefined,
    };
    if (format === "json") {
      const { timing, policy, article } = ran;
      const data = which === "timing"
        ? timing!.result
        : which === "policy"
        ? policy
        : which === "article"
        ? article!.result
        : { timing: timing!.result, policy, article: article!.result };
      io.out(JSON.stringify(data, null, 2));
    } else if (format === "svg") io.out(demoSvg(ran, io, lang));
    else showDemo(ran, io, lang);
    return EXIT.ok;
  },
});

/** What the demo ran: each lab asked for. */
interface Ran {
  /** The timing lab's scenarios, with their attempts. */
  timing?: Awaited<ReturnType<typeof timingDemoWithAttempts>>;
  /** The policy lab's scenarios. */
  policy?: Awaited<ReturnType<typeof policyDemo>>;
  /** The article's other claims and the compensations. */
  article?: Awaited<ReturnType<typeof articleDemo>>;
}

/** The demo as one SVG: every attempt's timeline, the rest as notes. */
function demoSvg({ timing, policy, article }: Ran, io: Io, lang: Lang) {
  return timelineSvg(
    writerFor(io, lang).text(M.svgTitle),
    [...(timing?.attempts ?? []), ...(article?.attempts ?? [])].map((a) => ({
      title: a.scenario,
      attempt: a.attempt,
    })),
    [
      ...(policy ? policyLines(policy, lang) : []),
      ...(article ? compensationNotes(article.result, lang) : []),
    ],
    lang,
  );
}

/** The demo as text: each lab under its title, then where to go next. */
function showDemo({ timing, policy, article }: Ran, io: Io, lang: Lang) {
  const out = writerFor(io, lang);
  const style = styleFor(io);
  const timelineOfScenario = (scenario: string, attempt: Attempt) => {
    io.out("");
    io.out(scenario);
    out.lines(renderTimeline(timelineOf(attempt), style, lang));
  };
  if (timing) {
    out.say(M.timingTitle);
    for (const { scenario, attempt } of timing.attempts) {
      timelineOfScenario(scenario, attempt);
    }
    io.out("");
    io.out(
      `draft_rows=${timing.result.draft_rows}  ${out.text(M.draftRowsNote)}`,
    );
  }
  if (policy) {
    if (timing) io.out("");
    out.say(M.policyTitle);
    out.lines(policyLines(policy, lang));
  }
  if (article) {
    if (timing || policy) io.out("");
    out.say(M.articleTitle);
    for (const { scenario, attempt } of article.attempts) {
      timelineOfScenario(scenario, attempt);
      const { drafts, receipts } = article.result[scenario].rows;
      out.say(M.secondConnection, { drafts, receipts });
    }
    for (const scenario of COMPENSATIONS) {
      io.out("");
      io.out(scenario);
      out.lines(compensationLines(article.result[scenario], lang, style));
    }
  }
  io.out("");
  out.lines(out.text(M.nextSteps).split("\n"));
}

/** guardlab's compensation scenarios, shown after the article's claims. */
const COMPENSATIONS = [
  "compensation_confirmed",
  "compensation_failed",
] as const;

/** The compensation scenarios as note lines (for the SVG), titled. */
function compensationNotes(
  result: ArticleDemoResult,
  lang: Lang,
): string[] {
  return COMPENSATIONS.flatMap((scenario) => [
    scenario,
    ...compensationLines(result[scenario], lang),
  ]);
}
