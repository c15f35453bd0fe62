/**
 * `guardlab config [lang [en|zh]]`: the stored language.
 *
 * @module
 */
import { LANGS } from "../../i18n.ts";
import { EXIT } from "../exit.ts";
import { choice, command, UsageError } from "../parser.ts";
import { readSettings, writeSettings } from "../settings.ts";

/** The `config` command. */
export const config = command({
  name: "config",
  summary: {
    en: "show or set the stored language (en or zh)",
    zh: "查看或设置保存的语言（en 或 zh）",
  },
  usage: "config [lang [en|zh]]",
  about: {
    en:
      `Without arguments, shows the stored settings. "config lang zh" makes every
screen Chinese from now on; --lang on any command still overrides it. The
setting lives in your private guardlab folder, so it survives reset.`,
    zh:
      `不带参数时显示已保存的设置。"config lang zh" 之后所有界面都用中文；任何命令
上的 --lang 仍可临时覆盖。设置保存在你的 guardlab 私有目录里，reset 不会删除它。`,
  },
  options: {},
  maxPositionals: 2,
  exits: { 0: null, 2: null, 4: null },
  run({ positionals, io }) {
    const [key, value] = positionals;
    if (key === undefined) {
      io.out(`lang ${readSettings(io.base).lang ?? "en (not set)"}`);
      return EXIT.ok;
    }
    if (key !== "lang") {
      throw new UsageError({
        en: `unknown setting ${JSON.stringify(key)}; try lang`,
        zh: `未知设置 ${JSON.stringify(key)}；可用的是 lang`,
      }, "config");
    }
    if (value === undefined) {
      io.out(`lang ${readSettings(io.base).lang ?? "en (not set)"}`);
      return EXIT.ok;
    }
    const lang = choice("config", "lang", value, LANGS)!;
    writeSettings(io.base, { ...readSettings(io.base), lang });
    io.out(
      lang === "zh" ? "语言已设为中文（zh）" : "language set to English (en)",
    );
    return EXIT.ok;
  },
});
