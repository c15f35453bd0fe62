/**
 * The evidence of a prediction about an agent host: the host run in
 * process on one case of `accept host` against one variant of the tool,
 * as `guardlab accept host --example HOST` runs it (under the students'
 * grant: no socket, no process; its ledger in a private folder of the
 * judge's scratch folder, removed with it). One step (`op` "host") with
 * the case, the variant, the verdict, its class, what is reported beside
 * it, whether the host sent the call again by itself (`resent`), whether
 * it sent `notifications/cancelled` (`cancelled`), what it told the model
 * (`told`: success, failure, unknown, tool-error or nothing), the rows
 * the ledger holds at the end, counted again from its file (`rows`), and
 * how the run ended (`host_end`: "exit", by itself; "limit", stopped by
 * guardlab: then the run judges no prediction). The
 * ledger tables are empty: the lab's ledger is not involved.
 *
 * A host that cannot run (its package cannot load) gives no step: the
 * prediction's premise does not hold, and the judge says it cannot tell.
 *
 * @module
 */
import { hostExample } from "../accept/mod.ts";
import { type Evidence, type Item, LEDGER_TABLES } from "./_evidence.ts";
import type { HostExampleSpec } from "./_form.ts";

/**
 * Run the host `spec` names, in process under `base` (its run's limit
 * `runMs`, accept's by default), and hold its row as evidence.
 */
export async function hostEvidence(
  spec: HostExampleSpec,
  base: string,
  runMs?: number,
): Promise<Evidence> {
  const ledger = Object.fromEntries(
    LEDGER_TABLES.map((t) => [t, [] as Item[]]),
  ) as Evidence["ledger"];
  let steps: Item[] = [];
  try {
    const r = await hostExample(
      spec.host,
      spec.case,
      spec.variant,
      base,
      runMs,
    );
    steps = [{
      step: 1,
      line: 1,
      op: "host",
      case: r.case,
      variant: r.variant,
      verdict: r.verdict,
      class: r.class,
      info: [...r.info],
      resent: r.resent > 0,
      cancelled: r.cancelled,
      told: r.told,
      host_end: r.host_end,
      // A ledger that could not be counted is absent ("missing"), not a number.
      ...(r.effects === null ? {} : { rows: r.effects }),
    }];
  } catch {
    // The host could not run here: no step, so the judge cannot tell.
  }
  return { steps, ledger, invalid: [], overLimit: null };
}
