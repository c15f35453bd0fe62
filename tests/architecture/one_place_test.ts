/**
 * Facts that live in one place, checked on the parsed source (an alias, a
 * line break or a comment cannot hide a use): SQLite is opened only in
 * `lib/store/db.ts`. Each rule first proves on a small probe that it catches
 * the forms it is about, so it cannot pass by seeing nothing.
 */
import assert from "node:assert/strict";
import {
  inType,
  isLiteral,
  libFiles,
  locatedNodesOf,
  nameOf,
  type Node,
  parse,
  type Parsed,
  parseLib,
} from "../_helpers/source.ts";

const SQLITE = ["node:sqlite", "sqlite"];
const OPENER = "store/db.ts";

function where(file: Parsed, node: Node): string {
  return `lib/${file.name}:${node.loc?.start.line ?? 0}`;
}

/** Whether an import or export declaration brings types only. */
function typeOnly(decl: Node): boolean {
  if (decl.importKind === "type" || decl.exportKind === "type") return true;
  const specifiers = (decl.specifiers ?? []) as Node[];
  return specifiers.length > 0 &&
    specifiers.every((s) => s.importKind === "type" || s.exportKind === "type");
}

/**
 * Every way `file` reaches SQLite's value exports: a value import or
 * re-export of `node:sqlite`, a dynamic import, `getBuiltinModule`,
 * `require`: any mention of the module outside a type-only import.
 */
function sqliteValueUses(file: Parsed): string[] {
  const found: string[] = [];
  for (const { node, parents, field } of locatedNodesOf(file.program)) {
    if (!SQLITE.some((name) => isLiteral(node, name))) continue;
    const parent = parents.at(-1)!;
    const declaration = field === "source" &&
      ["ImportDeclaration", "ExportNamedDeclaration", "ExportAllDeclaration"]
        .includes(parent.type);
    if (!(declaration && typeOnly(parent))) found.push(where(file, node));
  }
  return found;
}

/**
 * In the opener itself: `DatabaseSync` is imported under its own name and,
 * as a value, only ever follows `new` (never re-exported, never aliased).
 */
function openerLeaks(file: Parsed): { leaks: string[]; constructions: number } {
  const leaks: string[] = [];
  let constructions = 0;
  for (const located of locatedNodesOf(file.program)) {
    const { node, parents, field } = located;
    const parent = parents.at(-1);
    if (
      node.type === "ImportNamespaceSpecifier" ||
      node.type === "ImportDefaultSpecifier"
    ) {
      if (SQLITE.some((name) => isLiteral(parent?.source, name))) {
        leaks.push(`${where(file, node)}: a whole-module import of SQLite`);
      }
    }
    if (
      node.type === "ImportSpecifier" &&
      nameOf(node.imported) === "DatabaseSync"
    ) {
      if (nameOf(node.local) !== "DatabaseSync") {
        leaks.push(`${where(file, node)}: DatabaseSync renamed`);
      }
      continue;
    }
    if (node.type !== "Identifier" || node.name !== "DatabaseSync") continue;
    if (inType(located) || parent?.type === "ImportSpecifier") continue;
    if (parent?.type === "NewExpression" && field === "callee") {
      constructions++;
    } else {
      leaks.push(
        `${where(file, node)}: DatabaseSync used as a value, not constructed`,
      );
    }
  }
  return { leaks, constructions };
}

Deno.test("one place: the SQLite rule sees aliases and side doors", () => {
  const probe = (source: string) => sqliteValueUses(parse("probe.ts", source));
  assert.deepEqual(
    probe(`import type { DatabaseSync } from "node:sqlite";`),
    [],
  );
  assert.deepEqual(
    probe(
      `import { type DatabaseSync, type StatementSync } from "node:sqlite";`,
    ),
    [],
  );
  assert.equal(
    probe(`import { DatabaseSync as D } from "node:sqlite"; new D(":memory:");`)
      .length,
    1,
  );
  assert.equal(probe(`import * as sqlite from "node:sqlite";`).length, 1);
  assert.equal(probe(`const s = await import("node:sqlite");`).length, 1);
  assert.equal(
    probe(`const s = process.getBuiltinModule("node:sqlite");`).length,
    1,
  );
  assert.equal(probe(`export { DatabaseSync } from "node:sqlite";`).length, 1);
  assert.equal(probe("const s = await import(`node:sqlite`);").length, 1);
  const opener = (source: string) => openerLeaks(parse("probe.ts", source));
  assert.deepEqual(
    opener(`import { DatabaseSync } from "node:sqlite";
      function f(p: string): DatabaseSync { return new DatabaseSync(p); }`),
    { leaks: [], constructions: 1 },
  );
  assert.notEqual(
    opener(
      `import { DatabaseSync } from "node:sqlite"; export { DatabaseSync };`,
    ).leaks.length,
    0,
  );
  assert.notEqual(
    opener(
      `import { DatabaseSync } from "node:sqlite"; export const Open = DatabaseSync;`,
    ).leaks.length,
    0,
  );
  assert.notEqual(
    opener(`import { DatabaseSync as D } from "node:sqlite";`).leaks.length,
    0,
  );
});

Deno.test("one place: DatabaseSync is constructed only in lib/store/db.ts", () => {
  const outside = libFiles().filter((f) => f !== OPENER)
    .flatMap((f) => sqliteValueUses(parseLib(f)));
  assert.deepEqual(outside, [], "open SQLite through lib/store/db.ts");
  const { leaks, constructions } = openerLeaks(parseLib(OPENER));
  assert.deepEqual(leaks, []);
  assert.ok(constructions > 0, "the opener constructs DatabaseSync");
});
