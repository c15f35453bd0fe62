/**
 * How much of a ledger one view shows, stated once. A ledger is input (a
 * classmate may hand you one): a view that printed all of it would print
 * what the ledger's size allows, and more, since a control character is
 * shown as the six characters `\u0001`. So every view (`ledger` as text,
 * JSON and SVG, `ledger --timeline`, `reconcile`, `script --view`) takes
 * rows in its order while their stored text fits in
 * {@linkcode MAX_VIEW_CHARS}, leaves the rest out whole, and says how many
 * rows of each kind it left out. Rows are never cut in the middle, so what
 * is shown is exactly what the ledger holds, and a key is never shortened
 * into another key. What a view works out from the whole ledger (which
 * drafts no receipt records, which keys need reconciling, the exit code) is
 * still worked out from all of it; only the showing is bounded.
 *
 * @module
 */
import { fill, joinTexts, type Text } from "../base/i18n.ts";
import { inert } from "../base/terminal.ts";
import { VIEW_BOUND_MESSAGES as M, VIEW_ROW_KINDS } from "./_messages.ts";

/**
 * The most stored text one view shows: 512 Ki characters (UTF-16 code
 * units, as `String.length` counts them), counted before anything is made
 * inert. With each row's own words, what a view prints stays under
 * {@linkcode MAX_VIEW_BYTES}.
 */
export const MAX_VIEW_CHARS = 1 << 19;

/**
 * The longest row, in stored characters, that a view could ever show: a
 * stored escape (`\u0041`) is six characters for one it shows, so no row
 * longer than six times {@linkcode MAX_VIEW_CHARS} fits. A view reads no
 * such row into memory at all (`Ledger.eachDraft`, `eachReceipt`).
 */
export const MAX_READ_CHARS = 6 * MAX_VIEW_CHARS;

/** What a row costs besides its text, so a ledger of empty rows is bounded too. */
export const ROW_COST = 64;

/** The most rows one view can show: each costs {@linkcode ROW_COST} at least. */
export const MAX_VIEW_ROWS = MAX_VIEW_CHARS / ROW_COST;

/** What each value in a row costs besides its characters: quotes, separators. */
const VALUE_COST = 4;

/**
 * What a view prints at most, in bytes: six for each character of
 * {@linkcode MAX_VIEW_CHARS} (a character shown as `\uXXXX`), and each
 * row's own words, a line's worth at most, for as many rows as fit.
 */
export const MAX_VIEW_BYTES = 6 * MAX_VIEW_CHARS +
  (MAX_VIEW_CHARS / ROW_COST) * 200;

/** The kinds of rows a view shows, each named in both languages in `_messages.ts`. */
export type RowKind = keyof typeof VIEW_ROW_KINDS;

/** Rows of one kind a view left out: how many it showed of how many. */
export interface LeftOut {
  /** Which rows. */
  kind: RowKind;
  /** How many were shown. */
  shown: number;
  /** How many the ledger (or the script) holds. */
  total: number;
}

/**
 * The text in `value`: its strings' lengths and its keys', plus
 * {@linkcode VALUE_COST} for each value, counted without recursion (a
 * nested body cannot exhaust the stack) and only until it passes `limit`,
 * so a huge row costs little work to refuse.
 */
export function textCost(value: unknown, limit = Infinity): number {
  let cost = 0;
  const stack: unknown[] = [value];
  while (stack.length > 0 && cost <= limit) {
    const v = stack.pop();
    cost += VALUE_COST;
    if (typeof v === "string") cost += v.length;
    else if (Array.isArray(v)) stack.push(...v.slice(0, limit - cost + 1));
    else if (v !== null && typeof v === "object") {
      for (const [k, inner] of Object.entries(v)) {
        cost += k.length;
        stack.push(inner);
        if (cost > limit) break;
      }
    }
  }
  return cost;
}

/**
 * One view's share of {@linkcode MAX_VIEW_CHARS}: `take` keeps rows in
 * order while they fit; the first that does not ends the view, and every
 * row after it, of any kind, is left out and counted.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { ViewBudget } from "./view_bound.ts";
 * const budget = new ViewBudget(200);
 * assert.deepEqual(budget.take("drafts", ["a", "b", "x".repeat(300), "c"]), ["a", "b"]);
 * assert.deepEqual(budget.take("receipts", ["d"]), []);
 * assert.deepEqual(budget.leftOut, [
 *   { kind: "drafts", shown: 2, total: 4 },
 *   { kind: "receipts", shown: 0, total: 1 },
 * ]);
 * ```
 */
export class ViewBudget {
  #left: number;
  /** Shown and total rows by kind, in the order the kinds were first taken. */
  readonly #counts = new Map<RowKind, { shown: number; total: number }>();
  /** The characters of stored text this budget lets through. */
  readonly max: number;

  /** A budget of `max` characters ({@linkcode MAX_VIEW_CHARS} by default). */
  constructor(max: number = MAX_VIEW_CHARS) {
    this.max = max;
    this.#left = max;
  }

  /**
   * The rows of `rows`, from the first, that fit in what is left; `cost`
   * says what one row costs ({@linkcode textCost} of the row by default).
   * Taking the same kind again adds to its counts.
   */
  take<T>(
    kind: RowKind,
    rows: readonly T[],
    cost: (row: T, limit: number) => number = textCost,
  ): T[] {
    return this.takeFrom(kind, rows, rows.length, cost);
  }

  /**
   * {@linkcode ViewBudget.take} for rows read one at a time (a ledger's
   * rows, walked in order): the rows that fit, from the first, and none
   * read past the first that does not; `total` is how many `rows` holds,
   * so the rest are counted without being read. A walk that ends before
   * `total` rows ended at a row too long to read at all (`eachDraft`,
   * `eachReceipt`): that row does not fit either, and ends the view.
   */
  takeFrom<T>(
    kind: RowKind,
    rows: Iterable<T>,
    total: number,
    cost: (row: T, limit: number) => number = textCost,
  ): T[] {
    const kept: T[] = [];
    // No row costs less than ROW_COST: with less left, none is read.
    if (this.#left >= ROW_COST) {
      for (const row of rows) {
        const spent = ROW_COST + cost(row, this.#left);
        if (spent > this.#left) {
          this.#left = 0;
          break;
        }
        this.#left -= spent;
        kept.push(row);
      }
    } else this.#left = 0;
    if (kept.length < total) this.#left = 0;
    const counts = this.#counts.get(kind) ?? { shown: 0, total: 0 };
    counts.shown += kept.length;
    counts.total += total;
    this.#counts.set(kind, counts);
    return kept;
  }

  /** Whether `row` fits in what is left (and is then counted as shown). */
  fits<T>(
    kind: RowKind,
    row: T,
    cost?: (row: T, limit: number) => number,
  ): boolean {
    return this.take(kind, [row], cost).length === 1;
  }

  /** The kinds of rows left out so far, in the order they were first taken. */
  get leftOut(): readonly LeftOut[] {
    return [...this.#counts].filter(([, c]) => c.shown < c.total)
      .map(([kind, c]) => ({ kind, ...c }));
  }

  /** Whether any row was left out. */
  get cut(): boolean {
    return this.leftOut.length > 0;
  }

  /**
   * The lines that say what was left out: the bound, then the count of
   * each kind of row not shown (none when nothing was left out).
   */
  cutLines(): Text[] {
    if (!this.cut) return [];
    const list = this.leftOut.map((l) =>
      VIEW_ROW_KINDS[l.kind](l.total - l.shown, l.total)
    );
    return [
      fill(M.cut, { max: this.max }),
      fill(M.notShown, { list: joinTexts(list, M.separator) }),
    ];
  }

  /** What a view in JSON adds when it left rows out: the bound and the counts. */
  cutJson():
    | { cut: { max_chars: number; not_shown: Record<string, number> } }
    | Record<string, never> {
    if (!this.cut) return {};
    return {
      cut: {
        max_chars: this.max,
        not_shown: Object.fromEntries(
          this.leftOut.map((l) => [l.kind, l.total - l.shown]),
        ),
      },
    };
  }
}

/**
 * A row with every stored string made inert (see {@linkcode inert}): what
 * a text view prints of a row it took, and only of such a row.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { shownAsText } from "./view_bound.ts";
 * assert.deepEqual(shownAsText({ job: "JOB-001\u200b" }), { job: "JOB-001\\u200b" });
 * ```
 */
export function shownAsText<T>(row: T): T {
  const walk = (value: unknown): unknown =>
    typeof value === "string"
      ? inert(value)
      : Array.isArray(value)
      ? value.map(walk)
      : value !== null && typeof value === "object"
      ? Object.fromEntries(
        Object.entries(value).map(([k, v]) => [k, walk(v)]),
      )
      : value;
  return walk(row) as T;
}
