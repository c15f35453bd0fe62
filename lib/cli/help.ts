/**
 * The CLI's help texts: one per command plus the overview. Kept beside the
 * parsers so `--help` says what the code does.
 *
 * @module
 */
import { SANDBOX_ROOT } from "../sandbox.ts";

/** Exit codes, documented once and used everywhere. */
export const EXIT = {
  ok: 0,
  failed: 1,
  usage: 2,
  reconcile: 3,
  refused: 4,
} as const;

const EXIT_TEXT = `Exit codes:
  0  done
  1  failed: verify mismatch, a run that raised, an invalid script step,
     or an internal error
  2  usage error (unknown command, flag or value)
  3  reconcile found keys that need a retry
  4  refused: outside the sandbox, or a ledger file that is not a ledger`;

/** The one-line usage summary printed after a usage error. */
export const USAGE = `usage: guardlab <command> [options]
  commands: demo verify run ledger reconcile reset script explain sandbox
  guardlab <command> --help  |  guardlab --help  |  guardlab --version`;

/** Help for each command, keyed by command name. */
export const HELP: Record<string, string> = {
  guardlab:
    `guardlab: where a tool's guardrail stops a call, relative to its side effect

Commands:
  demo [timing|policy]   run the article's fixed scenarios (default: both)
  verify                 run both demos and compare them with the expected
                         answers built into this program
  run                    one attempt against a named ledger
  ledger                 show a named ledger's drafts and receipts
  reconcile              list keys with a draft but no accepted receipt
  reset                  delete a named ledger
  script                 run an experiment written as JSON Lines on stdin
  explain [SCENARIO]     what each demo scenario shows, in English or Chinese
  sandbox                show what this process may touch (for teachers)

Options:
  -h, --help             show help (also: guardlab <command> --help,
                         guardlab help <command>)
  -V, --version          show the version

guardlab reads and writes only under ${SANDBOX_ROOT}; named ledgers live in
${SANDBOX_ROOT}/guardlab/NAME/. It has no network, environment or process access.

${EXIT_TEXT}`,

  demo: `usage: guardlab demo [timing|policy] [--json] [--format text|json|svg]

Runs the fixed scenarios of the timing lab (input rejected, output rejected
with the draft already committed, same-request retry, cancel after commit) and
of the policy lab (stale rule with the naive and the checked insert, restored
value, failure before commit), each in a fresh temporary ledger.

Options:
  --json                 print the results as JSON (same as --format json)
  --format FORMAT        text (timeline view, default), json, or svg
  -h, --help             show this help

${EXIT_TEXT}`,

  verify: `usage: guardlab verify [--json]

Runs both demos in fresh temporary ledgers and compares every scenario with
the expected JSON built into this program. Prints one line per scenario and,
for a mismatch, the expected and the actual value. Exit 0 only when all match.

Options:
  --json                 print {"ok", "scenarios": [...]} instead
  -h, --help             show this help

${EXIT_TEXT}`,

  run: `usage: guardlab run [--ledger NAME | --ledger-file PATH]
                    (--job JOB --topic TOPIC --copies N | --args JSON)
                    [--cancel-at STAGE] [--fail-at STAGE] [--bad-output]
                    [--audit-failure] [--pause-at POINT] [--json]
                    [--format text|json|svg]

One attempt of the draft tool. The arguments go through the lab's own
validation, so missing or malformed ones become status input_rejected.
Prints the stage timeline (before and after the commit point) and the result.
Without --ledger the attempt uses a fresh ledger that is deleted afterwards.

Options:
  --ledger NAME          use ${SANDBOX_ROOT}/guardlab/NAME/lab.sqlite
                         (NAME: 1-32 of a-z, 0-9, '-')
  --ledger-file PATH     use this ledger file (must be under ${SANDBOX_ROOT})
  --job, --topic, --copies   the tool arguments
  --args JSON            the raw tool arguments as one JSON value
  --cancel-at STAGE      cancel at before_business, after_business or
                         output_check
  --fail-at STAGE        raise at before_business, inside_transaction,
                         after_commit, after_business or output_check
  --bad-output           corrupt the result handed to the output check
  --audit-failure        make the receipt write fail
  --pause-at POINT       harness: print "paused POINT" on stderr and wait at
                         before_business, after_commit, after_output_check
                         or before_receipt (to kill the process there)
  --json                 print the result object (or the raised object)
  -h, --help             show this help

Exit 0 when the attempt returned a result (whatever its status), 1 when it
raised (cancelled, audit unavailable, database error).`,

  ledger: `usage: guardlab ledger (--ledger NAME | --ledger-file PATH) [--json]

Shows the drafts (the business effect) and the receipts (the audit trail).

Options:
  --ledger NAME          a named ledger
  --ledger-file PATH     a ledger file under ${SANDBOX_ROOT}
  --json                 print {"drafts": [...], "receipts": [...]}
  -h, --help             show this help`,

  reconcile:
    `usage: guardlab reconcile (--ledger NAME | --ledger-file PATH) [--json]

Lists every business key whose draft exists but for which no receipt says
accepted, including drafts with no receipt at all (the effect is there, the
receipt is missing), with the safe next step: retry the same key and
arguments; the draft is reused and the output check runs again.

Options:
  --ledger NAME          a named ledger
  --ledger-file PATH     a ledger file under ${SANDBOX_ROOT}
  --json                 print {"pending": [...]}
  -h, --help             show this help

Exit 0 when nothing needs reconciling, 3 otherwise.`,

  reset: `usage: guardlab reset --ledger NAME

Deletes ${SANDBOX_ROOT}/guardlab/NAME/ (both databases) and nothing else.

Options:
  -h, --help             show this help`,

  script: `usage: guardlab script [--ledger NAME] [--view] [FILE] < steps.jsonl

Runs an experiment written as JSON Lines, one step per line, against one
fresh ledger (or the named one), printing one compact JSON line per step as
it goes. Steps: run, count, exists, drafts, receipts, fixture, restart, and
policy.precheck, policy.change, policy.insert_checked, policy.insert_naive,
policy.lock, policy.unlock, policy.delete, policy.rows (see README).
A FILE must be under ${SANDBOX_ROOT}; anywhere else, pipe it on stdin.

Options:
  --ledger NAME          keep the state in a named ledger
  --view                 after each run step, print its timeline on stderr
  -h, --help             show this help

Exit 0 when every step was valid, 1 when any step printed invalid_step.`,

  sandbox: `usage: guardlab sandbox [--json]

Asks the runtime what this process may read, write and do, and compares it
with the grant guardlab is built with: read and write under ${SANDBOX_ROOT}
only; no network, environment, subprocess, FFI, system-info or import access.

Options:
  --json                 print {"narrow", "probes": [...]}
  -h, --help             show this help

Exit 0 when the grant is exactly the narrow one, 1 otherwise.`,

  explain:
    `usage: guardlab explain [SCENARIO|list] [--lang en|zh] [--format text|svg]

Explains a demo scenario: what happened, why the check could not undo the
effect (or why the conditional write refused), and the safe next step.
Without SCENARIO, explains all of them; "list" lists their names.

Options:
  --lang LANG            en (default) or zh
  --format FORMAT        text (default) or svg (the scenario's timeline)
  -h, --help             show this help`,
};

/** The command names, in the order the overview lists them. */
export const COMMAND_NAMES: readonly string[] = Object.keys(HELP).filter((k) =>
  k !== "guardlab"
);
