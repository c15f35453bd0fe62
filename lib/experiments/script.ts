/**
 * The experiment runner: JSON Lines steps against one lab ledger and one
 * policy database (a reader and an editor connection), one JSON line out per
 * step. The table of steps is a contract; see the README.
 *
 * @module
 */
import { isSqliteError } from "../base/errors.ts";
import { InjectedFailure, InputRejected } from "../timing/errors.ts";
import { isPlainRecord } from "../base/json.ts";
import { type Faults, Lab } from "../timing/lab.ts";
import { Ledger } from "../timing/ledger.ts";
import {
  compensate,
  COMPENSATION_FAULTS,
  type CompensationFault,
} from "../timing/compensation.ts";
import {
  ensurePolicyDatabase,
  PolicyLab,
  type Snapshot,
} from "../policy/policy.ts";
import { CHECKPOINTS, FAIL_POINTS, isOneOf } from "../timing/stages.ts";
import { type Attempt, raisedOf } from "../timing/attempt.ts";
import { parseJsonLikePython } from "../base/json.ts";
import type { Text } from "../base/i18n.ts";
import { TextError } from "../base/text_error.ts";
import { STEP_MESSAGES as M } from "./_messages.ts";

/**
 * A step that cannot be run: not JSON, unknown op, missing or bad field,
 * unknown snapshot (then `snapshot` names it, for a caller that can say
 * why it was never taken). `message` is the English, as the script prints.
 */
export class InvalidStep extends TextError {
  /** Build the refusal. */
  constructor(text: Text, readonly snapshot?: string) {
    super(text);
  }
}

/**
 * A line the JSON Lines reader could not hand on as an object, refused in
 * a step's words (`maxBytes`: the bound it was read with).
 */
export function lineRefusal(
  problem: "tooLong" | "notJson" | "notObject",
  maxBytes: number,
): InvalidStep {
  return new InvalidStep(
    problem === "tooLong"
      ? M.longLine(maxBytes)
      : problem === "notJson"
      ? M.notJson
      : M.notObject,
  );
}

/**
 * The one of `names` that `word` most likely misspells (at most two edits
 * away, and not `word` itself), or null.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { nearest } from "./script.ts";
 * assert.equal(nearest("bad_ouput", ["bad_output", "fail_at"]), "bad_output");
 * assert.equal(nearest("x", ["bad_output"]), null);
 * ```
 */
export function nearest(word: string, names: readonly string[]): string | null {
  // Bounded: a name past 64 characters is no misspelling of a short one.
  if (word.length > 64) return null;
  let best: string | null = null;
  let bestDistance = 3;
  for (const name of names) {
    const d = editDistance(word, name);
    if (d > 0 && d < bestDistance) [best, bestDistance] = [name, d];
  }
  return best;
}

function editDistance(a: string, b: string): number {
  let row = Array.from({ length: b.length + 1 }, (_, i) => i);
  for (let i = 1; i <= a.length; i++) {
    const next = [i];
    for (let j = 1; j <= b.length; j++) {
      next[j] = Math.min(
        row[j] + 1,
        next[j - 1] + 1,
        row[j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1),
      );
    }
    row = next;
  }
  return row[b.length];
}

/** Where a script keeps its state. */
export interface ScriptFiles {
  /** The lab ledger file. */
  lab: string;
  /** The policy database file, created on first use. */
  policy: string;
  /** Folders the paths are checked from; the sandbox grant by default. */
  trusted?: readonly string[];
}

/**
 * The most snapshots one script session remembers (`policy.precheck` with
 * `as`). A script is input: without a bound, distinct names would grow the
 * session's memory with every step. Naming an existing snapshot again
 * replaces it and costs nothing.
 */
export const MAX_SNAPSHOTS = 256;

/** The longest snapshot name, in UTF-16 code units (as `String.length` counts). */
export const MAX_SNAPSHOT_NAME = 64;

type Step = Record<string, unknown>;
/** One JSON object printed for a step. */
export type Output = Record<string, unknown>;

/** What one step gave: the line to print, and a `run` step's attempt. */
export interface StepResult {
  /** The JSON object to print. */
  output: Output;
  /** For a `run` step: its business key (if a string) and the attempt. */
  run?: { job: string | null; attempt: Attempt };
  /** For a `policy.*` step: what the view needs to place it in its lane. */
  policy?: PolicyStep;
}

/** A `policy.*` step as it ran: the step, what it printed, and the revision its snapshot saw. */
export interface PolicyStep {
  /** The step as written. */
  step: Readonly<Record<string, unknown>>;
  /** The object it printed. */
  output: Output;
  /** The revision of the snapshot the step named, if it named one. */
  snapshotRevision?: unknown;
}

function field(step: Step, name: string): unknown {
  if (!Object.hasOwn(step, name)) {
    throw new InvalidStep(M.missingField(name));
  }
  return step[name];
}

function stringField(step: Step, name: string): string {
  const value = field(step, name);
  if (typeof value !== "string") {
    throw new InvalidStep(M.notString(name));
  }
  return value;
}

/**
 * A step's snapshot name, refused past {@linkcode MAX_SNAPSHOT_NAME} before
 * it is kept or echoed: the name is never repeated in the refusal.
 */
function snapshotName(step: Step, name: string): string {
  const value = stringField(step, name);
  if (value.length > MAX_SNAPSHOT_NAME) {
    throw new InvalidStep(
      M.snapshotNameTooLong(name, MAX_SNAPSHOT_NAME),
    );
  }
  return value;
}

function optionalBool(
  record: Record<string, unknown>,
  name: string,
  where = "",
): boolean {
  if (!Object.hasOwn(record, name)) return false;
  const value = record[name];
  if (typeof value !== "boolean") {
    throw new InvalidStep(M.notBoolean(`${where}${name}`));
  }
  return value;
}

const FAULT_KEYS = ["cancel_at", "fail_at", "bad_output", "audit_failure"];

/**
 * The fields each op takes besides `op`. Any other field makes the step
 * invalid: a misspelt `faults` must not quietly run a clean attempt.
 */
export const STEP_FIELDS: Readonly<Record<string, readonly string[]>> = {
  "run": ["args", "faults", "receipt", "input_guardrail"],
  "count": [],
  "exists": ["job"],
  "drafts": [],
  "receipts": [],
  "fixture": ["receipt_fault"],
  "restart": [],
  "compensate": ["job", "faults"],
  "policy.precheck": ["job", "copies", "as"],
  "policy.change": ["max_copies"],
  "policy.insert_checked": ["job", "copies", "snapshot", "fail_before_commit"],
  "policy.insert_naive": ["job", "copies", "snapshot"],
  "policy.lock": [],
  "policy.unlock": [],
  "policy.delete": [],
  "policy.rows": [],
};

/** An optional field that must be one of `allowed`, as `{ [key]: value }`. */
function choiceField<T extends string, K extends string>(
  step: Step,
  name: string,
  allowed: readonly T[],
  key: K,
): Partial<Record<K, T>> {
  if (!Object.hasOwn(step, name)) return {};
  const value = step[name];
  if (!isOneOf(allowed, value)) {
    throw new InvalidStep(
      M.oneOf(name, allowed),
    );
  }
  return { [key]: value } as Partial<Record<K, T>>;
}

/** Read a step's `faults` object into the lab's trusted Faults. */
function faultsOf(step: Step): Faults {
  if (!Object.hasOwn(step, "faults")) return {};
  const raw = step.faults;
  if (!isPlainRecord(raw)) throw new InvalidStep(M.faultsNotObject);
  const record = raw;
  for (const key of Object.keys(record)) {
    if (!FAULT_KEYS.includes(key)) {
      throw new InvalidStep(M.unknownFault(key, nearest(key, FAULT_KEYS)));
    }
  }
  const cancelAt = Object.hasOwn(record, "cancel_at") ? record.cancel_at : "";
  const failAt = Object.hasOwn(record, "fail_at") ? record.fail_at : "";
  // null is a wrong kind, not "no fault": it must not run a clean attempt.
  if (cancelAt !== "" && !isOneOf(CHECKPOINTS, cancelAt)) {
    throw new InvalidStep(M.emptyOrOneOf("faults.cancel_at", CHECKPOINTS));
  }
  if (failAt !== "" && !isOneOf(FAIL_POINTS, failAt)) {
    throw new InvalidStep(M.emptyOrOneOf("faults.fail_at", FAIL_POINTS));
  }
  return {
    cancelAt: cancelAt === "" ? undefined : cancelAt,
    failAt: failAt === "" ? undefined : failAt,
    badOutput: optionalBool(record, "bad_output", "faults."),
    auditFailure: optionalBool(record, "audit_failure", "faults."),
  };
}

/** Run `body`, reporting the policy lab's outcomes as the contract's objects. */
function policyOutcome(body: () => Output): Output {
  try {
    return body();
  } catch (error) {
    if (error instanceof InputRejected) return { rejected: error.reason };
    if (error instanceof InjectedFailure) {
      return { raised: "injected", message: error.message };
    }
    if (isSqliteError(error)) {
      return { raised: "database_error", message: error.message };
    }
    throw error;
  }
}

/**
 * One script session. `step(line)` returns the JSON object to print for that
 * line, and for a `run` step the attempt as the timeline view needs it.
 */
export class ScriptSession {
  #lab: Lab;
  /**
   * A second, read-only connection: what a query step (`count`, `exists`,
   * `drafts`, `receipts`) reports is what was committed. Opened at the
   * first such step: a script of runs alone never pays for it.
   */
  #observerOpen?: Ledger;
  #reader?: PolicyLab;
  #editor?: PolicyLab;
  readonly #snapshots = new Map<string, Snapshot>();
  readonly #files: ScriptFiles;

  /** Open the lab ledger; the observer and the policy database wait for their first step. */
  constructor(files: ScriptFiles) {
    this.#files = files;
    this.#lab = Lab.open(files.lab, { trusted: files.trusted });
  }

  get #observer(): Ledger {
    return this.#observerOpen ??= Ledger.open(this.#files.lab, {
      mode: "observe",
      trusted: this.#files.trusted,
    });
  }

  /**
   * Close every connection, the read-only observer first: SQLite folds the
   * log back into the file and removes it only when the last connection
   * closes, and a read-only one cannot, so closing the writer last leaves
   * the ledger as one file that can be copied alone.
   */
  close(): void {
    this.#observerOpen?.close();
    this.#lab.close();
    this.#reader?.close();
    this.#editor?.close();
  }

  /**
   * Parse and run one line: the object to print, and for a `run` step the
   * attempt for the timeline view. Throws {@linkcode InvalidStep} for a step
   * that cannot run.
   */
  async step(line: string): Promise<StepResult> {
    let step: unknown;
    try {
      step = parseJsonLikePython(line);
    } catch {
      throw new InvalidStep(M.notJson);
    }
    if (!isPlainRecord(step)) {
      throw new InvalidStep(M.notObject);
    }
    return await this.stepObject(step);
  }

  /**
   * Run one step already parsed (a line of `jsonLinesOf` read with
   * {@linkcode parseJsonLikePython}), as {@linkcode step} runs a line.
   */
  async stepObject(s: Step): Promise<StepResult> {
    const op = field(s, "op");
    if (typeof op !== "string" || !Object.hasOwn(STEP_FIELDS, op)) {
      const near = typeof op === "string"
        ? nearest(op, Object.keys(STEP_FIELDS))
        : null;
      throw new InvalidStep(M.unknownOp(JSON.stringify(op), near));
    }
    for (const key of Object.keys(s)) {
      if (key !== "op" && !STEP_FIELDS[op].includes(key)) {
        throw new InvalidStep(
          M.unknownField(
            JSON.stringify(key),
            op,
            nearest(key, STEP_FIELDS[op]),
          ),
        );
      }
    }
    switch (op) {
      case "run":
        return await this.#run(s);
      default: {
        const output = this.#other(op, s);
        const named = typeof s.snapshot === "string"
          ? this.#snapshots.get(s.snapshot)?.revision
          : undefined;
        return op.startsWith("policy.")
          ? { output, policy: { step: s, output, snapshotRevision: named } }
          : { output };
      }
    }
  }

  #other(op: string, s: Step): Output {
    switch (op) {
      case "count":
        return {
          drafts: this.#observer.countDrafts(),
          receipts: this.#observer.countReceipts(),
        };
      case "exists":
        return { exists: this.#observer.draftExists(stringField(s, "job")) };
      case "drafts":
        return { drafts: this.#observer.drafts() };
      case "receipts":
        return { receipts: this.#observer.receipts() };
      case "fixture":
        return this.#fixture(s);
      case "compensate":
        return this.#compensate(s);
      case "restart":
        this.#lab.close();
        this.#lab = Lab.open(this.#files.lab, { trusted: this.#files.trusted });
        return { ok: true };
      case "policy.precheck":
        return this.#precheck(s);
      case "policy.change":
        return this.#change(s);
      case "policy.insert_checked":
        return this.#insert(s, true);
      case "policy.insert_naive":
        return this.#insert(s, false);
      case "policy.lock":
        return policyOutcome(
          () => (this.#policy().editor.holdWriteLock(), { ok: true }),
        );
      case "policy.unlock":
        // As Python's rollback(): with no transaction open, nothing to do.
        return policyOutcome(() => {
          this.#policy().editor.releaseWriteLock();
          return { ok: true };
        });
      case "policy.delete":
        return policyOutcome(
          () => (this.#policy().editor.deleteRule(), { ok: true }),
        );
      case "policy.rows":
        return policyOutcome(() => ({ rows: this.#policy().editor.rows() }));
    }
    throw new InvalidStep(M.unknownOp(JSON.stringify(op), null));
  }

  async #run(s: Step): Promise<StepResult> {
    const raw = field(s, "args");
    // Trusted switches beside the faults, optional: absent changes nothing.
    const faults: Faults = {
      ...faultsOf(s),
      ...choiceField(s, "receipt", ["checked", "naive"] as const, "receipt"),
      ...choiceField(
        s,
        "input_guardrail",
        ["sequential", "parallel"] as const,
        "inputGuardrail",
      ),
    };
    const { output, attempt } = await this.#lab.observe(raw, faults);
    const job = (raw as { job?: unknown } | null)?.job;
    return {
      output: { ...output },
      run: { job: typeof job === "string" ? job : null, attempt },
    };
  }

  #compensate(s: Step): Output {
    const job = stringField(s, "job");
    let failAt: CompensationFault | undefined;
    if (Object.hasOwn(s, "faults")) {
      const raw = s.faults;
      if (!isPlainRecord(raw)) {
        throw new InvalidStep(M.faultsNotObject);
      }
      for (const key of Object.keys(raw)) {
        if (key !== "fail_at") {
          throw new InvalidStep(M.unknownFault(key, nearest(key, ["fail_at"])));
        }
      }
      const at = Object.hasOwn(raw, "fail_at") ? raw.fail_at : "";
      if (at !== "" && !isOneOf(COMPENSATION_FAULTS, at)) {
        throw new InvalidStep(
          M.emptyOrOneOf("faults.fail_at", COMPENSATION_FAULTS),
        );
      }
      failAt = at === "" ? undefined : at;
    }
    try {
      return { ...compensate(this.#lab.ledger, job, failAt) };
    } catch (error) {
      if (error instanceof InjectedFailure) {
        return { raised: "injected", message: error.message };
      }
      const raised = raisedOf(error);
      if (raised) return { ...raised };
      throw error;
    }
  }

  #fixture(s: Step): Output {
    const fault = field(s, "receipt_fault");
    if (!isOneOf(["ignore", "abort", "none"] as const, fault)) {
      throw new InvalidStep(
        M.oneOf("receipt_fault", ["ignore", "abort", "none"]),
      );
    }
    // Trusted test fixture on the lab's own connection, never tool input.
    this.#lab.ledger.setReceiptFault(fault);
    return { ok: true };
  }

  #policy(): { reader: PolicyLab; editor: PolicyLab } {
    if (this.#reader === undefined || this.#editor === undefined) {
      const { policy, trusted } = this.#files;
      ensurePolicyDatabase(policy, trusted);
      this.#reader = PolicyLab.open(policy, { trusted });
      this.#editor = PolicyLab.open(policy, { trusted });
    }
    return { reader: this.#reader, editor: this.#editor };
  }

  #request(s: Step) {
    return { job: field(s, "job"), copies: field(s, "copies") };
  }

  #precheck(s: Step): Output {
    const request = this.#request(s);
    const name = Object.hasOwn(s, "as") ? snapshotName(s, "as") : "";
    if (
      name !== "" && !this.#snapshots.has(name) &&
      this.#snapshots.size >= MAX_SNAPSHOTS
    ) {
      // Refused before the rule is read: the step changes nothing.
      throw new InvalidStep(M.tooManySnapshots(MAX_SNAPSHOTS));
    }
    return policyOutcome(() => {
      const snapshot = this.#policy().reader.precheck(request);
      // An empty name remembers nothing, as the reference's falsy check.
      if (name !== "") this.#snapshots.set(name, snapshot);
      return {
        snapshot: {
          revision: snapshot.revision,
          max_copies: snapshot.max_copies,
        },
      };
    });
  }

  #change(s: Step): Output {
    const maxCopies = field(s, "max_copies");
    return policyOutcome(() => {
      const { editor } = this.#policy();
      try {
        editor.changePolicy(maxCopies);
      } catch (error) {
        if (error instanceof RangeError) {
          return { raised: "invalid", message: error.message };
        }
        throw error;
      }
      const now = editor.currentPolicy();
      return {
        policy: now && { revision: now.revision, max_copies: now.max_copies },
      };
    });
  }

  #insert(s: Step, checked: boolean): Output {
    const request = this.#request(s);
    const name = snapshotName(s, "snapshot");
    const snapshot = this.#snapshots.get(name);
    if (snapshot === undefined) {
      throw new InvalidStep(M.unknownSnapshot(JSON.stringify(name)), name);
    }
    const failBeforeCommit = checked
      ? optionalBool(s, "fail_before_commit")
      : false;
    return policyOutcome(() => {
      const { reader } = this.#policy();
      if (!checked) {
        reader.insertNaive(request, snapshot);
        return { inserted: true };
      }
      return {
        inserted: reader.insertChecked(request, snapshot, {
          failBeforeCommit,
        }),
      };
    });
  }
}
