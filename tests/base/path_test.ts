/**
 * `lib/base/path.ts` gives `node:path`'s answers on POSIX systems, on paths
 * chosen to find where hand-written path code goes wrong: roots, repeated
 * and trailing separators, `.` and `..` (above the root too), empty parts.
 */
import assert from "node:assert/strict";
import * as node from "node:path";
import * as ours from "../../lib/base/path.ts";

const PATHS = [
  "",
  ".",
  "..",
  "/",
  "//",
  "///a//b///",
  "a",
  "a/",
  "a//",
  "/a",
  "/a/",
  "a/b",
  "a//b",
  "/a/b/c",
  "/a/b/c/",
  "./a",
  "../a",
  "a/..",
  "a/../..",
  "/..",
  "/../a",
  "/a/../../b",
  "a/./b/./",
  "/tmp/guardlab-0/x/lab.sqlite",
  "/tmp/.hidden",
  "..a/b..",
  "a/.../b",
  " a / b ",
];

Deno.test({
  name: "path: dirname, basename and isAbsolute as node:path has them",
  ignore: Deno.build.os === "windows",
  fn() {
    for (const p of PATHS) {
      assert.equal(ours.dirname(p), node.dirname(p), `dirname(${p})`);
      assert.equal(ours.basename(p), node.basename(p), `basename(${p})`);
      assert.equal(ours.isAbsolute(p), node.isAbsolute(p), `isAbsolute(${p})`);
    }
    assert.equal(ours.sep, node.sep);
  },
});

Deno.test({
  name: "path: join and resolve as node:path has them, pairs included",
  ignore: Deno.build.os === "windows",
  fn() {
    assert.equal(ours.join(), node.join());
    for (const a of PATHS) {
      assert.equal(ours.join(a), node.join(a), `join(${a})`);
      assert.equal(ours.resolve(a), node.resolve(a), `resolve(${a})`);
      for (const b of PATHS) {
        assert.equal(ours.join(a, b), node.join(a, b), `join(${a}, ${b})`);
        assert.equal(
          ours.resolve(a, b),
          node.resolve(a, b),
          `resolve(${a}, ${b})`,
        );
        assert.equal(
          ours.join(a, "x", b),
          node.join(a, "x", b),
          `join(${a}, x, ${b})`,
        );
      }
    }
  },
});
