/**
 * The per-process scratch folder: a name nobody can predict, made private
 * and checked, and gone when the command ends.
 */
import assert from "node:assert/strict";
import { basename, join } from "node:path";
import { currentUid } from "../../lib/sandbox/safe_fs.ts";
import {
  removeScratch,
  SCRATCH_PREFIX,
  scratchFolder,
  scratchFolders,
  scratchRoot,
} from "../../lib/sandbox/scratch.ts";
import { cli } from "../_helpers/helpers.ts";
import {
  inNamespace,
  namespaceMissing,
  steps,
  TASK_FLAGS,
} from "../_helpers/namespace.ts";
import { CAN_RUN, NEEDS_RUN } from "../_helpers/spawn.ts";
import { runFlags } from "../_helpers/lab_flags.ts";

/** A stand-in for the shared temp folder: root-made, sticky, world-writable. */
function sharedBase(): { base: string } & Disposable {
  const top = Deno.makeTempDirSync({ prefix: "guardlab-scratch-test-" });
  const base = join(top, "tmp");
  Deno.mkdirSync(base);
  Deno.chmodSync(base, 0o1777);
  return {
    base,
    [Symbol.dispose]() {
      removeScratch();
      Deno.removeSync(top, { recursive: true });
    },
  };
}

const POSIX = Deno.build.os !== "windows";

Deno.test("scratch: one private folder per process, with a random name", async (t) => {
  await t.step("made 0700, owned by this user, not a link", () => {
    using s = sharedBase();
    const path = scratchRoot(s.base);
    assert.ok(basename(path).startsWith(SCRATCH_PREFIX));
    assert.ok(/^guardlab-scratch-[0-9a-z]{4,}$/.test(basename(path)), path);
    const info = Deno.lstatSync(path);
    assert.ok(info.isDirectory && !info.isSymlink);
    if (POSIX) {
      assert.equal(info.mode! & 0o7777, 0o700);
      assert.equal(info.uid, currentUid(s.base));
    }
    assert.equal(scratchRoot(s.base), path, "one per process and base");
  });

  await t.step("two processes' names differ (not derived from the uid)", () => {
    using s = sharedBase();
    const first = scratchRoot(s.base);
    removeScratch();
    const second = scratchRoot(s.base);
    assert.notEqual(first, second);
  });

  await t.step("a folder opened up to others is refused, not used", () => {
    if (!POSIX) return;
    using s = sharedBase();
    const path = scratchRoot(s.base);
    Deno.chmodSync(path, 0o777);
    assert.throws(() => scratchRoot(s.base), /not a private scratch folder/);
    assert.throws(() => scratchFolder(s.base), /not a private scratch folder/);
    Deno.chmodSync(path, 0o750);
    assert.throws(() => scratchRoot(s.base), /mode 0750/);
  });

  await t.step("a folder replaced by a link is refused", () => {
    using s = sharedBase();
    const path = scratchRoot(s.base);
    const elsewhere = Deno.makeTempDirSync();
    try {
      Deno.removeSync(path);
      Deno.symlinkSync(elsewhere, path);
      assert.throws(() => scratchRoot(s.base), /is a symbolic link/);
      Deno.removeSync(path);
    } finally {
      Deno.removeSync(elsewhere);
    }
  });

  await t.step("a folder removed by someone is made again", () => {
    using s = sharedBase();
    const path = scratchRoot(s.base);
    Deno.removeSync(path);
    const again = scratchRoot(s.base);
    assert.notEqual(again, path);
    assert.ok(Deno.lstatSync(again).isDirectory);
  });

  await t.step("a base another user can rename inside is refused", () => {
    if (!POSIX) return;
    using s = sharedBase();
    Deno.chmodSync(s.base, 0o777);
    assert.throws(
      () => scratchRoot(s.base),
      /can be written by other users \(mode 0777\)/,
    );
    assert.deepEqual([...Deno.readDirSync(s.base)], []);
  });

  await t.step("a sub-folder goes when disposed, sync or async", async () => {
    using s = sharedBase();
    let kept = "";
    {
      using folder = scratchFolder(s.base);
      kept = folder.path;
      Deno.writeTextFileSync(join(kept, "x"), "x");
    }
    assert.throws(() => Deno.lstatSync(kept), Deno.errors.NotFound);
    {
      await using folder = scratchFolder(s.base);
      kept = folder.path;
    }
    assert.throws(() => Deno.lstatSync(kept), Deno.errors.NotFound);
  });
});

Deno.test("scratch: every command leaves the shared folder as it found it", async () => {
  using s = sharedBase();
  for (
    const args of [
      ["demo", "timing"],
      ["verify"],
      ["run", ...runFlags()],
      ["script"],
      ["explain", "idempotency", "--format", "svg"],
      ["exercise", "check", "1", "-"],
      ["run", ...runFlags({ topic: "bad topic" })],
    ]
  ) {
    const r = await cli(args, '{"op":"count"}\n', false, s.base);
    assert.ok(r.code !== 4, `${args.join(" ")}: ${r.err.join("\n")}`);
    assert.deepEqual(scratchFolders(), [], args.join(" "));
    const left = [...Deno.readDirSync(s.base)].map((e) => e.name)
      .filter((n) => n.startsWith(SCRATCH_PREFIX));
    assert.deepEqual(left, [], args.join(" "));
  }
});

const noNamespace = CAN_RUN ? namespaceMissing() : "";

Deno.test({
  name: "scratch: removed when the process is interrupted (SIGINT, SIGTERM)" +
    (NEEDS_RUN || (noNamespace ? ` [ignored: ${noNamespace}]` : "")),
  ignore: !CAN_RUN || noNamespace !== "",
  async fn() {
    // `script` waits for steps on a pipe that stays open; its scratch
    // folder exists by then. A fresh /tmp shows exactly what is left.
    const { code, out, err } = await inNamespace(`
cd "$REPO"
for sig in INT TERM; do
  mkfifo /tmp/.in
  "$DENO" ${TASK_FLAGS} main.ts script </tmp/.in >/dev/null 2>&1 &
  pid=$!
  exec 3>/tmp/.in
  for i in $(seq 200); do ls -d /tmp/guardlab-scratch-* >/dev/null 2>&1 && break; sleep 0.05; done
  step before-$sig sh -c 'ls -d /tmp/guardlab-scratch-* | wc -l'
  kill -$sig $pid
  wait $pid
  echo "@@code-$sig	$?		"
  exec 3>&-
  rm /tmp/.in
  step after-$sig sh -c 'ls -A /tmp | grep -c "^guardlab-scratch-" || true'
done
`);
    assert.equal(code, 0, out + err);
    const all = steps(out);
    for (const [sig, number] of [["INT", 2], ["TERM", 15]] as const) {
      assert.deepEqual(all.get(`before-${sig}`)!.out, ["1"], sig);
      assert.equal(all.get(`code-${sig}`)!.code, 128 + number, sig);
      assert.deepEqual(all.get(`after-${sig}`)!.out, ["0"], sig);
    }
  },
});
