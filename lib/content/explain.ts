/**
 * What `guardlab explain` explains: every demo scenario, then every lesson
 * beyond the demo, each as labelled lines in the reader's language, and
 * the `script` steps that replay a topic for `explain --format svg`.
 *
 * @module
 */
import { type Lang, say } from "../base/i18n.ts";
import { scriptLines } from "../experiments/scenario.ts";
import { POLICY_SCENARIOS } from "../experiments/policy_scenarios.ts";
import { ARTICLE_SCENARIOS } from "../experiments/article_scenarios.ts";
import { LESSON_SCENARIOS } from "../experiments/lesson_scenarios.ts";
import type { Explanation } from "./_explanation.ts";
import { EXPLAIN_LABELS, LAB_LABELS, TOPIC_LINES } from "./_messages.ts";
import {
  SCENARIO_EXPLANATIONS,
  type ScenarioName,
  SCENARIOS,
} from "./_scenarios.ts";
import { type Lesson, LESSON_EXPLANATIONS, LESSONS } from "./lessons.ts";

export { SCENARIOS } from "./_scenarios.ts";
export type { Explanation } from "./_explanation.ts";

/** A scenario or a lesson. */
export type Topic = ScenarioName | Lesson;

/** Everything `explain` explains: the demo scenarios, then the other lessons. */
export const TOPICS: readonly Topic[] = [...SCENARIOS, ...LESSONS];

/** Every topic's explanation, the demo scenarios' and the lessons'. */
export const EXPLANATIONS: Readonly<Record<Topic, Explanation>> = {
  ...SCENARIO_EXPLANATIONS,
  ...LESSON_EXPLANATIONS,
};

/**
 * The scenarios `explain` replays on their own, in a fresh ledger. The
 * timing demo's are not among them: each stands on the ones before it, so
 * `explain` draws it from the demo's own run.
 */
const REPLAYED: ReadonlyMap<string, readonly string[]> = new Map(
  [...POLICY_SCENARIOS, ...ARTICLE_SCENARIOS, ...LESSON_SCENARIOS].map(
    (scenario) => [scenario.name, scriptLines(scenario)],
  ),
);

/**
 * The `script` lines that replay `topic`, or none: a timing demo scenario
 * (drawn from the demo's run), or a lesson only prose can show.
 */
export function stepsOf(topic: Topic): readonly string[] {
  return REPLAYED.get(topic) ?? [];
}

/** The explanation of `topic`, its three texts in `lang`. */
export function explanation(
  topic: Topic,
  lang: Lang = "en",
): { lab: Explanation["lab"]; happened: string; why: string; next: string } {
  const e = EXPLANATIONS[topic];
  return {
    lab: e.lab,
    happened: say(e.happened, lang),
    why: say(e.why, lang),
    next: say(e.next, lang),
  };
}

/** The explanation as labelled lines, in `lang`. */
export function explanationLines(topic: Topic, lang: Lang = "en"): string[] {
  const e = EXPLANATIONS[topic];
  const line = (field: keyof typeof EXPLAIN_LABELS) =>
    `  ${say(EXPLAIN_LABELS[field], lang)}${say(e[field], lang)}`;
  return [
    say(TOPIC_LINES.heading(topic, LAB_LABELS[e.lab]), lang),
    line("happened"),
    line("why"),
    line("next"),
  ];
}

/** `topic` as `explain list` lists it, with its group, in `lang`. */
export function listedTopic(topic: Topic, lang: Lang = "en"): string {
  return say(
    TOPIC_LINES.listed(topic, LAB_LABELS[EXPLANATIONS[topic].lab]),
    lang,
  );
}
