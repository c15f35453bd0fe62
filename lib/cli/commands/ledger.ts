/**
 * `guardlab ledger`: a ledger's drafts and receipts, read-only.
 *
 * @module
 */
import { PolicyLab } from "../../policy/policy.ts";
import {
  ledgerFolder,
  POLICY_FILE,
  privateRoot,
  trustedFolders,
} from "../../sandbox/sandbox.ts";
import { inert } from "../../base/terminal.ts";
import type { Lang } from "../../base/i18n.ts";
import type {
  CallRow,
  DraftRow,
  Ledger,
  ReceiptRow,
  SessionRow,
} from "../../timing/ledger.ts";
import { command } from "../command.ts";
import { EXIT } from "../exit.ts";
import type { Io } from "../io.ts";
import { LEDGER_HELP as H, LEDGER_MESSAGES as M } from "../messages/ledger.ts";
import { styleFor, writerFor } from "../output.ts";
import { UsageError } from "../parser.ts";
import {
  type Format,
  formatOf,
  LEDGER_OPTIONS,
  readExisting,
} from "../places.ts";
import {
  attemptTitle,
  historyOf,
  renderHistory,
} from "../../views/ledger_timeline.ts";
import { timelineSvg } from "../../views/svg.ts";
import { PLAIN } from "../../views/timeline.ts";

/** The `ledger` command. */
export const ledger = command({
  name: "ledger",
  usage: `ledger (--ledger NAME | --ledger-file PATH) [--json]
                    [--timeline [--format text|json|svg]]`,
  about: H.about,
  options: {
    ...LEDGER_OPTIONS,
    json: { type: "boolean", help: H.json },
    timeline: { type: "boolean", help: H.timeline },
    format: { type: "string", value: "FORMAT", help: H.format },
  },
  maxPositionals: 0,
  exits: { 0: null, 2: null, 4: null },
  run({ values, io, lang }) {
    if (values.format !== undefined && !values.timeline) {
      throw new UsageError(M.formatNeedsTimeline, "ledger");
    }
    const format = values.timeline ? formatOf("ledger", values) : undefined;
    let rows = readExisting("ledger", io, values, (book) => ({
      drafts: book.drafts(),
      receipts: book.receipts(),
      voids: book.compensations(),
      calls: book.calls(),
      sessions: book.sessions(),
    }));
    // Stored text is shown, never obeyed: a control character or a line
    // break in a key, a status or an event becomes visible as \uXXXX.
    if (!values.json && format !== "json") rows = shownAsText(rows);
    if (format !== undefined) showTimeline(rows, format, io, lang);
    else {
      // A named ledger's policy database, beside it, read-only too.
      const policy = values.ledger === undefined
        ? undefined
        : policyOf(io, values.ledger);
      if (values.json) {
        writerFor(io, lang).json({
          drafts: rows.drafts,
          receipts: rows.receipts,
          ...(rows.voids.length > 0 ? { compensations: rows.voids } : {}),
          // Who made each attempt, when guardlab mcp did: beside the receipts.
          ...(rows.calls.length > 0
            ? { sessions: rows.sessions, calls: rows.calls }
            : {}),
          ...(policy === undefined ? {} : { policy }),
        });
      } else showRows(rows, policy, io, lang);
    }
    return EXIT.ok;
  },
});

/** What a ledger holds, as `ledger` reads it. */
interface Rows {
  /** The business effect. */
  drafts: DraftRow[];
  /** The audit trail. */
  receipts: ReceiptRow[];
  /** The compensations, by key. */
  voids: ReturnType<Ledger["compensations"]>;
  /** The MCP calls on record, in the order they started. */
  calls: CallRow[];
  /** The MCP sessions on record. */
  sessions: SessionRow[];
}

/** `--timeline`: every attempt in order, as text, JSON or SVG. */
function showTimeline(
  { drafts, receipts, voids, calls, sessions }: Rows,
  format: Format,
  io: Io,
  lang: Lang,
): void {
  const out = writerFor(io, lang);
  const history = historyOf(
    receipts,
    drafts.map((d) => d.job),
    voids,
    calls,
    sessions,
  );
  if (format === "json") {
    out.json({
      attempts: history.attempts.map((a) => ({
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
      omitted: history.omitted,
      compensations: history.compensations,
      ...(calls.length > 0
        ? { reads: history.reads, sessions: history.sessions }
        : {}),
    });
  } else if (format === "svg") {
    io.out(timelineSvg(
      out.text(M.svgTitle),
      history.attempts.map((a) => ({
        title: attemptTitle(a, lang),
        attempt: a.attempt,
        timeline: a.timeline,
      })),
      // The legend, the other calls and the compensations, under the lanes.
      renderHistory(
        {
          ...history,
          attempts: [],
          reads: history.reads.map((r) => ({ ...r, after: 0 })),
        },
        PLAIN,
        lang,
      ).slice(1),
      lang,
    ));
  } else out.lines(renderHistory(history, styleFor(io), lang));
}

/** The drafts, the receipts and the policy lab beside them, as text. */
function showRows(
  { drafts, receipts, voids }: Rows,
  policy: PolicyView | null | undefined,
  io: Io,
  lang: Lang,
): void {
  const out = writerFor(io, lang);
  out.say(M.drafts, { n: drafts.length });
  const stateOf = new Map(voids.map((c) => [c.job, c.state]));
  for (const d of drafts) {
    const text = (d.body as { text?: unknown })?.text;
    const state = stateOf.get(d.job);
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
  out.say(M.receipts, { n: receipts.length });
  for (const r of receipts) {
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
  out.say(M.policyDrafts, { n: policy.drafts.length });
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

/** The rows with every stored string made inert (see {@linkcode inert}). */
function shownAsText(rows: Rows): Rows {
  const walk = (value: unknown): unknown =>
    typeof value === "string"
      ? inert(value)
      : Array.isArray(value)
      ? value.map(walk)
      : value !== null && typeof value === "object"
      ? Object.fromEntries(
        Object.entries(value).map(([k, v]) => [k, walk(v)]),
      )
      : value;
  return walk(rows) as Rows;
}
