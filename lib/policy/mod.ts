/**
 * The policy lab: a pre-check must be re-verified at commit. A reader takes
 * a {@linkcode Snapshot} of the rule (its limit and revision) before the
 * call; the checked insert commits only if the rule row is still there and
 * its revision has not moved, in the same immediate transaction as the
 * write, so a limit lowered in between refuses the stale request.
 *
 * - `policy.ts`: the {@linkcode PolicyLab}, its snapshot, the checked
 *   insert and the rule editor's writes.
 *
 * @module
 */
export * from "./policy.ts";
