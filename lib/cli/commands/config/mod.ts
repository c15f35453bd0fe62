/**
 * `guardlab config [lang|name|course [VALUE]]`: the stored language, the
 * student's name (carried by every hand-in) and the course code (which picks
 * each student's variant of the exercises).
 *
 * @module
 */
import { checkCourseCode, checkName } from "../../../exercises/student.ts";
import {
  fill,
  joinTexts,
  LANGS,
  same,
  say,
  type Text,
} from "../../../base/i18n.ts";
import { command } from "../../command.ts";
import { EXIT } from "../../exit.ts";
import { CONFIG_HELP as H, CONFIG_MESSAGES as M } from "./_messages.ts";
import { writerFor } from "../../output.ts";
import { choice, printable, printableText, UsageError } from "../../parser.ts";
import {
  readSettings,
  type Settings,
  storedSettings,
  writeSettings,
} from "../../settings.ts";

const KEYS = ["lang", "name", "course"] as const;
type Key = typeof KEYS[number];

const SHOWN: Readonly<Record<Key, (s: Settings) => Text | string>> = {
  lang: (s) => s.lang ?? M.langNotSet,
  name: (s) => s.name ?? M.notSet,
  course: (s) => s.course ?? M.courseNotSet,
};

/** The `config` command. */
export const config = command({
  name: "config",
  usage: "config [lang [en|zh] | name [NAME] | course [CODE]]",
  about: H.about,
  options: {},
  maxPositionals: 2,
  exits: { 0: null, 2: null, 4: null },
  run({ positionals, io, lang }) {
    const [key, value] = positionals;
    const out = writerFor(io, lang);
    // Showing works even in a private folder that cannot be read (main
    // says why in one line); changing a setting needs the folder.
    const shown = () => storedSettings(io).value;
    const stored = () => readSettings(io);
    const show = (k: Key, s: Settings) => {
      const shown = SHOWN[k](s);
      io.out(`${k} ${typeof shown === "string" ? shown : out.text(shown)}`);
    };
    if (key === undefined) {
      const s = shown();
      for (const k of KEYS) show(k, s);
      return EXIT.ok;
    }
    if (!(KEYS as readonly string[]).includes(key)) {
      throw new UsageError(
        fill(M.unknownSetting, {
          key: printable(key),
          keys: joinTexts(KEYS.map(same), M.keySeparator),
        }),
        "config",
      );
    }
    if (value === undefined) {
      show(key as Key, shown());
      return EXIT.ok;
    }
    const settings = stored();
    let done: Text;
    if (key === "lang") {
      settings.lang = choice("config", "lang", value, LANGS)!;
      // Said in the language just chosen, whatever this call's --lang.
      done = same(say(M.langSet, settings.lang));
    } else if (key === "name") {
      const { name } = accepted(value, checkName(value), M.notAName);
      settings.name = name;
      done = fill(M.nameSet, { name: printableText(name) });
    } else {
      const { code } = accepted(
        value,
        checkCourseCode(value),
        M.notACourseCode,
      );
      settings.course = code;
      done = fill(M.courseSet, { code });
    }
    writeSettings(io, settings);
    out.say(done);
    return EXIT.ok;
  },
});

/** What a check made of `value`, or a usage error saying why it is not one. */
function accepted<R extends object>(
  value: string,
  checked: R,
  notOne: Text,
): Exclude<R, { problem: Text }> {
  if ("problem" in checked) {
    const problem = checked.problem as Text;
    throw new UsageError(
      fill(notOne, { value: printable(value), problem }),
      "config",
    );
  }
  return checked as Exclude<R, { problem: Text }>;
}
