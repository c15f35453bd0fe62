/**
 * `guardlab reset --ledger NAME`: remove one named ledger.
 *
 * @module
 */
import { privateRoot, removeLedger } from "../../../sandbox/sandbox.ts";
import { command } from "../../command.ts";
import { EXIT } from "../../exit.ts";
import { RESET_HELP as H, RESET_MESSAGES as M } from "./_messages.ts";
import { writerFor } from "../../output.ts";
import { required } from "../../parser.ts";
import { checkedName } from "../../places.ts";

/** The `reset` command. */
export const reset = command({
  name: "reset",
  usage: "reset --ledger NAME",
  about: H.about,
  options: { ledger: { type: "string", value: "NAME", help: H.ledger } },
  maxPositionals: 0,
  exits: { 0: H.exitOk, 2: null, 4: null },
  run({ values, io, lang }) {
    const given = required("reset", "--ledger NAME", values.ledger);
    const name = checkedName("reset", given);
    const root = privateRoot(io, { create: false });
    const removed = root !== null && removeLedger(root, name);
    writerFor(io, lang).say(removed ? M.removed : M.absent, { name });
    return EXIT.ok;
  },
});
