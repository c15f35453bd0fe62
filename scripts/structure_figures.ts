/**
 * The structure figures issue 44 asks for, of this checkout or of another
 * one named on the command line (an older commit, unpacked with `git
 * archive`), so a before and an after are measured by the same code:
 *
 * - the modules each command loads: the `lib/` modules its own module
 *   loads statically (the issue's 823), and all a process loads for it
 *   (main.ts, the command line, the command; `deno info --json`'s graph);
 * - the imports between areas of `lib/` (`base/` and `lib/mod.ts` aside, as
 *   the issue counts), those that name a file other than the area's
 *   `mod.ts`, and those that name a file the area does not declare public
 *   (`PUBLIC_FILES` in `lib/_layers.ts`, where the checkout has one);
 * - the byte-capped read loops outside `lib/sandbox/read_bounded.ts`, found
 *   as `tests/architecture/boundaries_test.ts` finds them.
 *
 *     deno run -q --lock=deno.lock --frozen --allow-read --allow-run \
 *       scripts/structure_figures.ts [ROOT]
 *
 * @module
 */
import { dirname, join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import {
  importsOf,
  parse,
  type Parsed,
  readLoops,
} from "../tests/_helpers/source.ts";

const HERE = fileURLToPath(new URL("..", import.meta.url));
const root = Deno.args[0] ?? HERE;

/** Every `.ts` file under `lib/` of `root`, `lib/`-relative. */
function libFiles(): string[] {
  const found: string[] = [];
  const walk = (dir: string) => {
    for (const entry of Deno.readDirSync(join(root, "lib", dir))) {
      const path = dir === "" ? entry.name : `${dir}/${entry.name}`;
      if (entry.isDirectory) walk(path);
      else if (entry.name.endsWith(".ts")) found.push(path);
    }
  };
  walk("");
  return found.sort();
}

function parsed(path: string): Parsed {
  return parse(path, Deno.readTextFileSync(join(root, "lib", path)));
}

/** Every import between two `lib/` files, type and dynamic ones too. */
function libImports(files: string[]): { from: string; to: string }[] {
  const out: { from: string; to: string }[] = [];
  for (const from of files) {
    for (const { specifier } of importsOf(parsed(from))) {
      if (!specifier.startsWith(".")) continue;
      const to = relative(
        join(root, "lib"),
        join(root, "lib", dirname(from), specifier),
      ).replaceAll("\\", "/");
      if (!to.startsWith("..")) out.push({ from, to });
    }
  }
  return out;
}

interface InfoModule {
  specifier: string;
  dependencies?: { isDynamic?: boolean; code?: { specifier: string } }[];
}

/** What loading each of `starts` evaluates: it and its static imports. */
async function loader(): Promise<(starts: string[]) => Set<string>> {
  const r = await new Deno.Command(Deno.execPath(), {
    args: ["info", "--json", "--lock=deno.lock", "--frozen", "main.ts"],
    cwd: root,
    env: { NO_COLOR: "1" },
    stdout: "piped",
  }).output();
  const info = JSON.parse(new TextDecoder().decode(r.stdout)) as {
    modules: InfoModule[];
  };
  const modules = new Map(info.modules.map((m) => [m.specifier, m]));
  const base = new URL(`file://${root.replace(/\/?$/, "/")}`).href;
  return (starts) => {
    const seen = new Set<string>();
    const stack = starts.map((s) => new URL(s, base).href);
    while (stack.length > 0) {
      const id = stack.pop()!;
      if (seen.has(id)) continue;
      seen.add(id);
      for (const d of modules.get(id)?.dependencies ?? []) {
        if (!d.isDynamic && d.code) stack.push(d.code.specifier);
      }
    }
    return new Set([...seen].map((id) => id.replace(base, "")));
  };
}

/** The declared public files of `root`, or null before there were any. */
async function publicFiles(): Promise<Record<string, string[]> | null> {
  const layers = await import(join(root, "lib", "_layers.ts"));
  return layers.PUBLIC_FILES ?? null;
}

const files = libFiles();
const area = (path: string) => path.split("/")[0];

const registry = Deno.readTextFileSync(
  join(root, "lib/cli/_command_registry.ts"),
);
const commands = [
  ...registry.matchAll(/entry\("([a-z]+)", \(\) => import\("\.\/([^"]+)"\)\)/g),
].map(([, name, file]) => ({ name, file: `lib/cli/${file}` }));
const loads = await loader();
let own = 0;
let whole = 0;
console.log(`structure figures of ${root}`);
console.log(
  "\nmodules a command loads (lib/ modules of its own module; all, in a process):",
);
for (const { name, file } of commands) {
  const mine = [...loads([file])].filter((m) => m.startsWith("lib/")).length;
  const all = loads(["main.ts", "lib/cli/mod.ts", file]).size;
  own += mine;
  whole += all;
  console.log(
    `  ${name.padEnd(11)} ${String(mine).padStart(4)} ${
      String(all).padStart(5)
    }`,
  );
}
console.log(
  `  ${"sum".padEnd(11)} ${String(own).padStart(4)} ${
    String(whole).padStart(5)
  }`,
);

const declared = await publicFiles();
const across = libImports(files).filter((i) =>
  area(i.from) !== area(i.to) && i.from !== "mod.ts" && area(i.to) !== "base"
);
const inner = across.filter((i) => !i.to.endsWith("/mod.ts"));
const undeclared = (listed: Record<string, string[]>) =>
  across.filter((i) => {
    const inside = i.to.slice(area(i.to).length + 1);
    return inside !== "mod.ts" && !(listed[area(i.to)] ?? []).includes(inside);
  });
console.log("\nimports between areas of lib/ (base/ and lib/mod.ts aside):");
console.log(`  ${across.length} imports`);
console.log(`  ${inner.length} name a file other than the area's mod.ts`);
const names = new Set(across.map((i) => i.to));
console.log(`  ${names.size} files named across areas`);
console.log(
  declared === null
    ? "  no declared public files (lib/_layers.ts has no PUBLIC_FILES)"
    : `  ${
      undeclared(declared).length
    } name a file the area does not declare public`,
);

const loops = files.filter((f) => f !== "sandbox/read_bounded.ts")
  .flatMap((f) => readLoops(parsed(f)).map((line) => `lib/${f}:${line}`));
console.log(
  `\nbyte-capped read loops outside lib/sandbox/read_bounded.ts: ${loops.length}`,
);
for (const loop of loops) console.log(`  ${loop}`);
