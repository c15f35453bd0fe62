/**
 * `guardlab script`: an experiment as JSON Lines, one JSON line out per
 * step; with `--view`, each step told in words instead (a run as its
 * timeline, policy steps in two lanes), and no JSON.
 *
 * @module
 */
import { MAX_LINE_BYTES } from "../../../base/lines.ts";
import { jsonLinesOf } from "../../../base/jsonl.ts";
import { parseJsonLikePython } from "../../../base/json.ts";
import { letPendingSignalsArrive, onExit } from "../../../base/exit_hooks.ts";
import {
  labFilesIn,
  ledgerFolder,
  privateRoot,
  trustedFolders,
} from "../../../sandbox/sandbox.ts";
import { scratchFolder } from "../../../sandbox/scratch.ts";
import {
  InvalidStep,
  lineRefusal,
  ScriptSession,
  type StepResult,
} from "../../../experiments/script.ts";
import { renderTimeline, timelineOf } from "../../../views/timeline.ts";
import { inert, wrap } from "../../../base/terminal.ts";
import {
  policyHeader,
  policyRow,
  renderPolicyRow,
} from "../../../views/policy_view.ts";
import { fill, say, type Text } from "../../../base/i18n.ts";
import { plainFields } from "../../../base/plain.ts";
import { command } from "../../command.ts";
import { EXIT } from "../../exit.ts";
import {
  SCRIPT_HELP as H,
  SCRIPT_MESSAGES as M,
  STEPS_FILE,
} from "./_messages.ts";
import { styleFor } from "../../output.ts";
import { textCost, ViewBudget } from "../../../views/view_bound.ts";
import { checkedName } from "../../places.ts";
import { openUserFile } from "../../user_file.ts";

/** The `script` command. */
export const script = command({
  name: "script",
  usage: "script [--ledger NAME] [--view] [FILE] < steps.jsonl",
  about: H.about,
  options: {
    ledger: { type: "string", value: "NAME", help: H.ledger },
    view: { type: "boolean", help: H.view },
  },
  maxPositionals: 1,
  exits: { 0: H.exitOk, 1: H.exitFailed, 2: null, 4: null },
  async run({ values, positionals, io, lang }) {
    const name = values.ledger === undefined
      ? undefined
      : checkedName("script", values.ledger);
    const file = positionals[0];
    const steps = file === undefined
      ? io.stdin()
      : await openUserFile(file, io, lang, STEPS_FILE);
    if (typeof steps === "number") return steps;
    if (file === undefined && io.stdinIsTerminal) {
      io.err(say(M.fromTerminal, lang));
    }
    await using scratch = name === undefined
      ? scratchFolder(io.base)
      : undefined;
    const place = name === undefined
      ? labFilesIn(scratch!.path)
      : ledgerFolder(privateRoot(io)!, name)!;
    const session = new ScriptSession({
      lab: place.lab,
      policy: place.policy,
      trusted: trustedFolders(io.base),
    });
    let invalid = 0;
    let lanesShown = false;
    // --view draws what the steps say, so it is bounded as every view is
    // (view_bound.ts); the JSON lines on stdout go on past it.
    const viewBudget = new ViewBudget();
    let writeFailed = false;
    // Without --view, the JSON lines wait until the input has no line ready
    // and are then written at once: a piped file of 2,000 steps costs a few
    // writes, not 2,000, while a caller that sends one step and waits for
    // its line still gets it before guardlab waits for the next. Every
    // line is out before the process ends, a signal's end included (the
    // SIGXFSZ of a write past `ulimit -f` is let in mid-input, below): a
    // step whose receipt was committed is never left unsaid.
    const held: string[] = [];
    const writeHeld = () => {
      if (held.length === 0) return;
      const lines = held.join("\n");
      held.length = 0;
      io.out(lines);
    };
    using _flushAtExit = onExit(writeHeld);
    try {
      const bounds = {
        maxLineBytes: MAX_LINE_BYTES,
        parse: parseJsonLikePython,
      };
      for await (const line of jsonLinesOf(steps, bounds, writeHeld)) {
        let output: Record<string, unknown>;
        let ran: StepResult["run"];
        let refusal: Text | undefined;
        let policy: StepResult["policy"];
        try {
          if ("problem" in line) {
            throw lineRefusal(line.problem, MAX_LINE_BYTES);
          }
          ({ output, run: ran, policy } = await session.stepObject(line.value));
        } catch (error) {
          if (!(error instanceof InvalidStep)) throw error;
          invalid++;
          refusal = error.text;
          output = {
            raised: "invalid_step",
            message: `line ${line.number}: ${error.message}`,
          };
        }
        if (!values.view) held.push(JSON.stringify(output));
        if (output.raised === "database_error" && !writeFailed) {
          // A write past the file size limit raised SIGXFSZ: let it end the
          // run here, before every later step fails the same way.
          writeFailed = true;
          await letPendingSignalsArrive();
        }
        if (!values.view) continue;
        // --view tells each step in words on stdout, and prints no JSON: a
        // person reads the drawing, a program reads script without --view.
        // What a step shows of its own text counts against the view's
        // bound; past it the steps are still run, only not drawn.
        const drawn = ran?.job ?? policy?.step ?? refusal ?? output;
        if (!viewBudget.fits("steps", drawn, textCost)) continue;
        const shown = (n: number, what: string) =>
          say(fill(M.stepLine, { n, what: inert(what) }), lang);
        if (refusal !== undefined) {
          io.out(shown(line.number, say(refusal, lang)));
        } else if (ran) {
          // The step's own text, shown inert: it cannot drive the terminal
          // or start a line of its own.
          const job = inert(ran.job ?? "?");
          io.out(say(fill(M.runLine, { n: line.number, job }), lang));
          const rows = renderTimeline(
            timelineOf(ran.attempt),
            styleFor(io),
            lang,
          );
          for (const row of rows) io.out(row);
        } else if (policy && policyRow(policy)) {
          // The two lanes' header once, at the first policy step.
          if (!lanesShown) { for (const l of policyHeader(lang)) io.out(l); }
          lanesShown = true;
          for (const l of renderPolicyRow(policyRow(policy)!, lang)) io.out(l);
        } else {
          io.out(shown(line.number, "value" in line ? opOf(line.value) : "?"));
          for (const field of plainFields(output, lang)) {
            for (const l of wrap(`  ${field}`, 80)) io.out(l);
          }
        }
      }
    } finally {
      writeHeld();
      session.close();
    }
    // Said where the view was drawn, after its last step.
    for (const line of viewBudget.cutLines()) io.out(say(line, lang));
    return invalid === 0 ? EXIT.ok : EXIT.failed;
  },
});

/** The op a valid step names. */
function opOf(step: Record<string, unknown>): string {
  return typeof step.op === "string" ? step.op : "?";
}
