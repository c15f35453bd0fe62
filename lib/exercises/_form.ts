/**
 * The form an exercise is written in, as data: texts in both languages,
 * hints, a skeleton, a prediction's setup, and invariants built from fixed
 * blocks over the evidence. There is no way to name code: an exercise is
 * only what these blocks can say, and one engine judges them all.
 *
 * The types say what an exercise is; the schema below (`EXERCISE`, written
 * in the small checker of `_schema.ts`) says the same, with the two rules the
 * types cannot hold: a name is bound once, and a text or a value names only
 * what was bound before it. {@linkcode readExercise} checks a parsed value
 * against it and names the first wrong field by its path; the caller turns
 * the path into a line with the positions it kept.
 *
 * @module
 */
import { LANGS, type Text } from "../base/i18n.ts";
import { isPlainRecord } from "../base/json.ts";
import { STATUSES } from "../timing/stages.ts";
import { ITEM_FIELDS, LEDGER_TABLES, type LedgerTable } from "./_evidence.ts";
import { FORM_MESSAGES as M } from "./messages.ts";
import {
  boolean,
  byKey,
  childPath,
  list,
  MAX_TEXT,
  oneOf,
  record,
  type Rule,
  type Schema,
  string,
  tuple,
  wrong,
} from "./_schema.ts";
import { PARAM_NAMES } from "./student.ts";
import {
  EXAMPLE_NAMES,
  type ExampleName,
  HOST_EXAMPLE_CASES,
  HOST_EXAMPLE_NAMES,
  HOST_VARIANTS,
  type HostCaseName,
  type HostExampleName,
  type HostVariant,
  VERDICTS,
} from "../accept/mod.ts";

/** A value in a clause: a literal, a bound variable's field, or one of this student's values. */
export type ValueExpr =
  | string
  | number
  | boolean
  | null
  | { readonly ref: string }
  | { readonly param: string };

/** The comparisons of `compare`, and of a field in `where`. */
export const COMPARE_OPS = ["=", "!=", "<", "<=", ">", ">="] as const;

/** A comparison operator. */
export type CompareOp = typeof COMPARE_OPS[number];

/**
 * How one field of an item must look: equal to a value (numbers by value),
 * or one of the tests `not`, `in`, `has` (a list holds it), `lacks`, `lt`,
 * `le`, `gt`, `ge`, `missing` (true: the field is absent).
 */
export type Matcher =
  | ValueExpr
  | { readonly not: ValueExpr }
  | { readonly in: readonly ValueExpr[] }
  | { readonly has: ValueExpr }
  | { readonly lacks: ValueExpr }
  | { readonly lt: ValueExpr }
  | { readonly le: ValueExpr }
  | { readonly gt: ValueExpr }
  | { readonly ge: ValueExpr }
  | { readonly missing: boolean };

/** The tests a matcher object may name. */
export const MATCH_TESTS = [
  "not",
  "in",
  "has",
  "lacks",
  "lt",
  "le",
  "gt",
  "ge",
  "missing",
] as const;

/** Field tests, all of which must hold. */
export type Where = Readonly<Record<string, Matcher>>;

/**
 * One block. Every block but `bind` says, in both languages, what it
 * establishes; that sentence is the finding a student reads.
 *
 * - `pick`: one step (`steps`, or `runs` for the `run` steps) whose fields
 *   match `where`, bound `as` a name; with `none`: no such step.
 * - `ledger`: one row of a ledger table (read through a second connection)
 *   matching `where`, bound `as` a name; with `none`: no such row.
 * - `before`: the first named step (or receipt) came before the second.
 * - `compare`: two values, numbers by value.
 * - `bind`: give a value a name (a key, a snapshot's revision, ...).
 */
export type Clause =
  | {
    readonly pick: "runs" | "steps";
    readonly as?: string;
    readonly where?: Where;
    readonly none?: boolean;
    readonly says: Text;
  }
  | {
    readonly ledger: LedgerTable;
    readonly as?: string;
    readonly where?: Where;
    readonly none?: boolean;
    readonly says: Text;
  }
  | { readonly before: readonly [string, string]; readonly says: Text }
  | {
    readonly compare: readonly [ValueExpr, CompareOp, ValueExpr];
    readonly says: Text;
  }
  | { readonly bind: string; readonly to: ValueExpr; readonly says?: Text };

/**
 * An invariant: premises, each depending on the ones before it, and
 * findings, each depending on all the premises (not on each other). When a
 * premise fails, what depends on it is "not checked".
 */
export interface Invariant {
  /** The premises, in order. */
  readonly premises: readonly Clause[];
  /** The findings. */
  readonly findings: readonly Clause[];
}

/** One fact a prediction asks for, and where the evidence of the setup has it. */
export interface PredictedFact {
  /** The answer's field name. */
  readonly field: string;
  /** What the field means, in both languages. */
  readonly says: Text;
  /** The value that happened: a value, or `{ "count": TABLE }`, the rows of a ledger table. */
  readonly value: ValueExpr | { readonly count: LedgerTable };
  /**
   * What a guess may say (see {@linkcode FACT_KINDS}), or a list of the
   * strings allowed; a guess outside it is refused as malformed and does
   * not use up the one guess. Default: a count for `{ "count": … }`, else
   * any string, number, true, false or null.
   */
  readonly accepts?: FactKind | readonly string[];
}

/** What a lab's run can end in: a returned status, or what it raised. */
export const OUTCOMES: readonly string[] = [
  ...STATUSES,
  "cancelled",
  "audit_unavailable",
  "database_error",
];

/**
 * The verdicts `guardlab accept` prints, as a guess about an example
 * server's matrix may name them: accept's own list, never a copy of it.
 */
export const ACCEPT_VERDICTS: readonly string[] = VERDICTS;

/** The kinds of value a predicted fact can take. */
export const FACT_KINDS = ["boolean", "count", "outcome", "verdict"] as const;

/**
 * A kind of predicted value: true or false, a count (0, 1, ...), one of
 * {@linkcode OUTCOMES}, or one of {@linkcode ACCEPT_VERDICTS}.
 */
export type FactKind = typeof FACT_KINDS[number];

/** One exercise, as data. Its number is its place in its course. */
export interface Exercise {
  /** Its place in the course, from 1 (set by the course, never written). */
  readonly n: number;
  /** A stable short name. */
  readonly slug: string;
  /** `script`: make it happen; `prediction`: say what will happen. */
  readonly kind: "script" | "prediction";
  /** The title. */
  readonly title: Text;
  /** What to do (may name `{job}`, `{topic}`, ...). */
  readonly task: Text;
  /** The article's claim it proves. */
  readonly claim: Text;
  /** Starting steps, where they help (never the answer). */
  readonly skeleton?: string;
  /** Graded hints: a nudge first, then the principle; never the answer. */
  readonly hints: readonly Text[];
  /** Shown after a pass: about the student's own run (may name bound values). */
  readonly why: Text;
  /** For a script: the invariants. */
  readonly invariants: readonly Invariant[];
  /** For a prediction: the steps whose outcome is predicted. */
  readonly setup?: readonly string[];
  /**
   * For a prediction, instead of `setup`: the example server whose
   * acceptance matrix is predicted (`guardlab accept --example NAME`, run in
   * process); its evidence is one step per case (`case`, `verdict`,
   * `class`, `info`, `effect`, `copies`).
   */
  readonly accept_example?: ExampleName;
  /**
   * For a prediction, instead of `setup`: an agent host run in process on
   * one case of `accept host` against one variant of the tool (`guardlab
   * accept host --example HOST --cases CASE --variant VARIANT`); its
   * evidence is one step (`op` "host": `case`, `variant`, `verdict`,
   * `class`, `info`, `resent`, `cancelled`, `told`, `rows`, `host_end`).
   */
  readonly host_example?: HostExampleSpec;
  /** For a prediction: the facts asked for. */
  readonly predict?: readonly PredictedFact[];
  /**
   * `ledger`: judged from a named ledger a session left (`check N --ledger
   * NAME`), not from an answer that is run; the hand-in carries a bounded
   * copy of its rows, and grade re-judges the copy without re-running the
   * session.
   */
  readonly judged?: "ledger";
}

/** The agent host a prediction is about, and the case it is run on. */
export interface HostExampleSpec {
  /** The host, run in process. */
  readonly host: HostExampleName;
  /** The case of `accept host`. */
  readonly case: HostCaseName;
  /** The tool's variant. */
  readonly variant: HostVariant;
}

/** A `{name}` or `{name.field}` in a text: a student's value or a bound name. */
export const PLACEHOLDER =
  /\{([A-Za-z][A-Za-z0-9_]*)(?:\.([A-Za-z_][A-Za-z0-9_]*))?\}/g;

// ---- The schema. Bottom up: each part is built from the ones above it. ----

/** Names bound so far: each to the kind of its items (`steps`, a table), or `null` for a value. */
type Names = Map<string, string | null>;

/** What the checks know at a point of the form. */
interface Scope {
  /** The names a text or value here may use; `null`: only the student's values. */
  readonly sees: Names | null;
  /** Where a block here binds its name. */
  readonly binds: Names;
  /** Every name bound anywhere in the exercise: each is bound once. */
  readonly all: Set<string>;
  /** What the why and a prediction's facts may use: all the invariants bound. */
  readonly why: Names;
  /** The kind of items a `where` here is about. */
  readonly source: string;
  /** The fields a prediction asks for so far. */
  readonly facts: Set<string>;
}

type Part<T> = Schema<T, Scope>;

const NAME = /^[a-z][a-zA-Z0-9_]{0,31}$/;
const SLUG = /^[a-z0-9][a-z0-9-]{0,47}$/;
const HAN = /[\u4e00-\u9fff]/;
const PARAMS: readonly string[] = PARAM_NAMES;

/** `ref` (`name` or `name.field`) is bound in `sees`, with that field. */
function bound(ref: string, path: string, sees: Names): void {
  const [name, field, extra] = ref.split(".");
  const source = sees.get(name);
  if (extra !== undefined || source === undefined) {
    wrong(path, M.notBound(ref));
  }
  if (field === undefined) return;
  if (source === null) wrong(path, M.valueNotRow(ref, name));
  const fields = ITEM_FIELDS[source];
  if (!fields.includes(field)) {
    wrong(path, M.refNoField(ref, source, field, fields));
  }
}

/** Every `{…}` in `text` names a student's value, or a name `sees` has. */
function placeholders(text: string, path: string, sees: Names | null): void {
  for (const [whole, name, field] of text.matchAll(PLACEHOLDER)) {
    if (field === undefined && PARAMS.includes(name)) continue;
    if (sees === null) wrong(path, M.onlyParams(whole, PARAM_NAMES));
    bound(field ? `${name}.${field}` : name, path, sees);
  }
}

/** A step or a skeleton: its `{…}` name only the student's values. */
const TEMPLATE: Part<string> = (value, path) => {
  const text = string()(value, path);
  placeholders(text, path, null);
  return text;
};

const CHINESE: Part<string> = (value, path) => {
  const text = string()(value, path);
  if (!HAN.test(text)) wrong(path, M.notChinese);
  return text;
};

/** A text in both languages (the Chinese one in Chinese), naming what `sees` allows. */
function bilingual(sees: (s: Scope) => Names | null): Part<Text> {
  const named: Rule<Scope> = (pair, path, scope) => {
    for (const code of LANGS) {
      placeholders(pair[code] as string, childPath(path, code), sees(scope));
    }
  };
  return record({ en: string(), zh: CHINESE }, {}, ["en", "zh", named]);
}

/** A title, task, claim, hint or fact: only the student's values. */
const TEXT = bilingual(() => null);
/** What a block establishes: it may name what was bound before it. */
const SAYS = bilingual((s) => s.sees);
/** Why it came out so: it may name all the invariants bound. */
const WHY = bilingual((s) => s.why);

/** A literal, `{"ref": "name.field"}` or `{"param": "name"}`. */
const VALUE: Part<ValueExpr> = (value, path, scope) => {
  if (
    value === null || typeof value === "number" || typeof value === "boolean"
  ) return value;
  if (typeof value === "string") {
    if (value.length > MAX_TEXT) wrong(path, M.tooLong(MAX_TEXT));
    return value;
  }
  if (isPlainRecord(value) && Object.hasOwn(value, "ref")) {
    const { ref } = record<Scope, { ref: string }>({ ref: string() })(
      value,
      path,
      scope,
    );
    bound(ref, childPath(path, "ref"), scope.sees!);
    return { ref };
  }
  if (isPlainRecord(value) && Object.hasOwn(value, "param")) {
    return record<Scope, { param: string }>({ param: oneOf(PARAMS) })(
      value,
      path,
      scope,
    );
  }
  return wrong(path, M.notValue);
};

/** The argument of each test a matcher may name (`{"lt": 3}`). */
const TESTS: Record<typeof MATCH_TESTS[number], Part<unknown>> = {
  not: VALUE,
  in: list(VALUE, 1),
  has: VALUE,
  lacks: VALUE,
  lt: VALUE,
  le: VALUE,
  gt: VALUE,
  ge: VALUE,
  missing: boolean,
};

/** How one field must look: a value, or one test. */
const MATCHER: Part<Matcher> = (value, path, scope) => {
  const test = isPlainRecord(value)
    ? MATCH_TESTS.find((t) => Object.hasOwn(value, t))
    : undefined;
  if (test === undefined) return VALUE(value, path, scope);
  return record<Scope, Matcher>({ [test]: TESTS[test] })(value, path, scope);
};

/** Field tests, each on a field the items of this source have. */
const WHERE: Part<Where> = (value, path, scope) => {
  if (!isPlainRecord(value)) wrong(path, M.notObject);
  const fields = ITEM_FIELDS[scope.source];
  const out: Record<string, Matcher> = {};
  for (const [key, m] of Object.entries(value)) {
    const at = childPath(path, key);
    if (!fields.includes(key)) wrong(at, M.noField(scope.source, key, fields));
    out[key] = MATCHER(m, at, scope);
  }
  return out;
};

/** A name a block binds (to a step or row, or to a value): short, not a student's value, new. */
function binder(holds: "item" | "value"): Part<string> {
  return (value, path, scope) => {
    const name = string()(value, path);
    if (!NAME.test(name) || PARAMS.includes(name)) wrong(path, M.badName);
    if (scope.binds.has(name) || scope.all.has(name)) {
      wrong(path, M.alreadyBound(name));
    }
    scope.all.add(name);
    scope.binds.set(name, holds === "item" ? scope.source : null);
    return name;
  };
}

/** A name bound before this point to a step or a row. */
const ITEM: Part<string> = (value, path, scope) => {
  const name = string()(value, path);
  if (typeof scope.sees!.get(name) !== "string") wrong(path, M.notItem(name));
  return name;
};

const NONE_BINDS_NOTHING: Rule<Scope> = (block, path) => {
  if (block.none === true && block.as !== undefined) {
    wrong(childPath(path, "as"), M.noneBindsNothing);
  }
};

/** `pick` a step, or a `ledger` row: its `as` is bound last, so the block cannot see it. */
function finder(
  kind: "pick" | "ledger",
  from: readonly string[],
): Part<Clause> {
  const find = record<Scope, Clause>(
    { [kind]: oneOf(from), says: SAYS },
    { as: binder("item"), where: WHERE, none: boolean },
    [kind, "none", NONE_BINDS_NOTHING, "where", "says", "as"],
  );
  return (value, path, scope) => {
    const { ledger } = value as Record<string, unknown>;
    const source = kind === "pick" ? "steps" : String(ledger);
    return find(value, path, { ...scope, source });
  };
}

/** One block, named by its first key. */
const CLAUSE: Part<Clause> = byKey({
  pick: finder("pick", ["runs", "steps"]),
  ledger: finder("ledger", LEDGER_TABLES),
  before: record<Scope, Clause>({ before: tuple(ITEM, ITEM), says: SAYS }),
  compare: record<Scope, Clause>({
    compare: tuple(VALUE, oneOf(COMPARE_OPS, M.oneOfOps(COMPARE_OPS)), VALUE),
    says: SAYS,
  }),
  // The name is bound last: `to` cannot name it.
  bind: record<Scope, Clause>(
    { bind: binder("value"), to: VALUE },
    { says: SAYS },
    ["to", "says", "bind"],
  ),
}, M.notBlock(["pick", "ledger", "before", "compare", "bind"]));

/** A premise sees the premises before it, and binds for those after. */
const PREMISE: Part<Clause> = (value, path, scope) =>
  CLAUSE(value, path, { ...scope, sees: new Map(scope.binds) });

/** A finding sees all the premises; what it binds is for the why alone. */
const FINDING: Part<Clause> = (value, path, scope) => {
  const own = new Map(scope.binds);
  const clause = CLAUSE(value, path, {
    ...scope,
    sees: scope.binds,
    binds: own,
  });
  for (const [name, source] of own) scope.why.set(name, source);
  return clause;
};

const PREMISES_AND_FINDINGS = record<Scope, Invariant>({
  premises: list(PREMISE, 1),
  findings: list(FINDING),
});

/** An invariant: its names are its own, and the why's. */
const INVARIANT: Part<Invariant> = (value, path, scope) => {
  const binds: Names = new Map();
  const invariant = PREMISES_AND_FINDINGS(value, path, { ...scope, binds });
  for (const [name, source] of binds) scope.why.set(name, source);
  return invariant;
};

/** A fact a prediction asks for, named once; its value is read from the setup's evidence. */
const FACT = record<Scope, PredictedFact>(
  {
    field: (value, path, scope) => {
      const name = string()(value, path);
      if (!NAME.test(name) || scope.facts.has(name)) wrong(path, M.factName);
      scope.facts.add(name);
      return name;
    },
    says: TEXT,
    value: (value, path, scope) =>
      isPlainRecord(value) && Object.hasOwn(value, "count")
        ? record({ count: oneOf(LEDGER_TABLES) })(value, path, scope)
        : VALUE(value, path, { ...scope, sees: scope.why }),
  },
  {
    accepts: (value, path, scope) =>
      Array.isArray(value)
        ? list(string(), 1)(value, path, scope)
        : oneOf(FACT_KINDS, M.accepts(FACT_KINDS))(value, path),
  },
  ["field", "value", "says", "accepts"],
);

/** The agent host a prediction is about: a host run in process, a case it can meet, a variant. */
const HOST_EXAMPLE = record<Scope, HostExampleSpec>({
  host: oneOf(HOST_EXAMPLE_NAMES),
  case: oneOf(HOST_EXAMPLE_CASES),
  variant: oneOf(HOST_VARIANTS),
});

const ONLY_ON_SCRIPT: Rule<Scope> = (x, path) => {
  if (x.judged !== undefined && x.kind !== "script") {
    wrong(childPath(path, "judged"), M.judged);
  }
};

/**
 * A script has one to eight invariants; a prediction has a setup, facts,
 * and up to four invariants over the setup's evidence.
 */
const BY_KIND: Rule<Scope> = (x, path, scope, out) => {
  const at = (key: string) => childPath(path, key);
  if (x.kind === "script") {
    for (const key of ["setup", "accept_example", "host_example", "predict"]) {
      if (x[key] !== undefined) wrong(at(key), M.onlyPrediction);
    }
    if (x.invariants === undefined) wrong(at("invariants"), M.missing);
    out.invariants = list(INVARIANT, 1, 8)(
      x.invariants,
      at("invariants"),
      scope,
    );
    return;
  }
  // What is predicted comes from one place: script steps, an example
  // server's acceptance matrix, or an agent host run in process.
  const sources = ["setup", "accept_example", "host_example"]
    .filter((key) => x[key] !== undefined);
  if (sources.length > 1) wrong(at(sources[1]), M.setupOrExample);
  if (x.accept_example !== undefined) {
    out.accept_example = oneOf(EXAMPLE_NAMES)(
      x.accept_example,
      at("accept_example"),
    );
  } else if (x.host_example !== undefined) {
    out.host_example = HOST_EXAMPLE(x.host_example, at("host_example"), scope);
  } else {
    if (x.setup === undefined) wrong(at("setup"), M.missing);
    out.setup = list(TEMPLATE, 1, 16)(x.setup, at("setup"), scope);
  }
  if (x.predict === undefined) wrong(at("predict"), M.missing);
  out.invariants = x.invariants === undefined
    ? []
    : list(INVARIANT, 0, 4)(x.invariants, at("invariants"), scope);
  out.predict = list(FACT, 1, 8)(x.predict, at("predict"), scope);
};

/**
 * One exercise. Its fields are checked in the order below: the why last,
 * since it may name what the invariants bind.
 */
const EXERCISE = record<Scope, Omit<Exercise, "n">>(
  {
    slug: string(SLUG, M.slug),
    kind: oneOf(["script", "prediction"], M.kind),
    title: TEXT,
    task: TEXT,
    claim: TEXT,
    hints: list(TEXT, 1, 8),
    why: WHY,
  },
  {
    skeleton: TEMPLATE,
    invariants: null, // by kind
    setup: null, // by kind
    accept_example: null, // by kind
    host_example: null, // by kind
    predict: null, // by kind
    judged: oneOf(["ledger"], M.judged),
  },
  [
    "judged",
    ONLY_ON_SCRIPT,
    "slug",
    "kind",
    "title",
    "task",
    "claim",
    "hints",
    "skeleton",
    BY_KIND,
    "why",
  ],
);

/**
 * Check `v` against the form and return the exercise numbered `n`; throws
 * `FormError` naming the first wrong field under `path`.
 */
export function readExercise(v: unknown, n: number, path = ""): Exercise {
  return {
    n,
    ...EXERCISE(v, path, {
      sees: null,
      binds: new Map(),
      all: new Set(),
      why: new Map(),
      source: "steps",
      facts: new Set(),
    }),
  };
}
