/**
 * `guardlab compensate`: undo a committed draft the business's own way.
 *
 * @module
 */
import { InjectedFailure } from "../../../timing/errors.ts";
import { trustedFolders } from "../../../sandbox/sandbox.ts";
import {
  compensate as runCompensation,
  COMPENSATION_FAULTS,
} from "../../../timing/compensation.ts";
import { Ledger } from "../../../timing/ledger.ts";
import { raisedOf } from "../../../timing/attempt.ts";
import { command } from "../../command.ts";
import { EXIT } from "../../exit.ts";
import { COMPENSATE_HELP as H, COMPENSATE_MESSAGES as M } from "./_messages.ts";
import { writerFor } from "../../output.ts";
import { required } from "../../parser.ts";
import { existingLedgerPath, LEDGER_OPTIONS } from "../../places.ts";

/** The `compensate` command. */
export const compensate = command({
  name: "compensate",
  usage: `compensate (--ledger NAME | --ledger-file PATH) --job JOB
                    [--fail-at POINT] [--json]`,
  about: H.about,
  options: {
    ...LEDGER_OPTIONS,
    job: { type: "string", value: "JOB", help: H.job },
    "fail-at": {
      type: "string",
      value: "POINT",
      choices: COMPENSATION_FAULTS,
      help: H.failAt,
    },
    json: { type: "boolean", help: H.json },
  },
  maxPositionals: 0,
  exits: { 0: H.exitOk, 1: H.exitFailed, 2: null, 4: null },
  run({ values, io, lang }) {
    const job = required("compensate", "--job JOB", values.job);
    const out = writerFor(io, lang);
    const failAt = values["fail-at"];
    // Compensating a ledger that does not exist is a mistake, not a new ledger.
    const path = existingLedgerPath("compensate", io, values);
    const ledger = Ledger.open(path, { trusted: trustedFolders(io.base) });
    try {
      const result = runCompensation(ledger, job, failAt);
      if (values.json) out.json(result);
      else {
        out.say(M[result.status], {
          job: result.job,
          attempt: result.attempt ?? "",
        });
      }
      return EXIT.ok;
    } catch (error) {
      const raised = error instanceof InjectedFailure
        ? { raised: "injected", message: error.message }
        : raisedOf(error);
      if (raised === undefined) throw error;
      if (values.json) out.json(raised);
      else out.wrapped(M.failed, { job, message: raised.message });
      return EXIT.failed;
    } finally {
      ledger.close();
    }
  },
});
