/**
 * The release binaries: one `deno compile` per target and edition, each
 * with the `compile` task's own flags (the lock read frozen, no prompt, the
 * grant), for another platform and named after it. Two editions: the
 * students' binary (temp folder only) and the engineers' (also run, the
 * environment and loopback net, for `accept` and `proxy`); their grants are
 * deno.json's permission sets, named here only.
 *
 *     deno task compile:targets                 every target, into dist/
 *     deno task compile:targets linux-x64 ...   only these
 *
 * {@linkcode TARGETS} is the one list of release targets and
 * {@linkcode EDITIONS} the one list of binaries per target: the release
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

/** One binary built for every target: its name prefix is its grant's name. */
export interface Edition {
  /** Who it is for. */
  readonly name: "student" | "engineer";
  /** deno.json's permission set (Windows: the same name, `-windows` added). */
  readonly grant: "guardlab" | "guardlab-engineer";
}

/** The binaries of a release, per target. */
export const EDITIONS: readonly Edition[] = [
  { name: "student", grant: "guardlab" },
  { name: "engineer", grant: "guardlab-engineer" },
];

/** Whether `target` is a Windows one: its grant is the Windows temp folder. */
function isWindows(target: Target): boolean {
  return target.triple.includes("windows");
}

/** Where the binary for `target` is written (the students' edition by default). */
export function binaryOf(
  target: Target,
  edition: Edition = EDITIONS[0],
): string {
  return `dist/${edition.grant}-${target.name}${
    isWindows(target) ? ".exe" : ""
  }`;
}

/** The permission set `edition` is compiled with on `target`. */
export function grantOf(target: Target, edition: Edition): string {
  return isWindows(target) ? `${edition.grant}-windows` : edition.grant;
}

/**
 * The `deno compile` arguments for `target` and `edition`: the `compile`
 * task's, with the target named, the output renamed and the edition's grant
 * for that platform.
 */
export function compileArgs(
  target: Target,
  edition: Edition = EDITIONS[0],
): string[] {
  const [program, verb, ...flags] = config.tasks.compile.split(/\s+/);
  const output = flags.indexOf("--output");
  if (program !== "deno" || verb !== "compile" || output < 0) {
    throw new Error(`unexpected compile task: ${config.tasks.compile}`);
  }
  flags[output + 1] = binaryOf(target, edition);
  const grant = `-P=${grantOf(target, edition)}`;
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
    for (const edition of EDITIONS) {
      const { code } = await new Deno.Command(Deno.execPath(), {
        args: compileArgs(target, edition),
        stdout: "inherit",
        stderr: "inherit",
      }).output();
      if (code !== 0) {
        console.error(
          `deno compile for ${target.name} (${edition.name}) failed (exit ${code})`,
        );
        return 1;
      }
      console.log(binaryOf(target, edition));
    }
  }
  return 0;
}

if (import.meta.main) Deno.exitCode = await main(Deno.args);
