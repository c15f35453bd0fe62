/**
 * `guardlab demo [timing|policy|article]`: the article's fixed scenarios.
 *
 * @module
 */
import {
  articleDemo,
  type ArticleDemoResult,
} from "../../experiments/article_demo.ts";
import { compensationLines } from "../../views/compensation_view.ts";
import { policyDemo, timingDemoWithAttempts } from "../../experiments/demo.ts";
import { scratchFolder } from "../../sandbox/scratch.ts";
import { timelineSvg } from "../../views/svg.ts";
import { renderTimeline, timelineOf } from "../../views/timeline.ts";
import { EXIT } from "../exit.ts";
import { FORMAT_OPTIONS, formatOf, FORMATS, REFUSED_ROOT } from "../places.ts";
import { LAB_NAMES } from "../../experiments/verify.ts";
import { choice, command } from "../parser.ts";
import { fill, say, type Text } from "../../base/i18n.ts";
import { policyLines } from "../../views/policy_demo.ts";
import { styleFor } from "../io.ts";

/** What `demo` tells a person. */
export const DEMO_MESSAGES = {
  secondConnection: {
    en: "  a second connection sees: drafts {drafts}, receipts {receipts}",
    zh: "  另一条连接看到：草稿 {drafts} 条，回执 {receipts} 条",
  },
  /**
   * Where to go after the demo, its last lines in the text view only (never
   * under `--json` or `--format svg`, whose output goes to files): read why,
   * then prove it.
   */
  nextSteps: {
    en:
      "Next: guardlab explain list    read why each check stops where it does\n" +
      "      guardlab exercise list   prove it yourself, judged by the ledger",
    zh: "下一步：guardlab explain list    读懂每个检查为什么拦在那一步\n" +
      "        guardlab exercise list   亲手证明，由账本判定",
  },
} as const satisfies Record<string, Text>;

/** The `demo` command. */
export const demo = command({
  name: "demo",
  summary: {
    en: "run the article's fixed scenarios (default: all three labs)",
    zh: "运行文章里的固定场景（默认三个实验都跑）",
  },
  usage: `demo [${LAB_NAMES.join("|")}] [--json] [--format ${
    FORMATS.join("|")
  }]`,
  about: {
    en:
      `Runs the fixed scenarios of the timing lab (input rejected, output rejected
with the draft already committed, same-request retry, cancel after commit) and
of the policy lab (stale rule with the naive and the checked insert, restored
value, failure before commit), and the article's other claims (the receipt
before the fix; the Agent input guardrail in parallel, as a model of the Python
SDK's scheduling, and blocking), then guardlab's own extension: a compensation
that voids a rejected draft at its own commit point, and one that fails before
it ("requested, never confirmed"), grown from the article's warning that a
compensation can itself fail. Each runs in a fresh scratch ledger.`,
    zh:
      `运行时间线实验的固定场景（前检拒绝；草稿已提交后的后检拒绝；同一请求重试；
提交后取消）和规则实验的固定场景（规则已变时的错误对照与条件写入、数值改回、
提交前失败），以及文章的其他论断（修正之前的回执；Agent 输入护栏的并行——
按 Python SDK 的调度建模——与阻塞），然后是 guardlab 自己的扩展：在自己的
提交点作废被拒草稿的补偿，以及在提交前失败的补偿（“已请求、未确认”），
出处是文章的提醒“补偿本身也可能失败”。每个都用新的临时账本。`,
  },
  options: FORMAT_OPTIONS,
  maxPositionals: 1,
  exits: { 0: null, 2: null, 4: REFUSED_ROOT },
  async run({ values, positionals, io, lang }) {
    const which = choice(
      "demo",
      "lab",
      positionals[0],
      LAB_NAMES,
    );
    const format = formatOf("demo", values);
    await using folder = scratchFolder(io.base);
    const all = which === undefined;
    const timing = all || which === "timing"
      ? await timingDemoWithAttempts(folder.path)
      : undefined;
    const policy = all || which === "policy"
      ? await policyDemo(folder.path)
      : undefined;
    const article = all || which === "article"
      ? await articleDemo(folder.path)
      : undefined;
    if (format === "json") {
      const data = which === "timing"
        ? timing!.result
        : which === "policy"
        ? policy
        : which === "article"
        ? article!.result
        : { timing: timing!.result, policy, article: article!.result };
      io.out(JSON.stringify(data, null, 2));
      return EXIT.ok;
    }
    if (format === "svg") {
      io.out(timelineSvg(
        say({
          en: "guardlab demo: where each check stops the call",
          zh: "guardlab 演示：每个检查拦在哪一步",
        }, lang),
        [...(timing?.attempts ?? []), ...(article?.attempts ?? [])].map((
          a,
        ) => ({
          title: a.scenario,
          attempt: a.attempt,
        })),
        [
          ...(policy ? policyLines(policy, lang) : []),
          ...(article ? compensationNotes(article.result, lang) : []),
        ],
        lang,
      ));
      return EXIT.ok;
    }
    const style = styleFor(io);
    if (timing) {
      io.out(say({
        en: "Timing lab: one call, one timeline, one SQLite ledger",
        zh: "时间线实验：一次调用、一条时间线、一个 SQLite 账本",
      }, lang));
      for (const { scenario, attempt } of timing.attempts) {
        io.out("");
        io.out(`${scenario}`);
        for (const line of renderTimeline(timelineOf(attempt), style, lang)) {
          io.out(line);
        }
      }
      io.out("");
      io.out(
        `draft_rows=${timing.result.draft_rows}  ${
          say(
            { en: "(JOB-001 and JOB-002)", zh: "（JOB-001 和 JOB-002）" },
            lang,
          )
        }`,
      );
    }
    if (policy) {
      if (timing) io.out("");
      io.out(say({
        en: "Policy lab: commit only under the rule revision that was checked",
        zh: "规则实验：只有前检所见的修订号仍然有效时才提交",
      }, lang));
      for (const line of policyLines(policy, lang)) io.out(line);
    }
    if (article) {
      if (timing || policy) io.out("");
      io.out(say({
        en:
          "The article's other claims, then guardlab's compensation extension",
        zh: "文章的其他论断，以及 guardlab 的补偿扩展",
      }, lang));
      for (const { scenario, attempt } of article.attempts) {
        io.out("");
        io.out(scenario);
        for (const line of renderTimeline(timelineOf(attempt), style, lang)) {
          io.out(line);
        }
        const { drafts, receipts } = article.result[scenario].rows;
        io.out(
          say(fill(DEMO_MESSAGES.secondConnection, { drafts, receipts }), lang),
        );
      }
      for (const scenario of COMPENSATIONS) {
        io.out("");
        io.out(scenario);
        const outcome = article.result[scenario];
        for (const line of compensationLines(outcome, lang, style)) {
          io.out(line);
        }
      }
    }
    io.out("");
    for (const line of say(DEMO_MESSAGES.nextSteps, lang).split("\n")) {
      io.out(line);
    }
    return EXIT.ok;
  },
});

/** guardlab's compensation scenarios, shown after the article's claims. */
const COMPENSATIONS = [
  "compensation_confirmed",
  "compensation_failed",
] as const;

/** The compensation scenarios as note lines (for the SVG), titled. */
function compensationNotes(
  result: ArticleDemoResult,
  lang: "en" | "zh",
): string[] {
  return COMPENSATIONS.flatMap((scenario) => [
    scenario,
    ...compensationLines(result[scenario], lang),
  ]);
}
