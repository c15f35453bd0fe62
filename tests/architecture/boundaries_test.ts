/**
 * The boundaries inside `lib/`, beside the layers (`layers_test.ts`) and the
 * `_` rule (`internals_test.ts`): which files another area may import
 * (`PUBLIC_FILES` in `lib/_layers.ts`), which command may import what, and
 * which code lives in one place only. Tests are no area: they may import
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
  libFiles,
  libGraph,
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
    if (name === "accept" || name === "proxy") continue; // issue 44, their own move
    assert.ok(
      files.has(`cli/commands/${name}/_messages.ts`),
      `lib/cli/commands/${name}/ keeps its texts in _messages.ts`,
    );
    assert.equal(dirname(path), `cli/commands/${name}`);
  }
});
