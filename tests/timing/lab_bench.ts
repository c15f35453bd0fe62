/**
 * In-process benchmarks of the two labs' hot paths, on a real ledger file in
 * the OS temp dir (WAL, synchronous=FULL: every commit is synced).
 * Run with `deno task bench`.
 */
import { join } from "node:path";
import { Lab, PolicyLab, type Snapshot } from "../../lib/mod.ts";

const dir = Deno.makeTempDirSync({ prefix: "guardlab-bench-" });
globalThis.addEventListener(
  "unload",
  () => Deno.removeSync(dir, { recursive: true }),
);

let ledgers = 0;
function freshLab(): Lab {
  return Lab.open(join(dir, `lab-${ledgers++}.sqlite`));
}

const ARGS = { job: "JOB-001", topic: "river", copies: 2 };
const jobOf = (n: number) => `JOB-${String(n % 1000).padStart(3, "0")}`;

let newLab = freshLab();
let next = 0;
Deno.bench(
  "run: new draft (two synced commits)",
  { group: "run" },
  async (b) => {
    if (next === 1000) {
      // Keys are JOB-000..JOB-999: start a new ledger outside the timed part.
      newLab.close();
      newLab = freshLab();
      next = 0;
    }
    const args = { ...ARGS, job: jobOf(next++) };
    b.start();
    await newLab.run(args);
    b.end();
  },
);

const reuseLab = freshLab();
await reuseLab.run(ARGS);
Deno.bench("run: reuse (same key and arguments)", {
  group: "run",
  baseline: true,
}, async () => {
  await reuseLab.run(ARGS);
});

Deno.bench("run: input_rejected (copies=4)", { group: "run" }, async () => {
  await reuseLab.run({ ...ARGS, copies: 4 });
});

Deno.bench(
  "run: output_rejected (reused draft, bad output)",
  { group: "run" },
  async () => {
    await reuseLab.run(ARGS, { badOutput: true });
  },
);

function policyPair() {
  const path = join(dir, `policy-${ledgers++}.sqlite`);
  const reader = PolicyLab.open(path);
  const editor = PolicyLab.open(path);
  reader.initialize();
  return { reader, editor };
}

let policy = policyPair();
let inserted = 0;
Deno.bench("insertChecked: committed", { group: "policy" }, (b) => {
  if (inserted === 1000) {
    // Job keys run out at 1000: go on in a fresh database.
    policy.reader.close();
    policy.editor.close();
    policy = policyPair();
    inserted = 0;
  }
  const request = { job: jobOf(inserted++), copies: 1 };
  const seen = policy.reader.precheck(request);
  b.start();
  policy.reader.insertChecked(request, seen);
  b.end();
});

const stale = policyPair();
const staleSnapshot: Snapshot = stale.reader.precheck({
  job: "JOB-001",
  copies: 2,
});
stale.editor.changePolicy(1);
Deno.bench("insertChecked: refused (stale revision)", {
  group: "policy",
  baseline: true,
}, () => {
  stale.reader.insertChecked({ job: "JOB-001", copies: 2 }, staleSnapshot);
});
