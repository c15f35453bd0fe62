/**
 * A ledger that floods a view: guardlab's exact schema, rows whose keys,
 * bodies and statuses are long runs of one character (U+0001 by default,
 * which every view shows as the six characters `\u0001`). Used by the
 * view-bound test and runnable to measure a large one:
 *
 *     deno run --allow-read --allow-write tests/_helpers/flood_ledger.ts FILE ROWS CHARS
 */
import { DatabaseSync } from "node:sqlite";
import { LEDGER_SCHEMA } from "../../lib/timing/ledger.ts";
import { fingerprint } from "../../lib/store/wire.ts";

/** The events of a receipt whose output check refused the result. */
const REFUSED_EVENTS = [
  "arguments_valid",
  "input_allowed",
  "business_started",
  "effect_committed",
  "output_started",
  "output_rejected",
];

/**
 * Write `rows` drafts and one receipt for each to a new ledger at `path`:
 * each key is `JOB-n` followed by `chars` copies of `char`, each body's
 * text and each receipt's status carry as many again. The bodies are
 * stored as text that is not JSON, as a hand-edited ledger may hold.
 */
export function floodLedger(
  path: string,
  rows: number,
  chars: number,
  char = "\u0001",
): void {
  const fill = char.repeat(chars);
  const db = new DatabaseSync(path);
  try {
    db.exec(LEDGER_SCHEMA.create);
    db.exec("BEGIN");
    const draft = db.prepare("INSERT INTO drafts VALUES(?,?,?)");
    const receipt = db.prepare(
      "INSERT INTO receipts(job,status,effect_exists,events) VALUES(?,?,1,?)",
    );
    for (let i = 0; i < rows; i++) {
      const job = `JOB-${i}${fill}`;
      draft.run(
        job,
        fingerprint({ job, topic: "river", copies: 2 }),
        `{"text":"${fill}"}`,
      );
      receipt.run(
        job,
        `output_rejected${fill}`,
        JSON.stringify(REFUSED_EVENTS),
      );
    }
    db.exec("COMMIT");
  } finally {
    db.close();
  }
}

if (import.meta.main) {
  const [file, rows, chars] = Deno.args;
  floodLedger(file, Number(rows), Number(chars));
}
