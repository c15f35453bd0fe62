/**
 * The shape of one explanation, shared by the demo scenarios
 * (`_scenarios.ts`) and the lessons beyond them (`lessons.ts`), so neither
 * imports the other for it. Each text is written side by side in both
 * languages.
 *
 * @module
 */
import type { Text } from "../base/i18n.ts";

/** One scenario's or lesson's explanation. */
export interface Explanation {
  /**
   * Which lab the scenario belongs to; `extension` marks guardlab's own
   * scenarios beyond the article (the compensations).
   */
  readonly lab: "timing" | "policy" | "article" | "extension";
  /** What happened. */
  readonly happened: Text;
  /** Why the check could not undo the effect, or why the write refused. */
  readonly why: Text;
  /** The safe next step. */
  readonly next: Text;
}
