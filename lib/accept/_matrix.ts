/**
 * The matrix of an example server in one call, for whoever needs the
 * verdicts without a screen (the prediction exercise, a course check):
 * the example runs in process, on the built-in oracle, with the defaults
 * `accept --example NAME` uses.
 *
 * @module
 */
import {
  CASE_NAMES,
  type CaseName,
  type ExampleName,
  type Verdict,
} from "./cases.ts";
import { EXAMPLE_ORACLE } from "./example_oracle.ts";
import { DEFAULT_ANSWER_TIMEOUT_MS, DEFAULT_COPIES } from "./limits.ts";
import { type AcceptReport, runAccept } from "./run.ts";

/** One case's verdict, with what is reported beside it as information. */
export interface MatrixRow {
  /** The verdict. */
  readonly verdict: Verdict;
  /** Information beside it (e.g. EFFECT-DESPITE-CANCEL). */
  readonly info: readonly Verdict[];
}

/**
 * Run example server `name` through `cases` and return its verdict per
 * case, and the whole report.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { exampleMatrix } from "./_matrix.ts";
 * const { matrix } = await exampleMatrix("duplicates-on-retry", ["lost-reply-retry"]);
 * assert.equal(matrix["lost-reply-retry"]?.verdict, "DUPLICATED");
 * ```
 */
export async function exampleMatrix(
  name: ExampleName,
  cases: readonly CaseName[] = CASE_NAMES,
): Promise<
  { matrix: Partial<Record<CaseName, MatrixRow>>; report: AcceptReport }
> {
  // Loaded here, so the SDK stays out of a caller's graph until it runs one.
  const { exampleServer } = await import("./_examples.ts");
  const server = exampleServer(name);
  const report = await runAccept(await server.open(), {
    oracle: EXAMPLE_ORACLE,
    cases,
    copies: DEFAULT_COPIES,
    timeoutMs: DEFAULT_ANSWER_TIMEOUT_MS,
    start: server.open,
  });
  const matrix: Partial<Record<CaseName, MatrixRow>> = {};
  for (const r of report.results) {
    matrix[r.case] = { verdict: r.verdict, info: r.info };
  }
  return { matrix, report };
}
