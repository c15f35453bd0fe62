/**
 * The built-in exercises, one JSON file each under `data/`, imported
 * into the program (never read at run time: the binary has only the temp
 * folder). Their order here is the course's order, and so their numbers.
 * They are written in the course-file form that `exercise --course FILE`
 * reads, and checked against it by the same reader.
 *
 * @module
 */
import x01 from "./data/01-output-check-cannot-unwrite.json" with {
  type: "json",
};
import x02 from "./data/02-same-error-two-ledgers.json" with {
  type: "json",
};
import x03 from "./data/03-retry-reuses.json" with { type: "json" };
import x04 from "./data/04-key-conflict.json" with { type: "json" };
import x05 from "./data/05-new-key-duplicates.json" with { type: "json" };
import x06 from "./data/06-lying-receipt.json" with { type: "json" };
import x07 from "./data/07-cancel-after-commit.json" with { type: "json" };
import x08 from "./data/08-audit-fails-during-cancel.json" with {
  type: "json",
};
import x09 from "./data/09-stale-rule.json" with { type: "json" };
import x10 from "./data/10-value-back-revision-not.json" with {
  type: "json",
};
import x11 from "./data/11-failure-before-commit.json" with {
  type: "json",
};
import x12 from "./data/12-parallel-input-guardrail.json" with {
  type: "json",
};
import x13 from "./data/13-reconcile-to-empty.json" with { type: "json" };
import x14 from "./data/14-compensation-fails.json" with { type: "json" };
import x15 from "./data/15-predict-cancel-after-commit.json" with {
  type: "json",
};
import x16 from "./data/16-predict-parallel-guardrail.json" with {
  type: "json",
};
import x17 from "./data/17-agent-retry-reuses.json" with {
  type: "json",
};
import x18 from "./data/18-predict-accept-loses-updates.json" with {
  type: "json",
};
import x19 from "./data/19-predict-output-guardrail.json" with {
  type: "json",
};
import x20 from "./data/20-predict-host-lost-reply.json" with {
  type: "json",
};

/** One built-in exercise's data, and the file it comes from. */
export interface ExerciseSource {
  /** The file under `lib/exercises/data/`. */
  readonly file: string;
  /** Its parsed JSON, unchecked (the course reader checks it). */
  readonly data: unknown;
}

/** The built-in exercises, in course order. */
export const BUILTIN_EXERCISES: readonly ExerciseSource[] = [
  { file: "01-output-check-cannot-unwrite.json", data: x01 },
  { file: "02-same-error-two-ledgers.json", data: x02 },
  { file: "03-retry-reuses.json", data: x03 },
  { file: "04-key-conflict.json", data: x04 },
  { file: "05-new-key-duplicates.json", data: x05 },
  { file: "06-lying-receipt.json", data: x06 },
  { file: "07-cancel-after-commit.json", data: x07 },
  { file: "08-audit-fails-during-cancel.json", data: x08 },
  { file: "09-stale-rule.json", data: x09 },
  { file: "10-value-back-revision-not.json", data: x10 },
  { file: "11-failure-before-commit.json", data: x11 },
  { file: "12-parallel-input-guardrail.json", data: x12 },
  { file: "13-reconcile-to-empty.json", data: x13 },
  { file: "14-compensation-fails.json", data: x14 },
  { file: "15-predict-cancel-after-commit.json", data: x15 },
  { file: "16-predict-parallel-guardrail.json", data: x16 },
  { file: "17-agent-retry-reuses.json", data: x17 },
  { file: "18-predict-accept-loses-updates.json", data: x18 },
  { file: "19-predict-output-guardrail.json", data: x19 },
  { file: "20-predict-host-lost-reply.json", data: x20 },
];
