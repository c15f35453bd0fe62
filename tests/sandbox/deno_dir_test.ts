/**
 * A shared Deno cache (issue 28, item 13). Deno checks deno.lock's hashes
 * when it downloads a package, not when it loads one from the cache, so a
 * classmate who can write the cache chooses the code `deno task guardlab`
 * runs. The task runs scripts/deno_dir_check.js first; it refuses, in one
 * line and with exit 4, a cache (DENO_DIR, or the default one) that others
 * can write, or that sits under a folder another user owns, before main.ts
 * is loaded at all. The cases with a second user run the check as uid
 * 10001 (setpriv) beside folders of uid 10002, through `denoAsUser`
 * (namespace.ts): a Deno under root's npm cache (npx's), or a checkout in a
 * private folder, is made reachable to that user, not assumed to be.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import config from "../../deno.json" with { type: "json" };
import { CAN_RUN, NEEDS_RUN } from "../_helpers/spawn.ts";
import { denoAsUser, twoUsersMissing } from "../_helpers/namespace.ts";
import { ROOT } from "../_helpers/root.ts";

const [first, rest] = config.tasks.guardlab.split(" && ");
/** The task's check, as the task runs it, `deno` left out. */
const CHECK = first.split(/\s+/).slice(1);
/** Whether this process is root: the owner of a file it makes (Deno.uid() needs --allow-sys). */
function makesRootFiles(): boolean {
  const probe = Deno.makeTempFileSync({ prefix: "guardlab-uid-" });
  try {
    return Deno.lstatSync(probe).uid === 0;
  } finally {
    Deno.removeSync(probe);
  }
}
const IS_ROOT = CAN_RUN && makesRootFiles();
const AS_ROOT = IS_ROOT
  ? ""
  : " [ignored: planting another user's folder needs root (chown)]";
const TWO_USERS = CAN_RUN ? twoUsersMissing() : "spawning needs --allow-run";
const VICTIM = 10001;
const ATTACKER = 10002;

interface Run {
  code: number;
  out: string;
  err: string[];
}

/** What the check reads of the checkout, copied for another user to run. */
const CHECK_FILES = [
  "deno.json",
  "import_map.json",
  "scripts/deno_dir_check.js",
];

/**
 * Run the task's check (or `args` in its place) with a clean environment,
 * as this user, or as `asUid` wherever this Deno and the checkout live.
 */
async function run(
  env: Record<string, string>,
  { asUid, args = CHECK }: { asUid?: number; args?: string[] } = {},
): Promise<Run> {
  const clean = { PATH: "/usr/bin:/bin", NO_COLOR: "1", LANG: "C", ...env };
  const { code, stdout, stderr } = asUid === undefined
    ? await new Deno.Command(Deno.execPath(), {
      args,
      cwd: ROOT,
      clearEnv: true,
      env: clean,
      stdin: "null",
      stdout: "piped",
      stderr: "piped",
    }).output()
    : await denoAsUser(asUid, args, clean, CHECK_FILES);
  const text = (b: Uint8Array) => new TextDecoder().decode(b);
  return {
    code,
    out: text(stdout),
    err: text(stderr).split("\n").filter((l) =>
      l !== "" && !/^.*Task /.test(l)
    ),
  };
}

/** A temp folder (under the sticky /tmp), removed afterwards. */
async function temp(): Promise<AsyncDisposable & { path: string }> {
  const path = await Deno.makeTempDir({ prefix: "guardlab-denodir-" });
  return {
    path,
    [Symbol.asyncDispose]: () => Deno.remove(path, { recursive: true }),
  };
}

/** A cache folder of `mode` in `top`, with a home beside it. */
async function cache(top: string, mode: number, name = "cache") {
  const dir = join(top, name);
  await Deno.mkdir(dir);
  await Deno.chmod(dir, mode);
  const home = join(top, "home");
  await Deno.mkdir(home, { recursive: true });
  return { DENO_DIR: dir, HOME: home };
}

const refusedLine = (folder: string, problem: string) =>
  `guardlab: refusing to run: Deno's cache is not yours alone: ${folder} ` +
  `${problem}; whoever can write there can change the code deno task ` +
  "guardlab runs (deno.lock is checked when a package is downloaded, not " +
  "when it is loaded from the cache); use a DENO_DIR of your own, or the " +
  "compiled binary";

function assertRefused(r: Run, folder: string, problem: string) {
  assert.equal(r.code, 4, r.err.join("\n"));
  assert.equal(r.out, "");
  assert.deepEqual(r.err, [refusedLine(folder, problem)]);
}

Deno.test(
  `deno cache: the guardlab task checks the cache first, then runs main.ts${NEEDS_RUN}`,
  {
    ignore: !CAN_RUN,
  },
  () => {
    assert.deepEqual(CHECK, [
      "run",
      "-q",
      "--no-code-cache",
      "--no-prompt",
      "-P=deno-dir-check",
      "scripts/deno_dir_check.js",
    ]);
    assert.match(rest, /^deno run .* -P=guardlab main\.ts$/);
  },
);

Deno.test(`deno cache: a cache of your own passes silently${NEEDS_RUN}`, {
  ignore: !CAN_RUN,
}, async () => {
  await using t = await temp();
  const r = await run(await cache(t.path, 0o700));
  assert.deepEqual([r.code, r.out, r.err], [0, "", []]);
});

Deno.test(
  `deno cache: one others can write is refused, in one line, before main.ts runs${NEEDS_RUN}`,
  {
    ignore: !CAN_RUN,
  },
  async (t) => {
    await using top = await temp();
    for (const mode of [0o777, 0o770, 0o702]) {
      await t.step(`mode 0${mode.toString(8)}`, async () => {
        const env = await cache(top.path, mode, `cache-${mode}`);
        const shown = `0${mode.toString(8)}`;
        assertRefused(
          await run(env),
          env.DENO_DIR,
          `can be written by others (mode ${shown})`,
        );
      });
    }
    await t.step(
      "through deno task guardlab: main.ts never answers",
      async () => {
        const env = await cache(top.path, 0o777, "cache-task");
        const r = await run(env, {
          args: ["task", "-q", "guardlab", "--version"],
        });
        assertRefused(
          r,
          env.DENO_DIR,
          "can be written by others (mode 0777)",
        );
      },
    );
    await t.step("in Chinese under a Chinese LANG", async () => {
      const env = await cache(top.path, 0o777, "cache-zh");
      const r = await run({ ...env, LANG: "zh_CN.UTF-8" });
      assert.equal(r.code, 4);
      assert.deepEqual(r.err, [
        `guardlab：拒绝运行：Deno 的缓存不只属于你：${env.DENO_DIR} ` +
        "其他用户可以写入（权限 0777）；能写入它的人就能改动 deno task " +
        "guardlab 运行的代码（deno.lock 只在下载包时校验，从缓存加载时不校验）；" +
        "请使用只属于你的 DENO_DIR，或使用编译好的二进制",
      ]);
    });
  },
);

Deno.test(
  `deno cache: a folder above it that others can write, and is not sticky, is refused${NEEDS_RUN}`,
  {
    ignore: !CAN_RUN,
  },
  async () => {
    await using t = await temp();
    const open = join(t.path, "open");
    await Deno.mkdir(open);
    await Deno.chmod(open, 0o777);
    const env = await cache(open, 0o700);
    assertRefused(
      await run(env),
      open,
      "can be written by others and is not sticky (mode 0777)",
    );
  },
);

Deno.test(`deno cache: what the cache holds is checked too${NEEDS_RUN}`, {
  ignore: !CAN_RUN,
}, async () => {
  await using t = await temp();
  const env = await cache(t.path, 0o700);
  const npm = join(env.DENO_DIR, "npm");
  await Deno.mkdir(npm);
  await Deno.chmod(npm, 0o777);
  assertRefused(await run(env), npm, "can be written by others (mode 0777)");
});

Deno.test(
  `deno cache: the default cache (no DENO_DIR) is the one checked${NEEDS_RUN}`,
  {
    ignore: !CAN_RUN,
  },
  async () => {
    await using t = await temp();
    const home = join(t.path, "home");
    await Deno.mkdir(join(home, ".cache"), { recursive: true });
    await Deno.chmod(join(home, ".cache"), 0o777);
    // deno info --json names $HOME/.cache/deno here.
    assertRefused(
      await run({ HOME: home }),
      join(home, ".cache"),
      "can be written by others and is not sticky (mode 0777)",
    );
  },
);

Deno.test(
  `deno cache: another user's folder or link on the way is refused${AS_ROOT}`,
  {
    ignore: !IS_ROOT,
  },
  async (t) => {
    await using top = await temp();
    await t.step("the cache itself", async () => {
      const env = await cache(top.path, 0o700, "theirs");
      await Deno.chown(env.DENO_DIR, 65534, 65534);
      assertRefused(
        await run(env),
        env.DENO_DIR,
        `belongs to uid 65534, not to you (uid 0) or root`,
      );
    });
    await t.step(
      "a link to a cache of yours, planted by another user",
      async () => {
        const env = await cache(top.path, 0o700, "mine");
        const link = join(top.path, "link");
        await Deno.symlink(env.DENO_DIR, link);
        const chown = await new Deno.Command("chown", {
          args: ["-h", "65534:65534", link],
        }).output();
        assert.ok(chown.success);
        assertRefused(
          await run({ ...env, DENO_DIR: link }),
          link,
          "is a link that belongs to uid 65534, not to you (uid 0) or root",
        );
      },
    );
    await t.step(
      "a link of yours is followed, and where it leads is checked",
      async () => {
        const env = await cache(top.path, 0o777, "open");
        const link = join(top.path, "my-link");
        await Deno.symlink(env.DENO_DIR, link);
        assertRefused(
          await run({ ...env, DENO_DIR: link }),
          env.DENO_DIR,
          "can be written by others (mode 0777)",
        );
      },
    );
  },
);

Deno.test(
  `deno cache: as one student, a cache under a classmate's folder is refused, a root-owned one is not${
    TWO_USERS ? ` [ignored: ${TWO_USERS}]` : ""
  }`,
  { ignore: TWO_USERS !== "" },
  async () => {
    await using top = await temp();
    await Deno.chmod(top.path, 0o755);
    // The classmate's folder: not writable by others, but theirs, so they
    // can rename the victim's cache inside it.
    const theirs = join(top.path, "theirs");
    await Deno.mkdir(theirs, { mode: 0o755 });
    const env = await cache(theirs, 0o700);
    await Deno.chown(env.DENO_DIR, VICTIM, VICTIM);
    await Deno.chown(env.HOME, VICTIM, VICTIM);
    await Deno.chown(theirs, ATTACKER, ATTACKER);
    assertRefused(
      await run(env, { asUid: VICTIM }),
      theirs,
      `belongs to uid ${ATTACKER}, not to you (uid ${VICTIM}) or root`,
    );
    // The same cache under a folder of root's: the victim's own, accepted.
    await Deno.chown(theirs, 0, 0);
    const r = await run(env, { asUid: VICTIM });
    assert.deepEqual([r.code, r.out, r.err], [0, "", []]);
  },
);
