/**
 * What `guardlab config` says: its help, each stored setting as shown, and
 * what a change did.
 *
 * @module
 */
import type { Text } from "../../../base/i18n.ts";

/** `config --help`: what it does. */
export const CONFIG_HELP = {
  about: {
    en:
      `Without arguments, shows the stored settings. "config lang zh" makes every
screen Chinese from now on; --lang on any command still overrides it.
"config name NAME" stores the name your hand-ins carry (at most 40 characters,
no control characters); exercise hand-in refuses without one. "config course
CODE" stores the code your teacher gives the class (1-32 letters, digits, '.',
'_' or '-'; kept in capitals and half width, so net-2026 is NET-2026): with it,
each exercise's job keys, topic, copies and limits are your own, derived from
the code and your name. Settings live in your private guardlab folder, so they
survive reset.`,
    zh:
      `不带参数时显示已保存的设置。“config lang zh”之后所有界面都用中文；任何命令
上的 --lang 仍可临时覆盖。“config name NAME”保存交作业时带上的名字（最多 40 个
字符，不能有控制字符）；没有名字时 exercise hand-in 会拒绝。“config course CODE”
保存老师告诉全班的课程代码（1-32 个字母、数字、“.”、“_”或“-”；一律按大写、
半角保存，net-2026 就是 NET-2026）：设置之后，每个练习的业务键、topic、份数和
上限都由代码和你的名字算出，是你自己的一组取值。设置保存在你的 guardlab 私有
目录里，reset 不会删除它们。`,
  },
} as const satisfies Record<string, Text>;

/** What `config` tells a person. */
export const CONFIG_MESSAGES = {
  notSet: { en: "(not set)", zh: "未设置" },
  langNotSet: { en: "en (not set)", zh: "en（未设置）" },
  courseNotSet: {
    en: "(not set: every student gets the fixed values)",
    zh: "未设置：所有学生用同一组固定取值",
  },
  unknownSetting: {
    en: "unknown setting {key}; try {keys}",
    zh: "未知设置 {key}；可用的是 {keys}",
  },
  keySeparator: { en: ", ", zh: "、" },
  langSet: {
    en: "language set to English (en)",
    zh: "语言已设为中文（zh）",
  },
  notAName: {
    en: "{value} is not a name: {problem}",
    zh: "{value} 不能作为名字：{problem}",
  },
  nameSet: {
    en: "name set to {name}: your hand-ins carry it",
    zh: "名字已设为{name}：你交的作业会带上它",
  },
  notACourseCode: {
    en: "{value} is not a course code: {problem}",
    zh: "{value} 不能作为课程代码：{problem}",
  },
  courseSet: {
    en: "course code set to {code}: each exercise now has your " +
      "own values (guardlab exercise show N)",
    zh: "课程代码已设为 {code}：每个练习都有你自己的取值" +
      "（guardlab exercise show N）",
  },
} as const satisfies Record<string, Text>;
