/** Fixtures shared by the cli_*_test.ts files. */
import { fileURLToPath } from "node:url";
import { removeLedger } from "../../lib/sandbox/sandbox.ts";
import { COMMANDS } from "../../lib/cli/_command_registry.ts";
import { TEST_ROOT } from "./helpers.ts";

/** Every command's name, in overview order. */
export const COMMAND_NAMES: string[] = COMMANDS.map((c) => c.name);

/** A unique ledger name, removed afterwards. */
export async function withLedger(
  body: (name: string) => Promise<void>,
): Promise<void> {
  const name = `t-${crypto.randomUUID().slice(0, 8)}`;
  try {
    await body(name);
  } finally {
    removeLedger(TEST_ROOT, name);
  }
}

/** The ledger the reference's timing_lab.py wrote (see the README). */
export const REFERENCE_LEDGER: string = fileURLToPath(
  new URL("../../fixtures/reference-ledger.sqlite", import.meta.url),
);

/** A `script` input of `count` accepted runs over 1,000 keys (a new draft, then reuses), one JSON line each. */
export function runSteps(count: number): string {
  return Array.from(
    { length: count },
    (_, i) =>
      JSON.stringify({
        op: "run",
        args: {
          job: `JOB-${String(i % 1000).padStart(3, "0")}`,
          topic: "river",
          copies: 2,
        },
      }),
  ).join("\n") + "\n";
}
