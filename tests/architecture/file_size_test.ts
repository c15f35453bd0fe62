/**
 * Files and functions small enough to read in one sitting, counted in code
 * lines (a line with anything but a comment on it): no file in `lib/` over
 * 600, none under `lib/cli/` over 300 (a command parses its flags and calls
 * the layers below; anything longer is logic in the wrong room), and no
 * function over 120 unless a comment says why it is long (a line `Long:`
 * and the reason, in its doc or just above it). A comment or a blank line
 * costs nothing: the cap is there to keep logic short, not to trim its
 * explanation.
 */
import assert from "node:assert/strict";
import { babelParse } from "../_helpers/deps.ts";
import {
  libFiles,
  type Located,
  locatedNodesOf,
  nameOf,
  type Node,
  parse,
  readLib,
} from "../_helpers/source.ts";

/** The most code lines a file in `lib/` may have, a file under `lib/cli/`, and a function. */
const MAX_LINES = { lib: 600, cli: 300, function: 120 } as const;

/** The mark of a long function's reason, at the start of a comment's line. */
const LONG = /^\s*(?:\*|\/\/)?\s*Long: \S/m;

/** The 1-based lines of `text` with code on them: any token that is not a comment. */
function codeLines(text: string): Set<number> {
  const file = babelParse(text, {
    sourceType: "module",
    plugins: ["typescript"],
    tokens: true,
  }) as unknown as {
    tokens: {
      type: unknown;
      loc: { start: { line: number }; end: { line: number } };
    }[];
  };
  const lines = new Set<number>();
  for (const token of file.tokens) {
    const kind = token.type;
    if (kind === "CommentLine" || kind === "CommentBlock") continue;
    for (let l = token.loc.start.line; l <= token.loc.end.line; l++) {
      lines.add(l);
    }
  }
  return lines;
}

const FUNCTIONS = [
  "FunctionDeclaration",
  "FunctionExpression",
  "ArrowFunctionExpression",
  "ClassMethod",
  "ClassPrivateMethod",
  "ObjectMethod",
];

/** A function's name: its own, its key's, or the name it is bound to. */
function functionName({ node, parents }: Located): string {
  const parent = parents.at(-1);
  return nameOf(node.id) ?? nameOf(node.key) ??
    (parent?.type === "VariableDeclarator" ? nameOf(parent.id) : undefined) ??
    (parent?.type === "ObjectProperty" ? nameOf(parent.key) : undefined) ??
    "(anonymous)";
}

/** The comments just above a function: its own, and those of the statements or properties it is the value of. */
function commentsAbove({ node, parents }: Located): string {
  const holders = [node];
  for (let i = parents.length - 1; i >= 0; i--) {
    const p = parents[i];
    if (
      ![
        "VariableDeclarator",
        "VariableDeclaration",
        "ExportNamedDeclaration",
        "ExportDefaultDeclaration",
        "ObjectProperty",
        "ClassProperty",
      ].includes(p.type)
    ) break;
    holders.push(p);
  }
  return holders.flatMap((h) =>
    ((h.leadingComments ?? []) as Node[]).map((c) => String(c.value))
  ).join("\n");
}

/** One function: where it is, its code lines, and whether a comment says why it is long. */
interface Measured {
  /** `path#name`. */
  readonly id: string;
  /** Where it starts. */
  readonly line: number;
  /** Its code lines. */
  readonly lines: number;
  /** Whether a comment gives the reason it is long. */
  readonly reasoned: boolean;
}

/** Every function of `text` (named `path` in messages) with its code lines. */
function functionsOf(path: string, text: string): Measured[] {
  const code = codeLines(text);
  const measured: Measured[] = [];
  for (const located of locatedNodesOf(parse(path, text).program)) {
    if (!FUNCTIONS.includes(located.node.type)) continue;
    const loc = located.node.loc as unknown as {
      start: { line: number };
      end: { line: number };
    };
    let lines = 0;
    for (let l = loc.start.line; l <= loc.end.line; l++) {
      if (code.has(l)) lines++;
    }
    measured.push({
      id: `${path}#${functionName(located)}`,
      line: loc.start.line,
      lines,
      reasoned: LONG.test(commentsAbove(located)),
    });
  }
  return measured;
}

/** The functions over the limit with no reason given. */
function unexplained(functions: readonly Measured[]): string[] {
  return functions
    .filter((f) => f.lines > MAX_LINES.function && !f.reasoned)
    .map((f) =>
      `lib/${f.id.replace("#", `:${f.line} `)}: ${f.lines} code lines ` +
      `(over ${MAX_LINES.function}: split it, or say why in a "Long:" comment)`
    );
}

Deno.test("size: code lines are counted, comments and blank lines are not; a long function needs its reason", () => {
  const body = (n: number) =>
    Array.from({ length: n }, (_, i) => `  total += ${i};`).join("\n");
  const text = [
    "/**",
    " * A doc comment.",
    " */",
    "",
    "// A line comment.",
    "const s = `a",
    "",
    "b`; // a template's lines are code, even blank",
    "/** Short. */",
    `export function short(): number {\n  let total = 0;\n${
      body(10)
    }\n  return total;\n}`,
    `export function long(): number {\n  let total = 0;\n${
      body(120)
    }\n  return total;\n}`,
    "/**",
    " * Why it is long.",
    " *",
    " * Long: one pass over the stages, in their order.",
    " */",
    `export const reasoned = (): number => {\n  let total = 0;\n${
      body(120)
    }\n  return total;\n};`,
    `export const table = {\n  // Long: a method's reason sits above it.\n  method(): number {\n    let total = 0;\n${
      body(120)
    }\n    return total;\n  },\n};`,
  ].join("\n");
  const code = codeLines(text);
  assert.deepEqual([1, 2, 3, 4, 5].filter((l) => code.has(l)), []);
  assert.deepEqual([6, 7, 8].filter((l) => code.has(l)), [6, 7, 8]);
  const measured = functionsOf("probe.ts", text);
  assert.deepEqual(
    measured.map((f) => [f.id, f.lines, f.reasoned]),
    [
      ["probe.ts#short", 14, false],
      ["probe.ts#long", 124, false],
      ["probe.ts#reasoned", 124, true],
      ["probe.ts#method", 124, true],
    ],
  );
  assert.deepEqual(unexplained(measured), [
    'lib/probe.ts:24 long: 124 code lines (over 120: split it, or say why in a "Long:" comment)',
  ]);
});

Deno.test("size: lib/ files within 600 code lines, lib/cli/ files within 300", () => {
  const over: string[] = [];
  for (const path of libFiles()) {
    const lines = codeLines(readLib(path)).size;
    const max = path.startsWith("cli/") ? MAX_LINES.cli : MAX_LINES.lib;
    if (lines > max) {
      over.push(`lib/${path}: ${lines} code lines (at most ${max})`);
    }
  }
  assert.deepEqual(over, []);
});

Deno.test("size: a function over 120 code lines says why it is long", () => {
  const functions = libFiles().flatMap((path) =>
    functionsOf(path, readLib(path))
  );
  assert.deepEqual(unexplained(functions), []);
});
