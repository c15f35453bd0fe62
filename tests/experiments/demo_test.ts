import assert from "node:assert/strict";
import { copyFile } from "node:fs/promises";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { DatabaseSync } from "node:sqlite";
import expectedTiming from "../../fixtures/expected-timing.json" with {
  type: "json",
};
import { Lab } from "../../lib/mod.ts";
import { timingDemo } from "../../lib/experiments/demo.ts";
import { persistedCounts } from "../_helpers/helpers.ts";
import { tempDir } from "../_helpers/tmp.ts";

Deno.test("timing demo equals the hand-written fixture", async () => {
  await using dirFolder = await tempDir("guardlab-demo-");
  const dir = dirFolder.path;
  assert.deepEqual(await timingDemo(dir), expectedTiming);
  assert.deepEqual(persistedCounts(join(dir, "lab.sqlite")), [2, 4]);
});

const REFERENCE_LEDGER = fileURLToPath(
  new URL("../../fixtures/reference-ledger.sqlite", import.meta.url),
);

Deno.test("a ledger written by the reference Python lab", async (t) => {
  // fixtures/reference-ledger.sqlite was written by the reference timing_lab.py:
  // JOB-001 river 2 accepted (attempt 1), JOB-002 forest 3 with bad output (attempt 2).
  await using dirFolder = await tempDir("guardlab-crossimpl-");
  const dir = dirFolder.path;
  const path = join(dir, "lab.sqlite");
  await t.step(
    "is continued: same key and arguments reuse the draft",
    async () => {
      await copyFile(REFERENCE_LEDGER, path);
      const lab = Lab.open(path);
      try {
        const r = await lab.run({
          job: "JOB-002",
          topic: "forest",
          copies: 3,
        });
        assert.equal(r.status, "accepted");
        assert.equal(r.attempt, 3);
        assert.ok(r.events.includes("effect_reused"));
        assert.deepEqual(r.released, {
          job: "JOB-002",
          text: "forest / copies=3",
        });
      } finally {
        lab.close();
      }
      assert.deepEqual(persistedCounts(path), [2, 3]);
    },
  );

  await t.step(
    "is continued: same key, other arguments conflict",
    async () => {
      const lab = Lab.open(path);
      try {
        const r = await lab.run({
          job: "JOB-001",
          topic: "forest",
          copies: 2,
        });
        assert.equal(r.status, "key_conflict");
      } finally {
        lab.close();
      }
      assert.deepEqual(persistedCounts(path), [2, 4]);
    },
  );

  await t.step(
    "gets byte-identical rows from guardlab for the same inputs",
    async () => {
      // Equal bytes mean the reference can continue a guardlab ledger too.
      const ours = join(dir, "ours.sqlite");
      const lab = Lab.open(ours);
      try {
        await lab.run({ job: "JOB-001", topic: "river", copies: 2 });
        await lab.run({ job: "JOB-002", topic: "forest", copies: 3 }, {
          badOutput: true,
        });
      } finally {
        lab.close();
      }
      const dump = (file: string) => {
        const db = new DatabaseSync(file, { readOnly: true });
        try {
          return {
            drafts: db.prepare("SELECT * FROM drafts ORDER BY job").all(),
            receipts: db.prepare("SELECT * FROM receipts ORDER BY attempt")
              .all(),
            columns: ["drafts", "receipts"].map((table) =>
              db.prepare(`PRAGMA table_info(${table})`).all()
            ),
          };
        } finally {
          db.close();
        }
      };
      assert.deepEqual(dump(ours), dump(REFERENCE_LEDGER));
    },
  );
});
