/**
 * The student's stored choices, kept in their private guardlab folder as
 * `settings.json` (the binary cannot read `LANG`: it has no environment
 * access). Read with the same checks as every other file; a damaged file is
 * ignored, never trusted.
 *
 * @module
 */
import { join } from "node:path";
import { type Lang, LANGS } from "../views/i18n.ts";
import { assertPlainFile, currentUid } from "../sandbox/safe_fs.ts";
import { privateRoot } from "../sandbox/sandbox.ts";

/** What can be stored. */
export interface Settings {
  /** The language of every screen, unless `--lang` says otherwise. */
  lang?: Lang;
}

const FILE = "settings.json";
const MAX_BYTES = 4096;

/** The stored settings in `base`'s private folder; `{}` when there are none. */
export function readSettings(base: string): Settings {
  const root = privateRoot(base, false);
  if (root === null) return {};
  const path = join(root, FILE);
  if (assertPlainFile(path, currentUid(base), true) === null) return {};
  const bytes = Deno.readFileSync(path);
  if (bytes.length > MAX_BYTES) return {};
  try {
    const data = JSON.parse(new TextDecoder().decode(bytes));
    return LANGS.includes(data?.lang) ? { lang: data.lang } : {};
  } catch {
    return {};
  }
}

/** Store `settings` in `base`'s private folder (made if needed), replacing the file whole. */
export function writeSettings(base: string, settings: Settings): string {
  const root = privateRoot(base, true)!;
  const path = join(root, FILE);
  assertPlainFile(path, currentUid(base), true);
  // Written beside and renamed: a reader never sees half a file.
  const next = join(root, `.${FILE}.${crypto.randomUUID()}`);
  Deno.writeTextFileSync(next, JSON.stringify(settings) + "\n", {
    createNew: true,
    mode: 0o600,
  });
  Deno.renameSync(next, path);
  return path;
}
