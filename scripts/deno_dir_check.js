/**
 * Run by the `guardlab` task before main.ts: refuse, in one line and with
 * exit 4, a Deno cache (DENO_DIR, or the default one `deno info --json`
 * names) that someone else can change. Deno checks deno.lock's hashes when
 * it downloads a package, not when it loads one from the cache, and the
 * cache also holds the compiled form of guardlab's own TypeScript: whoever
 * can write there chooses the code `deno task guardlab` runs.
 *
 * Plain JavaScript with no imports, run with `--no-code-cache`, on purpose:
 * nothing of the cache it checks runs before it has checked it (TypeScript
 * would be loaded from the cache's compiled form; a check inside main.ts
 * would come too late). The compiled binary carries its code inside and
 * does not read a cache, so it needs no check.
 *
 * The rule is the ledger folder's (lib/sandbox/safe_fs.ts): every folder
 * above the cache is owned by you or root, and one others may write is
 * sticky (like /tmp); the cache folder and everything directly in it are
 * owned by you or root and writable by nobody else. Each name is looked
 * at with lstat, never through a link: a link must be yours or root's,
 * and the folder it names is checked the same way.
 *
 * The line is in Chinese when LANG, LC_ALL or LC_MESSAGES starts with
 * "zh": the check runs before guardlab reads its own settings.
 */

/** What the check says, in both languages (a Text table, as in lib/). */
const MESSAGES = {
  refused: (folder, problem) => ({
    en: `guardlab: refusing to run: Deno's cache is not yours alone: ` +
      `${folder} ${problem.en}; whoever can write there can change the ` +
      "code deno task guardlab runs (deno.lock is checked when a package " +
      "is downloaded, not when it is loaded from the cache); use a " +
      "DENO_DIR of your own, or the compiled binary",
    zh: `guardlab：拒绝运行：Deno 的缓存不只属于你：${folder} ${problem.zh}；` +
      "能写入它的人就能改动 deno task guardlab 运行的代码（deno.lock " +
      "只在下载包时校验，从缓存加载时不校验）；请使用只属于你的 " +
      "DENO_DIR，或使用编译好的二进制",
  }),
  othersWrite: (mode) => ({
    en: `can be written by others (mode ${mode})`,
    zh: `其他用户可以写入（权限 ${mode}）`,
  }),
  othersWriteNotSticky: (mode) => ({
    en: `can be written by others and is not sticky (mode ${mode})`,
    zh: `其他用户可以写入，且未设粘滞位（权限 ${mode}）`,
  }),
  foreignOwner: (owner, you) => ({
    en: `belongs to uid ${owner}, not to you (uid ${you}) or root`,
    zh: `属于 uid ${owner}，既不属于你（uid ${you}）也不属于 root`,
  }),
  foreignLink: (owner, you) => ({
    en: `is a link that belongs to uid ${owner}, not to you (uid ${you}) ` +
      "or root",
    zh: `是属于 uid ${owner} 的链接，既不属于你（uid ${you}）也不属于 root`,
  }),
  linkChain: {
    en: "is a chain of more than 16 links",
    zh: "是超过 16 层的链接链",
  },
  noCache: {
    en: "guardlab: cannot find Deno's cache folder (deno info --json " +
      "names none)",
    zh: "guardlab：找不到 Deno 的缓存目录（deno info --json 没有给出）",
  },
};

const REFUSED = 4;
const OTHERS_WRITE = 0o022;
const STICKY = 0o1000;

function lang() {
  for (const name of ["LC_ALL", "LC_MESSAGES", "LANG"]) {
    const value = Deno.env.get(name);
    if (value) return value.toLowerCase().startsWith("zh") ? "zh" : "en";
  }
  return "en";
}

function refuse(text) {
  // Shown inert: a folder name another user chose cannot drive the terminal.
  const line = text[lang()].replace(
    // deno-lint-ignore no-control-regex -- the controls are what is escaped
    /[\u0000-\u001f\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g,
    (c) => "\\u" + c.charCodeAt(0).toString(16).padStart(4, "0"),
  );
  console.error(line);
  Deno.exit(REFUSED);
}

function lstatOrNull(path) {
  try {
    return Deno.lstatSync(path);
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) return null;
    throw error;
  }
}

const mode = (info) => "0" + (info.mode & 0o7777).toString(8);

/** The problem with `info` at `path`, or null; `inside`: in the cache, or the cache itself. */
function problemOf(info, uid, inside) {
  if (info.uid !== uid && info.uid !== 0) {
    return (info.isSymlink ? MESSAGES.foreignLink : MESSAGES.foreignOwner)(
      info.uid,
      uid,
    );
  }
  if (info.isSymlink) return null;
  if ((info.mode & OTHERS_WRITE) === 0) return null;
  if (inside) return MESSAGES.othersWrite(mode(info));
  if (info.isDirectory && (info.mode & STICKY) !== 0) return null;
  return MESSAGES.othersWriteNotSticky(mode(info));
}

/** `/a/b/c` as `/`, `/a`, `/a/b`, `/a/b/c`. */
function chainOf(path) {
  const parts = path.split("/").filter((p) => p !== "");
  return ["/", ...parts.map((_, i) => "/" + parts.slice(0, i + 1).join("/"))];
}

/**
 * Check every name from `/` down to `dir`, then what `dir` holds; a link
 * on the way is checked as a link, then the folder it names, in turn.
 */
function check(dir, uid, depth = 0) {
  const chain = chainOf(dir);
  for (const [i, path] of chain.entries()) {
    const info = lstatOrNull(path);
    // Not there yet: Deno makes it, as you, when it first needs it.
    if (info === null) return;
    const inside = i === chain.length - 1;
    const problem = problemOf(info, uid, inside);
    if (problem) refuse(MESSAGES.refused(path, problem));
    if (info.isSymlink) {
      // A loop of links ends in an error from realPath; a long chain here.
      if (depth > 16) refuse(MESSAGES.refused(path, MESSAGES.linkChain));
      const real = Deno.realPathSync(path);
      const rest = dir.slice(path.length);
      return check(real + rest, uid, depth + 1);
    }
  }
  for (const entry of Deno.readDirSync(dir)) {
    const path = `${dir}/${entry.name}`;
    const info = lstatOrNull(path);
    if (info === null) continue;
    const problem = problemOf(info, uid, true);
    if (problem) refuse(MESSAGES.refused(path, problem));
  }
}

/** The cache folder Deno uses here: what `deno info --json` names. */
function denoDir() {
  const { stdout } = new Deno.Command(Deno.execPath(), {
    args: ["info", "--json"],
    stdin: "null",
    stdout: "piped",
    stderr: "null",
  }).outputSync();
  try {
    const dir = JSON.parse(new TextDecoder().decode(stdout)).denoDir;
    if (typeof dir === "string" && dir.startsWith("/")) return dir;
  } catch {
    // Not JSON: refused below.
  }
  return refuse(MESSAGES.noCache);
}

// Windows reports no owner or mode: there is nothing this rule can check.
if (Deno.build.os !== "windows") check(denoDir(), Deno.uid());
