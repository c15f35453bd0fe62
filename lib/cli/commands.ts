/**
 * The guardlab commands. Each parses its own flags, writes machine output to
 * stdout and diagnostics to stderr, and returns its exit code.
 *
 * @module
 */
import { policyDemo, timingDemoWithAttempts } from "../demo.ts";
import { LedgerUnusable } from "../errors.ts";
import { type Faults, Lab } from "../lab.ts";
import { Ledger } from "../ledger.ts";
import { observeRun } from "../outcome.ts";
import { pendingKeys } from "../reconcile.ts";
import {
  ledgerFolder,
  ledgerPaths,
  privateRoot,
  removeLedger,
  scratchFolder,
  trustedFolders,
} from "../sandbox.ts";
import {
  CHECKPOINTS,
  FAIL_POINTS,
  PAUSE_POINTS,
  type PausePoint,
} from "../stages.ts";
import { renderTimeline, timelineOf } from "../timeline.ts";
import { EXPECTED, renderChecks, verify } from "../verify.ts";
import { EXIT, HELP } from "./help.ts";
import type { Io } from "./io.ts";
import {
  asUsage,
  atMostPositionals,
  choice,
  parseCommand,
  UsageError,
} from "./parse.ts";
import { policyLines, styleFor } from "./view.ts";
import { timelineSvg } from "../svg.ts";
import { shellQuote, wrap } from "../text.ts";
import { parseJsonLikePython } from "../wire.ts";
import { join } from "node:path";

const FORMATS = ["text", "json", "svg"] as const;
type Format = typeof FORMATS[number];

function formatOf(
  command: string,
  values: { json?: boolean; format?: string },
): Format {
  const format = choice(command, "--format", values.format, FORMATS);
  if (values.json && format !== undefined && format !== "json") {
    throw new UsageError(
      "--json and --format " + format + " contradict each other",
      command,
    );
  }
  return values.json ? "json" : format ?? "text";
}

/** `guardlab demo [timing|policy] [--json] [--format F]` */
export async function demo(args: string[], io: Io): Promise<number> {
  const { values, positionals } = parseCommand("demo", args, {
    json: { type: "boolean" },
    format: { type: "string" },
  });
  if (values.help) return help(io, "demo");
  atMostPositionals("demo", positionals, 1);
  const which = choice(
    "demo",
    "lab",
    positionals[0],
    ["timing", "policy"] as const,
  );
  const format = formatOf("demo", values);
  await using folder = scratchFolder(privateRoot(io.base)!);
  const timing = which !== "policy"
    ? await timingDemoWithAttempts(folder.path)
    : undefined;
  const policy = which !== "timing" ? await policyDemo(folder.path) : undefined;
  if (format === "json") {
    const data = which === "timing"
      ? timing!.result
      : which === "policy"
      ? policy
      : { timing: timing!.result, policy };
    io.out(JSON.stringify(data, null, 2));
    return EXIT.ok;
  }
  if (format === "svg") {
    io.out(timelineSvg(
      "guardlab demo: where each check stops the call",
      (timing?.attempts ?? []).map((a) => ({
        title: a.scenario,
        attempt: a.attempt,
      })),
      policy ? policyLines(policy) : [],
    ));
    return EXIT.ok;
  }
  const style = styleFor(io);
  if (timing) {
    io.out("Timing lab: one call, one timeline, one SQLite ledger");
    for (const { scenario, attempt } of timing.attempts) {
      io.out("");
      io.out(`${scenario}`);
      for (const line of renderTimeline(timelineOf(attempt), style)) {
        io.out(line);
      }
    }
    io.out("");
    io.out(`draft_rows=${timing.result.draft_rows}  (JOB-001 and JOB-002)`);
  }
  if (policy) {
    if (timing) io.out("");
    io.out("Policy lab: commit only under the rule revision that was checked");
    for (const line of policyLines(policy)) io.out(line);
  }
  return EXIT.ok;
}

/** `guardlab verify [--json]` */
export async function verifyCommand(args: string[], io: Io): Promise<number> {
  const { values, positionals } = parseCommand("verify", args, {
    json: { type: "boolean" },
  });
  if (values.help) return help(io, "verify");
  atMostPositionals("verify", positionals, 0);
  return await runVerify(io, values.json ?? false);
}

/** Run both demos, compare with `expected` (the built-in fixtures by default), print, return the exit code. */
export async function runVerify(
  io: Io,
  json: boolean,
  expected: Parameters<typeof verify>[1] = EXPECTED,
): Promise<number> {
  await using folder = scratchFolder(privateRoot(io.base)!);
  const checks = await verify(folder.path, expected);
  const ok = checks.every((c) => c.pass);
  if (json) io.out(JSON.stringify({ ok, scenarios: checks }));
  else for (const line of renderChecks(checks)) io.out(line);
  return ok ? EXIT.ok : EXIT.failed;
}

const RUN_OPTIONS = {
  ledger: { type: "string" },
  "ledger-file": { type: "string" },
  job: { type: "string" },
  topic: { type: "string" },
  copies: { type: "string" },
  args: { type: "string" },
  "cancel-at": { type: "string" },
  "fail-at": { type: "string" },
  "bad-output": { type: "boolean" },
  "audit-failure": { type: "boolean" },
  "pause-at": { type: "string" },
  json: { type: "boolean" },
  format: { type: "string" },
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
      throw new UsageError(
        "--args replaces --job, --topic and --copies; give one or the other",
        "run",
      );
    }
    try {
      return parseJsonLikePython(values.args);
    } catch {
      throw new UsageError("--args must be one JSON value", "run");
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

/**
 * The ledger file a command names: `--ledger NAME` (a folder in the user's
 * private root, made when `create` is set) or `--ledger-file PATH`;
 * `undefined` when neither is given, `null` when the named one does not exist.
 */
function ledgerFileOf(
  command: string,
  io: Io,
  values: { ledger?: string; "ledger-file"?: string },
  create: boolean,
): string | null | undefined {
  if (values.ledger !== undefined && values["ledger-file"] !== undefined) {
    throw new UsageError("give --ledger or --ledger-file, not both", command);
  }
  if (values["ledger-file"] !== undefined) return values["ledger-file"];
  if (values.ledger === undefined) return undefined;
  const name = values.ledger;
  asUsage(command, () => ledgerPaths("", name));
  const root = privateRoot(io.base, create);
  if (root === null) return null;
  return ledgerFolder(root, name, create)?.lab ?? null;
}

function holdForever(io: Io, point: PausePoint): Promise<void> {
  io.err(`paused ${point}`);
  // An interval keeps the process alive while it waits to be killed.
  return new Promise(() => setInterval(() => {}, 1 << 30));
}

/** `guardlab run …` */
export async function run(args: string[], io: Io): Promise<number> {
  const { values, positionals } = parseCommand("run", args, RUN_OPTIONS);
  if (values.help) return help(io, "run");
  atMostPositionals("run", positionals, 0);
  const format = formatOf("run", values);
  const pauseAt = choice("run", "--pause-at", values["pause-at"], PAUSE_POINTS);
  const faults: Faults = {
    cancelAt: choice("run", "--cancel-at", values["cancel-at"], CHECKPOINTS),
    failAt: choice("run", "--fail-at", values["fail-at"], FAIL_POINTS),
    badOutput: values["bad-output"] ?? false,
    auditFailure: values["audit-failure"] ?? false,
    pause: pauseAt
      ? (point) => point === pauseAt ? holdForever(io, point) : undefined
      : undefined,
  };
  const raw = rawToolArgs(values);
  const named = ledgerFileOf("run", io, values, true);
  await using scratch = named === undefined
    ? scratchFolder(privateRoot(io.base)!)
    : undefined;
  const path = named ?? join(scratch!.path, "lab.sqlite");
  const lab = Lab.open(path, { trusted: trustedFolders(io.base) });
  try {
    const { output, attempt } = await observeRun(lab, raw, faults);
    if (format === "json") io.out(JSON.stringify(output));
    else if (format === "svg") {
      io.out(
        timelineSvg("guardlab run", [{ title: "this attempt", attempt }], []),
      );
    } else {
      for (const line of renderTimeline(timelineOf(attempt), styleFor(io))) {
        io.out(line);
      }
      io.out("result:");
      for (
        const line of JSON.stringify(output, null, 2).split("\n")
      ) {
        io.out(`  ${line}`);
      }
    }
    return "raised" in output ? EXIT.failed : EXIT.ok;
  } finally {
    lab.close();
  }
}

/** Open the ledger a show command names, read-only: it never changes a byte. */
function openExisting(
  command: string,
  io: Io,
  values: { ledger?: string; "ledger-file"?: string },
): Ledger {
  const path = ledgerFileOf(command, io, values, false);
  if (path === undefined) {
    throw new UsageError(
      "--ledger NAME or --ledger-file PATH is required",
      command,
    );
  }
  if (path === null || !lexists(path)) {
    throw new LedgerUnusable(
      values.ledger !== undefined
        ? `no ledger named ${values.ledger} (a run with --ledger ${values.ledger} creates it)`
        : `no ledger file at ${path}`,
    );
  }
  return Ledger.open(path, { mode: "read", trusted: trustedFolders(io.base) });
}

/** Whether `path` names anything, a dangling link included. */
function lexists(path: string): boolean {
  try {
    Deno.lstatSync(path);
    return true;
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) return false;
    throw error;
  }
}

/** Flags of the commands that read an existing ledger. */
const READ_OPTIONS = {
  ledger: { type: "string" },
  "ledger-file": { type: "string" },
  json: { type: "boolean" },
} as const;

/** `guardlab ledger (--ledger NAME | --ledger-file PATH) [--json]` */
export function ledger(args: string[], io: Io): number {
  const { values, positionals } = parseCommand("ledger", args, READ_OPTIONS);
  if (values.help) return help(io, "ledger");
  atMostPositionals("ledger", positionals, 0);
  const book = openExisting("ledger", io, values);
  try {
    const drafts = book.drafts();
    const receipts = book.receipts();
    if (values.json) {
      io.out(JSON.stringify({ drafts, receipts }));
      return EXIT.ok;
    }
    io.out(`drafts (${drafts.length}): the business effect`);
    for (const d of drafts) {
      const text = (d.body as { text?: unknown })?.text;
      io.out(
        `  ${d.job}  ${
          typeof text === "string" ? text : JSON.stringify(d.body)
        }`,
      );
    }
    io.out(`receipts (${receipts.length}): the audit trail`);
    for (const r of receipts) {
      io.out(
        `  #${r.attempt}  ${r.job ?? "(no job)"}  ${r.status}  draft ${
          r.effect_exists ? "present" : "absent"
        }`,
      );
      for (const line of wrap(`      ${(r.events ?? []).join(" > ")}`, 80)) {
        io.out(line);
      }
    }
    return EXIT.ok;
  } finally {
    book.close();
  }
}

/** `guardlab reconcile (--ledger NAME | --ledger-file PATH) [--json]` */
export function reconcile(args: string[], io: Io): number {
  const { values, positionals } = parseCommand(
    "reconcile",
    args,
    READ_OPTIONS,
  );
  if (values.help) return help(io, "reconcile");
  atMostPositionals("reconcile", positionals, 0);
  const book = openExisting("reconcile", io, values);
  let pending;
  try {
    pending = pendingKeys(book);
  } finally {
    book.close();
  }
  if (values.json) io.out(JSON.stringify({ pending }));
  else if (pending.length === 0) {
    io.out("nothing to reconcile: every draft has an accepted receipt");
  } else {
    const where = values.ledger !== undefined
      ? `--ledger ${values.ledger}`
      : `--ledger-file ${shellQuote(values["ledger-file"]!)}`;
    for (const p of pending) {
      const seen = p.receipts.length === 0
        ? "no receipt at all (effect present, receipt missing)"
        : "receipts " +
          p.receipts.map((r) => `#${r.attempt} ${r.status}`).join(", ");
      io.out(`${p.job}: draft present, never accepted; ${seen}`);
      io.out(
        p.retry
          ? `  next: guardlab run ${where} --job ${p.job} --topic ${p.retry.topic} --copies ${p.retry.copies}`
          : `  next: retry ${p.job} with the arguments that created it`,
      );
      io.out(
        "        (same key and arguments: the draft is reused, the output check runs again)",
      );
    }
  }
  return pending.length === 0 ? EXIT.ok : EXIT.reconcile;
}

/** `guardlab reset --ledger NAME` */
export function reset(args: string[], io: Io): number {
  const { values, positionals } = parseCommand("reset", args, {
    ledger: { type: "string" },
  });
  if (values.help) return help(io, "reset");
  atMostPositionals("reset", positionals, 0);
  if (values.ledger === undefined) {
    throw new UsageError("--ledger NAME is required", "reset");
  }
  const name = values.ledger;
  asUsage("reset", () => ledgerPaths("", name));
  const root = privateRoot(io.base, false);
  const removed = root !== null && removeLedger(root, name);
  io.out(
    removed
      ? `removed ledger ${name}`
      : `no ledger named ${name}; nothing removed`,
  );
  return EXIT.ok;
}

/** Print the help of `command` on stdout. */
export function help(io: Io, command: string): number {
  io.out(HELP[command]);
  return EXIT.ok;
}
