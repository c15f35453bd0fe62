/**
 * A private mount namespace with a fresh `/tmp` (`unshare -m` and a tmpfs),
 * for tests that must plant things in `/tmp` itself or act as two users
 * there, without touching the real `/tmp` that other processes share. The
 * checkout, the running Deno and its cache (`DENO_DIR`) are bind-mounted
 * aside first: any of them may live under `/tmp` (a lab machine's clone or
 * cache, a HOME there), and would vanish under the fresh tmpfs. Binding
 * also lets another user run this Deno where npx put it, under root's npm
 * cache in a home of mode 0700: the bound name is in a folder every user
 * can enter. {@linkcode denoAsUser} does the same for a test that acts as
 * another user outside the fresh `/tmp`.
 *
 * Inside, the script finds `$DENO` (this Deno), `$REPO` (the checkout, as it
 * is), `$DENO_DIR` (this Deno's cache, for root's own runs) and `$SRC` (a
 * copy of main.ts, deno.json, import_map.json, lib/, fixtures/ and tests/ in
 * the fresh `/tmp/src`, readable by every user), and `as_user UID CMD…`,
 * which runs a command as that uid with no groups (`setpriv`), a `DENO_DIR`
 * of its own and a clean environment (plus `$AS_ENV`), `guardlab_as UID ARGS…`
 * (guardlab under the binary's grant, as that uid), and `step NAME CMD…`,
 * which reports one command for {@linkcode steps} to read.
 */
import config from "../../deno.json" with { type: "json" };
import { CAN_RUN } from "./spawn.ts";
import { ROOT } from "./root.ts";

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
  for (const uid of [VICTIM, ATTACKER]) {
    const taken = uidTaken(uid);
    if (taken) return taken;
  }
  return othersCannotRun(Deno.execPath());
}

/**
 * Why `uid` is not one to borrow here, or "": an account has it. A user
 * who has it can enter the fresh `/tmp` of a namespace through
 * `/proc/PID/root` of any process a test runs as that uid (and keep the
 * folder open after), plant links there, and a step the test runs as root
 * may follow one. A uid no account has, no one but root can take.
 */
export function uidTaken(uid: number): string {
  let entry = "";
  try {
    const { success, stdout } = new Deno.Command("getent", {
      args: ["passwd", String(uid)],
      stdin: "null",
      stdout: "piped",
      stderr: "null",
    }).outputSync();
    if (success) entry = new TextDecoder().decode(stdout);
  } catch {
    // No getent: the accounts in /etc/passwd.
    entry = Deno.readTextFileSync("/etc/passwd").split("\n")
      .find((l) => l.split(":")[2] === String(uid)) ?? "";
  }
  const name = entry.split(":")[0].trim();
  return name
    ? `uid ${uid} is an account here (${name}): its user could reach ` +
      "into the test's namespace through /proc"
    : "";
}

/**
 * Why another user (not the owner of `path`, not in its group) cannot
 * execute that file itself, or "". Only its own mode counts: the folders above it are
 * passed by binding it aside ({@linkcode inNamespace},
 * {@linkcode denoAsUser}), so a Deno under a home of mode 0700 is fine.
 */
function othersCannotRun(path: string): string {
  const mode = Deno.statSync(path).mode! & 0o7777;
  return mode & 0o001 ? "" : `another user cannot run this Deno: ${path} ` +
    `is mode 0${mode.toString(8)}`;
}

/** The victim's and the attacker's uids: no accounts are needed. */
export const VICTIM = 10001;
/** See {@linkcode VICTIM}. */
export const ATTACKER = 10002;

/** The `guardlab` task's flags (the binary's grant) for `$DENO`, from deno.json. */
export const TASK_FLAGS: string = config.tasks.guardlab.split(" && ").at(-1)!
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
 * A folder of the caller's own for names to bind things to: a fresh,
 * unpredictable name in `/var/tmp` (outside a namespace's fresh `/tmp`),
 * made by this process (root) and only then opened to mode 0755, so every
 * user can pass through it and nobody else can plant or rename a name in it.
 * It holds `deno`, an empty file to bind this Deno to.
 */
function asideFolder(): string {
  const aside = Deno.makeTempDirSync({
    dir: "/var/tmp",
    prefix: "guardlab-ns-",
  });
  Deno.chmodSync(aside, 0o755);
  // Modes given, not left to the umask: no one else may write below.
  Deno.writeFileSync(`${aside}/deno`, new Uint8Array(), { mode: 0o644 });
  return aside;
}

let denoDirFound: string | undefined;

/**
 * This Deno's cache, as `deno info --json` names it (`DENO_DIR`, or the
 * default under HOME): where the tests' own packages already are. Asked
 * once per test file.
 */
export function denoDir(): string {
  if (denoDirFound === undefined) {
    const { stdout } = new Deno.Command(Deno.execPath(), {
      args: ["info", "--json"],
      cwd: "/",
      stdin: "null",
      stdout: "piped",
      stderr: "null",
    }).outputSync();
    denoDirFound = String(JSON.parse(new TextDecoder().decode(stdout)).denoDir);
  }
  return denoDirFound;
}

/**
 * Run `script` (bash) in a fresh mount namespace whose `/tmp` is a new
 * tmpfs (mode 1777, owned by root). Returns the exit code and the output.
 */
export async function inNamespace(
  script: string,
): Promise<{ code: number; out: string; err: string }> {
  const keep = asideFolder();
  Deno.mkdirSync(`${keep}/repo`, { mode: 0o755 });
  // Root's cache, in a folder of mode 0700: the other users inside have
  // caches of their own (as_user) and no business in root's.
  Deno.mkdirSync(`${keep}/root`, { mode: 0o700 });
  Deno.mkdirSync(`${keep}/root/deno-dir`, { mode: 0o755 });
  const prelude = [
    "set -u",
    `mount --bind ${sh(ROOT)} ${sh(`${keep}/repo`)}`,
    `mount --bind ${sh(Deno.execPath())} ${sh(`${keep}/deno`)}`,
    // Unbound, the folder would fill with a fresh cache and stay behind.
    `mount --bind ${sh(denoDir())} ${sh(`${keep}/root/deno-dir`)} || exit 1`,
    "mount -t tmpfs -o mode=1777 tmpfs /tmp",
    `export DENO=${sh(`${keep}/deno`)} REPO=${sh(`${keep}/repo`)} SRC=/tmp/src`,
    `export DENO_DIR=${sh(`${keep}/root/deno-dir`)}`,
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
    // One name at a time, never recursively: should a mount outlive the
    // namespace, removing a bound folder fails instead of emptying it.
    Deno.removeSync(`${keep}/repo`);
    Deno.removeSync(`${keep}/root/deno-dir`);
    Deno.removeSync(`${keep}/root`);
    Deno.removeSync(`${keep}/deno`);
    Deno.removeSync(keep);
  }
}

/**
 * Run this Deno with `args` as `uid` (no groups: `setpriv`), with exactly
 * `env`, in a copy of the checkout's `files`; the real `/tmp` and the rest
 * of the file system as they are. This Deno may live where `uid` cannot
 * reach it (npx puts it under root's npm cache, in a home of mode 0700;
 * setpriv's own exec passes only because root's capabilities last until
 * it), and so may the checkout: in a private mount namespace this Deno is
 * bound into a folder of the caller's own ({@linkcode asideFolder}), and the
 * files are copied there, readable by all, so `uid` runs the very binary
 * under test, and a Deno it starts (`Deno.execPath()`) starts too.
 */
export async function denoAsUser(
  uid: number,
  args: string[],
  env: Record<string, string>,
  files: string[],
): Promise<Deno.CommandOutput> {
  const aside = asideFolder();
  Deno.mkdirSync(`${aside}/repo`, { mode: 0o755 });
  try {
    for (const file of files) {
      const to = `${aside}/repo/${file}`;
      Deno.mkdirSync(to.slice(0, to.lastIndexOf("/")), {
        recursive: true,
        mode: 0o755,
      });
      Deno.copyFileSync(`${ROOT}${file}`, to);
      Deno.chmodSync(to, 0o644);
    }
    const script = 'mount --bind "$1" "$2/deno" && cd "$2/repo" && ' +
      `exec setpriv --reuid=${uid} --regid=${uid} --clear-groups "$2/deno" ` +
      '"${@:3}"';
    return await new Deno.Command("unshare", {
      args: [
        "-m",
        "bash",
        "-c",
        script,
        "bash",
        Deno.execPath(),
        aside,
        ...args,
      ],
      cwd: "/",
      clearEnv: true,
      env,
      stdin: "null",
      stdout: "piped",
      stderr: "piped",
    }).output();
  } finally {
    Deno.removeSync(`${aside}/deno`);
    Deno.removeSync(`${aside}/repo`, { recursive: true });
    Deno.removeSync(aside);
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
