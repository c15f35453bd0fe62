/**
 * The student's stored choices, kept in their private guardlab folder as
 * `settings.json` (the binary cannot read `LANG`: it has no environment
 * access). Read with the same checks as every other file; a damaged file is
 * ignored, never trusted.
 *
 * @module
 */
import { readPrivateJson, writePrivateJson } from "../sandbox/private_file.ts";
import { type Lang, LANGS } from "../i18n.ts";

/** What can be stored. */
export interface Settings {
  /** The language of every screen, unless `--lang` says otherwise. */
  lang?: Lang;
}

const FILE = "settings.json";
const MAX_BYTES = 4096;

/** The stored settings in `base`'s private folder; `{}` when there are none. */
export function readSettings(base: string): Settings {
  const data = readPrivateJson(base, FILE, MAX_BYTES) as
    | { lang?: unknown }
    | undefined;
  return LANGS.includes(data?.lang as Lang) ? { lang: data!.lang as Lang } : {};
}

/** Store `settings` in `base`'s private folder (made if needed), replacing the file whole. */
export function writeSettings(base: string, settings: Settings): string {
  return writePrivateJson(base, FILE, settings);
}
