/**
 * A prediction's guess, read strictly before it is judged: one JSON object
 * on one line, with exactly the fields the exercise asks for, each of the
 * kind it allows. A malformed guess names the allowed values and is never
 * kept, so it does not use up the one guess.
 *
 * @module
 */
import { fill, type Text } from "../base/i18n.ts";
import { isPlainRecord, parseJsonLikePython } from "../base/json.ts";
import { plainValue } from "../base/plain.ts";
import { inEveryLanguage, unboxed } from "./_engine.ts";
import {
  ACCEPT_VERDICTS,
  type Exercise,
  type FactKind,
  OUTCOMES,
  type PredictedFact,
} from "./_form.ts";
import { JUDGE_MESSAGES as M } from "./messages.ts";

/** The one line of a prediction, or why there is not exactly one. */
function predictionLine(answer: string): string | Text {
  const lines = answer.split("\n").map((l, i) => ({ n: i + 1, text: l }))
    .filter((l) => l.text.trim() !== "");
  if (lines.length === 0) return M.emptyPrediction;
  if (lines.length > 1) return M.oneLine(lines[1].n);
  return lines[0].text;
}

/** A prediction's guess, or why its answer cannot be judged. */
export type Guess = { guess: Record<string, unknown> } | { reason: Text };

/** What fact `f` accepts: its own list or kind, else a count for a count, else any scalar. */
function acceptsOf(f: PredictedFact): FactKind | readonly string[] | null {
  if (f.accepts !== undefined) return f.accepts;
  const v = f.value;
  return typeof v === "object" && v !== null && "count" in v ? "count" : null;
}

/** Whether `value` is one `accepts` allows. */
function allowed(
  value: unknown,
  accepts: FactKind | readonly string[] | null,
): boolean {
  const v = unboxed(value);
  if (accepts === null) {
    return v === null || ["string", "number", "boolean"].includes(typeof v);
  }
  if (Array.isArray(accepts)) return accepts.includes(v as string);
  switch (accepts) {
    case "boolean":
      return typeof v === "boolean";
    case "count":
      return typeof v === "number" && Number.isSafeInteger(v) && v >= 0;
    case "outcome":
      return OUTCOMES.includes(v as string);
    case "verdict":
      return ACCEPT_VERDICTS.includes(v as string);
  }
  return false;
}

/** The values `accepts` allows, as a reason names them. */
function allowedText(accepts: FactKind | readonly string[] | null): Text {
  if (accepts === null) return M.anyValue;
  if (Array.isArray(accepts)) {
    return M.oneOfValues(accepts.join(", "), accepts.join("、"));
  }
  if (accepts === "outcome") {
    return M.oneOfValues(OUTCOMES.join(", "), OUTCOMES.join("、"));
  }
  if (accepts === "verdict") {
    return M.oneOfVerdicts(
      ACCEPT_VERDICTS.join(", "),
      ACCEPT_VERDICTS.join("、"),
    );
  }
  return accepts === "boolean" ? M.trueOrFalse : M.aCount;
}

/**
 * The guess in `answer`, or why it is malformed: not one JSON object, a
 * field that is not asked for or given twice, a field missing, or a value of the wrong
 * kind (`"true"` for true, `"1"` for 1, `canceled` for cancelled, `once`
 * for ONCE), or not one line of one JSON object at all. A malformed
 * guess names the values allowed and is never kept, so it does not use up
 * the one guess, and its reason says so.
 */
export function guessOf(x: Exercise, answer: string): Guess {
  const read = malformedOr(x, answer);
  // Whatever is wrong with it, a malformed guess is never kept: say so.
  return "reason" in read ? { reason: M.guessUnused(read.reason) } : read;
}

function malformedOr(x: Exercise, answer: string): Guess {
  const facts = x.predict ?? [];
  const example = "{" +
    facts.map((f) => `"${f.field}": ...`).join(", ") + "}";
  const line = predictionLine(answer);
  if (typeof line !== "string") return { reason: line };
  let guess: unknown;
  try {
    guess = parseJsonLikePython(line);
  } catch {
    guess = undefined;
  }
  if (!isPlainRecord(guess)) return { reason: M.notGuess(example) };
  const unknown = Object.keys(guess).find((k) =>
    !facts.some((f) => f.field === k)
  );
  if (unknown !== undefined) {
    return { reason: M.unknownFact(unknown, facts.map((f) => f.field)) };
  }
  // JSON keeps the last of a field given twice: the guess would be one the
  // student may not have meant, and the only one.
  const twice = repeatedField(line);
  if (twice !== null) {
    return { reason: fill(M.givenTwice, { field: JSON.stringify(twice) }) };
  }
  for (const f of facts) {
    if (!Object.hasOwn(guess, f.field)) {
      return { reason: M.missingFact(f.field, example) };
    }
    const accepts = acceptsOf(f);
    if (!allowed(guess[f.field], accepts)) {
      // A string is shown in quotes ("true" is not true); a list or an
      // object in words, never as a JSON literal.
      const v = unboxed(guess[f.field]);
      const said = inEveryLanguage((lang) =>
        (v !== null && typeof v === "object"
          ? plainValue(v, lang)
          : typeof v === "number"
          ? String(v) // 1e400 is Infinity, which JSON would write as null
          : JSON.stringify(v) ?? "?").slice(0, 40)
      );
      return { reason: M.badFact(f.field, said, allowedText(accepts)) };
    }
  }
  return { guess };
}

/**
 * The first field a JSON object's text (one that parses) gives twice at
 * its top level, or null: a walk over its characters, strings skipped.
 */
function repeatedField(text: string): string | null {
  const seen = new Set<string>();
  let depth = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (c === "{" || c === "[") depth++;
    else if (c === "}" || c === "]") depth--;
    else if (c === '"') {
      let j = i + 1;
      while (text[j] !== '"') j += text[j] === "\\" ? 2 : 1;
      const literal = text.slice(i, j + 1);
      i = j;
      let k = j + 1;
      while (k < text.length && /\s/.test(text[k])) k++;
      if (depth !== 1 || text[k] !== ":") continue;
      const key = JSON.parse(literal) as string;
      if (seen.has(key)) return key;
      seen.add(key);
    }
  }
  return null;
}
