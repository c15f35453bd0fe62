/**
 * guardlab: where a tool's guardrail stops a call, relative to the call's
 * side effect, shown against a real SQLite ledger. This module is the
 * library's public API: the timing lab, its ledger, the policy lab, their
 * typed errors and the stage names. The command line lives in `main.ts`.
 *
 * This is the only door: files named `_*.ts` are internal. `lib/` is built
 * in layers whose order is stated once, in `_layers.ts` (text and types,
 * sandbox, store, labs, drivers (experiments, MCP), content, views, CLI);
 * imports point down or stay level, and `tests/architecture/layers_test.ts`
 * holds the code to it.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { Lab } from "./mod.ts";
 *
 * const dir = Deno.makeTempDirSync();
 * const lab = Lab.open(`${dir}/lab.sqlite`);
 * const result = await lab.run(
 *   { job: "JOB-001", topic: "river", copies: 2 },
 *   { badOutput: true },
 * );
 * // The output check refused, yet the draft was already committed:
 * assert.equal(result.status, "output_rejected");
 * assert.equal(result.effect_exists, true);
 * lab.close();
 * Deno.removeSync(dir, { recursive: true });
 * ```
 *
 * @module
 */
export {
  BATCH_LIMIT,
  checkedArgs,
  inputCheck,
  type ToolArgs,
  TOPICS,
} from "./timing/args.ts";
export {
  AuditUnavailable,
  Cancelled,
  DraftNotInserted,
  InjectedFailure,
  InputRejected,
  KeyConflict,
  KeyVoided,
  OutputRejected,
} from "./timing/errors.ts";
export { LedgerUnusable, Refused } from "./base/errors.ts";
export {
  type Faults,
  type HarnessHook,
  type InjectedFaults,
  INPUT_GUARDRAIL_MODES,
  Lab,
  outputCheck,
  RECEIPT_MODES,
  type TeachingSwitches,
} from "./timing/lab.ts";
export {
  type Attempt,
  type AttemptRecord,
  type DraftValue,
  type Raised,
  type RunOutput,
  type RunResult,
  type WrittenReceipt,
} from "./timing/attempt.ts";
export {
  type CallRow,
  type CallTag,
  type CompensationRow,
  type DraftRow,
  type HistoryFacts,
  type KeyRange,
  Ledger,
  type LedgerOptions,
  type ListedKey,
  type RangeFindings,
  type ReceiptFault,
  type ReceiptRow,
  type SessionRow,
  type StoredDraft,
} from "./timing/ledger.ts";
export {
  type ConnectOptions,
  type InsertCheckedOptions,
  PolicyLab,
  type PolicyRequest,
  Snapshot,
} from "./policy/policy.ts";
export {
  type Pending,
  pendingKeys,
  reconcileLedger,
  type ReconcileOptions,
  type Reconciliation,
} from "./timing/reconcile.ts";
export { CALL_TOOLS, type CallTool } from "./timing/call_schema.ts";
export {
  compensate,
  COMPENSATION_FAULTS,
  type CompensationFault,
  type CompensationResult,
  type CompensationState,
  compensationState,
} from "./timing/compensation.ts";
export {
  type Checkpoint,
  CHECKPOINTS,
  EVENT_ORDER,
  type EventName,
  FAIL_POINTS,
  type FailPoint,
  PAUSE_AT_CHECKPOINT,
  PAUSE_POINTS,
  type PausePoint,
  type ReceiptStatus,
  type Status,
  STATUSES,
  type StopPoint,
} from "./timing/stages.ts";
export { fingerprint } from "./store/wire.ts";
export { type Bilingual, type Lang, LANGS, type Text } from "./base/i18n.ts";
export { TextError } from "./base/text_error.ts";
