/**
 * Which files are a folder's own: a `lib/` file whose name starts with `_`
 * is imported only by files in its own folder (its `mod.ts` among them),
 * and every file imported only there carries the `_` (denoland/std's rule).
 * A folder's `mod.ts`, its public files and the files of `lib/` itself have
 * no `_`. Tests may import any file: they are not the code's users.
 */
import assert from "node:assert/strict";
import { dirname, join, relative } from "node:path";
import { importsOf, libFiles, libGraph, parse } from "../_helpers/source.ts";
import { ROOT } from "../_helpers/root.ts";

/** The files outside `lib/` that use it as a program would: the entry, scripts, examples. */
function outsideUsers(): string[] {
  const files = ["main.ts"];
  for (const folder of ["scripts", "examples"]) {
    const walk = (dir: string) => {
      for (const entry of Deno.readDirSync(join(ROOT, dir))) {
        const path = `${dir}/${entry.name}`;
        if (entry.isDirectory) walk(path);
        else if (entry.name.endsWith(".ts")) files.push(path);
      }
    };
    walk(folder);
  }
  return files;
}

/** Each `lib/` file with the folders (`lib/`-relative) of the files that import it. */
function importerFolders(): Map<string, Set<string>> {
  const users = new Map<string, Set<string>>(
    libFiles().map((f) => [f, new Set<string>()]),
  );
  for (const [from, edges] of libGraph()) {
    for (const { to } of edges) users.get(to)?.add(dirname(from));
  }
  for (const file of outsideUsers()) {
    const parsed = parse(file, Deno.readTextFileSync(join(ROOT, file)));
    for (const { specifier } of importsOf(parsed)) {
      if (!specifier.startsWith(".")) continue;
      const target = relative(
        join(ROOT, "lib"),
        join(ROOT, dirname(file), specifier),
      ).replaceAll("\\", "/");
      users.get(target)?.add(`(${file})`);
    }
  }
  return users;
}

Deno.test("internals: a _ file is its folder's own, and a file only its folder uses has the _", () => {
  const wrong: string[] = [];
  for (const [file, folders] of importerFolders()) {
    const folder = dirname(file);
    const name = file.split("/").at(-1)!;
    if (folder === "." || name === "mod.ts") {
      if (name.startsWith("_") && name !== "_layers.ts") {
        wrong.push(`${file}: a _ name outside a folder`);
      }
      continue;
    }
    const outside = [...folders].filter((f) => f !== folder);
    if (name.startsWith("_") && outside.length > 0) {
      wrong.push(`${file}: internal, but used from ${outside.join(", ")}`);
    }
    if (!name.startsWith("_") && outside.length === 0) {
      wrong.push(`${file}: used only in ${folder}/, so it wants a _ name`);
    }
  }
  assert.deepEqual(wrong, []);
});
