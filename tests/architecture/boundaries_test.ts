/**
 * The boundaries inside `lib/`, beside the layers (`layers_test.ts`) and the
 * `_` rule (`internals_test.ts`): which files another area may import
 * (`PUBLIC_FILES` in `lib/_layers.ts`), which command may import what, the
 * accept wing's walls (it imports only the floor, the sandbox and the wire;
 * the lab reaches it through its door; the lab's views know nothing of
 * it), and which code lives in one place only (a byte-capped read loop,
 * JSON-RPC's parsing). Tests are no area: they may import
 * any file.
 *
 * Each rule is a {@linkcode Rule}: a name, what breaks it, and code planted
 * to break it (an import list or a source written for it), so every rule
 * proves it can fail before it passes on `lib/`. A new rule is one more
 * entry in {@linkcode RULES}.
 */
import assert from "node:assert/strict";
import { dirname } from "node:path";
import { LAYERS, PUBLIC_FILES } from "../../lib/_layers.ts";
import {
  isLiteral,
  libFiles,
  libGraph,
  lineOf,
  locatedNodesOf,
  nameOf,
  type Node,
  parse,
  type Parsed,
  parseLib,
  readLoops,
} from "../_helpers/source.ts";

/** One import between two `lib/` files, as `lib/`-relative paths. */
interface Import {
  /** The file that imports. */
  readonly from: string;
  /** The file it names. */
  readonly to: string;
  /** The line it is written on. */
  readonly line: number;
}

/** The code a rule reads: its imports, and its files parsed. */
interface Code {
  /** Every import between two `lib/` files (dynamic and type imports too). */
  readonly imports: readonly Import[];
  /** Every file, `lib/`-relative. */
  readonly files: readonly string[];
  /** A file, parsed. */
  parsed(path: string): Parsed;
}

/** A boundary: where code breaks it, and code planted to break it. */
interface Rule {
  /** What holds, in a sentence. */
  readonly name: string;
  /** Each place `code` breaks the rule, one line each (`[]`: it holds). */
  broken(code: Code): string[];
  /** Code that breaks the rule, with the places the rule must name (and nothing else). */
  readonly planted: { readonly code: Code; readonly places: readonly string[] };
}

/** The area of a `lib/` path: its top-level folder, or the top-level file itself. */
function areaOf(path: string): string {
  return path.split("/")[0];
}

/** Whether `path` is a file other areas may import: its area's door or one it lists. */
function isPublic(path: string): boolean {
  const [area, ...rest] = path.split("/");
  const inside = rest.join("/");
  return inside === "mod.ts" ||
    (PUBLIC_FILES[area]?.includes(inside) ?? false);
}

/** The command whose folder holds `path` (`cli/commands/NAME/…`), or undefined. */
function commandOf(path: string): string | undefined {
  return /^cli\/commands\/([^/]+)\//.exec(path)?.[1];
}

const REGISTRY = "cli/_command_registry.ts";

/** Code made of `imports` alone (for a rule on imports). */
function importsOnly(
  ...imports: [from: string, to: string][]
): Code {
  return {
    imports: imports.map(([from, to], i) => ({ from, to, line: i + 1 })),
    files: [],
    parsed: () => {
      throw new Error("an import rule reads no source");
    },
  };
}

/** Code made of `sources` alone, each a file's text (for a rule on source). */
function sourcesOnly(sources: Record<string, string>): Code {
  return {
    imports: [],
    files: Object.keys(sources),
    parsed: (path) => parse(path, sources[path]),
  };
}

const at = (i: Import) => `lib/${i.from}:${i.line} imports lib/${i.to}`;

/** The one bounded reader: the only home of a byte-capped read loop. */
const BOUNDED_READER = "sandbox/read_bounded.ts";

/** The accept wing's areas: the acceptance test and proxy, and the wire under them. */
const WING: Readonly<Record<string, readonly string[]>> = {
  // What each may import beside itself: otlp/ (traces), like wire/, stands
  // on the ground floor alone.
  accept: ["base", "otlp", "sandbox", "wire"],
  wire: ["base"],
};

/** The areas that are neither the accept wing, the floor under it, nor the command line: the lab. */
function isLab(area: string): boolean {
  return !["accept", "wire", "base", "otlp", "sandbox", "cli"].includes(area);
}

/** Functions that tell JSON-RPC messages apart or key their ids: written once, in the wire's message module. */
const MESSAGE_FUNCTIONS = [
  "isRequest",
  "isResponse",
  "isNotification",
  "idKey",
];

/** The one home of JSON-RPC's parsing. */
const MESSAGE_MODULE = "wire/message.ts";

/**
 * Whether `file` speaks JSON-RPC (it names `jsonrpc`, as a key, a member or
 * a string), and the lines where it calls `JSON.parse`.
 */
function jsonRpcParses(file: Parsed): { speaks: boolean; parses: number[] } {
  let speaks = false;
  const parses: number[] = [];
  for (const { node } of locatedNodesOf(file.program)) {
    if (
      (node.type === "ObjectProperty" && nameOf(node.key) === "jsonrpc") ||
      (node.type === "MemberExpression" &&
        nameOf(node.property) === "jsonrpc") ||
      isLiteral(node, "jsonrpc")
    ) speaks = true;
    const callee = node.callee as Node | undefined;
    if (
      node.type === "CallExpression" && callee?.type === "MemberExpression" &&
      nameOf(callee.object) === "JSON" && nameOf(callee.property) === "parse"
    ) parses.push(lineOf(node));
  }
  return { speaks, parses };
}

/** The lines where `file` declares one of {@linkcode MESSAGE_FUNCTIONS}, with its name. */
function messageFunctions(file: Parsed): { name: string; line: number }[] {
  const found: { name: string; line: number }[] = [];
  for (const { node } of locatedNodesOf(file.program)) {
    const name = node.type === "FunctionDeclaration"
      ? nameOf(node.id)
      : node.type === "VariableDeclarator"
      ? nameOf(node.id)
      : undefined;
    if (name !== undefined && MESSAGE_FUNCTIONS.includes(name)) {
      found.push({ name, line: lineOf(node) });
    }
  }
  return found;
}

/** The boundaries, each with the code planted to break it. */
const RULES: readonly Rule[] = [
  {
    name:
      "(1) an import into another area names its door or one of the public files it lists",
    broken: (code) =>
      code.imports
        .filter((i) => areaOf(i.from) !== areaOf(i.to) && !isPublic(i.to))
        .map((i) => `${at(i)}, not one of ${areaOf(i.to)}'s public files`),
    planted: {
      code: importsOnly(
        ["cli/commands/run/mod.ts", "timing/lab.ts"],
        ["views/timeline.ts", "timing/mod.ts"],
        ["cli/commands/run/mod.ts", "timing/_ledger_reads.ts"],
        ["exercises/_judge.ts", "accept/_verdicts.ts"],
        ["mod.ts", "store/_connection.ts"],
        ["timing/ledger.ts", "timing/_ledger_reads.ts"],
        ["cli/commands/run/mod.ts", "cli/places.ts"],
      ),
      places: [
        "lib/cli/commands/run/mod.ts:3 imports lib/timing/_ledger_reads.ts, not one of timing's public files",
        "lib/exercises/_judge.ts:4 imports lib/accept/_verdicts.ts, not one of accept's public files",
        "lib/mod.ts:5 imports lib/store/_connection.ts, not one of store's public files",
      ],
    },
  },
  {
    name:
      "(2) the accept wing imports only the ground floor, the traces, the sandbox and the wire: accept and wire never import the lab",
    broken: (code) =>
      code.imports.filter((i) => {
        const from = areaOf(i.from);
        const may = WING[from];
        return may !== undefined && areaOf(i.to) !== from &&
          !may.includes(areaOf(i.to));
      }).map((i) =>
        `${at(i)}: lib/${areaOf(i.from)}/ imports only ${
          WING[areaOf(i.from)].join(", ")
        }`
      ),
    planted: {
      code: importsOnly(
        ["accept/run.ts", "timing/lab.ts"],
        ["wire/channel.ts", "accept/cases.ts"],
        ["accept/views/accept_view.ts", "views/svg.ts"],
        ["accept/session.ts", "wire/message.ts"],
        ["wire/http.ts", "base/json.ts"],
        ["accept/files.ts", "sandbox/safe_fs.ts"],
        ["wire/server_process.ts", "sandbox/grant.ts"],
      ),
      places: [
        "lib/accept/run.ts:1 imports lib/timing/lab.ts: lib/accept/ imports only base, otlp, sandbox, wire",
        "lib/wire/channel.ts:2 imports lib/accept/cases.ts: lib/wire/ imports only base",
        "lib/accept/views/accept_view.ts:3 imports lib/views/svg.ts: lib/accept/ imports only base, otlp, sandbox, wire",
        "lib/wire/server_process.ts:7 imports lib/sandbox/grant.ts: lib/wire/ imports only base",
      ],
    },
  },
  {
    name: "(3) the lab reaches accept only through its door, accept/mod.ts",
    broken: (code) =>
      code.imports.filter((i) =>
        isLab(areaOf(i.from)) && areaOf(i.to) === "accept" &&
        i.to !== "accept/mod.ts"
      ).map((i) =>
        `${at(i)}: the lab reaches accept through lib/accept/mod.ts`
      ),
    planted: {
      code: importsOnly(
        ["exercises/_form.ts", "accept/cases.ts"],
        ["exercises/_accept_evidence.ts", "accept/mod.ts"],
        ["cli/commands/accept/_run.ts", "accept/run.ts"],
        ["mod.ts", "accept/_matrix.ts"],
        ["accept/run.ts", "accept/_checker.ts"],
      ),
      places: [
        "lib/exercises/_form.ts:1 imports lib/accept/cases.ts: the lab reaches accept through lib/accept/mod.ts",
        "lib/mod.ts:4 imports lib/accept/_matrix.ts: the lab reaches accept through lib/accept/mod.ts",
      ],
    },
  },
  {
    name: "(4) the lab's views import nothing of accept",
    broken: (code) =>
      code.imports.filter((i) =>
        areaOf(i.from) === "views" && areaOf(i.to) === "accept"
      ).map((i) => `${at(i)}: the lab's views know nothing of accept`),
    planted: {
      code: importsOnly(
        ["views/timeline.ts", "accept/mod.ts"],
        ["views/svg.ts", "base/markup.ts"],
        ["accept/views/accept_view.ts", "accept/cases.ts"],
      ),
      places: [
        "lib/views/timeline.ts:1 imports lib/accept/mod.ts: the lab's views know nothing of accept",
      ],
    },
  },
  {
    name:
      "(5) a command's folder is its own: only the registry loads its mod.ts, and nothing outside it imports any other of its files",
    broken: (code) =>
      code.imports.flatMap((i) => {
        const target = commandOf(i.to);
        if (target === undefined || commandOf(i.from) === target) return [];
        const door = i.to === `cli/commands/${target}/mod.ts`;
        if (door && i.from === REGISTRY) return [];
        return [`${at(i)}: command ${target}'s own`];
      }),
    planted: {
      code: importsOnly(
        [REGISTRY, "cli/commands/run/mod.ts"],
        ["cli/commands/demo/mod.ts", "cli/commands/verify/mod.ts"],
        ["cli/commands/run/mod.ts", "cli/commands/run/_messages.ts"],
        ["cli/commands/ledger/mod.ts", "cli/commands/run/_messages.ts"],
        ["cli/_help.ts", "cli/commands/exercise/_messages.ts"],
        [
          "cli/commands/exercise/_check.ts",
          "cli/commands/exercise/_context.ts",
        ],
        ["cli/commands/run/mod.ts", "cli/places.ts"],
      ),
      places: [
        "lib/cli/commands/demo/mod.ts:2 imports lib/cli/commands/verify/mod.ts: command verify's own",
        "lib/cli/commands/ledger/mod.ts:4 imports lib/cli/commands/run/_messages.ts: command run's own",
        "lib/cli/_help.ts:5 imports lib/cli/commands/exercise/_messages.ts: command exercise's own",
      ],
    },
  },
  {
    name:
      "(6) a byte-capped read loop lives only in the sandbox's bounded reader",
    broken: (code) =>
      code.files.filter((f) => f !== BOUNDED_READER).flatMap((f) =>
        readLoops(code.parsed(f)).map((line) =>
          `lib/${f}:${line} reads bytes in a loop: read through lib/${BOUNDED_READER}`
        )
      ),
    planted: {
      code: sourcesOnly({
        "store/_probe.ts": `
          const buffer = new Uint8Array(max + 1);
          let filled = 0;
          while (filled < buffer.length) {
            const n = file.readSync(buffer.subarray(filled));
            if (n === null) break;
            filled += n;
          }`,
        "exercises/_probe.ts": `
          for (;;) {
            const n = readSync(fd, part, 0, part.length, null);
            if (n === 0) break;
          }`,
        "accept/_probe.ts": `
          const reader = stream.getReader();
          do {
            const { done } = await reader.read();
            if (done) break;
          } while (true);
          const once = await reader.read();
          const progress = call.progress.read();
          for (const x of xs) call.progress.read();
          for await (const chunk of stream) size += chunk.length;`,
        [BOUNDED_READER]: `
          while (true) { const n = read(buffer.subarray(filled)); }`,
      }),
      places: [
        "lib/store/_probe.ts:5 reads bytes in a loop: read through lib/sandbox/read_bounded.ts",
        "lib/exercises/_probe.ts:3 reads bytes in a loop: read through lib/sandbox/read_bounded.ts",
        "lib/accept/_probe.ts:4 reads bytes in a loop: read through lib/sandbox/read_bounded.ts",
      ],
    },
  },
  {
    name:
      "(7) JSON-RPC is parsed only in wire/message.ts: no other file that speaks it calls JSON.parse, or tells its messages apart",
    broken: (code) =>
      code.files.filter((f) => f !== MESSAGE_MODULE).flatMap((f) => {
        const file = code.parsed(f);
        const { speaks, parses } = jsonRpcParses(file);
        return [
          ...(speaks ? parses : []).map((line) =>
            `lib/${f}:${line} parses JSON-RPC: parse it through lib/${MESSAGE_MODULE}`
          ),
          ...messageFunctions(file).map(({ name, line }) =>
            `lib/${f}:${line} declares ${name}: it is lib/${MESSAGE_MODULE}'s`
          ),
        ];
      }),
    planted: {
      code: sourcesOnly({
        "accept/_probe.ts": `
          const m = JSON.parse(line);
          if (m.jsonrpc !== "2.0") throw m;`,
        "mcp/_probe.ts": `
          function isRequest(m) { return "method" in m; }
          const idKey = (id) => String(id);`,
        "accept/record_probe.ts": `
          const line = JSON.parse(text);`,
        "views/_probe.ts": `
          const reply = { jsonrpc: "2.0", id: 1, result: {} };`,
        [MESSAGE_MODULE]: `
          const v = JSON.parse(text);
          if (v.jsonrpc === "2.0") isRequest(v);
          export function isRequest(m) { return true; }`,
      }),
      places: [
        "lib/accept/_probe.ts:2 parses JSON-RPC: parse it through lib/wire/message.ts",
        "lib/mcp/_probe.ts:2 declares isRequest: it is lib/wire/message.ts's",
        "lib/mcp/_probe.ts:3 declares idKey: it is lib/wire/message.ts's",
      ],
    },
  },
];
/** `lib/` as the rules read it. */
function libCode(): Code {
  const imports: Import[] = [];
  for (const [from, edges] of libGraph()) {
    for (const { to, edge } of edges) {
      imports.push({ from, to, line: edge.line });
    }
  }
  return { imports, files: libFiles(), parsed: parseLib };
}

Deno.test("boundaries: each rule names the planted breaks, and only those", async (t) => {
  for (const rule of RULES) {
    await t.step(rule.name, () => {
      assert.deepEqual(rule.broken(rule.planted.code), rule.planted.places);
    });
  }
});

Deno.test("boundaries: lib/ keeps every rule", async (t) => {
  const code = libCode();
  for (const rule of RULES) {
    await t.step(rule.name, () => {
      assert.deepEqual(rule.broken(code), []);
    });
  }
});

Deno.test("boundaries: every area lists its public files, each one that exists, has no _, and another area imports", () => {
  const areas = LAYERS.flatMap((l) => l.members).filter((m) =>
    !m.endsWith(".ts")
  );
  assert.deepEqual(Object.keys(PUBLIC_FILES).sort(), [...areas].sort());
  const files = new Set(libFiles());
  const imported = new Set(
    libCode().imports.filter((i) => areaOf(i.from) !== areaOf(i.to))
      .map((i) => i.to),
  );
  const wrong: string[] = [];
  for (const [area, listed] of Object.entries(PUBLIC_FILES)) {
    for (const name of listed) {
      const path = `${area}/${name}`;
      if (!files.has(path)) wrong.push(`lib/${path} does not exist`);
      if (name.split("/").at(-1)!.startsWith("_")) {
        wrong.push(`lib/${path} is internal (_), so it cannot be public`);
      }
      if (name === "mod.ts") wrong.push(`lib/${path} is public unlisted`);
      if (!imported.has(path)) {
        wrong.push(`lib/${path} is listed, but no other area imports it`);
      }
    }
    assert.equal(new Set(listed).size, listed.length, `${area} lists a twice`);
  }
  assert.deepEqual(wrong, []);
  assert.ok(imported.size > 50, `${imported.size} files imported across areas`);
  // A command folder's texts stay beside it: every command's folder has them.
  for (const path of files) {
    const name = commandOf(path);
    if (name === undefined || path !== `cli/commands/${name}/mod.ts`) continue;
    assert.ok(
      files.has(`cli/commands/${name}/_messages.ts`),
      `lib/cli/commands/${name}/ keeps its texts in _messages.ts`,
    );
    assert.equal(dirname(path), `cli/commands/${name}`);
  }
});
