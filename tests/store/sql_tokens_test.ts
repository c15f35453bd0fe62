/**
 * The token key the schema check compares SQL by: equal only where SQLite
 * reads the same tokens (white space is SQLite's own, never JavaScript's
 * wider `\\s`), whatever is quoted kept byte for byte.
 */
import assert from "node:assert/strict";
import { sqlTokensKey } from "../../lib/store/_inspect.ts";

Deno.test("schema: the token key keeps what SQLite reads, and only that", () => {
  const same = [
    [
      "CREATE TABLE t(a TEXT, b INT)",
      "CREATE TABLE t(\n\ta TEXT ,\r\n b INT )",
    ],
    ["CHECK(x BETWEEN 0 AND 9)", "CHECK( x  BETWEEN\f0 AND 9 )"],
  ];
  for (const [a, b] of same) assert.equal(sqlTokensKey(a), sqlTokensKey(b));
  const differ = [
    // SQLite reads neither as a space between two words.
    ["a TEXT PRIMARY KEY", "a TEXT\u00a0PRIMARY KEY"],
    ["a TEXT PRIMARY KEY", "a TEXT\u2003PRIMARY KEY"],
    ["a TEXT PRIMARY KEY", "a TEXT\vPRIMARY KEY"],
    // Two words are not one.
    ["a TEXT", "aTEXT"],
    // Inside quotes every byte counts.
    ["DEFAULT 'a b'", "DEFAULT 'a  b'"],
    ["DEFAULT 'a (b'", "DEFAULT 'a(b'"],
    ['"a b" TEXT', '"a  b" TEXT'],
    ["[a b] TEXT", "[a  b] TEXT"],
    ["'it''s  x'", "'it''s x'"],
    // Case is kept: compared exactly.
    ["a TEXT", "a text"],
    // A comment is kept whole.
    ["a TEXT -- x  y", "a TEXT -- x y"],
  ];
  for (const [a, b] of differ) {
    assert.notEqual(sqlTokensKey(a), sqlTokensKey(b), `${a} | ${b}`);
  }
});
