/**
 * An exercise's invariants written out for a teacher: each block as the
 * sentence a student reads (both languages) and the block itself, so what
 * is checked can be read and defended.
 *
 * @module
 */
import { LANGS, same, say, type Text } from "../base/i18n.ts";
import { fill } from "./_engine.ts";
import {
  type Clause,
  type Exercise,
  MATCH_TESTS,
  type Matcher,
  type ValueExpr,
} from "./_form.ts";
import { setupSteps } from "./_judge.ts";
import { DESCRIBE_LINES as L } from "./messages.ts";
import { type ExerciseParams, PARAM_NAMES } from "./student.ts";

function value(v: ValueExpr): string {
  if (v !== null && typeof v === "object") {
    return "ref" in v ? v.ref : `{${v.param}}`;
  }
  return JSON.stringify(v);
}

function matcher(field: string, m: Matcher): string {
  const test = typeof m === "object" && m !== null
    ? MATCH_TESTS.find((t) => Object.hasOwn(m, t))
    : undefined;
  if (test === undefined) return `${field} = ${value(m as ValueExpr)}`;
  const arg = (m as Record<string, unknown>)[test];
  switch (test) {
    case "in":
      return `${field} in [${(arg as ValueExpr[]).map(value).join(", ")}]`;
    case "missing":
      return arg ? `${field} is missing` : `${field} is present`;
    case "not":
      return `${field} != ${value(arg as ValueExpr)}`;
    case "has":
    case "lacks":
      return `${field} ${test} ${value(arg as ValueExpr)}`;
    default: {
      const op = { lt: "<", le: "<=", gt: ">", ge: ">=" }[test];
      return `${field} ${op} ${value(arg as ValueExpr)}`;
    }
  }
}

/** One block in its written form, e.g. `pick runs as a where status = "error"`. */
export function blockForm(c: Clause): string {
  if ("pick" in c || "ledger" in c) {
    const what = "pick" in c ? `pick ${c.pick}` : `ledger ${c.ledger}`;
    const where = Object.entries(c.where ?? {}).map(([f, m]) => matcher(f, m));
    return [
      c.none ? `none: ${what}` : what,
      c.as ? `as ${c.as}` : "",
      where.length ? `where ${where.join(", ")}` : "",
    ].filter(Boolean).join(" ");
  }
  if ("before" in c) return `before ${c.before[0]}, ${c.before[1]}`;
  if ("compare" in c) {
    const [l, op, r] = c.compare;
    return `compare ${value(l)} ${op} ${value(r)}`;
  }
  return `bind ${c.bind} = ${value(c.to)}`;
}

/**
 * The lines that describe `x`'s invariants (or a prediction's setup and
 * facts), each sentence in English then Chinese, with this student's
 * values filled in and bound names left as `{a.job}`.
 */
export function describeInvariants(
  x: Exercise,
  params: ExerciseParams,
): Text[] {
  const out: Text[] = [];
  const both = (t: Text, indent: string) => {
    const f = fill(t, new Map(), params, true);
    // A teacher reads both languages whatever the screen's language.
    for (const lang of LANGS) out.push(same(`${indent}${say(f, lang)}`));
  };
  const plain = (s: string) => out.push(same(s));
  plain(
    `${x.n}. ${x.slug} (${x.kind})  ` +
      PARAM_NAMES.map((n) => `{${n}}=${params[n]}`).join(" "),
  );
  if (x.kind === "prediction") {
    out.push(L.setup);
    for (const s of setupSteps(x, params)) plain(`  ${s}`);
  }
  x.invariants.forEach((inv, i) => {
    out.push(L.invariant(i + 1), L.premises);
    inv.premises.forEach((c, j) => {
      plain(`    P${j + 1}  ${blockForm(c)}`);
      if (c.says) both(c.says, "        ");
    });
    if (inv.findings.length > 0) {
      out.push(L.findings);
      inv.findings.forEach((c, j) => {
        plain(`    F${j + 1}  ${blockForm(c)}`);
        if (c.says) both(c.says, "        ");
      });
    }
  });
  if (x.predict) {
    out.push(L.predicted);
    for (const f of x.predict) {
      const v = f.value;
      const where = typeof v === "object" && v !== null && "count" in v
        ? `count of ledger ${v.count}`
        : value(v as ValueExpr);
      plain(`  ${f.field} = ${where}`);
      both(f.says, "      ");
    }
  }
  out.push(L.notChecked);
  return out;
}
