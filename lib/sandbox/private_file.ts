/**
 * Small JSON files in the user's private guardlab folder (settings,
 * exercise progress): read with the same checks as any file (a plain file of
 * this user, no link, a size cap), and written whole, beside and then
 * renamed, so a reader never sees half a file. A damaged file reads as
 * absent, never as trusted input.
 *
 * @module
 */
import { join } from "node:path";
import { assertPlainFile, currentUid } from "./safe_fs.ts";
import { privateRoot } from "./sandbox.ts";

/** The parsed JSON of `name` in `base`'s private folder, or `undefined`. */
export function readPrivateJson(
  base: string,
  name: string,
  maxBytes: number,
): unknown {
  const root = privateRoot(base, false);
  if (root === null) return undefined;
  const path = join(root, name);
  if (assertPlainFile(path, currentUid(base), true) === null) return undefined;
  const bytes = Deno.readFileSync(path);
  if (bytes.length > maxBytes) return undefined;
  try {
    return JSON.parse(new TextDecoder().decode(bytes));
  } catch {
    return undefined;
  }
}

/** Write `data` as `name` in `base`'s private folder (made if needed), whole. */
export function writePrivateJson(
  base: string,
  name: string,
  data: unknown,
): string {
  const root = privateRoot(base, true)!;
  const path = join(root, name);
  assertPlainFile(path, currentUid(base), true);
  const next = join(root, `.${name}.${crypto.randomUUID()}`);
  Deno.writeTextFileSync(next, JSON.stringify(data) + "\n", {
    createNew: true,
    mode: 0o600,
  });
  Deno.renameSync(next, path);
  return path;
}
