/**
 * A ledger at rest is one file: after every command that writes a named
 * ledger (success, failure, invalid steps, a signal), its folder holds no
 * `-wal`, `-shm` or `-journal`, and `lab.sqlite` copied alone holds every
 * committed row, read through a second connection on the copy.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { DatabaseSync } from "node:sqlite";
import {
  ledgerPaths,
  privateRoot,
  removeLedger,
} from "../../lib/sandbox/sandbox.ts";
import { PROOF_SUFFIX } from "../../lib/sandbox/safe_fs.ts";
import { cli } from "../_helpers/helpers.ts";
import { CAN_RUN, NEEDS_RUN, startGuardlab } from "../_helpers/spawn.ts";
import { runFlags } from "../_helpers/lab_flags.ts";
import { tempDirSync } from "../_helpers/tmp.ts";

/** Rows of `lab.sqlite` copied alone into a fresh folder, by table. */
function rowsOfCopy(lab: string): Record<string, string[]> {
  using dirFolder = tempDirSync("guardlab-copy-");
  const dir = dirFolder.path;
  const copy = join(dir, "lab.sqlite");
  Deno.copyFileSync(lab, copy);
  const db = new DatabaseSync(copy, { readOnly: true });
  try {
    const tables = (db.prepare(
      "SELECT name FROM sqlite_master WHERE type='table' AND name!='sqlite_sequence' ORDER BY name",
    ).all() as { name: string }[]).map((t) => t.name);
    return Object.fromEntries(tables.map((t) => [
      t,
      (db.prepare(`SELECT * FROM ${t}`).all() as Record<string, unknown>[])
        .map((r) => JSON.stringify(Object.values(r))),
    ]));
  } finally {
    db.close();
  }
}

/** The names in a ledger's folder. */
function namesIn(dir: string): string[] {
  return [...Deno.readDirSync(dir)].map((e) => e.name).sort();
}

/**
 * `dir` holds `files` and nothing SQLite keeps beside them; guardlab's
 * proof of provenance (`FILE.checked`, never opened by SQLite) may lie
 * beside a file it wrote.
 */
function assertAtRest(dir: string, files: string[]): void {
  assert.deepEqual(
    namesIn(dir).filter((n) => !files.some((f) => n === f + PROOF_SUFFIX)),
    files,
    "one file per database, nothing beside",
  );
}

Deno.test("at rest: every writing command leaves one file", async (t) => {
  const top = await Deno.makeTempDir({ prefix: "guardlab-rest-" });
  const base = join(top, "tmp");
  await Deno.mkdir(base);
  await Deno.chmod(base, 0o1777);
  const name = "rest";
  const dir = () => ledgerPaths(privateRoot(base)!, name).dir;
  const lab = () => ledgerPaths(privateRoot(base)!, name).lab;
  try {
    await t.step("run, accepted", async () => {
      const r = await cli(
        ["run", "--ledger", name, ...runFlags()],
        "",
        false,
        base,
      );
      assert.equal(r.code, 0, r.err.join("\n"));
      assertAtRest(dir(), ["lab.sqlite"]);
      const rows = rowsOfCopy(lab());
      assert.equal(rows.drafts.length, 1);
      assert.equal(rows.receipts.length, 1);
    });

    await t.step("run that raises after its commit", async () => {
      const r = await cli(
        [
          "run",
          "--ledger",
          name,
          ...runFlags({ job: "JOB-002" }),
          "--audit-failure",
        ],
        "",
        false,
        base,
      );
      assert.equal(r.code, 1, r.out.join("\n"));
      assertAtRest(dir(), ["lab.sqlite"]);
      const rows = rowsOfCopy(lab());
      assert.equal(rows.drafts.length, 2, "the committed draft is in the copy");
      assert.equal(rows.receipts.length, 1);
    });

    await t.step(
      "script with every kind of step and an invalid one",
      async () => {
        const steps = [
          { op: "run", args: { job: "JOB-003", topic: "forest", copies: 1 } },
          {
            op: "run",
            args: { job: "JOB-004", topic: "river", copies: 2 },
            faults: { bad_output: true },
          },
          { op: "compensate", job: "JOB-004" },
          { op: "restart" },
          { op: "count" },
          { op: "policy.precheck", job: "JOB-005", copies: 2, as: "s" },
          {
            op: "policy.insert_checked",
            job: "JOB-005",
            copies: 2,
            snapshot: "s",
          },
          { op: "policy.lock" },
          { op: "nonsense" },
        ].map((s) => JSON.stringify(s)).join("\n");
        const r = await cli(["script", "--ledger", name], steps, false, base);
        assert.equal(r.code, 1, "the invalid step");
        assertAtRest(dir(), ["lab.sqlite", "policy.sqlite"]);
        const rows = rowsOfCopy(lab());
        assert.equal(rows.drafts.length, 4);
        assert.equal(rows.receipts.length, 3);
        assert.equal(rows.compensations.length, 1);
        assert.equal(rows.compensation_receipts.length, 1);
      },
    );

    await t.step("compensate", async () => {
      const r = await cli(
        ["compensate", "--ledger", name, "--job", "JOB-001"],
        "",
        false,
        base,
      );
      assert.equal(r.code, 0, r.err.join("\n"));
      assertAtRest(dir(), ["lab.sqlite", "policy.sqlite"]);
      assert.equal(rowsOfCopy(lab()).compensations.length, 2);
    });

    await t.step("compensate that fails after its commit", async () => {
      const r = await cli(
        [
          "compensate",
          "--ledger",
          name,
          "--job",
          "JOB-003",
          "--fail-at",
          "after_commit",
        ],
        "",
        false,
        base,
      );
      assert.equal(r.code, 1, r.out.join("\n"));
      assertAtRest(dir(), ["lab.sqlite", "policy.sqlite"]);
      assert.equal(rowsOfCopy(lab()).compensations.length, 3);
    });
  } finally {
    await Deno.remove(top, { recursive: true });
  }
});

/** Wait until `child` writes `text` on stderr. */
async function waitFor(child: Deno.ChildProcess, text: string): Promise<void> {
  const reader = child.stderr.getReader();
  let seen = "";
  while (!seen.includes(text)) {
    const { value, done } = await reader.read();
    if (done) throw new Error(`ended before "${text}": ${seen}`);
    seen += new TextDecoder().decode(value);
  }
  reader.releaseLock();
}

Deno.test({
  name: "at rest: a signal closes every connection first" + NEEDS_RUN,
  ignore: !CAN_RUN,
  async fn(t) {
    const name = `t-rest-${crypto.randomUUID().slice(0, 8)}`;
    const paths = () => ledgerPaths(privateRoot()!, name);
    try {
      const cases = [
        ["after_commit", "SIGINT", "JOB-001", 130],
        ["before_receipt", "SIGINT", "JOB-002", 130],
        ["after_commit", "SIGTERM", "JOB-004", 143],
      ] as const;
      for (const [point, signal, job, exit] of cases) {
        await t.step(`${signal} while run waits at ${point}`, async () => {
          const child = startGuardlab([
            "run",
            "--ledger",
            name,
            ...runFlags({ job }),
            "--pause-at",
            point,
          ]);
          await child.stdin.close();
          await waitFor(child, `paused ${point}`);
          child.kill(signal);
          const { code } = await child.output();
          assert.equal(code, exit);
          assertAtRest(paths().dir, ["lab.sqlite"]);
          const drafts = rowsOfCopy(paths().lab).drafts;
          assert.ok(
            drafts.some((d) => d.includes(job)),
            `${job} was committed before the pause: ${drafts}`,
          );
        });
      }

      await t.step("SIGINT while script waits for its next step", async () => {
        const child = startGuardlab(["script", "--ledger", name]);
        const writer = child.stdin.getWriter();
        await writer.write(new TextEncoder().encode(
          JSON.stringify({
            op: "run",
            args: { job: "JOB-003", topic: "river", copies: 2 },
          }) + "\n" + JSON.stringify({ op: "policy.rows" }) + "\n",
        ));
        // Both steps answered: the writer, the observer and the policy
        // connections are open, waiting for more.
        const reader = child.stdout.getReader();
        let out = "";
        while (out.split("\n").length < 3) {
          const { value, done } = await reader.read();
          if (done) break;
          out += new TextDecoder().decode(value);
        }
        reader.releaseLock();
        child.kill("SIGINT");
        const { code } = await child.output();
        await writer.close().catch(() => {});
        assert.equal(code, 130);
        assertAtRest(paths().dir, ["lab.sqlite", "policy.sqlite"]);
        assert.ok(
          rowsOfCopy(paths().lab).drafts.some((d) => d.includes("JOB-003")),
        );
      });
    } finally {
      removeLedger(privateRoot()!, name);
    }
  },
});
