/**
 * `guardlab reconcile`: keys whose effect exists without an accepted receipt.
 *
 * @module
 */
import { reconcileLedger } from "../../../timing/reconcile.ts";
import { displayWidth, inert, shellQuote } from "../../../base/terminal.ts";
import { JOB_PATTERN } from "../../../timing/args.ts";
import { fill } from "../../../base/i18n.ts";
import { command } from "../../command.ts";
import { EXIT } from "../../exit.ts";
import { RECONCILE_HELP as H, RECONCILE_MESSAGES as M } from "./_messages.ts";
import { writerFor } from "../../output.ts";
import {
  MAX_VIEW_ROWS,
  textCost,
  ViewBudget,
} from "../../../views/view_bound.ts";
import { LEDGER_OPTIONS, readExisting } from "../../places.ts";

/** The `reconcile` command. */
export const reconcile = command({
  name: "reconcile",
  usage: "reconcile (--ledger NAME | --ledger-file PATH) [--json]",
  about: H.about,
  options: {
    ...LEDGER_OPTIONS,
    json: { type: "boolean", help: H.json },
  },
  maxPositionals: 0,
  exits: { 0: H.exitOk, 2: null, 3: H.exitPending, 4: null },
  run({ values, io, lang }) {
    // The exit code is worked out from every key; what is shown is bounded
    // (view_bound.ts): the keys are read in order while they fit, the rest
    // only counted, and only the keys shown are made inert.
    const budget = new ViewBudget();
    let asked = 0;
    const { shown, listed, open } = readExisting(
      "reconcile",
      io,
      values,
      (book) =>
        reconcileLedger(book, {
          show: (p) => (asked++, budget.fits("keys", p)),
          maxShown: MAX_VIEW_ROWS + 1,
          // No key a view could show holds more receipts than this.
          maxHeldReceipts: Math.ceil(
            budget.max / textCost({ attempt: 0, status: "" }),
          ),
        }),
    );
    budget.takeFrom("keys", [], listed - asked);
    const done = open === 0 ? EXIT.ok : EXIT.reconcile;
    const out = writerFor(io, lang);
    if (values.json) {
      out.json({ pending: shown, ...budget.cutJson() });
      return done;
    }
    const where = values.ledger !== undefined
      ? `--ledger ${values.ledger}`
      : `--ledger-file ${shellQuote(values["ledger-file"]!)}`;
    const next = out.text(M.next);
    // A command too long for one line continues with a backslash, so a
    // pasted copy is still one command.
    const command = (verb: string, args: string) => {
      const line = `guardlab ${verb} ${where} ${args}`;
      if (displayWidth(next + line) <= 80) io.out(next + line);
      else {
        io.out(`${next}guardlab ${verb} ${where} \\`);
        io.out(`          ${args}`);
      }
    };
    // A key goes into a suggested command only when it is one guardlab
    // writes (JOB- and three digits), and quoted even then; any other key
    // from a ledger is shown inert and no command is suggested for it.
    const suggest = (raw: string, verb: string, args: string) => {
      if (JOB_PATTERN.test(raw)) command(verb, args);
      else io.out(next + out.text(M.foreignKey));
    };
    for (const stored of shown) {
      const raw = stored.job;
      const p = {
        ...stored,
        job: inert(stored.job),
        receipts: stored.receipts.map((r) => ({
          ...r,
          status: inert(r.status),
        })),
      };
      const seen = p.receipts.length === 0 ? M.noReceipt : fill(M.receipts, {
        list: p.receipts.map((r) => `#${r.attempt} ${r.status}`).join(", "),
      });
      if (p.state === "voided") {
        const receipt = p.compensationReceipt
          ? M.receiptWritten
          : M.receiptMissing;
        out.wrapped(M.voided, { job: p.job, receipt });
        out.say(M.keyClosed);
        continue;
      }
      if (p.state === "compensation_requested") {
        out.wrapped(M.requested, { job: p.job });
        suggest(raw, "compensate", `--job ${shellQuote(raw)}`);
        out.say(M.compensateAgain);
        continue;
      }
      out.wrapped(M.neverAccepted, { job: p.job, seen });
      if (!JOB_PATTERN.test(raw)) {
        io.out(next + out.text(M.foreignKey));
      } else if (p.retry) {
        suggest(
          raw,
          "run",
          `--job ${shellQuote(raw)} --topic ${
            shellQuote(p.retry.topic)
          } --copies ${p.retry.copies}`,
        );
      } else {
        io.out(next + out.text(M.retryOriginal, { job: p.job }));
      }
      out.say(M.sameKey);
    }
    for (const line of budget.cutLines()) out.wrapped(line);
    if (open === 0) out.say(M.nothing);
    return done;
  },
});
