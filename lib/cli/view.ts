/**
 * Human views shared by the commands: colour choice and the policy lab's
 * step-by-step lines.
 *
 * @module
 */
import type { PolicyDemoResult } from "../experiments/demo.ts";
import { ANSI, PLAIN, type Style } from "../views/timeline.ts";
import type { Io } from "./io.ts";

/** Colour only when the Io allows it (a terminal without `NO_COLOR`). */
export function styleFor(io: Io): Style {
  return io.color ? ANSI : PLAIN;
}

function draftsText(drafts: [string, number, number][]): string {
  return drafts.length === 0
    ? "none"
    : drafts.map(([job, copies, rev]) =>
      `${job} copies=${copies} checked at rev ${rev}`
    ).join("; ");
}

const insertText = (inserted: boolean) =>
  inserted ? "inserted" : "refused, nothing written";

/** The policy demo as readable lines (80 columns at most). */
export function policyLines(r: PolicyDemoResult): string[] {
  return [
    "",
    "naive_stale: pre-check saw rev 1 (limit 3); the rule became limit 1",
    `  naive insert (the wrong control) wrote anyway`,
    `  drafts: ${draftsText(r.naive_stale)}`,
    "",
    "checked_stale: same interleaving, conditional insert",
    `  checked insert with the old snapshot: ${insertText(r.checked_stale)}`,
    `  drafts: ${draftsText(r.after_stale)}`,
    `  fresh pre-check of the same request: ${r.fresh_check_same_request}`,
    `  new request JOB-002 copies=1, freshly checked: ${
      insertText(r.new_input_accepted)
    }`,
    `  drafts: ${draftsText(r.after_recovery)}`,
    "",
    "restored_value_old_revision: limit 3 -> 1 -> 3, revision 1 -> 3",
    `  checked insert with the rev-1 snapshot: ${
      insertText(r.restored_value_old_revision)
    }`,
    `  drafts: ${draftsText(r.after_restored_value)}`,
    "",
    "precommit_error: failure after INSERT, before COMMIT",
    `  raised: ${r.precommit_error}; rolled back`,
    `  drafts: ${draftsText(r.after_precommit_error)}`,
  ];
}
