/**
 * The project's own source, parsed (Babel's TypeScript parser, which needs
 * no permission beyond reading): the files
 * of `lib/`, the imports each one makes (type imports, re-exports and
 * dynamic imports included) and their syntax trees, for the tests that hold
 * the code to its structure (layers, one opener, one language picker).
 * Parsed, not grepped, so an alias, a line break or a comment cannot hide an
 * import or a call.
 */
import { dirname, join, relative } from "node:path";
import { ROOT } from "./root.ts";
import { babelParse } from "./deps.ts";

/** The repository root (defined in `root.ts`). */
export { ROOT };

/** Every `.ts` file under `lib/`, as a path relative to `lib/` with `/` separators, sorted. */
export function libFiles(): string[] {
  const found: string[] = [];
  const walk = (dir: string) => {
    for (const entry of Deno.readDirSync(join(ROOT, "lib", dir))) {
      const path = dir === "" ? entry.name : `${dir}/${entry.name}`;
      if (entry.isDirectory) walk(path);
      else if (entry.isFile && entry.name.endsWith(".ts")) found.push(path);
    }
  };
  walk("");
  return found.sort();
}

/** A node of the syntax tree (Babel's shape: `type`, `loc` and its fields). */
export interface Node {
  /** The node's kind, e.g. `ImportDeclaration`. */
  type: string;
  /** Where it is written. */
  loc?: { start: { line: number; column: number } };
  /** Its other fields: child nodes, arrays of them, names, flags. */
  [field: string]: unknown;
}

/** A parsed file: its name and the program node. */
export interface Parsed {
  /** The name messages use (a `lib/`-relative path). */
  name: string;
  /** The `Program` node. */
  program: Node;
}

/** `source` (TypeScript text) parsed, named `name` in messages. */
export function parse(name: string, source: string): Parsed {
  const file = babelParse(source, {
    sourceType: "module",
    plugins: ["typescript"],
  }) as unknown as { program: Node };
  return { name, program: file.program };
}

/** The text of the file `lib/<path>`. */
export function readLib(path: string): string {
  return Deno.readTextFileSync(join(ROOT, "lib", path));
}

/** The file `lib/<path>` parsed. */
export function parseLib(path: string): Parsed {
  return parse(path, readLib(path));
}

function isNode(value: unknown): value is Node {
  return typeof value === "object" && value !== null &&
    typeof (value as { type?: unknown }).type === "string";
}

/** Every node under `root` (itself included), depth first, in source order. */
export function* nodesOf(root: Node): Generator<Node> {
  yield root;
  for (const [key, value] of Object.entries(root)) {
    if (key === "loc" || key.endsWith("Comments")) continue;
    if (Array.isArray(value)) {
      for (const item of value) if (isNode(item)) yield* nodesOf(item);
    } else if (isNode(value)) {
      yield* nodesOf(value);
    }
  }
}

/** The 1-based line `node` is written on. */
export function lineOf(node: Node): number {
  return node.loc?.start.line ?? 0;
}

/** One import or re-export of a module. */
export interface ImportEdge {
  /** The specifier as written. */
  specifier: string;
  /** Whether only types come through it (`import type`, `export type … from`, `typeof import()`). */
  typeOnly: boolean;
  /** The 1-based line it is written on. */
  line: number;
}

function literal(node: unknown): string | undefined {
  if (!isNode(node)) return undefined;
  if (node.type === "StringLiteral") return node.value as string;
  if (node.type === "TSLiteralType") return literal(node.literal);
  return undefined;
}

/**
 * Every module `file` imports: static imports and re-exports (type-only
 * ones too), `import x = require(…)`, dynamic `import(…)` with a literal
 * specifier, and `import("…")` in a type.
 */
export function importsOf(file: Parsed): ImportEdge[] {
  const edges: ImportEdge[] = [];
  const add = (node: Node, spec: unknown, typeOnly: boolean) => {
    const specifier = literal(spec);
    if (specifier !== undefined) {
      edges.push({ specifier, typeOnly, line: lineOf(node) });
    }
  };
  for (const node of nodesOf(file.program)) {
    switch (node.type) {
      case "ImportDeclaration":
        add(node, node.source, node.importKind === "type");
        break;
      case "ExportNamedDeclaration":
      case "ExportAllDeclaration":
        add(node, node.source, node.exportKind === "type");
        break;
      case "TSImportEqualsDeclaration": {
        const ref = node.moduleReference as Node;
        if (ref.type === "TSExternalModuleReference") {
          add(node, ref.expression, node.importKind === "type");
        }
        break;
      }
      case "ImportExpression":
        add(node, node.source, false);
        break;
      case "CallExpression":
        if ((node.callee as Node).type === "Import") {
          add(node, (node.arguments as unknown[])[0], false);
        }
        break;
      case "TSImportType":
        add(node, node.argument, true);
        break;
    }
  }
  return edges;
}

/**
 * The `lib/`-relative path a relative `specifier` written in `lib/<from>`
 * names, or `undefined` for a specifier outside `lib/` (`node:`, `npm:`,
 * `deno.json`, fixtures).
 */
export function resolveInLib(
  from: string,
  specifier: string,
): string | undefined {
  if (!specifier.startsWith("./") && !specifier.startsWith("../")) {
    return undefined;
  }
  const target = relative(
    join(ROOT, "lib"),
    join(ROOT, "lib", dirname(from), specifier),
  ).replaceAll("\\", "/");
  return target.startsWith("../") ? undefined : target;
}

/** The module graph of `lib/`: each file and the `lib/` files it imports, with the import. */
export function libGraph(): Map<string, { to: string; edge: ImportEdge }[]> {
  const graph = new Map<string, { to: string; edge: ImportEdge }[]>();
  for (const path of libFiles()) {
    const out: { to: string; edge: ImportEdge }[] = [];
    for (const edge of importsOf(parseLib(path))) {
      const to = resolveInLib(path, edge.specifier);
      if (to !== undefined) out.push({ to, edge });
    }
    graph.set(path, out);
  }
  return graph;
}

/**
 * The cycles of a graph, one per strongly connected component with more
 * than one file (or a file importing itself), each as a closed path.
 */
export function cyclesOf(
  graph: ReadonlyMap<string, readonly { to: string }[]>,
): string[][] {
  // Tarjan's algorithm: every cycle lies inside one strongly connected component.
  let next = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const components: string[][] = [];
  const connect = (v: string) => {
    index.set(v, next);
    low.set(v, next);
    next++;
    stack.push(v);
    onStack.add(v);
    for (const { to } of graph.get(v) ?? []) {
      if (!index.has(to)) {
        connect(to);
        low.set(v, Math.min(low.get(v)!, low.get(to)!));
      } else if (onStack.has(to)) {
        low.set(v, Math.min(low.get(v)!, index.get(to)!));
      }
    }
    if (low.get(v) === index.get(v)) {
      const component: string[] = [];
      let w: string;
      do {
        w = stack.pop()!;
        onStack.delete(w);
        component.push(w);
      } while (w !== v);
      const selfLoop = (graph.get(v) ?? []).some((e) => e.to === v);
      if (component.length > 1 || selfLoop) components.push(component);
    }
  };
  for (const v of graph.keys()) if (!index.has(v)) connect(v);
  return components.map((component) => closedPath(graph, component));
}

/** A closed path through `component`, from its first file back to it. */
function closedPath(
  graph: ReadonlyMap<string, readonly { to: string }[]>,
  component: string[],
): string[] {
  const inside = new Set(component);
  const start = [...component].sort()[0];
  // Breadth-first from start to any file that imports start, inside the component.
  const previous = new Map<string, string>();
  const queue = [start];
  while (queue.length > 0) {
    const v = queue.shift()!;
    for (const { to } of graph.get(v) ?? []) {
      if (to === start) {
        const path = [start];
        for (let w = v; w !== start; w = previous.get(w)!) path.splice(1, 0, w);
        return [...path, start];
      }
      if (inside.has(to) && !previous.has(to)) {
        previous.set(to, v);
        queue.push(to);
      }
    }
  }
  return [start, start];
}

/** A node with the chain of nodes above it (nearest last). */
export interface Located {
  /** The node. */
  node: Node;
  /** Its ancestors, the program first. */
  parents: readonly Node[];
  /** The field of its parent it sits in (`callee`, `test`, `key`, …). */
  field: string;
}

/** Every node under `root` with its ancestors and the field it sits in. */
export function* locatedNodesOf(
  root: Node,
  parents: Node[] = [],
  field = "",
): Generator<Located> {
  yield { node: root, parents, field };
  const below = [...parents, root];
  for (const [key, value] of Object.entries(root)) {
    if (key === "loc" || key.endsWith("Comments")) continue;
    if (Array.isArray(value)) {
      for (const item of value) {
        if (isNode(item)) yield* locatedNodesOf(item, below, key);
      }
    } else if (isNode(value)) {
      yield* locatedNodesOf(value, below, key);
    }
  }
}

/** Whether `node` is a string literal (or a template without holes) with the value `text`. */
export function isLiteral(node: unknown, text?: string): boolean {
  if (!isNode(node)) return false;
  const value = node.type === "StringLiteral"
    ? node.value
    : node.type === "TemplateLiteral" &&
        (node.expressions as unknown[]).length === 0
    ? ((node.quasis as Node[])[0].value as { cooked: string }).cooked
    : undefined;
  return typeof value === "string" && (text === undefined || value === text);
}

/** The name of an identifier or a string-literal key, else `undefined`. */
export function nameOf(node: unknown): string | undefined {
  if (!isNode(node)) return undefined;
  if (node.type === "Identifier") return node.name as string;
  if (node.type === "StringLiteral") return node.value as string;
  return undefined;
}

/** Whether a located node sits inside a type (a TS type annotation or declaration). */
export function inType(located: Located): boolean {
  return located.parents.some((p) =>
    p.type.startsWith("TS") && p.type !== "TSAsExpression" &&
    p.type !== "TSNonNullExpression" && p.type !== "TSSatisfiesExpression" &&
    p.type !== "TSEnumDeclaration"
  );
}

/**
 * Whether `node` reads bytes into a buffer: `readSync(fd, …)` (`node:fs`),
 * `x.read(buffer)` or `x.readSync(buffer)` on an open file, or `r.read()`
 * on a stream's reader (a name bound to `….getReader()` in the file).
 */
function readsBytes(node: Node, readers: ReadonlySet<string>): boolean {
  if (node.type !== "CallExpression") return false;
  const callee = node.callee as Node;
  const args = node.arguments as Node[];
  if (callee.type === "Identifier") {
    return callee.name === "readSync" && args.length > 0;
  }
  if (callee.type !== "MemberExpression") return false;
  const method = nameOf(callee.property);
  if (method === "readSync") return args.length > 0;
  if (method !== "read") return false;
  const object = nameOf(callee.object);
  return args.length > 0 || (object !== undefined && readers.has(object));
}

const LOOPS = [
  "WhileStatement",
  "DoWhileStatement",
  "ForStatement",
  "ForOfStatement",
  "ForInStatement",
];

/** Where `file` reads bytes in a loop: the read's line. */
export function readLoops(file: Parsed): number[] {
  const readers = new Set<string>();
  for (const { node } of locatedNodesOf(file.program)) {
    const init = node.init as Node | undefined;
    if (
      node.type === "VariableDeclarator" && init?.type === "CallExpression" &&
      nameOf((init.callee as Node).property) === "getReader"
    ) {
      const name = nameOf(node.id);
      if (name !== undefined) readers.add(name);
    }
  }
  const inLoop = (l: Located) => l.parents.some((p) => LOOPS.includes(p.type));
  const lines = new Set<number>();
  for (const located of locatedNodesOf(file.program)) {
    if (readsBytes(located.node, readers) && inLoop(located)) {
      lines.add(located.node.loc?.start.line ?? 0);
    }
  }
  return [...lines];
}
