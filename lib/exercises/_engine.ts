/**
 * The one engine that judges every exercise: it looks for bindings of an
 * invariant's premises over the evidence (step by step, backtracking), and
 * for the binding that satisfies them, checks each finding. The premises
 * that held say `yes`, the first that failed says `no`, and everything that
 * depends on it is `not-checked`. Work is counted and bounded.
 *
 * @module
 */
import { type Lang, LANGS, say, type Text } from "../base/i18n.ts";
import type { Evidence, Item, Value } from "./_evidence.ts";
import {
  type Clause,
  type CompareOp,
  type Exercise,
  type Invariant,
  MATCH_TESTS,
  type Matcher,
  PLACEHOLDER,
  type ValueExpr,
} from "./_form.ts";
import { VALUE_WORDS } from "./messages.ts";
import type { ExerciseParams } from "./student.ts";

/**
 * A finding's status: `yes` it holds, `no` it does not, `not-checked` when
 * a premise it depends on failed (it is then never reported as `no`).
 */
export type FindingStatus = "yes" | "no" | "not-checked";

/** One finding of an invariant, about the answer's own evidence. */
export interface Finding {
  /** Whether it held. */
  status: FindingStatus;
  /** What it says, with the answer's own values, in both languages. */
  text: Text;
  /** For one that does not hold: what the answer did instead, when that can be said. */
  happened?: Text;
}

/** Names bound so far: an item (a step or a row) or a value. */
export type Bindings = ReadonlyMap<string, Item | Value>;

/** The engine went past its work bound. */
export class TooMuchWork extends Error {
  /** Build it. */
  constructor(readonly limit: number) {
    super(`more than ${limit} checks`);
    this.name = "TooMuchWork";
  }
}

/** What the engine may use and how much work it may do. */
export interface EngineContext {
  /** The evidence judged. */
  evidence: Evidence;
  /** This student's values. */
  params: ExerciseParams;
  /** The most candidate checks. */
  maxWork: number;
  /** Work done so far (shared by all invariants of one answer). */
  work: { n: number };
}

/** A number boxed by the Python-like parser, as the number it is; anything else as it is. */
export function unboxed(v: unknown): unknown {
  return v instanceof Number ? v.valueOf() : v;
}

/** Whether two values are equal: numbers by value (`1.0` is `1`), lists never. */
export function sameValue(a: unknown, b: unknown): boolean {
  const x = unboxed(a);
  const y = unboxed(b);
  if (x === undefined || y === undefined) return false;
  if (typeof x === "number" && typeof y === "number") return x === y;
  if (Array.isArray(x) || Array.isArray(y)) return false;
  return x === y;
}

function ordered(a: unknown, op: CompareOp, b: unknown): boolean {
  if (op === "=") return sameValue(a, b);
  if (op === "!=") {
    return unboxed(a) !== undefined && unboxed(b) !== undefined &&
      !sameValue(a, b);
  }
  const x = unboxed(a);
  const y = unboxed(b);
  if (typeof x !== "number" || typeof y !== "number") return false;
  return op === "<"
    ? x < y
    : op === "<="
    ? x <= y
    : op === ">"
    ? x > y
    : x >= y;
}

/** The value of `expr` under `b`; `undefined` is "missing". */
export function valueOf(
  expr: ValueExpr,
  b: Bindings,
  params: ExerciseParams,
): unknown {
  if (expr === null || typeof expr !== "object") return expr;
  if ("param" in expr) return params[expr.param as keyof ExerciseParams];
  const [name, field] = expr.ref.split(".");
  const bound = b.get(name);
  if (field === undefined) return bound;
  if (typeof bound !== "object" || bound === null || Array.isArray(bound)) {
    return undefined;
  }
  const item = bound as Item;
  return Object.hasOwn(item, field) ? item[field] : undefined;
}

function matches(
  item: Item,
  where: Readonly<Record<string, Matcher>> | undefined,
  b: Bindings,
  params: ExerciseParams,
): boolean {
  if (where === undefined) return true;
  for (const [field, m] of Object.entries(where)) {
    if (!fieldMatches(item, field, m, b, params)) return false;
  }
  return true;
}

/**
 * How close `item` comes to `where` under `b`: each field test it meets
 * counts, an earlier one more than all after it (the first fields name the
 * item: its key, its op), so the closest is the one feedback names.
 */
export function closeness(
  item: Item,
  where: Readonly<Record<string, Matcher>>,
  b: Bindings,
  params: ExerciseParams,
): number {
  const fields = Object.entries(where);
  let score = 0;
  fields.forEach(([field, m], i) => {
    if (fieldMatches(item, field, m, b, params)) {
      score += 2 ** (fields.length - i);
    }
  });
  return score;
}

/** Whether `item`'s `field` passes the test `m` under `b`. */
function fieldMatches(
  item: Item,
  field: string,
  m: Matcher,
  b: Bindings,
  params: ExerciseParams,
): boolean {
  const have = Object.hasOwn(item, field) ? item[field] : undefined;
  const test = typeof m === "object" && m !== null
    ? MATCH_TESTS.find((t) => Object.hasOwn(m, t))
    : undefined;
  if (test === undefined) {
    return sameValue(have, valueOf(m as ValueExpr, b, params));
  }
  const arg = (m as Record<string, unknown>)[test];
  const v = (x: unknown) => valueOf(x as ValueExpr, b, params);
  return test === "not"
    ? have !== undefined && !sameValue(have, v(arg))
    : test === "in"
    ? (arg as ValueExpr[]).some((x) => sameValue(have, v(x)))
    : test === "has"
    ? Array.isArray(have) && have.some((x) => sameValue(x, v(arg)))
    : test === "lacks"
    ? !(Array.isArray(have) && have.some((x) => sameValue(x, v(arg))))
    : test === "missing"
    ? (have === undefined) === arg
    : ordered(
      have,
      ({ lt: "<", le: "<=", gt: ">", ge: ">=" } as const)[
        test as "lt" | "le" | "gt" | "ge"
      ],
      v(arg),
    );
}

/** The items a `pick` or `ledger` block looks through: steps, runs, or a table's rows. */
export function source(clause: Clause, e: Evidence): readonly Item[] {
  if ("pick" in clause) {
    return clause.pick === "runs"
      ? e.steps.filter((s) => s.op === "run")
      : e.steps;
  }
  if ("ledger" in clause) return e.ledger[clause.ledger];
  return [];
}

function spend(ctx: EngineContext): void {
  if (++ctx.work.n > ctx.maxWork) throw new TooMuchWork(ctx.maxWork);
}

/**
 * The ways `clause` holds under `b`: each a set of bindings (one per
 * candidate for a block that binds, one for a test that holds, none when it
 * does not hold).
 */
function* holds(
  clause: Clause,
  b: Bindings,
  ctx: EngineContext,
): Generator<Bindings> {
  const { evidence: e, params } = ctx;
  if ("pick" in clause || "ledger" in clause) {
    let any = false;
    for (const item of source(clause, e)) {
      spend(ctx);
      if (!matches(item, clause.where, b, params)) continue;
      any = true;
      if (clause.none) return;
      if (clause.as === undefined) {
        yield b;
        return;
      }
      yield new Map(b).set(clause.as, item);
    }
    if (clause.none && !any) yield b;
    return;
  }
  spend(ctx);
  if ("before" in clause) {
    const [x, y] = clause.before.map((n) => b.get(n) as Item | undefined);
    if (
      x && y && typeof x.step === "number" && typeof y.step === "number" &&
      x.step < y.step
    ) yield b;
    return;
  }
  if ("compare" in clause) {
    const [l, op, r] = clause.compare;
    if (ordered(valueOf(l, b, params), op, valueOf(r, b, params))) yield b;
    return;
  }
  const value = valueOf(clause.to, b, params);
  yield new Map(b).set(clause.bind, value as Value);
}

/** Whether a matcher names no bound value (it can be tested before any binding). */
function isStatic(m: Matcher): boolean {
  return !JSON.stringify(m).includes('"ref"');
}

/**
 * Whether `clause` (a `pick` or `ledger` that must find an item) has no
 * item meeting even its fixed tests: then no binding can make it hold.
 */
function cannotHold(clause: Clause, ctx: EngineContext): boolean {
  if (!("pick" in clause || "ledger" in clause) || clause.none) return false;
  const fixed = Object.fromEntries(
    Object.entries(clause.where ?? {}).filter(([, m]) => isStatic(m)),
  );
  for (const item of source(clause, ctx.evidence)) {
    spend(ctx);
    if (matches(item, fixed, new Map(), ctx.params)) return false;
  }
  return true;
}

/** One invariant judged: each block's status, and the bindings that were used. */
export interface Judged {
  /** Status per premise, then per finding, in order. */
  statuses: Finding["status"][];
  /** The bindings the statuses were judged under (premises, and findings that held). */
  bindings: Bindings;
}

/** Judge one invariant: the premise binding that goes furthest, then the findings under it. */
export function judgeInvariant(inv: Invariant, ctx: EngineContext): Judged {
  let best: { depth: number; held: number; b: Bindings; own: Bindings[] } = {
    depth: -1,
    held: -1,
    b: new Map(),
    own: [],
  };
  const total = inv.premises.length;
  // A premise no item can meet, whatever was bound before it, caps the
  // search: the first binding that reaches it is as far as any can go.
  const blocked = inv.premises.findIndex((c) => cannotHold(c, ctx));
  let stop = false;
  const search = (i: number, b: Bindings): boolean => {
    if (i === blocked) {
      if (i > best.depth) best = { depth: i, held: -1, b, own: [] };
      stop = true;
      return false;
    }
    if (i === total) {
      const own: Bindings[] = [];
      let held = 0;
      for (const f of inv.findings) {
        const first = holds(f, b, ctx).next();
        if (!first.done) {
          held++;
          own.push(first.value);
        } else own.push(b);
      }
      if (i > best.depth || held > best.held) best = { depth: i, held, b, own };
      return held === inv.findings.length;
    }
    if (i > best.depth) best = { depth: i, held: -1, b, own: [] };
    for (const next of holds(inv.premises[i], b, ctx)) {
      if (search(i + 1, next)) return true;
      if (stop) return false;
    }
    return false;
  };
  search(0, new Map());
  const statuses: Finding["status"][] = inv.premises.map((_, i) =>
    i < best.depth ? "yes" : i === best.depth ? "no" : "not-checked"
  );
  const merged = new Map(best.b);
  if (best.depth === total) {
    inv.findings.forEach((f, i) => {
      const first = holds(f, best.b, ctx).next();
      statuses.push(first.done ? "no" : "yes");
      for (const [k, v] of best.own[i] ?? []) merged.set(k, v);
    });
  } else {
    for (const _ of inv.findings) statuses.push("not-checked");
  }
  return { statuses, bindings: merged };
}

function shown(v: unknown, lang: Lang): string {
  const x = unboxed(v);
  if (x === undefined) return say(VALUE_WORDS.missing, lang);
  if (Array.isArray(x)) return x.map(String).join(", ");
  if (x === null) return "null";
  return String(x);
}

/** The text made by writing `line` in each language. */
export function inEveryLanguage(line: (lang: Lang) => string): Text {
  const [en, zh] = LANGS.map(line);
  return { en, zh };
}

/** A value of the evidence as a sentence shows it, in each language ("missing" when absent). */
export function valueText(v: unknown): Text {
  return inEveryLanguage((lang) => shown(v, lang));
}

/** A placeholder, with the word "copies" when it follows: see {@linkcode fill}. */
const COUNTED = new RegExp(`${PLACEHOLDER.source}(?: (copies)\\b)?`, "g");

/**
 * `text` with `{param}`, `{name}` and `{name.field}` filled in from this
 * student's values and the bindings; a missing value reads "missing", a
 * name nothing bound reads what its block asked for when `wanted` has it,
 * else "…" (or stays as written, with `keepUnbound`).
 */
export function fill(
  text: Text,
  b: Bindings,
  params: ExerciseParams,
  keepUnbound = false,
  wanted: Wanted = new Map(),
): Text {
  const value = (
    whole: string,
    name: string,
    field: string | undefined,
    lang: Lang,
  ) => {
    if (field === undefined && Object.hasOwn(params, name) && !b.has(name)) {
      return shown(params[name as keyof ExerciseParams], lang);
    }
    const asked = field === undefined ? undefined : wanted.get(name);
    if (!b.has(name) && asked && Object.hasOwn(asked, field!)) {
      // Never bound: the value its block asked for, which it would have held.
      const v = valueOf(asked[field!], b, params);
      if (v !== undefined) return shown(v, lang);
    }
    if (!b.has(name)) {
      return keepUnbound ? whole : say(VALUE_WORDS.unbound, lang);
    }
    return shown(
      valueOf({ ref: field ? `${name}.${field}` : name }, b, params),
      lang,
    );
  };
  // A course writes "{copies} copies" once for every student; the one whose
  // value is 1 reads "1 copy". No language is picked: a Chinese text says
  // "{copies} 份", and the word is never there to match.
  const one = (s: string, lang: Lang) =>
    s.replace(COUNTED, (whole, name: string, field?: string, noun?: string) => {
      const shownValue = value(whole, name, field, lang);
      if (noun === undefined) return shownValue;
      return `${shownValue} ${shownValue === "1" ? "copy" : "copies"}`;
    });
  return inEveryLanguage((lang) => one(say(text, lang), lang));
}

/**
 * `text` (a step, a skeleton: not prose) with this student's values filled
 * in for `{job}`, `{topic}`, ...; anything else is left as written.
 */
export function fillValues(text: string, params: ExerciseParams): string {
  return text.replace(
    PLACEHOLDER,
    (whole, name: string, field?: string) =>
      field === undefined && Object.hasOwn(params, name)
        ? String(params[name as keyof ExerciseParams])
        : whole,
  );
}

/** A block that did not hold: its finding's place, the block, and the bindings it was judged under. */
export interface Miss {
  /** The index of its finding in the verdict's findings. */
  readonly finding: number;
  /** The block. */
  readonly clause: Clause;
  /** The bindings of everything before it. */
  readonly bindings: Bindings;
  /**
   * The steps and rows the other invariants of the exercise bound: what
   * they rest on, so the feedback under this block names another item
   * while there is one (exercise 2's other run, not the one its first
   * invariant already found).
   */
  readonly elsewhere: ReadonlySet<unknown>;
}

/**
 * Every invariant of `x` judged: findings in order, all the bindings, and
 * each block that said `no`, for feedback that says what happened. A name
 * nothing bound is filled from what its block asked for (`{a.job}` of a
 * run asked for `{job}` reads the student's key), so a finding not checked
 * still reads as a sentence.
 */
export function judgeEvidence(
  x: Exercise,
  ctx: EngineContext,
): { findings: Finding[]; bindings: Bindings; misses: Miss[] } {
  const findings: Finding[] = [];
  const misses: Miss[] = [];
  const all = new Map<string, Item | Value>();
  const wanted = wantedValues(x);
  const judgedAll = x.invariants.map((inv) => judgeInvariant(inv, ctx));
  // The items each invariant bound, for the others' feedback.
  const boundBy = judgedAll.map((j) =>
    new Set([...j.bindings.values()].filter((v) => typeof v === "object"))
  );
  x.invariants.forEach((inv, at) => {
    const judged = judgedAll[at];
    const elsewhere = new Set(
      boundBy.flatMap((items, other) => other === at ? [] : [...items]),
    );
    const clauses = [...inv.premises, ...inv.findings];
    clauses.forEach((c, i) => {
      if (c.says === undefined) return;
      if (judged.statuses[i] === "no") {
        misses.push({
          finding: findings.length,
          clause: c,
          bindings: judged.bindings,
          elsewhere,
        });
      }
      findings.push({
        status: judged.statuses[i],
        text: fill(c.says, judged.bindings, ctx.params, false, wanted),
      });
    });
    for (const [k, v] of judged.bindings) all.set(k, v);
  });
  return { findings, bindings: all, misses };
}

/** For each name a block binds, the values its `where` fixes (field → value). */
export type Wanted = ReadonlyMap<string, Readonly<Record<string, ValueExpr>>>;

/**
 * For each name a block binds, the fields its `where` fixes to one value
 * (a literal or a student's value): what the bound item would have held.
 */
export function wantedValues(x: Exercise): Wanted {
  const wanted = new Map<string, Record<string, ValueExpr>>();
  for (const inv of x.invariants) {
    for (const c of [...inv.premises, ...inv.findings]) {
      if (!("pick" in c || "ledger" in c) || c.as === undefined) continue;
      const fixed: Record<string, ValueExpr> = {};
      for (const [field, m] of Object.entries(c.where ?? {})) {
        const plain = m === null || typeof m !== "object" || "param" in m;
        if (plain) fixed[field] = m as ValueExpr;
      }
      wanted.set(c.as, fixed);
    }
  }
  return wanted;
}
