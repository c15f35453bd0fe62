/**
 * `guardlab run`: one attempt of the draft tool, drawn as its timeline.
 *
 * @module
 */
import {
  type Faults,
  INPUT_GUARDRAIL_MODES,
  Lab,
  RECEIPT_MODES,
} from "../../../timing/lab.ts";
import { labFilesIn, trustedFolders } from "../../../sandbox/sandbox.ts";
import { scratchFolder } from "../../../sandbox/scratch.ts";
import {
  CHECKPOINTS,
  FAIL_POINTS,
  PAUSE_POINTS,
  type PausePoint,
} from "../../../timing/stages.ts";
import { timelineSvg } from "../../../views/svg.ts";
import { ruleOf } from "../../../timing/messages.ts";
import { renderTimeline, timelineOf } from "../../../views/timeline.ts";
import { parseJsonLikePython } from "../../../base/json.ts";
import { fill, type Lang, say } from "../../../base/i18n.ts";
import { plainFields, plainValue } from "../../../base/plain.ts";
import { wrap } from "../../../base/terminal.ts";
import { command } from "../../command.ts";
import { EXIT } from "../../exit.ts";
import type { Io } from "../../io.ts";
import {
  LAB_MESSAGE_GLOSS as GLOSS,
  RUN_HELP as H,
  RUN_MESSAGES as M,
} from "./_messages.ts";
import { styleFor } from "../../output.ts";
import { UsageError } from "../../parser.ts";
import {
  FORMAT_OPTIONS,
  formatOf,
  LEDGER_OPTIONS,
  ledgerFileOf,
} from "../../places.ts";

const OPTIONS = {
  ...LEDGER_OPTIONS,
  job: { type: "string", value: "JOB", help: H.job },
  topic: { type: "string", value: "TOPIC", help: H.topic },
  copies: { type: "string", value: "N", help: H.copies },
  args: { type: "string", value: "JSON", help: H.args },
  "cancel-at": {
    type: "string",
    value: "STAGE",
    choices: CHECKPOINTS,
    help: H.cancelAt,
  },
  "fail-at": {
    type: "string",
    value: "STAGE",
    choices: FAIL_POINTS,
    help: H.failAt,
  },
  "bad-output": { type: "boolean", help: H.badOutput },
  "audit-failure": { type: "boolean", help: H.auditFailure },
  receipt: {
    type: "string",
    value: "MODE",
    choices: RECEIPT_MODES,
    help: H.receipt,
  },
  "input-guardrail": {
    type: "string",
    value: "MODE",
    choices: INPUT_GUARDRAIL_MODES,
    help: H.inputGuardrail,
  },
  "pause-at": {
    type: "string",
    value: "POINT",
    choices: PAUSE_POINTS,
    help: H.pauseAt,
  },
  ...FORMAT_OPTIONS,
} as const;

/** The raw tool arguments from flags: unchecked on purpose, the lab validates them. */
function rawToolArgs(values: {
  job?: string;
  topic?: string;
  copies?: string;
  args?: string;
}): unknown {
  if (values.args !== undefined) {
    if (
      [values.job, values.topic, values.copies].some((v) => v !== undefined)
    ) {
      throw new UsageError(M.argsReplaces, "run");
    }
    try {
      return parseJsonLikePython(values.args);
    } catch {
      throw new UsageError(M.argsNotJson, "run");
    }
  }
  const raw: Record<string, unknown> = {};
  if (values.job !== undefined) raw.job = values.job;
  if (values.topic !== undefined) raw.topic = values.topic;
  if (values.copies !== undefined) {
    // Only plain digits become a number; "2.0" or "two" reach validation as text.
    raw.copies = /^[0-9]{1,15}$/.test(values.copies)
      ? Number(values.copies)
      : values.copies;
  }
  return raw;
}

/** One line naming what was asked: the raw arguments and the faults. */
function headerOf(raw: unknown, faults: Faults, lang: Lang): string {
  const set = [
    faults.cancelAt && `cancel_at=${faults.cancelAt}`,
    faults.failAt && `fail_at=${faults.failAt}`,
    faults.badOutput && "bad_output",
    faults.auditFailure && "audit_failure",
  ].filter(Boolean);
  const switches = [
    faults.receipt === "naive" && "receipt=naive",
    faults.inputGuardrail === "parallel" && "input_guardrail=parallel",
  ].filter(Boolean);
  const list = (items: unknown[]) =>
    items.join(say(M.listSeparator, lang)) || say(M.none, lang);
  return say(
    fill(switches.length > 0 ? M.attemptSwitches : M.attempt, {
      args: plainValue(raw, lang),
      switches: list(switches),
      faults: list(set),
    }),
    lang,
  );
}

/** The result's fields, the lab's own message glossed in the reader's language. */
function resultLines(output: object, lang: Lang): string[] {
  const lines = plainFields(output, lang);
  const message = (output as Record<string, unknown>).message;
  if (typeof message !== "string" || !Object.hasOwn(GLOSS, message)) {
    return lines;
  }
  const at = Object.keys(output).indexOf("message");
  lines[at] += say(GLOSS[message], lang);
  return lines;
}

function holdForever(io: Io, point: PausePoint): Promise<void> {
  io.err(`paused ${point}`);
  // An interval keeps the process alive while it waits to be killed.
  return new Promise(() => setInterval(() => {}, 1 << 30));
}

/** The `run` command. */
export const run = command({
  name: "run",
  usage: `run [--ledger NAME | --ledger-file PATH]
                    (--job JOB --topic TOPIC --copies N | --args JSON)
                    [--cancel-at STAGE] [--fail-at STAGE] [--bad-output]
                    [--audit-failure] [--receipt ${RECEIPT_MODES.join("|")}]
                    [--input-guardrail ${INPUT_GUARDRAIL_MODES.join("|")}]
                    [--pause-at POINT] [--json]
                    [--format text|json|svg]`,
  about: H.about,
  options: OPTIONS,
  maxPositionals: 0,
  exits: { 0: H.exitOk, 1: H.exitFailed, 2: null, 4: null },
  async run({ values, io, lang }) {
    const format = formatOf("run", values);
    const pauseAt = values["pause-at"];
    const faults: Faults = {
      cancelAt: values["cancel-at"],
      failAt: values["fail-at"],
      badOutput: values["bad-output"] ?? false,
      auditFailure: values["audit-failure"] ?? false,
      receipt: values.receipt,
      inputGuardrail: values["input-guardrail"],
      pause: pauseAt
        ? (point) => point === pauseAt ? holdForever(io, point) : undefined
        : undefined,
    };
    const raw = rawToolArgs(values);
    const named = ledgerFileOf("run", io, values, true);
    await using scratch = named === undefined
      ? scratchFolder(io.base)
      : undefined;
    const path = named ?? labFilesIn(scratch!.path).lab;
    const lab = Lab.open(path, { trusted: trustedFolders(io.base) });
    try {
      const { output, attempt } = await lab.observe(raw, faults);
      const rule = attempt.refusal && ruleOf(attempt.refusal);
      const refusal = attempt.refusal === undefined ? null : {
        rule: attempt.refusal,
        valid: rule ? say(rule, lang) : "",
      };
      if (format === "json") {
        io.out(JSON.stringify({ result: output, refusal }));
      } else if (format === "svg") {
        io.out(timelineSvg(
          say(M.svgTitle, lang),
          [{ title: headerOf(raw, faults, lang), attempt }],
          [],
          lang,
        ));
      } else {
        for (const line of wrap(headerOf(raw, faults, lang), 80)) io.out(line);
        const rows = renderTimeline(timelineOf(attempt), styleFor(io), lang);
        for (const line of rows) io.out(line);
        io.out(say(M.result, lang));
        for (const line of resultLines(output, lang)) {
          for (const part of wrap(`  ${line}`, 80)) io.out(part);
        }
      }
      return "raised" in output ? EXIT.failed : EXIT.ok;
    } finally {
      lab.close();
    }
  },
});
