/**
 * The shape of one explanation, shared by the demo scenarios
 * (`explain.ts`) and the lessons beyond them (`lessons.ts`), so neither
 * imports the other for it.
 *
 * @module
 */

/** One scenario's explanation. */
export interface Explanation {
  /**
   * Which lab the scenario belongs to; `extension` marks guardlab's own
   * scenarios beyond the article (the compensations).
   */
  lab: "timing" | "policy" | "article" | "extension";
  /** What happened. */
  happened: string;
  /** Why the check could not undo the effect, or why the write refused. */
  why: string;
  /** The safe next step. */
  next: string;
}
