/**
 * A scenario is its steps, and this is the one runner of them. Every step
 * goes through the `script` runner ({@linkcode ScriptSession}) as its
 * `script` line, so a scenario runs in the demo exactly as `explain`
 * replays it, and what the demo reports is what `script` would print.
 *
 * @module
 */
import type { Text } from "../base/i18n.ts";
import type { Attempt } from "../timing/attempt.ts";
import { labFilesIn } from "../sandbox/sandbox.ts";
import { type Output, ScriptSession } from "./script.ts";
import { scriptLine, type ScriptStep } from "./_steps.ts";

/** One step of a scenario: the step itself, and what the demo reads and says of it. */
export interface ScenarioStep<Key extends string = string> {
  /** The step as `script` runs it. */
  readonly step: ScriptStep;
  /**
   * The key of the demo's result that this step's printed object fills. A
   * `run` step that reports `output` is the scenario's attempt: the one its
   * timeline draws.
   */
  readonly reports?: Key;
  /**
   * The key filled with the drafts the editor reads right after this step:
   * an observation through the second connection, not a step, so neither
   * `explain` nor the lanes replay it.
   */
  readonly rowsAfter?: Key;
  /** The demo's line for this step; `{result}` is its reported outcome. */
  readonly says?: Text;
}

/** A scenario: its name, the demo's heading for it, and its steps in time order. */
export interface Scenario<
  Name extends string = string,
  Key extends string = string,
> {
  /** The scenario's name, as `explain` and the demo's result know it. */
  readonly name: Name;
  /** The demo's heading line for the scenario, where it prints one. */
  readonly title?: Text;
  /** Its steps. */
  readonly steps: readonly ScenarioStep<Key>[];
}

/** One step's printed object, with the step that printed it. */
export interface Reported {
  /** The step. */
  readonly step: ScriptStep;
  /** What it printed. */
  readonly printed: Output;
}

/** What a scenario's steps printed, by the key each reports, and its attempt. */
export interface ScenarioRun<Key extends string = string> {
  /** Each reporting step's printed object, by its key. */
  readonly reported: Readonly<Partial<Record<Key, Reported>>>;
  /** The attempt of the `run` step that reports `output`, if there is one. */
  readonly attempt?: Attempt;
}

const EDITOR_READS_DRAFTS: ScriptStep = { op: "policy.rows" };

/** Run `scenario`'s steps, in order, in `session`. */
export async function runScenario<Key extends string>(
  session: ScriptSession,
  scenario: Scenario<string, Key>,
): Promise<ScenarioRun<Key>> {
  const reported: Partial<Record<Key, Reported>> = {};
  let attempt: Attempt | undefined;
  for (const { step, reports, rowsAfter } of scenario.steps) {
    const { output, run } = await session.step(scriptLine(step));
    if (reports !== undefined) reported[reports] = { step, printed: output };
    if (reports === "output" && run) attempt = run.attempt;
    if (rowsAfter !== undefined) {
      const read = await session.step(scriptLine(EDITOR_READS_DRAFTS));
      reported[rowsAfter] = { step: EDITOR_READS_DRAFTS, printed: read.output };
    }
  }
  return { reported, attempt };
}

/** The two database files of a scenario's session. */
export type ScenarioFiles = ReturnType<typeof labFilesIn>;

/**
 * Run `body` with a `script` session on the two database files inside
 * `folder`, closed afterwards whatever happens.
 */
export async function inSession<T>(
  folder: string,
  body: (session: ScriptSession, files: ScenarioFiles) => Promise<T>,
): Promise<T> {
  const files = labFilesIn(folder);
  const session = new ScriptSession(files);
  try {
    return await body(session, files);
  } finally {
    session.close();
  }
}

/**
 * Run `body` with a `script` session in a fresh folder of its own inside
 * `folder`, which is removed afterwards: a scenario that needs a fresh
 * ledger or policy database gets one.
 */
export async function inFreshSession<T>(
  folder: string,
  prefix: string,
  body: (session: ScriptSession, files: ScenarioFiles) => Promise<T>,
): Promise<T> {
  const dir = await Deno.makeTempDir({ dir: folder, prefix });
  try {
    return await inSession(dir, body);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}

/** The steps of `scenario` as the `script` lines that replay it. */
export function scriptLines(scenario: Scenario): string[] {
  return scenario.steps.map(({ step }) => scriptLine(step));
}
