/**
 * The chapter "Your agent's guardrails on the timeline" and its example:
 * `deno task example:guardrails` runs, offline, in both languages, and its
 * screens are the chapter's (the times, which differ from run to run,
 * masked); the order of the agent's marks is the one written out here by
 * hand, with the commit lines where the article puts them: the input
 * guardrail's refusal before any tools/call, the output guardrail's after
 * the effect of its key was visible.
 */
import assert from "node:assert/strict";
import { CAN_RUN } from "../_helpers/spawn.ts";
import { ROOT } from "../_helpers/root.ts";

const CAN_ENV = Deno.permissions.querySync({ name: "env" }).state ===
  "granted";

const read = (lang: string) =>
  Deno.readTextFileSync(`${ROOT}docs/${lang}/09-your-agents-guardrails.md`);

/** The indented code block whose first line starts with `first`. */
function blockFrom(text: string, first: string): string[] {
  const lines = text.split("\n");
  const at = lines.findIndex((l) => l.startsWith(`    ${first}`));
  assert.ok(at >= 0, first);
  const out: string[] = [];
  for (
    let i = at;
    i < lines.length && (lines[i].startsWith("    ") || lines[i] === "");
    i++
  ) out.push(lines[i].slice(4));
  while (out.at(-1) === "") out.pop();
  return out;
}

/** A screen line with what differs from run to run masked: the time column, a timeout's length. */
const masked = (line: string) =>
  line.replace(/^ {2}[+-]\d+ms +/, (m) => "  T".padEnd(m.length))
    .replace(/\d+ ms( *\|)/, "N ms$1")
    .replace(/after \d+ ms$/, "after N ms")
    .replace(/\d+ 毫秒后超时/, "N 毫秒后超时");

/**
 * A screen (or the chapter's block) split at the one step whose words,
 * spaces and rules taken out, include `words`: the rest, and where that
 * step was (-1: not there). The read the proxy makes as the client
 * cancels a call is answered while the agent goes on, so it falls before
 * or after the agent's next marks as the machine runs.
 */
function withoutStep(
  lines: string[],
  words: RegExp,
): { rest: string[]; at: number } {
  const starts = lines.flatMap((l, i) =>
    /^ {2}[+-]\d+ms/.test(l) || l.startsWith("  ---") || l === "" ? [i] : []
  );
  for (const [k, from] of starts.entries()) {
    const to = starts[k + 1] ?? lines.length;
    const text = lines.slice(from, to).join("").replace(/[\s|]/g, "");
    if (/^ {2}[+-]\d+ms/.test(lines[from]) && words.test(text)) {
      return {
        rest: [...lines.slice(0, from), ...lines.slice(to)],
        at: from,
      };
    }
  }
  return { rest: lines, at: -1 };
}

/** The read as the client cancelled call 2, in either language. */
const READ_ON_CANCEL = /JOB-003ascall2iscancelled:effect1|在调用2被取消时读取/;

/** The agent lane's marks, one per step, their wrapped lines joined. */
function agentMarks(screen: string[]): string[] {
  const marks: string[] = [];
  for (const row of screen) {
    if (!/^ {11}\S|^ {2}[+-]\d+ms/.test(row) || !row.includes("|")) continue;
    const cell = row.slice(11, 31).trim();
    if (/^ {2}[+-]\d+ms/.test(row)) {
      if (cell !== "") marks.push(cell);
      else marks.push("");
    } else if (cell !== "" && marks.length > 0) {
      const last = marks.pop()!;
      marks.push(last === "" ? cell : `${last} ${cell}`);
    }
  }
  return marks.filter((m) => m !== "");
}

/** `deno task example:guardrails`, with `lang`; its stdout lines. */
async function example(lang: "en" | "zh"): Promise<string[]> {
  const out = await new Deno.Command(Deno.execPath(), {
    args: [
      "task",
      "-q",
      "example:guardrails",
      ...(lang === "zh" ? ["--lang", "zh"] : []),
    ],
    cwd: ROOT,
    stdin: "null",
    stdout: "piped",
    stderr: "piped",
  }).output();
  const stdout = new TextDecoder().decode(out.stdout);
  assert.equal(
    out.code,
    0,
    new TextDecoder().decode(out.stderr) + stdout,
  );
  return stdout.split("\n");
}

Deno.test({
  name:
    "guardrails chapter: the example runs offline in both languages, and prints the chapter's screens and the order written here" +
    (CAN_RUN && CAN_ENV
      ? ""
      : " [ignored: runs the example (an agent, guardlab proxy and guardlab mcp): needs --allow-run and --allow-env; run `deno task test`]"),
  ignore: !(CAN_RUN && CAN_ENV),
  async fn() {
    const [en, zh] = await Promise.all([example("en"), example("zh")]);
    for (
      const [lang, out, header, times] of [
        ["en", en, "           agent", "times:"],
        ["zh", zh, "           Agent", "时间："],
      ] as const
    ) {
      const text = read(lang);
      for (
        const first of [header, "$ guardlab ledger --ledger-file lab.sqlite"]
      ) {
        const block = blockFrom(text, first);
        const at = out.findIndex((l) => l.startsWith(block[0]));
        assert.ok(at >= 0, `${lang}: ${block[0]}\n${out.join("\n")}`);
        // Without the read on the cancel, which floats: it must be there,
        // after the client's cancel, and the rest is the chapter's.
        const shown = withoutStep(block, READ_ON_CANCEL).rest;
        const found = withoutStep(
          out.slice(at, at + block.length + 12),
          READ_ON_CANCEL,
        );
        if (first === header) {
          const cancel = found.rest.findIndex((l) =>
            /\| (cancels call|取消调用 2)/.test(l)
          );
          assert.ok(found.at > cancel && cancel > 0, `${lang}: read on cancel`);
        }
        assert.deepEqual(
          found.rest.slice(0, shown.length).map(masked),
          shown.map(masked),
          lang,
        );
      }
      // What the screen says of the clocks follows the calls.
      const screen = out.slice(out.findIndex((l) => l.startsWith(header)));
      assert.ok(screen.some((l) => l.startsWith(times)), lang);
    }
    // The agent's lane, as it happened, written out by hand.
    const screen = en.slice(
      en.findIndex((l) => l.startsWith("           agent")),
    );
    assert.deepEqual(agentMarks(screen).map(masked), [
      "model turn 1",
      "calls create_draft",
      "tool input guardrail batch_limit: rejectContent",
      "never sent; the model is told «refused: at most 3 copies per call»",
      "model turn 2",
      "calls create_draft: call 1",
      "tool input guardrail batch_limit: allow",
      "tool output guardrail forest_review: rejectContent",
      "the model is told «refused: a forest draft needs a review first»",
      "model turn 3",
      "calls create_draft: call 2",
      "tool input guardrail batch_limit: allow",
      "no answer to call 2: timeout after N ms",
      "tool output guardrail forest_review: allow",
      "the model is told «An error occurred while running the tool.…»",
      "model turn 4",
      "calls create_draft again, same arguments as call 2: call 3",
      "tool input guardrail batch_limit: allow",
      "tool output guardrail forest_review: allow",
      "the model is told «accepted: JOB-003 already existed and was…»",
      "model turn 5",
    ]);
    const row = (test: (l: string) => boolean, what: string) => {
      const i = screen.findIndex(test);
      assert.ok(i >= 0, what);
      return i;
    };
    const firstSent = row((l) => l.includes("| sends call 1"), "call 1 sent");
    const refused = row(
      (l) => l.includes("never sent; the"),
      "the refused call's end",
    );
    assert.ok(
      refused < firstSent,
      "the input guardrail's refusal before any tools/call",
    );
    const visible = row(
      (l) => l.startsWith("  --- effect of JOB-002 visible"),
      "the effect line of JOB-002",
    );
    const rejected = row(
      (l) =>
        l.includes("forest_review:") &&
        screen[screen.indexOf(l) + 1].includes("rejectContent"),
      "the output guardrail's rejection",
    );
    assert.ok(firstSent < visible && visible < rejected, "after the commit");
    assert.ok(
      en.includes("  create_draft JOB-003: calls 2, 3; effect 1"),
      "the timeout and the retry: one effect by key",
    );
  },
});
