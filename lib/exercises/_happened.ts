/**
 * What happened instead: under a finding that does not hold, one line that
 * says what the student's answer did, in the article's words, so the
 * feedback names the run, not only what was wanted ("line 1, a run of
 * JOB-001 (river, 4 copies) ended input_rejected (batch_limit) before the
 * commit point"). For a block that looks for a step or a row, that is the
 * step or row that came closest (the most of its field tests met); for one
 * that forbids a row, the row that is there; for a comparison, the value
 * found; for an order, the order found.
 *
 * @module
 */
import type { Text } from "../base/i18n.ts";
import { inert } from "../base/terminal.ts";
import {
  type Bindings,
  closeness,
  type EngineContext,
  source,
  valueOf,
  valueText,
} from "./_engine.ts";
import type { Item } from "./_evidence.ts";
import type { Clause, Where } from "./_form.ts";
import { HAPPENED_MESSAGES as M } from "./_feedback_messages.ts";

/** A value of the answer as a line shows it: inert, and cut at 40 characters. */
function str(v: unknown): string {
  if (v === undefined) return "?";
  const text = String(v);
  return inert(text.length > 40 ? `${text.slice(0, 40)}…` : text);
}

/** The run's request as written, with the trusted switches that were not the default. */
function request(item: Item): Text {
  const more: string[] = [];
  for (
    const [field, plain] of [
      ["input_guardrail", "sequential"],
      ["receipt", "checked"],
      ["cancel_at", ""],
      ["fail_at", ""],
      ["bad_output", false],
      ["audit_failure", false],
      ["fixture", "none"],
    ] as const
  ) {
    const v = item[field];
    if (v !== undefined && v !== plain) more.push(`${field}=${v}`);
  }
  return M.request(str(item.job), str(item.topic), str(item.copies), more);
}

/** A step of the answer in words. */
export function stepText(item: Item): Text {
  const line = str(item.line);
  const op = str(item.op);
  if (op === "run") {
    const events = Array.isArray(item.events) ? item.events : [];
    const commit = events.includes("effect_committed")
      ? M.committed
      : events.includes("effect_reused")
      ? M.reused
      : M.beforeCommit;
    return runText(item, line, commit, item.refusal ?? item.cause);
  }
  if (op === "policy.precheck") {
    return item.rejected !== undefined
      ? M.precheckRefused(
        line,
        str(item.job),
        str(item.copies),
        str(item.rejected),
      )
      : M.precheck(
        line,
        str(item.job),
        str(item.copies),
        str(item.revision),
        str(item.max_copies),
      );
  }
  if (op === "policy.change" && item.revision !== undefined) {
    return M.change(line, str(item.max_copies), str(item.revision));
  }
  if (op === "policy.insert_checked" || op === "policy.insert_naive") {
    const result = item.inserted !== undefined
      ? `inserted ${item.inserted}`
      : `raised ${str(item.raised)}`;
    const rule = item.rule_revision === undefined
      ? M.noRule
      : M.rule(str(item.rule_revision), str(item.rule_max_copies));
    return M.insert(
      line,
      op,
      str(item.job),
      str(item.copies),
      str(item.snapshot),
      result,
      rule,
    );
  }
  if (op === "compensate") {
    return M.compensate(line, str(item.job), str(item.status ?? item.raised));
  }
  return M.step(line, op);
}

/** Outcomes a run raises: its receipt could not be written (or the database failed). */
const RAISED = new Set(["audit_unavailable", "database_error"]);

function runText(
  item: Item,
  line: string,
  commit: Text,
  why: unknown,
): Text {
  const w = why === undefined ? "" : String(why);
  const outcome = str(item.outcome);
  // A refusal or a cancel that came before a failed receipt is said as
  // what happened first, never as the audit failure's reason.
  if (RAISED.has(outcome) && w !== "") {
    return M.runThenRaised(line, request(item), w, outcome, commit);
  }
  return M.run(line, request(item), outcome, w, commit);
}

/** A ledger row in words. */
export function rowText(table: string, row: Item): Text {
  switch (table) {
    case "drafts":
      return M.draft(
        str(row.job),
        typeof row.text === "string" ? str(row.text) : null,
      );
    case "receipts":
      return M.receipt(
        str(row.attempt),
        row.job === null ? null : str(row.job),
        str(row.status),
        row.effect_exists === true,
      );
    case "compensations":
      return M.compensation(str(row.job), str(row.state));
    case "pending":
      return M.pending(str(row.job), str(row.state));
    case "policy_drafts":
      return M.policyDraft(
        str(row.job),
        str(row.copies),
        str(row.checked_revision),
      );
    case "calls":
      return M.call(
        str(row.session),
        str(row.call),
        str(row.tool),
        row.receipt === null ? null : str(row.receipt),
      );
    default:
      return M.rule(str(row.revision), str(row.max_copies));
  }
}

/** The item in words, by where it came from. */
function itemText(clause: Clause, item: Item): Text {
  return "ledger" in clause ? rowText(clause.ledger, item) : stepText(item);
}

/** The item of `items` that meets the most of `clause`'s field tests (the first, on a tie). */
function closest(
  clause: Clause & { where?: Where },
  items: readonly Item[],
  b: Bindings,
  ctx: EngineContext,
): Item {
  let best = items[0];
  let most = -1;
  for (const item of items) {
    const met = closeness(item, clause.where ?? {}, b, ctx.params);
    if (met > most) [best, most] = [item, met];
  }
  return best;
}

/** The name whose step `where` asks for (`"step": {"ref": "a.step"}`), if it asks for one. */
function stepOf(where: Where | undefined): string | undefined {
  const m = where?.step;
  if (m === null || typeof m !== "object" || !("ref" in m)) return undefined;
  const [name, field] = m.ref.split(".");
  return field === "step" ? name : undefined;
}

/**
 * The items that can have decided a block that did not hold, or what to
 * say instead. A block that asks for one step's item (`"step": {"ref":
 * "a.step"}`) is about that step alone: its items, or none ("line 3 wrote
 * no receipt"), never another step's row that happens to come close. Any
 * other block looks for an item besides those already bound to a name
 * (the retry, not the first call the premise before it found), and besides
 * those `elsewhere` (what the exercise's other invariants rest on) while
 * another is left; when only its own bound items are left, it says there
 * is no other.
 */
function deciding(
  clause: Clause & { where?: Where },
  items: readonly Item[],
  b: Bindings,
  elsewhere: ReadonlySet<unknown>,
): { items: readonly Item[] } | { none: Text } {
  const asked = stepOf(clause.where);
  if (asked !== undefined) {
    const holder = b.get(asked) as Item | undefined;
    const own = items.filter((i) => i.step === holder?.step);
    if (own.length > 0) return { items: own };
    const table = "ledger" in clause ? clause.ledger : "steps";
    return { none: M.nothingFromLine(table, str(holder?.line)) };
  }
  const bound = new Set([...b.values()]);
  const others = items.filter((i) => !bound.has(i));
  // One another invariant rests on is named only when nothing else is left.
  const fresh = others.filter((i) => !elsewhere.has(i));
  if (fresh.length > 0) return { items: fresh };
  if (others.length > 0) return { items: others };
  const kind = "ledger" in clause
    ? M.rowIn(clause.ledger)
    : "pick" in clause && clause.pick === "runs"
    ? M.aRun
    : M.aStep;
  return { none: M.noOther(kind, itemText(clause, items[0])) };
}

/**
 * The line that says what happened under a block that did not hold, judged
 * under `b`, preferring items not in `elsewhere` (those the exercise's
 * other invariants bound); null when there is nothing more to say.
 */
export function whatHappened(
  clause: Clause,
  b: Bindings,
  ctx: EngineContext,
  elsewhere: ReadonlySet<unknown> = new Set(),
): Text | null {
  const label = "ledger" in clause ? M.found : M.did;
  if ("pick" in clause || "ledger" in clause) {
    const items = source(clause, ctx.evidence);
    if (clause.none) {
      // A forbidden step or row is there: the first one.
      const all = 2 ** (Object.keys(clause.where ?? {}).length + 1) - 2;
      const there = items.find((i) =>
        closeness(i, clause.where ?? {}, b, ctx.params) === all
      );
      return there ? label(itemText(clause, there)) : null;
    }
    if (items.length === 0) {
      if ("ledger" in clause) return label(M.noRows(clause.ledger));
      const op = clause.where?.op;
      return label(
        clause.pick === "runs"
          ? M.noRuns
          : typeof op === "string"
          ? M.noStep(op)
          : M.noSteps,
      );
    }
    const candidates = deciding(clause, items, b, elsewhere);
    if ("none" in candidates) return label(candidates.none);
    return label(itemText(clause, closest(clause, candidates.items, b, ctx)));
  }
  if ("compare" in clause) {
    const [left] = clause.compare;
    const shown = left !== null && typeof left === "object" && "ref" in left
      ? left.ref
      : JSON.stringify(left);
    const v = valueText(valueOf(left, b, ctx.params));
    return label({
      en: M.compare(shown, v.en).en,
      zh: M.compare(shown, v.zh).zh,
    });
  }
  if ("before" in clause) {
    const [x, y] = clause.before.map((n) => b.get(n) as Item | undefined);
    if (x === undefined || y === undefined) return null;
    return label(M.order(str(y.line), str(x.line)));
  }
  return null;
}
