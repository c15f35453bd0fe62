/**
 * The settings file itself, `settings.json` in the private folder: its
 * name, its bound, and the one setting every call needs before a command
 * runs, the language. Kept apart from `settings.ts`, which checks the name
 * and the course code with the exercises' rules: the language is read on
 * every call, and those rules need not load for it.
 *
 * @module
 */
import { type Lang, LANGS, type Text } from "../base/i18n.ts";
import { readOrFallback, readPrivateJson } from "../sandbox/private_file.ts";
import type { Place } from "../sandbox/sandbox.ts";

/** The file's name in the private folder. */
export const SETTINGS_FILE = "settings.json";

/** The most of it that is read. */
export const SETTINGS_MAX_BYTES = 4096;

/** The file as stored, unchecked (`undefined` when there is none). */
export function readSettingsFile(place: string | Place): unknown {
  return readPrivateJson(place, SETTINGS_FILE, SETTINGS_MAX_BYTES);
}

/** The stored language, if it is one guardlab speaks. */
export function langIn(data: unknown): Lang | undefined {
  const lang = (data as { lang?: unknown } | undefined)?.lang;
  return LANGS.includes(lang as Lang) ? lang as Lang : undefined;
}

/**
 * The stored language, or none with the reason when the private folder is
 * unsafe (the call then runs in the default language and says so).
 */
export function storedLang(
  place: string | Place,
): { value: Lang | undefined; problem?: Text } {
  return readOrFallback(() => langIn(readSettingsFile(place)), undefined);
}
