/**
 * The form an exercise is written in, as data: texts in both languages,
 * hints, a skeleton, a prediction's setup, and invariants built from fixed
 * blocks over the evidence. There is no way to name code: an exercise is
 * only what these blocks can say, and one engine judges them all.
 *
 * {@linkcode readExercise} checks a parsed value against the form and
 * names the first wrong field by its path; the caller turns the path into a
 * line with the positions it kept.
 *
 * @module
 */
import { LANGS, say, type Text } from "../base/i18n.ts";
import { ITEM_FIELDS, LEDGER_TABLES, type LedgerTable } from "./evidence.ts";
import { childPath } from "./json_positions.ts";
import { PARAM_NAMES } from "./params.ts";

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
}

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

/** A form error: the path of the wrong field and what is wrong. */
export class FormError extends Error {
  /** The field's path, e.g. `invariants[0].premises[1].pick`. */
  readonly field: string;
  /** What is wrong, in both languages. */
  readonly text: Text;
  /** Build the error. */
  constructor(field: string, text: Text) {
    super(say(text, "en"));
    this.name = "FormError";
    this.field = field;
    this.text = text;
  }
}

const t = (en: string, zh: string): Text => ({ en, zh });

const MAX_TEXT = 4000;
const MAX_LIST = 32;
const NAME = /^[a-z][a-zA-Z0-9_]{0,31}$/;
const SLUG = /^[a-z0-9][a-z0-9-]{0,47}$/;
const PLACEHOLDER =
  /\{([A-Za-z][A-Za-z0-9_]*)(?:\.([A-Za-z_][A-Za-z0-9_]*))?\}/g;

type Rec = Record<string, unknown>;

function isRecord(v: unknown): v is Rec {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

function fields(
  v: unknown,
  path: string,
  required: readonly string[],
  optional: readonly string[] = [],
): Rec {
  if (!isRecord(v)) {
    throw new FormError(path, t("must be an object", "必须是一个对象"));
  }
  for (const key of Object.keys(v)) {
    if (!required.includes(key) && !optional.includes(key)) {
      throw new FormError(
        childPath(path, key),
        t(
          `unknown field (expected ${[...required, ...optional].join(", ")})`,
          `未知字段（应为 ${[...required, ...optional].join("、")}）`,
        ),
      );
    }
  }
  for (const key of required) {
    if (!Object.hasOwn(v, key)) {
      throw new FormError(childPath(path, key), t("missing", "缺失"));
    }
  }
  return v;
}

function list(v: unknown, path: string, min = 0, max = MAX_LIST): unknown[] {
  if (!Array.isArray(v)) {
    throw new FormError(path, t("must be a list", "必须是一个列表"));
  }
  if (v.length < min) {
    throw new FormError(
      path,
      t(`needs at least ${min} entries`, `至少需要 ${min} 项`),
    );
  }
  if (v.length > max) {
    throw new FormError(
      path,
      t(`has more than ${max} entries`, `超过 ${max} 项`),
    );
  }
  return v;
}

function string(v: unknown, path: string): string {
  if (typeof v !== "string" || v.trim() === "") {
    throw new FormError(
      path,
      t("must be a non-empty string", "必须是非空字符串"),
    );
  }
  if (v.length > MAX_TEXT) {
    throw new FormError(
      path,
      t(`longer than ${MAX_TEXT} characters`, `超过 ${MAX_TEXT} 个字符`),
    );
  }
  return v;
}

/** What names a text or clause may use at this point. */
interface Scope {
  /** Variables bound by earlier blocks, with the kind of what they hold. */
  vars: Map<string, "item" | "value">;
  /** Where each variable's items come from, to check field names. */
  sources: Map<string, string>;
}

function checkTemplate(text: string, path: string, scope: Scope | null): void {
  for (const m of text.matchAll(PLACEHOLDER)) {
    const [, name, fieldName] = m;
    if (
      fieldName === undefined &&
      (PARAM_NAMES as readonly string[]).includes(name)
    ) {
      continue;
    }
    if (scope === null) {
      throw new FormError(
        path,
        t(
          `${m[0]}: only this student's values ({${
            PARAM_NAMES.join("}, {")
          }}) may be named here`,
          `${m[0]}：这里只能用学生的取值（{${PARAM_NAMES.join("}、{")}}）`,
        ),
      );
    }
    checkRef(fieldName ? `${name}.${fieldName}` : name, path, scope);
  }
}

function checkText(v: unknown, path: string, scope: Scope | null): Text {
  const pair = fields(v, path, LANGS);
  // Read from the file's object, both sides, in the order LANGS names them.
  const [en, zh] = LANGS.map((code) =>
    string(pair[code], childPath(path, code))
  );
  if (!/[\u4e00-\u9fff]/.test(zh)) {
    throw new FormError(
      childPath(path, "zh"),
      t("must be Chinese", "必须是中文"),
    );
  }
  checkTemplate(en, childPath(path, "en"), scope);
  checkTemplate(zh, childPath(path, "zh"), scope);
  return { en, zh };
}

function checkRef(ref: string, path: string, scope: Scope): void {
  const [name, fieldName, extra] = ref.split(".");
  const kind = scope.vars.get(name);
  if (extra !== undefined || kind === undefined) {
    throw new FormError(
      path,
      t(
        `${ref}: no such name bound before this point`,
        `${ref}：此处之前没有绑定这个名字`,
      ),
    );
  }
  if (kind === "value" && fieldName !== undefined) {
    throw new FormError(
      path,
      t(
        `${ref}: ${name} holds a value, not a row`,
        `${ref}：${name} 是一个值，不是一行`,
      ),
    );
  }
  if (kind === "item" && fieldName !== undefined) {
    const source = scope.sources.get(name)!;
    if (!ITEM_FIELDS[source].includes(fieldName)) {
      throw new FormError(
        path,
        t(
          `${ref}: ${source} have no field ${fieldName} (they have ${
            ITEM_FIELDS[source].join(", ")
          })`,
          `${ref}：${source} 没有字段 ${fieldName}（有 ${
            ITEM_FIELDS[source].join("、")
          }）`,
        ),
      );
    }
  }
}

function checkValue(v: unknown, path: string, scope: Scope): ValueExpr {
  if (
    v === null || typeof v === "string" || typeof v === "number" ||
    typeof v === "boolean"
  ) {
    if (typeof v === "string" && v.length > MAX_TEXT) {
      throw new FormError(
        path,
        t(`longer than ${MAX_TEXT} characters`, `超过 ${MAX_TEXT} 个字符`),
      );
    }
    return v;
  }
  if (isRecord(v) && Object.hasOwn(v, "ref")) {
    fields(v, path, ["ref"]);
    checkRef(
      string(v.ref, childPath(path, "ref")),
      childPath(path, "ref"),
      scope,
    );
    return v as { ref: string };
  }
  if (isRecord(v) && Object.hasOwn(v, "param")) {
    fields(v, path, ["param"]);
    if (!(PARAM_NAMES as readonly unknown[]).includes(v.param)) {
      throw new FormError(
        childPath(path, "param"),
        t(
          `must be one of ${PARAM_NAMES.join(", ")}`,
          `必须是 ${PARAM_NAMES.join("、")} 之一`,
        ),
      );
    }
    return v as { param: string };
  }
  throw new FormError(
    path,
    t(
      'must be a literal, {"ref": "name.field"} or {"param": "name"}',
      '必须是字面值、{"ref": "name.field"} 或 {"param": "name"}',
    ),
  );
}

function checkWhere(
  v: unknown,
  path: string,
  scope: Scope,
  source: string,
): Where {
  if (!isRecord(v)) {
    throw new FormError(path, t("must be an object", "必须是一个对象"));
  }
  const out: Record<string, Matcher> = {};
  for (const [key, m] of Object.entries(v)) {
    const p = childPath(path, key);
    if (!ITEM_FIELDS[source].includes(key)) {
      throw new FormError(
        p,
        t(
          `${source} have no field ${key} (they have ${
            ITEM_FIELDS[source].join(", ")
          })`,
          `${source} 没有字段 ${key}（有 ${ITEM_FIELDS[source].join("、")}）`,
        ),
      );
    }
    const test = isRecord(m)
      ? MATCH_TESTS.find((t) => Object.hasOwn(m, t))
      : undefined;
    if (test === undefined) {
      out[key] = checkValue(m, p, scope);
      continue;
    }
    fields(m, p, [test]);
    const arg = (m as Rec)[test];
    const q = childPath(p, test);
    if (test === "in") {
      list(arg, q, 1).forEach((x, i) => checkValue(x, childPath(q, i), scope));
    } else if (test === "missing") {
      if (typeof arg !== "boolean") {
        throw new FormError(
          q,
          t("must be true or false", "必须是 true 或 false"),
        );
      }
    } else checkValue(arg, q, scope);
    out[key] = m as Matcher;
  }
  return out;
}

function bindName(v: unknown, path: string, scope: Scope): string {
  const name = string(v, path);
  if (!NAME.test(name) || (PARAM_NAMES as readonly string[]).includes(name)) {
    throw new FormError(
      path,
      t(
        "must be a short name (a-z, then letters, digits, _) not used by a value of the student",
        "必须是短名字（a-z 开头，随后为字母、数字或 _），且不与学生的取值同名",
      ),
    );
  }
  if (scope.vars.has(name)) {
    throw new FormError(
      path,
      t(`${name} is already bound`, `${name} 已经绑定过了`),
    );
  }
  return name;
}

const CLAUSE_KINDS = ["pick", "ledger", "before", "compare", "bind"] as const;

/** Check one block; it binds its name into `into` (the scope later blocks see). */
function checkClause(
  v: unknown,
  path: string,
  scope: Scope,
  into: Scope,
  all: Set<string>,
): Clause {
  if (!isRecord(v)) {
    throw new FormError(path, t("must be an object", "必须是一个对象"));
  }
  const kind = CLAUSE_KINDS.find((k) => Object.hasOwn(v, k));
  if (kind === undefined) {
    throw new FormError(
      path,
      t(
        `must be one of the blocks ${CLAUSE_KINDS.join(", ")}`,
        `必须是积木 ${CLAUSE_KINDS.join("、")} 之一`,
      ),
    );
  }
  const bindAs = (name: unknown, source: string) => {
    if (name === undefined) return;
    const n = bindName(name, childPath(path, "as"), into);
    if (all.has(n)) {
      throw new FormError(
        childPath(path, "as"),
        t(`${n} is already bound`, `${n} 已经绑定过了`),
      );
    }
    all.add(n);
    into.vars.set(n, "item");
    into.sources.set(n, source);
  };
  if (kind === "pick" || kind === "ledger") {
    const c = fields(v, path, [kind, "says"], ["as", "where", "none"]);
    const allowed: readonly string[] = kind === "pick"
      ? ["runs", "steps"]
      : LEDGER_TABLES;
    if (!allowed.includes(c[kind] as string)) {
      throw new FormError(
        childPath(path, kind),
        t(
          `must be one of ${allowed.join(", ")}`,
          `必须是 ${allowed.join("、")} 之一`,
        ),
      );
    }
    const source = kind === "pick" ? "steps" : c[kind] as string;
    if (c.none !== undefined && typeof c.none !== "boolean") {
      throw new FormError(
        childPath(path, "none"),
        t("must be true or false", "必须是 true 或 false"),
      );
    }
    if (c.none === true && c.as !== undefined) {
      throw new FormError(
        childPath(path, "as"),
        t("a block with none binds nothing", "带 none 的积木不绑定任何名字"),
      );
    }
    if (c.where !== undefined) {
      checkWhere(c.where, childPath(path, "where"), scope, source);
    }
    const says = checkText(c.says, childPath(path, "says"), scope);
    bindAs(c.as, source);
    return { ...c, says } as Clause;
  }
  if (kind === "before") {
    const c = fields(v, path, ["before", "says"]);
    const pair = list(c.before, childPath(path, "before"), 2, 2);
    pair.forEach((name, i) => {
      const p = childPath(childPath(path, "before"), i);
      const n = string(name, p);
      if (scope.vars.get(n) !== "item") {
        throw new FormError(
          p,
          t(
            `${n}: no step or row bound before this point`,
            `${n}：此处之前没有绑定这个步骤或行`,
          ),
        );
      }
    });
    return {
      before: pair as [string, string],
      says: checkText(c.says, childPath(path, "says"), scope),
    };
  }
  if (kind === "compare") {
    const c = fields(v, path, ["compare", "says"]);
    const triple = list(c.compare, childPath(path, "compare"), 3, 3);
    const left = checkValue(
      triple[0],
      childPath(childPath(path, "compare"), 0),
      scope,
    );
    if (!(COMPARE_OPS as readonly unknown[]).includes(triple[1])) {
      throw new FormError(
        childPath(childPath(path, "compare"), 1),
        t(
          `must be one of ${COMPARE_OPS.join(" ")}`,
          `必须是 ${COMPARE_OPS.join(" ")} 之一`,
        ),
      );
    }
    const right = checkValue(
      triple[2],
      childPath(childPath(path, "compare"), 2),
      scope,
    );
    return {
      compare: [left, triple[1] as CompareOp, right],
      says: checkText(c.says, childPath(path, "says"), scope),
    };
  }
  const c = fields(v, path, ["bind", "to"], ["says"]);
  const to = checkValue(c.to, childPath(path, "to"), scope);
  const says = c.says === undefined
    ? undefined
    : checkText(c.says, childPath(path, "says"), scope);
  const name = bindName(c.bind, childPath(path, "bind"), into);
  if (all.has(name)) {
    throw new FormError(
      childPath(path, "bind"),
      t(`${name} is already bound`, `${name} 已经绑定过了`),
    );
  }
  all.add(name);
  into.vars.set(name, "value");
  return says ? { bind: name, to, says } : { bind: name, to };
}

function copyScope(s: Scope): Scope {
  return { vars: new Map(s.vars), sources: new Map(s.sources) };
}

function checkInvariant(
  v: unknown,
  path: string,
  whyScope: Scope,
  all: Set<string>,
): Invariant {
  const inv = fields(v, path, ["premises", "findings"]);
  const scope: Scope = { vars: new Map(), sources: new Map() };
  const premises = list(inv.premises, childPath(path, "premises"), 1).map(
    (c, i) => {
      const p = childPath(childPath(path, "premises"), i);
      return checkClause(c, p, copyScope(scope), scope, all);
    },
  );
  const findings = list(inv.findings, childPath(path, "findings")).map(
    (c, i) => {
      const p = childPath(childPath(path, "findings"), i);
      // A finding sees the premises only; what it binds is for the why.
      const own = copyScope(scope);
      const clause = checkClause(c, p, scope, own, all);
      for (const [k, kind] of own.vars) whyScope.vars.set(k, kind);
      for (const [k, s] of own.sources) whyScope.sources.set(k, s);
      return clause;
    },
  );
  for (const [k, kind] of scope.vars) whyScope.vars.set(k, kind);
  for (const [k, s] of scope.sources) whyScope.sources.set(k, s);
  return { premises, findings };
}

const EXERCISE_FIELDS = [
  "slug",
  "kind",
  "title",
  "task",
  "claim",
  "hints",
  "why",
];

/**
 * Check `v` against the form and return the exercise numbered `n`; throws
 * {@linkcode FormError} naming the first wrong field under `path`.
 */
export function readExercise(v: unknown, n: number, path = ""): Exercise {
  const x = fields(v, path, EXERCISE_FIELDS, [
    "skeleton",
    "invariants",
    "setup",
    "predict",
    "judged",
  ]);
  const at = (k: string) => childPath(path, k);
  if (
    x.judged !== undefined && (x.judged !== "ledger" || x.kind !== "script")
  ) {
    throw new FormError(
      at("judged"),
      t(
        'must be "ledger", and only on a script exercise',
        '必须是 "ledger"，且只用于 script 练习',
      ),
    );
  }
  const slug = string(x.slug, at("slug"));
  if (!SLUG.test(slug)) {
    throw new FormError(
      at("slug"),
      t(
        "must be 1-48 of a-z, 0-9 and -, starting with a letter or digit",
        "必须是 1-48 个 a-z、0-9 和 -，以字母或数字开头",
      ),
    );
  }
  if (x.kind !== "script" && x.kind !== "prediction") {
    throw new FormError(
      at("kind"),
      t('must be "script" or "prediction"', '必须是 "script" 或 "prediction"'),
    );
  }
  const kind = x.kind;
  const title = checkText(x.title, at("title"), null);
  const task = checkText(x.task, at("task"), null);
  const claim = checkText(x.claim, at("claim"), null);
  const hints = list(x.hints, at("hints"), 1, 8).map((h, i) =>
    checkText(h, childPath(at("hints"), i), null)
  );
  const skeleton = x.skeleton === undefined
    ? undefined
    : string(x.skeleton, at("skeleton"));
  if (skeleton !== undefined) checkTemplate(skeleton, at("skeleton"), null);
  const whyScope: Scope = { vars: new Map(), sources: new Map() };
  const all = new Set<string>();
  let invariants: Invariant[] = [];
  let setup: string[] | undefined;
  let predict: PredictedFact[] | undefined;
  if (kind === "script") {
    for (const k of ["setup", "predict"]) {
      if (x[k] !== undefined) {
        throw new FormError(
          at(k),
          t("only a prediction has this", "只有预测题才有这一项"),
        );
      }
    }
    if (x.invariants === undefined) {
      throw new FormError(at("invariants"), t("missing", "缺失"));
    }
    invariants = list(x.invariants, at("invariants"), 1, 8).map((inv, i) =>
      checkInvariant(inv, childPath(at("invariants"), i), whyScope, all)
    );
  } else {
    if (x.setup === undefined) {
      throw new FormError(at("setup"), t("missing", "缺失"));
    }
    if (x.predict === undefined) {
      throw new FormError(at("predict"), t("missing", "缺失"));
    }
    setup = list(x.setup, at("setup"), 1, 16).map((s, i) => {
      const step = string(s, childPath(at("setup"), i));
      checkTemplate(step, childPath(at("setup"), i), null);
      return step;
    });
    invariants = x.invariants === undefined
      ? []
      : list(x.invariants, at("invariants"), 0, 4).map((inv, i) =>
        checkInvariant(inv, childPath(at("invariants"), i), whyScope, all)
      );
    const seen = new Set<string>();
    predict = list(x.predict, at("predict"), 1, 8).map((f, i) => {
      const p = childPath(at("predict"), i);
      const fact = fields(f, p, ["field", "says", "value"]);
      const name = string(fact.field, childPath(p, "field"));
      if (!NAME.test(name) || seen.has(name)) {
        throw new FormError(
          childPath(p, "field"),
          t("must be a short name, used once", "必须是短名字，且只用一次"),
        );
      }
      seen.add(name);
      const value = isRecord(fact.value) && Object.hasOwn(fact.value, "count")
        ? (() => {
          const c = fields(fact.value, childPath(p, "value"), ["count"]);
          if (!(LEDGER_TABLES as readonly unknown[]).includes(c.count)) {
            throw new FormError(
              childPath(childPath(p, "value"), "count"),
              t(
                `must be one of ${LEDGER_TABLES.join(", ")}`,
                `必须是 ${LEDGER_TABLES.join("、")} 之一`,
              ),
            );
          }
          return { count: c.count as LedgerTable };
        })()
        : checkValue(fact.value, childPath(p, "value"), whyScope);
      return {
        field: name,
        says: checkText(fact.says, childPath(p, "says"), null),
        value,
      };
    });
  }
  const why = checkText(x.why, at("why"), whyScope);
  return {
    n,
    slug,
    kind,
    title,
    task,
    claim,
    ...(skeleton !== undefined ? { skeleton } : {}),
    hints,
    why,
    invariants,
    ...(setup ? { setup } : {}),
    ...(predict ? { predict } : {}),
    ...(x.judged === "ledger" ? { judged: "ledger" as const } : {}),
  };
}
