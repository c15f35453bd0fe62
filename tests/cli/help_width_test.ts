/**
 * Each command's `about` text is written line by line, in both languages.
 * A source line wider than the screen is wrapped with a hanging indent in the
 * middle of a paragraph, which reads as a new item: every line fits as
 * written.
 */
import assert from "node:assert/strict";
import { COMMANDS, loadCommand } from "../../lib/cli/_command_registry.ts";
import { LANGS, say } from "../../lib/base/i18n.ts";
import { displayWidth } from "../../lib/base/terminal.ts";

Deno.test("help: every line of every command's about text fits 80 columns as written, in both languages", async () => {
  for (const cmd of await Promise.all(COMMANDS.map(loadCommand))) {
    for (const lang of LANGS) {
      for (const line of say(cmd.about, lang).split("\n")) {
        assert.ok(
          displayWidth(line) <= 80,
          `${cmd.name} (${lang}), ${displayWidth(line)} columns: ${line}`,
        );
      }
    }
  }
});
