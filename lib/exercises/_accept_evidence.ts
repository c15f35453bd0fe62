/**
 * The evidence of a prediction about an example server: its acceptance
 * matrix, as `guardlab accept --example NAME` finds it, run in process on
 * fresh keys (nothing is started, no file is written). Each case is one
 * step (`op` "accept"), with its case name, verdict, the verdict's class,
 * what is reported beside it as information, the effect counted by key and,
 * for a concurrent case, N. The ledger tables are empty: no ledger is
 * involved.
 *
 * @module
 */
import type { ExampleName } from "../accept/mod.ts";
import { exampleMatrix } from "../accept/mod.ts";
import { type Evidence, type Item, LEDGER_TABLES } from "./_evidence.ts";

/** Run example server `name` through every case and hold its matrix as evidence. */
export async function acceptEvidence(name: ExampleName): Promise<Evidence> {
  const { report } = await exampleMatrix(name);
  const steps: Item[] = report.results.map((r, i) => ({
    step: i + 1,
    line: i + 1,
    op: "accept",
    case: r.case,
    verdict: r.verdict,
    class: r.class,
    info: [...r.info],
    // A count the read tool could not give is absent ("missing"), not a number.
    ...(r.effect === null ? {} : { effect: r.effect }),
    ...(r.copies === undefined ? {} : { copies: r.copies }),
  }));
  const ledger = Object.fromEntries(
    LEDGER_TABLES.map((t) => [t, [] as Item[]]),
  ) as Evidence["ledger"];
  return { steps, ledger, invalid: [], overLimit: null };
}
