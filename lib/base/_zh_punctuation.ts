/**
 * Chinese punctuation, defined once: Chinese text uses full-width
 * punctuation, so no ASCII `:` or `,` directly follows a Chinese character
 * ("原因：", not "原因:"). Code spans (`` `…` ``) and JSON templates
 * (`{"outcome": …}`, `[["JOB-002",1,2]]`) are exempt: there the ASCII
 * character is syntax, not prose. Every Chinese text of guardlab (each zh
 * entry of a message table, each Chinese screen) is checked with
 * {@linkcode zhPunctuationProblems}.
 *
 * @module
 */

/** A Chinese (Han) character. */
const HAN = /\p{Script=Han}/u;

/**
 * The exempt spans of `text`: code spans between backticks, and JSON
 * templates (a bracketed span that opens with `{"`, `["`, `[[` or `[{`, up to
 * its matching bracket).
 */
function exemptSpans(text: string): [number, number][] {
  const spans: [number, number][] = [];
  for (let at = 0; at < text.length; at++) {
    const c = text[at];
    if (c === "`") {
      const end = text.indexOf("`", at + 1);
      if (end < 0) break;
      spans.push([at, end + 1]);
      at = end;
    } else if (
      (c === "{" || c === "[") &&
      /^[\s]*["\[{]/.test(text.slice(at + 1, at + 8))
    ) {
      let depth = 0;
      let end = at;
      let quoted = false;
      for (; end < text.length; end++) {
        const d = text[end];
        if (quoted) {
          if (d === "\\") end++;
          else if (d === '"') quoted = false;
        } else if (d === '"') quoted = true;
        else if (d === "{" || d === "[") depth++;
        else if (d === "}" || d === "]") {
          depth--;
          if (depth === 0) break;
        }
      }
      spans.push([at, end + 1]);
      at = end;
    }
  }
  return spans;
}

/**
 * Where `zh` puts an ASCII `:` or `,` directly after a Chinese character,
 * outside code spans and JSON templates: each problem as the two characters
 * and a little context. Empty when the text follows the rule.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { zhPunctuationProblems } from "./_zh_punctuation.ts";
 * assert.deepEqual(zhPunctuationProblems("原因：后检在提交点之后"), []);
 * assert.deepEqual(zhPunctuationProblems("原因: 后检"), ["原因: 后检"]);
 * assert.deepEqual(zhPunctuationProblems("写 `{\"草稿\":1}` 即可"), []);
 * ```
 */
export function zhPunctuationProblems(zh: string): string[] {
  const spans = exemptSpans(zh);
  const exempt = (i: number) => spans.some(([a, b]) => i >= a && i < b);
  const problems: string[] = [];
  const chars = [...zh];
  let offset = 0;
  for (let i = 0; i + 1 < chars.length; i++) {
    const next = offset + chars[i].length;
    if (
      HAN.test(chars[i]) && (chars[i + 1] === ":" || chars[i + 1] === ",") &&
      !exempt(next)
    ) {
      problems.push(chars.slice(Math.max(0, i - 6), i + 5).join(""));
    }
    offset = next;
  }
  return problems;
}

/**
 * A Latin letter or a digit. A `{name}` hole is neither: it may be filled
 * with Chinese, so a text is held to the rule once it is filled (a screen).
 */
const LATIN = /[A-Za-z0-9]/;

/** Full-width punctuation: no space belongs beside it inside a line. */
const FULL_WIDTH = /[，。、；：！？（）「」『』《》〈〉【】“”‘’]/;

/**
 * The spacing rule of Chinese text beside Latin words, defined once: one
 * space between a Chinese character and a Latin word or a number ("你的
 * Snapshot 看到", "第 3 行", "2 份"), and no space beside full-width
 * punctuation ("代码（无）", not "代码 （无）"): the punctuation carries its
 * own space (a space that sets a symbol apart, as in "（无） · 下一步", is
 * layout and allowed). Code spans and JSON templates are exempt, as for
 * {@linkcode zhPunctuationProblems}; so are the spaces that start a line
 * (an indent) and runs of two or more spaces (columns of a table). Where
 * the text breaks the rule: each problem with a little context.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { zhSpacingProblems } from "./_zh_punctuation.ts";
 * assert.deepEqual(zhSpacingProblems("你的 Snapshot 看到修订号 2"), []);
 * assert.deepEqual(zhSpacingProblems("旧 Snapshot仍被拒绝"), [" Snapshot仍被拒绝"]);
 * assert.deepEqual(zhSpacingProblems("代码 （无）"), ["代码 （无）"]);
 * ```
 */
export function zhSpacingProblems(zh: string): string[] {
  const spans = exemptSpans(zh);
  const chars = [...zh];
  const at: number[] = [];
  let offset = 0;
  for (const c of chars) {
    at.push(offset);
    offset += c.length;
  }
  const exempt = (i: number) => spans.some(([a, b]) => at[i] >= a && at[i] < b);
  const context = (i: number) =>
    chars.slice(Math.max(0, i - 8), i + 8).join("");
  const problems: string[] = [];
  for (let i = 0; i + 1 < chars.length; i++) {
    const [a, b] = [chars[i], chars[i + 1]];
    if (exempt(i) || exempt(i + 1)) continue;
    // A Chinese character touching a Latin word or a number.
    if ((HAN.test(a) && LATIN.test(b)) || (LATIN.test(a) && HAN.test(b))) {
      problems.push(context(i));
      continue;
    }
    // One space beside full-width punctuation, inside a line.
    if (a === " " && chars[i - 1] !== " " && b !== " ") {
      const before = chars[i - 1];
      if (before === undefined || before === "\n") continue;
      // Only between punctuation and a word: a space that sets a symbol
      // apart (" · ", " → ") is layout, not spacing.
      const word = FULL_WIDTH.test(b)
        ? before
        : FULL_WIDTH.test(before)
        ? b
        : "";
      if (HAN.test(word) || LATIN.test(word)) problems.push(context(i));
    }
  }
  return problems;
}
