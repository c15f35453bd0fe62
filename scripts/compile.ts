/**
 * The release binaries: one `deno compile` per target, each with the
 * `compile` task's own flags (the lock read frozen, no prompt, the grant),
 * for another platform and named after it.
 *
 *     deno task compile:targets                 every target, into dist/
 *     deno task compile:targets linux-x64 ...   only these
 *
 * {@linkcode TARGETS} is the one list of release targets: the release
 * workflow builds one matrix entry per name (each on its own runner), and
 * `tests/architecture/project_test.ts` holds the workflow to this list.
 * `deno compile` needs its runtime (`denort`) from dl.deno.land for each
 * target; where that is unreachable, the compile fails and says so.
 *
 * @module
 */
import config from "../deno.json" with { type: "json" };

/** One release target: its name (the binary's suffix) and Deno's target triple. */
export interface Target {
  /** The platform, as the binary is named: `guardlab-NAME`. */
  readonly name: string;
  /** What `deno compile --target` takes. */
  readonly triple: string;
}

/** Every platform a release ships a binary for. */
export const TARGETS: readonly Target[] = [
  { name: "linux-x64", triple: "x86_64-unknown-linux-gnu" },
  { name: "linux-arm64", triple: "aarch64-unknown-linux-gnu" },
  { name: "macos-x64", triple: "x86_64-apple-darwin" },
  { name: "macos-arm64", triple: "aarch64-apple-darwin" },
  { name: "windows-x64", triple: "x86_64-pc-windows-msvc" },
];

/** Whether `target` is a Windows one: its grant is the Windows temp folder. */
function isWindows(target: Target): boolean {
  return target.triple.includes("windows");
}

/** Where the binary for `target` is written. */
export function binaryOf(target: Target): string {
  return `dist/guardlab-${target.name}${isWindows(target) ? ".exe" : ""}`;
}

/**
 * The `deno compile` arguments for `target`: the `compile` task's, with the
 * target named, the output renamed and, for Windows, the Windows grant.
 */
export function compileArgs(target: Target): string[] {
  const [program, verb, ...flags] = config.tasks.compile.split(/\s+/);
  const output = flags.indexOf("--output");
  if (program !== "deno" || verb !== "compile" || output < 0) {
    throw new Error(`unexpected compile task: ${config.tasks.compile}`);
  }
  flags[output + 1] = binaryOf(target);
  const grant = isWindows(target) ? "-P=guardlab-windows" : "-P=guardlab";
  return [
    verb,
    "--target",
    target.triple,
    ...flags.map((f) => f === "-P=guardlab" ? grant : f),
  ];
}

async function main(names: string[]): Promise<number> {
  const unknown = names.filter((n) => !TARGETS.some((t) => t.name === n));
  if (unknown.length > 0) {
    console.error(
      `unknown target ${unknown.join(", ")}; the targets are ${
        TARGETS.map((t) => t.name).join(", ")
      }`,
    );
    return 2;
  }
  const chosen = names.length === 0
    ? TARGETS
    : TARGETS.filter((t) => names.includes(t.name));
  for (const target of chosen) {
    const { code } = await new Deno.Command(Deno.execPath(), {
      args: compileArgs(target),
      stdout: "inherit",
      stderr: "inherit",
    }).output();
    if (code !== 0) {
      console.error(`deno compile for ${target.name} failed (exit ${code})`);
      return 1;
    }
    console.log(binaryOf(target));
  }
  return 0;
}

if (import.meta.main) Deno.exitCode = await main(Deno.args);
