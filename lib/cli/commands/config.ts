/**
 * `guardlab config [lang|name|course [VALUE]]`: the stored language, the
 * student's name (carried by every hand-in) and the course code (which picks
 * each student's variant of the exercises).
 *
 * @module
 */
import { checkCourseCode, checkName } from "../../exercises/student.ts";
import { LANGS, same, say, type Text } from "../../base/i18n.ts";
import { EXIT } from "../exit.ts";
import { choice, command, printable, UsageError } from "../parser.ts";
import {
  readSettings,
  type Settings,
  storedSettings,
  writeSettings,
} from "../settings.ts";

const KEYS = ["lang", "name", "course"] as const;
type Key = typeof KEYS[number];

const NOT_SET: Text = { en: "(not set)", zh: "（未设置）" };

const SHOWN: Readonly<Record<Key, (s: Settings) => Text | string>> = {
  lang: (s) => s.lang ?? { en: "en (not set)", zh: "en（未设置）" },
  name: (s) => s.name ?? NOT_SET,
  course: (s) =>
    s.course ?? {
      en: "(not set: every student gets the fixed values)",
      zh: "（未设置：所有学生用同一组固定取值）",
    },
};

/** What `config` tells a person. */
export const CONFIG_MESSAGES = {
  langSet: {
    en: "language set to English (en)",
    zh: "语言已设为中文（zh）",
  },
} as const satisfies Record<string, Text>;

/** The `config` command. */
export const config = command({
  name: "config",
  summary: {
    en: "show or set the stored language, your name and the course code",
    zh: "查看或设置保存的语言、你的名字和课程代码",
  },
  usage: "config [lang [en|zh] | name [NAME] | course [CODE]]",
  about: {
    en:
      `Without arguments, shows the stored settings. "config lang zh" makes every
screen Chinese from now on; --lang on any command still overrides it.
"config name NAME" stores the name your hand-ins carry (at most 40 characters,
no control characters); exercise hand-in refuses without one. "config course
CODE" stores the code your teacher gives the class (1-32 letters, digits, '.',
'_' or '-'): with it, each exercise's job keys, topic, copies and limits are
your own, derived from the code and your name. Settings live in your private
guardlab folder, so they survive reset.`,
    zh:
      `不带参数时显示已保存的设置。"config lang zh" 之后所有界面都用中文；任何命令
上的 --lang 仍可临时覆盖。"config name 名字" 保存交作业时带上的名字（最多 40 个
字符，不能有控制字符）；没有名字时 exercise hand-in 会拒绝。"config course 代码"
保存老师告诉全班的课程代码（1-32 个字母、数字、“.”、“_”或“-”）：设置之后，每个
练习的业务键、topic、份数和上限都由代码和你的名字算出，是你自己的一组取值。设置
保存在你的 guardlab 私有目录里，reset 不会删除它们。`,
  },
  options: {},
  maxPositionals: 2,
  exits: { 0: null, 2: null, 4: null },
  run({ positionals, io, lang }) {
    const [key, value] = positionals;
    // Showing works even in a private folder that cannot be read (main
    // says why in one line); changing a setting needs the folder.
    const shown = () => storedSettings(io).value;
    const stored = () => readSettings(io);
    const show = (k: Key, s: Settings) => {
      const shown = SHOWN[k](s);
      io.out(`${k} ${typeof shown === "string" ? shown : say(shown, lang)}`);
    };
    if (key === undefined) {
      const s = shown();
      for (const k of KEYS) show(k, s);
      return EXIT.ok;
    }
    if (!(KEYS as readonly string[]).includes(key)) {
      throw new UsageError({
        en: `unknown setting ${printable(key)}; try ${KEYS.join(", ")}`,
        zh: `未知设置 ${printable(key)}；可用的是 ${KEYS.join("、")}`,
      }, "config");
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
      done = same(say(CONFIG_MESSAGES.langSet, settings.lang));
    } else if (key === "name") {
      const checked = checkName(value);
      if ("problem" in checked) {
        throw new UsageError({
          en: `${printable(value)} is not a name: ${checked.problem.en}`,
          zh: `${printable(value)} 不能作为名字：${checked.problem.zh}`,
        }, "config");
      }
      settings.name = checked.name;
      done = {
        en: `name set to ${printable(checked.name)}: your hand-ins carry it`,
        zh: `名字已设为 ${printable(checked.name)}：你交的作业会带上它`,
      };
    } else {
      const checked = checkCourseCode(value);
      if ("problem" in checked) {
        throw new UsageError({
          en: `${printable(value)} is not a course code: ${checked.problem.en}`,
          zh: `${printable(value)} 不能作为课程代码：${checked.problem.zh}`,
        }, "config");
      }
      settings.course = checked.code;
      done = {
        en: `course code set to ${checked.code}: each exercise now has your ` +
          "own values (guardlab exercise show N)",
        zh: `课程代码已设为 ${checked.code}：每个练习现在都有你自己的取值` +
          "（guardlab exercise show N）",
      };
    }
    writeSettings(io, settings);
    io.out(say(done, lang));
    return EXIT.ok;
  },
});
