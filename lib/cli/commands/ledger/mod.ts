/**
 * `guardlab ledger`: a ledger's drafts and receipts, read-only.
 *
 * @module
 */
import { PolicyLab } from "../../../policy/policy.ts";
import {
  ledgerFolder,
  POLICY_FILE,
  privateRoot,
  trustedFolders,
} from "../../../sandbox/sandbox.ts";
import { inert } from "../../../base/terminal.ts";
import type { Lang, Text } from "../../../base/i18n.ts";
import type { Ledger } from "../../../timing/ledger.ts";
import { command } from "../../command.ts";
import { EXIT } from "../../exit.ts";
import type { Io } from "../../io.ts";
import { LEDGER_HELP as H, LEDGER_MESSAGES as M } from "./_messages.ts";
import { styleFor, writerFor } from "../../output.ts";
import { UsageError } from "../../parser.ts";
import {
  existingLedgerPath,
  type Format,
  formatOf,
  LEDGER_OPTIONS,
  readExisting,
} from "../../places.ts";
import { attemptTitle, renderHistory } from "../../../views/ledger_timeline.ts";
import { shownHistory } from "../../../views/shown_history.ts";
import { ledgerHistory } from "../../../views/ledger_history.ts";
import { shownAsText, ViewBudget } from "../../../views/view_bound.ts";
import { type LedgerRows, ledgerRows } from "../../../views/ledger_rows.ts";
import { timelineSvg } from "../../../views/svg.ts";
import { PLAIN } from "../../../views/timeline.ts";
import type { LedgerHistory } from "../../../views/ledger_timeline.ts";
import {
  callTimes,
  ledgerTrace,
  type LedgerTraceInput,
} from "../../../views/ledger_otlp.ts";
import { encodeTrace } from "../../../otlp/trace.ts";
import { assertNewFile, writeNewFile } from "../../../sandbox/new_file.ts";
import { resolve } from "../../../base/path.ts";

/** The `ledger` command. */
export const ledger = command({
  name: "ledger",
  usage: `ledger (--ledger NAME | --ledger-file PATH) [--json]
                    [--timeline [--format text|json|svg] [--otlp FILE]]`,
  about: H.about,
  options: {
    ...LEDGER_OPTIONS,
    json: { type: "boolean", help: H.json },
    timeline: { type: "boolean", help: H.timeline },
    format: { type: "string", value: "FORMAT", help: H.format },
    otlp: { type: "string", value: "FILE", help: H.otlp },
  },
  maxPositionals: 0,
  exits: { 0: null, 2: null, 4: H.refused },
  async run({ values, io, lang }) {
    if (values.format !== undefined && !values.timeline) {
      throw new UsageError(M.formatNeedsTimeline, "ledger");
    }
    if (values.otlp !== undefined && !values.timeline) {
      throw new UsageError(M.otlpNeedsTimeline, "ledger");
    }
    const format = values.timeline ? formatOf("ledger", values) : undefined;
    // The trace's file is checked before the ledger is read: a name that
    // is taken costs nothing.
    const trusted = trustedFolders(io.base);
    if (values.otlp !== undefined) assertNewFile(values.otlp, trusted);
    let trace: LedgerTraceInput | undefined;
    // One bound for everything this call shows (see view_bound.ts): rows
    // are read one at a time and taken while they fit, the rest counted, so
    // what this holds does not grow with the ledger; only the rows shown
    // are made inert.
    const budget = new ViewBudget();
    const { json } = values;
    const rows = readExisting("ledger", io, values, (book) => {
      if (format === undefined) return ledgerRows(book, budget, json === true);
      const shown = showTimeline(book, format, budget, io, lang);
      if (values.otlp !== undefined) {
        trace = traceInput(book, shown, budget, values, io, lang);
      }
    });
    if (rows === undefined) {
      if (trace !== undefined) {
        writeNewFile(
          values.otlp!,
          trusted,
          encodeTrace(await ledgerTrace(trace)).text,
        );
      }
      return EXIT.ok;
    }
    // A named ledger's policy database, beside it, read-only too.
    const policy = values.ledger === undefined
      ? undefined
      : policyOf(io, values.ledger);
    const shownPolicy = policy && {
      ...policy,
      drafts: budget.take("policy_drafts", policy.drafts),
    };
    if (json) {
      writerFor(io, lang).json({
        drafts: rows.drafts,
        receipts: rows.receipts,
        ...(rows.all.compensations > 0 ? { compensations: rows.voids } : {}),
        // Who made each attempt, when guardlab mcp did: beside the receipts.
        ...(rows.all.calls > 0
          ? { sessions: rows.sessions, calls: rows.calls }
          : {}),
        ...(shownPolicy === undefined ? {} : { policy: shownPolicy }),
        ...budget.cutJson(),
      });
      return EXIT.ok;
    }
    // Stored text is shown, never obeyed: a control character or a line
    // break in a key, a status or an event becomes visible as \uXXXX.
    showRows(rows, policy?.drafts.length ?? 0, shownPolicy, io, lang);
    for (const line of budget.cutLines()) writerFor(io, lang).wrapped(line);
    return EXIT.ok;
  },
});

/**
 * `--timeline`: every attempt in order, as text, JSON or SVG. The history
 * is worked out from the stored rows; what `budget` lets through is drawn.
 */
function showTimeline(
  book: Ledger,
  format: Format,
  budget: ViewBudget,
  io: Io,
  lang: Lang,
): { history: LedgerHistory; order: Text[] } {
  const out = writerFor(io, lang);
  const { history: bounded, byCalls, unordered, order } = ledgerHistory(
    book,
    budget,
  );
  if (format === "json") {
    out.json({
      attempts: bounded.attempts.map((a) => ({
        receipt: a.receipt,
        job: a.job,
        status: a.status,
        commit: a.timeline.commit,
        stages: [...a.timeline.before, ...a.timeline.after].map((r) => ({
          stage: r.stage,
          mark: r.mark,
        })),
        ...(a.by ? { by: a.by } : {}),
      })),
      omitted: bounded.omitted,
      compensations: bounded.compensations,
      ...(byCalls ? { reads: bounded.reads, sessions: bounded.sessions } : {}),
      ...(unordered === null ? {} : { unordered }),
      ...budget.cutJson(),
    });
    return { history: bounded, order };
  }
  const history = shownHistory(bounded, inert);
  if (format === "svg") {
    // The legend, the other calls and the compensations, under the lanes.
    const notes = renderHistory(
      {
        ...history,
        attempts: [],
        reads: history.reads.map((r) => ({ ...r, after: 0 })),
      },
      PLAIN,
      lang,
    ).slice(1);
    io.out(timelineSvg(
      out.text(M.svgTitle),
      history.attempts.map((a) => ({
        title: attemptTitle(a, lang),
        attempt: a.attempt,
        timeline: a.timeline,
      })),
      [
        ...order.map((line) => out.text(line)),
        ...notes,
        ...budget.cutLines().map((line) => out.text(line)),
      ],
      lang,
    ));
  } else {
    for (const line of order) out.wrapped(line);
    out.lines(renderHistory(history, styleFor(io), lang));
    for (const line of budget.cutLines()) out.wrapped(line);
  }
  return { history: bounded, order };
}

/**
 * What `--otlp` writes of the timeline just shown: the same history within
 * the same bound, the times of its calls, and what its ids derive from
 * (the ledger's path, its file's birth time, its first MCP session's start:
 * see `views/ledger_otlp.ts`).
 */
function traceInput(
  book: Ledger,
  { history, order }: { history: LedgerHistory; order: Text[] },
  budget: ViewBudget,
  values: { ledger?: string; "ledger-file"?: string },
  io: Io,
  lang: Lang,
): LedgerTraceInput {
  const path = resolve(existingLedgerPath("ledger", io, values));
  const born = Deno.lstatSync(path).birthtime?.getTime();
  let firstSession = "";
  for (const s of book.eachSession()) {
    firstSession = String(s.started_us);
    break;
  }
  return {
    history,
    leftOut: budget.leftOut,
    notes: [...order, ...budget.cutLines()],
    times: callTimes(book.eachCall(), history),
    seed: [path, String(born ?? ""), firstSession],
    ledger: values.ledger ?? values["ledger-file"]!,
    lang,
  };
}

/**
 * The drafts, the receipts and the policy lab beside them, as text: the
 * rows shown (made inert here), under headings that count every row.
 */
function showRows(
  stored: LedgerRows,
  policyDrafts: number,
  policy: PolicyView | null | undefined,
  io: Io,
  lang: Lang,
): void {
  const out = writerFor(io, lang);
  // The tags are looked up by the stored keys, before they are made inert.
  out.say(M.drafts, { n: stored.all.drafts });
  for (const row of stored.drafts) {
    const state = stored.states.get(row.job);
    const d = shownAsText(row);
    const text = (d.body as { text?: unknown })?.text;
    const tag = state === "voided"
      ? out.text(M.voidedTag)
      : state === "requested"
      ? out.text(M.requestedTag)
      : "";
    io.out(
      `  ${d.job}  ${
        typeof text === "string" ? text : JSON.stringify(d.body)
      }${tag}`,
    );
  }
  out.say(M.receipts, { n: stored.all.receipts });
  for (const r of stored.receipts.map(shownAsText)) {
    const draft = out.text(r.effect_exists ? M.draftPresent : M.draftAbsent);
    io.out(
      `  #${r.attempt}  ${r.job ?? out.text(M.noJob)}  ${r.status}  ${draft}`,
    );
    out.wrapped(`      ${(r.events ?? []).join(" > ")}`);
  }
  if (policy === undefined) return;
  out.say(M.policyLab, { file: POLICY_FILE });
  if (policy === null) return out.say(M.policyNotCreated);
  if (policy.rule === null) out.say(M.ruleMissing);
  else {
    out.say(M.rule, {
      revision: policy.rule.revision,
      max_copies: policy.rule.max_copies,
    });
  }
  out.say(M.policyDrafts, { n: policyDrafts });
  for (const [job, copies, revision] of policy.drafts) {
    out.say(M.policyDraft, { job: inert(job), copies, revision });
  }
}

/** The policy database beside named ledger `name`: `null` when it was never made. */
function policyOf(io: Io, name: string): PolicyView | null {
  const root = privateRoot(io, { create: false });
  const folder = root === null
    ? null
    : ledgerFolder(root, name, { create: false });
  if (folder === null) return null;
  try {
    Deno.lstatSync(folder.policy);
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) return null;
    throw error;
  }
  const db = PolicyLab.openForReading(folder.policy, trustedFolders(io.base));
  try {
    const rule = db.currentPolicy();
    return {
      rule: rule && { revision: rule.revision, max_copies: rule.max_copies },
      drafts: db.rows(),
    };
  } finally {
    db.close();
  }
}

/** What `ledger` shows of the policy lab. */
interface PolicyView {
  /** The current rule, or `null` when its row was deleted. */
  rule: { revision: number; max_copies: number } | null;
  /** `[job, copies, checked_revision]`, by job. */
  drafts: [string, number, number][];
}
