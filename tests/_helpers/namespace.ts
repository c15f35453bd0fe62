/**
 * A private mount namespace with a fresh `/tmp` (`unshare -m` and a tmpfs),
 * for tests that must plant things in `/tmp` itself or act as two users
 * there, without touching the real `/tmp` that other processes share. The
 * checkout and the running Deno are bind-mounted aside first: a checkout or
 * a Deno that lives under `/tmp` would vanish under the fresh tmpfs.
 *
 * Inside, the script finds `$DENO` (this Deno), `$REPO` (the checkout, as it
 * is) and `$SRC` (a copy of main.ts, deno.json, import_map.json, lib/,
 * fixtures/ and tests/ in the fresh `/tmp/src`, readable by every user), and `as_user UID CMD…`,
 * which runs a command as that uid with no groups (`setpriv`), a `DENO_DIR`
 * of its own and a clean environment (plus `$AS_ENV`), `guardlab_as UID ARGS…`
 * (guardlab under the binary's grant, as that uid), and `step NAME CMD…`,
 * which reports one command for {@linkcode steps} to read.
 */
import { fileURLToPath } from "node:url";
import config from "../../deno.json" with { type: "json" };
import { CAN_RUN } from "./spawn.ts";

const ROOT = fileURLToPath(new URL("../..", import.meta.url)).replace(
  /\/$/,
  "",
);

/** A shell word for `text`. */
export function sh(text: string): string {
  return `'${text.replaceAll("'", `'\\''`)}'`;
}

function probe(args: string[]): boolean {
  try {
    return new Deno.Command(args[0], {
      args: args.slice(1),
      stdout: "null",
      stderr: "null",
    }).outputSync().success;
  } catch {
    return false;
  }
}

/** Why a private mount namespace with a fresh `/tmp` cannot be had here, or "". */
export function namespaceMissing(): string {
  if (!CAN_RUN) return "spawning needs --allow-run; run `deno task test`";
  if (Deno.build.os !== "linux") return "a mount namespace needs Linux";
  if (!probe(["unshare", "-m", "sh", "-c", "mount -t tmpfs tmpfs /tmp"])) {
    return "unshare -m with a tmpfs /tmp is not permitted here";
  }
  return "";
}

/** Why two unprivileged users cannot be had here, or "". */
export function twoUsersMissing(): string {
  const missing = namespaceMissing();
  if (missing) return missing;
  if (
    !probe([
      "unshare",
      "-m",
      "setpriv",
      "--reuid=10001",
      "--regid=10001",
      "--clear-groups",
      "true",
    ])
  ) {
    return "setpriv cannot switch to another uid (the tests must run as root)";
  }
  return "";
}

/** The victim's and the attacker's uids: no accounts are needed. */
export const VICTIM = 10001;
/** See {@linkcode VICTIM}. */
export const ATTACKER = 10002;

/** The `guardlab` task's flags (the binary's grant) for `$DENO`, from deno.json. */
export const TASK_FLAGS: string = config.tasks.guardlab
  .replace(/^deno /, "").replace(/ main\.ts$/, "");

/**
 * {@linkcode TASK_FLAGS} plus `--cached-only`, for a user with a fresh
 * `DENO_DIR`: it would otherwise try the npm registry for the MCP SDK's
 * specifiers (in the module graph, though only `mcp` imports them) on every
 * run. `--cached-only` also grants `import`, which touches no file; a test
 * about the grant itself uses {@linkcode TASK_FLAGS}.
 */
export const GUARDLAB_FLAGS: string = TASK_FLAGS.replace(
  /^run /,
  "run --cached-only ",
);

/**
 * Run `script` (bash) in a fresh mount namespace whose `/tmp` is a new
 * tmpfs (mode 1777, owned by root). Returns the exit code and the output.
 */
export async function inNamespace(
  script: string,
): Promise<{ code: number; out: string; err: string }> {
  const keep = Deno.makeTempDirSync({
    dir: "/var/tmp",
    prefix: "guardlab-ns-",
  });
  Deno.chmodSync(keep, 0o755);
  Deno.mkdirSync(`${keep}/repo`);
  Deno.writeFileSync(`${keep}/deno`, new Uint8Array());
  const prelude = [
    "set -u",
    `mount --bind ${sh(ROOT)} ${sh(`${keep}/repo`)}`,
    `mount --bind ${sh(Deno.execPath())} ${sh(`${keep}/deno`)}`,
    "mount -t tmpfs -o mode=1777 tmpfs /tmp",
    `export DENO=${sh(`${keep}/deno`)} REPO=${sh(`${keep}/repo`)} SRC=/tmp/src`,
    "mkdir -m 755 /tmp/src",
    'for f in main.ts deno.json import_map.json lib fixtures tests; do cp -r "$REPO/$f" /tmp/src/; done',
    "chmod -R a+rX /tmp/src",
    "as_user() {",
    '  local uid="$1"; shift',
    '  if [ ! -d "/tmp/.deno-$uid" ]; then mkdir -m 700 "/tmp/.deno-$uid"; chown "$uid:$uid" "/tmp/.deno-$uid"; fi',
    '  setpriv --reuid="$uid" --regid="$uid" --clear-groups env -i PATH=/usr/bin:/bin HOME=/nonexistent NO_COLOR=1 DENO_NO_UPDATE_CHECK=1 DENO_DIR="/tmp/.deno-$uid" ${AS_ENV:-} "$@"',
    "}",
    "# step NAME CMD…: one line `@@NAME<TAB>exit<TAB>base64(stdout)<TAB>base64(stderr)`;",
    "# stdin from $IN when set.",
    "step() {",
    '  local name="$1"; shift',
    '  "$@" >/tmp/.step-out 2>/tmp/.step-err <"${IN:-/dev/null}"',
    "  local rc=$?",
    `  printf '@@%s\t%s\t%s\t%s\n' "$name" "$rc" "$(base64 -w0 </tmp/.step-out)" "$(base64 -w0 </tmp/.step-err)"`,
    "}",
    "guardlab_as() {",
    '  local uid="$1"; shift',
    `  (cd /tmp/src && as_user "$uid" "$DENO" ${GUARDLAB_FLAGS} main.ts "$@")`,
    "}",
  ].join("\n");
  try {
    const { code, stdout, stderr } = await new Deno.Command("unshare", {
      args: ["-m", "bash", "-c", `${prelude}\n${script}`],
      cwd: "/",
      env: { NO_COLOR: "1" },
      stdout: "piped",
      stderr: "piped",
    }).output();
    const text = (b: Uint8Array) => new TextDecoder().decode(b);
    return { code, out: text(stdout), err: text(stderr) };
  } finally {
    Deno.removeSync(`${keep}/repo`);
    Deno.removeSync(`${keep}/deno`);
    Deno.removeSync(keep);
  }
}

/** One command a namespace script ran with `step`. */
export interface Step {
  /** Its exit code. */
  code: number;
  /** Its stdout, as lines (no empty last line). */
  out: string[];
  /** Its stderr, as lines. */
  err: string[];
}

/** The `step` reports in `output`, by name (a name used twice keeps the last). */
export function steps(output: string): Map<string, Step> {
  const found = new Map<string, Step>();
  const lines = (b64: string) => {
    const text = new TextDecoder().decode(
      Uint8Array.from(atob(b64), (c) => c.charCodeAt(0)),
    );
    return text.split("\n").filter((l, i, all) =>
      l !== "" || i < all.length - 1
    );
  };
  for (const line of output.split("\n")) {
    if (!line.startsWith("@@")) continue;
    const [name, code, out, err] = line.slice(2).split("\t");
    found.set(name, { code: Number(code), out: lines(out), err: lines(err) });
  }
  return found;
}
