/**
 * A Chinese --help reads as filled lines: no line of a command's
 * description stops short (under 30 columns) in the middle of a sentence
 * while the next line carries it on, as exercise's did ("以 JSON
 * 输出你的作业，带上" alone on its line).
 */
import assert from "node:assert/strict";
import { displayWidth } from "../../lib/base/terminal.ts";
import { cli } from "../_helpers/helpers.ts";
import { COMMAND_NAMES } from "../_helpers/cli_fixtures.ts";

Deno.test("help (zh): no description line stops short mid-sentence", async () => {
  for (const name of COMMAND_NAMES) {
    const { out } = await cli([name, "--help", "--lang", "zh"]);
    const end = out.findIndex((l) => /^(选项|退出码)：/.test(l));
    const about = out.slice(1, end < 0 ? out.length : end);
    about.forEach((line, i) => {
      const next = about[i + 1] ?? "";
      const short = line !== "" && !line.startsWith(" ") &&
        displayWidth(line) < 30 && next !== "" && !next.startsWith(" ") &&
        !/[。：）)]$/.test(line);
      assert.ok(!short, `${name}: ${line} / ${next}`);
    });
  }
});
