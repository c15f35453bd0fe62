/**
 * The import graph of `lib/` points one way: every import stays in its
 * layer or goes down (the order is stated once, in `lib/_layers.ts`), and no
 * chain of imports comes back to where it started. Type imports count: a
 * type is a dependency a reader must follow too.
 */
import assert from "node:assert/strict";
import { LAYERS } from "../../lib/_layers.ts";
import {
  cyclesOf,
  importsOf,
  libFiles,
  libGraph,
  parse,
  resolveInLib,
} from "../_helpers/source.ts";

/** The layer index of a `lib/`-relative path, from its top-level file or folder. */
function layerOf(path: string): number {
  const top = path.split("/")[0];
  return LAYERS.findIndex((layer) => layer.members.includes(top));
}

Deno.test("layers: the parser sees every form of import", () => {
  const file = parse(
    "probe.ts",
    `import a from "./a.ts";
     import type { B } from "./b.ts";
     import { type C } from "./c.ts";
     import "./d.ts";
     export * from "./e.ts";
     export type { F } from "./f.ts";
     export {
       g,
     } from "./g.ts";
     const h = await import("./h.ts");
     type I = typeof import("./i.ts");
     // import { j } from "./j.ts";  (a comment is not an import)
     const k = "import { k } from './k.ts'";`,
  );
  assert.deepEqual(
    importsOf(file).map((e) => [e.specifier, e.typeOnly]),
    [
      ["./a.ts", false],
      ["./b.ts", true],
      ["./c.ts", false],
      ["./d.ts", false],
      ["./e.ts", false],
      ["./f.ts", true],
      ["./g.ts", false],
      ["./h.ts", false],
      ["./i.ts", true],
    ],
  );
  assert.equal(
    resolveInLib("views/svg.ts", "../timing/stages.ts"),
    "timing/stages.ts",
  );
  assert.equal(
    resolveInLib("sandbox/sandbox.ts", "../../deno.json"),
    undefined,
  );
  assert.equal(resolveInLib("store/db.ts", "node:sqlite"), undefined);
});

Deno.test("layers: the cycle finder finds a cycle through type imports and a self-import", () => {
  const edges = (...to: string[]) => to.map((t) => ({ to: t }));
  assert.deepEqual(
    cyclesOf(
      new Map([["a", edges("b")], ["b", edges("c")], ["c", edges("a")], [
        "d",
        edges("a"),
      ]]),
    ),
    [["a", "b", "c", "a"]],
  );
  assert.deepEqual(cyclesOf(new Map([["a", edges("a")]])), [["a", "a"]]);
  assert.deepEqual(cyclesOf(new Map([["a", edges("b")], ["b", []]])), []);
});

Deno.test("layers: every file of lib/ belongs to exactly one layer", () => {
  const members = LAYERS.flatMap((layer) => layer.members);
  assert.equal(
    new Set(members).size,
    members.length,
    "a member is listed twice",
  );
  const unplaced = libFiles().filter((path) => layerOf(path) < 0);
  assert.deepEqual(unplaced, [], "place these in lib/_layers.ts");
});

Deno.test("layers: no import points up", () => {
  const upward: string[] = [];
  for (const [from, edges] of libGraph()) {
    for (const { to, edge } of edges) {
      if (layerOf(to) > layerOf(from)) {
        upward.push(
          `lib/${from}:${edge.line} imports lib/${to} ` +
            `(${LAYERS[layerOf(from)].members[0]} layer → ${
              LAYERS[layerOf(to)].members[0]
            } layer)`,
        );
      }
    }
  }
  assert.deepEqual(upward, []);
});

Deno.test("layers: no file imports itself through a chain (type imports included)", () => {
  const graph = libGraph();
  for (const [from, edges] of graph) {
    for (const { to } of edges) {
      // A JSON module is data (the built-in exercises), and a text module
      // (the agent hook's source, imported as text) is never run here:
      // neither imports anything.
      const exists = to.endsWith(".json") || to.endsWith(".mjs")
        ? Deno.statSync(new URL(`../../lib/${to}`, import.meta.url)).isFile
        : graph.has(to);
      assert.ok(exists, `lib/${from} imports lib/${to}, which does not exist`);
    }
  }
  assert.deepEqual(cyclesOf(graph).map((cycle) => cycle.join(" → ")), []);
});
