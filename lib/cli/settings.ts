/**
 * The student's stored choices, kept in their private guardlab folder as
 * `settings.json` (the binary cannot read `LANG`: it has no environment
 * access): the language, the student's name and the course code. Read with
 * the same checks as every other file; a damaged file or a value that fails
 * its check is ignored, never trusted. (The file and its language alone are
 * `_settings_file.ts`.)
 *
 * @module
 */
import { checkCourseCode, checkName } from "../exercises/student.ts";
import { readOrFallback, writePrivateJson } from "../sandbox/private_file.ts";
import type { Place } from "../sandbox/sandbox.ts";
import type { Lang, Text } from "../base/i18n.ts";
import { langIn, readSettingsFile, SETTINGS_FILE } from "./_settings_file.ts";

/** What can be stored. */
export interface Settings {
  /** The language of every screen, unless `--lang` says otherwise. */
  lang?: Lang;
  /** The student's name, carried by every hand-in. */
  name?: string;
  /** The course code the teacher gave the class: it picks each student's variant. */
  course?: string;
}

/** The stored settings in the private folder of `place`; `{}` when there are none. */
export function readSettings(place: string | Place): Settings {
  const data = readSettingsFile(place) as
    | { lang?: unknown; name?: unknown; course?: unknown }
    | undefined;
  const settings: Settings = {};
  const lang = langIn(data);
  if (lang !== undefined) settings.lang = lang;
  if (typeof data?.name === "string") {
    const checked = checkName(data.name);
    if ("name" in checked) settings.name = checked.name;
  }
  if (typeof data?.course === "string") {
    const checked = checkCourseCode(data.course);
    if ("code" in checked) settings.course = checked.code;
  }
  return settings;
}

/**
 * The stored settings, or none with the reason when the private folder is
 * unsafe: a command that only reads its settings works anyway, in the
 * default language, and says so in one line.
 */
export function storedSettings(
  place: string | Place,
): { value: Settings; problem?: Text } {
  return readOrFallback(() => readSettings(place), {});
}

/** Store `settings` in the private folder of `place` (made if needed), replacing the file whole. */
export function writeSettings(
  place: string | Place,
  settings: Settings,
): string {
  return writePrivateJson(place, SETTINGS_FILE, settings);
}
