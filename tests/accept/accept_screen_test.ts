/**
 * `accept`'s screen shows what a server and an oracle name, never obeys
 * it: a server names itself and its tools (and `accept init` copies its
 * tool names into the oracle) with colour codes, a terminal title, a
 * bidirectional override, at any length. The io's last guard keeps colour
 * codes on a terminal (for the lab's own colours), so the screen must make
 * them inert itself; and every line, the title included, stays within 80
 * columns, in both languages. Reports written by hand.
 */
import assert from "node:assert/strict";
import { displayWidth } from "../../lib/base/terminal.ts";
import { acceptScreen } from "../../lib/accept/views/accept_view.ts";
import { compareWithBaseline } from "../../lib/accept/baseline.ts";
import { reportOf, rowOf } from "../_helpers/accept_reports.ts";

/** Every character no screen line may carry raw. */
const RAW =
  // deno-lint-ignore no-control-regex -- the characters the test looks for
  /[\x00-\x08\x0b-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069]/;

const CONCEAL = "put\x1b[8m_hidden\x1b[0m_note";
const SERVER = {
  name: "notes\x1b[8mHIDDEN\x1b[0m\x1b]0;PWNED\x07\u202e" + "z".repeat(60),
  version: "1\x1b[31m" + "9".repeat(30),
};

function screens(withBaseline: boolean) {
  const report = {
    ...reportOf([
      rowOf(CONCEAL, 1, "once", "ONCE"),
      // An effect too long to share its line with a long verdict.
      rowOf(CONCEAL, 1, "lost-reply-retry", "PROTOCOL-VIOLATION", {
        saw: ["no-answer", "no-answer"],
        effect: 1,
        before: 1,
      }),
      rowOf(CONCEAL, 1, "crash-after-commit", "LOST-ON-RESTART", {
        saw: ["no-answer", "success"],
        effect: 11,
        before: 0,
      }),
    ], SERVER),
    unlisted: [CONCEAL],
  };
  const baseline = {
    file: "/tmp/acc/baseline.json",
    comparison: compareWithBaseline(report, {
      server: SERVER,
      oracle_digest: "sha256:0",
      rows: [
        { tool: CONCEAL, entry: 1, case: "once", verdict: "DUPLICATED" },
        {
          tool: CONCEAL,
          entry: 1,
          case: "lost-reply-retry",
          verdict: "PROTOCOL-VIOLATION",
        },
        {
          tool: CONCEAL,
          entry: 1,
          case: "crash-after-commit",
          verdict: "LOST-ON-RESTART",
        },
      ],
    }),
  };
  return (["en", "zh"] as const).map((lang) =>
    acceptScreen(report, {
      source: { kind: "command" },
      timeline: true,
      exit: 5,
      ...(withBaseline ? { baseline } : {}),
    }, lang)
  );
}

Deno.test("accept screen: a server's and an oracle's names are shown inert, colour codes too, and every line, the title too, within 80 columns", () => {
  for (const screen of screens(false)) {
    // Before: the title and the tool's lines carried ESC [8m raw, which a
    // terminal obeys (it hides what follows), and the title ran past 80.
    assert.deepEqual(screen.filter((l) => RAW.test(l)), []);
    assert.deepEqual(screen.filter((l) => displayWidth(l) > 80), []);
    const text = screen.join("\n");
    assert.ok(text.includes("put\\u001b[8m_hidden\\u001b[0m_note"), text);
    assert.ok(text.includes("\\u202e"), text);
    // The long verdict still ends by column 80: on its row when it fits
    // (the Chinese effect "1，之前 1" is narrower than "1 (1 before)"),
    // else on the next line, under its column.
    const i = screen.findIndex((l) => l.startsWith("  lost-reply-retry "));
    assert.ok(i >= 0);
    if (!screen[i].includes("PROTOCOL-VIOLATION")) {
      assert.equal(screen[i + 1], " ".repeat(62) + "PROTOCOL-VIOLATION");
    }
  }
});

Deno.test("accept screen: the baseline's rows are shown inert, a row apart from the next by a semicolon (full-width in Chinese)", () => {
  const [en, zh] = screens(true);
  for (const screen of [en, zh]) {
    assert.deepEqual(screen.filter((l) => RAW.test(l)), []);
    assert.deepEqual(screen.filter((l) => displayWidth(l) > 80), []);
  }
  const block = (screen: string[]) =>
    screen.slice(screen.findIndex((l) =>
      l.startsWith("baseline ") ||
      l.startsWith("基线 ")
    )).join("").replace(/\s+/g, "");
  const name = "put\\u001b[8m_hidden\\u001b[0m_note";
  // Compared without spaces: a long name wraps where it must.
  const bare = (text: string) => text.replace(/\s+/g, "");
  assert.ok(
    block(en).includes(bare(
      `excused (the same failing verdict is in the baseline): ${name}/lost-reply-retry PROTOCOL-VIOLATION; ${name}/crash-after-commit LOST-ON-RESTART fixed (failing in the baseline, not now): ${name}/once ONCE, was DUPLICATED`,
    )),
    block(en),
  );
  assert.ok(
    block(zh).includes(
      bare(`PROTOCOL-VIOLATION；${name}/crash-after-commit LOST-ON-RESTART`),
    ),
    block(zh),
  );
  assert.ok(block(zh).includes(bare(`${name}/once ONCE，原为 DUPLICATED`)));
});

Deno.test("accept screen: the same problem again is counted, not repeated, and problems are set apart by a semicolon (full-width in Chinese)", () => {
  const row = {
    ...rowOf("put_note", 1, "once", "PROTOCOL-VIOLATION", {
      saw: ["no-answer"],
    }),
    problems: [
      ...Array.from({ length: 44 }, () => ({ kind: "too-long" as const })),
      { kind: "answered-twice" as const, id: 3 },
    ],
  };
  const [en, zh] = (["en", "zh"] as const).map((lang) =>
    acceptScreen(reportOf([row]), {
      source: { kind: "command" },
      timeline: false,
      exit: 5,
    }, lang).join(" ").replace(/\s+/g, " ")
  );
  // Before: the same words 44 times, a screenful.
  assert.ok(
    en.includes(
      "the server 44× sent a message over 4194304 bytes (discarded unread); answered id 3 twice",
    ),
    en,
  );
  assert.ok(
    zh.replaceAll(" ", "").includes(
      "服务器44次发送了超过4194304字节的消息（未读取即丢弃）；对id3应答了两次",
    ),
    zh,
  );
});
