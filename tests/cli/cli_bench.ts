/**
 * End-to-end benchmarks, process start included, side by side with the
 * reference Python lab (../shared/seed/reference) when it and python3 are
 * present. Compare the ratios in each group's summary, not absolute times.
 * Run with `deno task bench`.
 */
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { sandboxCommand } from "../_helpers/spawn.ts";
import { tempDir } from "../_helpers/tmp.ts";

const REFERENCE = fileURLToPath(
  new URL("../../../shared/seed/reference/", import.meta.url),
);
const STEPS = 2000;

function hasReference(): string {
  try {
    Deno.statSync(join(REFERENCE, "timing_lab.py"));
  } catch {
    return "the reference lab is not at ../shared/seed/reference";
  }
  try {
    if (
      !new Deno.Command("python3", {
        args: ["--version"],
        stdout: "null",
        stderr: "null",
      }).outputSync().success
    ) {
      return "python3 does not run";
    }
  } catch {
    return "python3 is not installed";
  }
  return "";
}
const missing = hasReference();
const refName = (name: string) =>
  missing ? `${name} [ignored: ${missing}]` : name;

// 2000 run steps over 1000 keys: the first 1000 create drafts, the rest reuse them.
const steps = Array.from({ length: STEPS }, (_, i) =>
  JSON.stringify({
    op: "run",
    args: {
      job: `JOB-${String(i % 1000).padStart(3, "0")}`,
      topic: "river",
      copies: 2,
    },
  })).join("\n") + "\n";

// The reference Lab driven the same way: JSON Lines in, one result line out per step.
const PYTHON_DRIVER = `
import asyncio, json, sys
sys.dont_write_bytecode = True
sys.path.insert(0, sys.argv[1])
from timing_lab import Lab
async def main():
    lab = Lab(sys.argv[2])
    for line in sys.stdin:
        if line.strip():
            result = await lab.run(json.loads(line)["args"])
            sys.stdout.write(json.dumps(result, separators=(",", ":")) + "\\n")
            sys.stdout.flush()
    lab.close()
asyncio.run(main())
`;
import { ROOT } from "../_helpers/root.ts";

async function pipe(
  program: string,
  args: string[],
  input: string,
  cwd = ROOT,
): Promise<void> {
  const child = new Deno.Command(program, {
    args,
    cwd,
    stdin: "piped",
    stdout: "null",
    stderr: "piped",
  }).spawn();
  const writer = child.stdin.getWriter();
  await writer.write(new TextEncoder().encode(input));
  await writer.close();
  const { success, stderr } = await child.output();
  if (!success) throw new Error(new TextDecoder().decode(stderr));
}

const { program, args: flags } = sandboxCommand();

Deno.bench({
  name: `script: ${STEPS} run steps, guardlab`,
  group: "script",
  n: 5,
  warmup: 1,
  async fn() {
    await pipe(program, [...flags, "script"], steps);
  },
});

Deno.bench({
  name: refName(
    `script: ${STEPS} run steps, reference Python lab (default journal)`,
  ),
  group: "script",
  baseline: true,
  ignore: missing !== "",
  n: 5,
  warmup: 1,
  async fn() {
    await using dirFolder = await tempDir("guardlab-bench-py-");
    const dir = dirFolder.path;
    await pipe("python3", [
      "-B",
      "-c",
      PYTHON_DRIVER,
      REFERENCE,
      join(dir, "lab.sqlite"),
    ], steps);
  },
});

Deno.bench({
  name: "startup: guardlab demo timing --json (what demo.py does)",
  group: "startup",
  n: 20,
  warmup: 2,
  async fn() {
    await pipe(program, [...flags, "demo", "timing", "--json"], "");
  },
});

Deno.bench({
  name: "startup: guardlab verify",
  group: "startup",
  n: 20,
  warmup: 2,
  async fn() {
    await pipe(program, [...flags, "verify"], "");
  },
});

Deno.bench({
  name: refName("startup: python3 demo.py (reference)"),
  group: "startup",
  baseline: true,
  ignore: missing !== "",
  n: 20,
  warmup: 2,
  async fn() {
    await pipe("python3", ["-B", "demo.py"], "", REFERENCE);
  },
});
