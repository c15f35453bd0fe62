/**
 * The hand-ins a teacher grades, read as a student in the drop folder would
 * attack them: the name swapped for a FIFO (or a link to one) between the
 * check and the open, a folder of more names than a class, a file the
 * teacher may not read under a name that drives the terminal. Each is one
 * line and nothing waits; what the student's swap looks like from the
 * teacher's side is read from the open itself (`readHandInFile`'s seam).
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import {
  ExerciseUsageError,
  HAND_IN_FILE_MESSAGES,
  handInSources,
  MAX_HAND_INS,
  readHandInFile,
} from "../../lib/exercises/mod.ts";
import { UnsafePath } from "../../lib/sandbox/safe_fs.ts";
import { trustedFolders } from "../../lib/sandbox/sandbox.ts";
import { inNamespace, steps, twoUsersMissing } from "../_helpers/namespace.ts";
import { CAN_RUN } from "../_helpers/spawn.ts";
import { tempDir } from "../_helpers/tmp.ts";

const NO_FIFO = Deno.build.os === "windows";
const FIFO_IGNORED = NO_FIFO
  ? " [ignored: no FIFOs on Windows]"
  : CAN_RUN
  ? ""
  : " [ignored: making a FIFO needs --allow-run (mkfifo); run `deno task test`]";

/**
 * A thread that opens `fifo` for writing once `armed` says so and a while
 * has passed: it only ever matters when the read under test waits on the
 * FIFO (the bug), turning that wait into a failed assertion instead of a
 * test that never ends. It sets `rescued` when it opened the FIFO.
 */
function rescuer(fifo: string): { rescued: () => boolean; stop: () => void } {
  const flag = new Int32Array(new SharedArrayBuffer(4));
  const code = `
    self.onmessage = ({ data: { fifo, flag } }) => {
      setTimeout(() => {
        Atomics.store(flag, 0, 1);
        try { Deno.openSync(fifo, { write: true }).close(); } catch { /* gone */ }
      }, 15000);
    };`;
  const url = URL.createObjectURL(
    new Blob([code], { type: "text/javascript" }),
  );
  const worker = new Worker(url, { type: "module" });
  worker.postMessage({ fifo, flag });
  return {
    rescued: () => Atomics.load(flag, 0) === 1,
    stop: () => {
      worker.terminate();
      URL.revokeObjectURL(url);
    },
  };
}

/** A drop folder of the test's own with one student's hand-in in it, and a FIFO beside it when asked. */
async function dropFolder(withFifo = false): Promise<
  { base: string; hand: string; fifo: string } & AsyncDisposable
> {
  const base = await Deno.makeTempDir({ prefix: "guardlab-drop-" });
  const drop = join(base, "drop");
  await Deno.mkdir(drop, { mode: 0o700 });
  const hand = join(drop, "li-lei.json");
  await Deno.writeTextFile(hand, "{}\n");
  const fifo = join(base, "fifo");
  if (withFifo) {
    const made = await new Deno.Command("mkfifo", { args: [fifo] }).output();
    assert.ok(made.success, "mkfifo made the FIFO");
  }
  return {
    base,
    hand,
    fifo,
    async [Symbol.asyncDispose]() {
      await Deno.remove(base, { recursive: true });
    },
  };
}

Deno.test({
  name:
    "hand-in read: a FIFO swapped in between the check and the open is refused at once, never waited on" +
    FIFO_IGNORED,
  ignore: NO_FIFO || !CAN_RUN,
  async fn() {
    await using d = await dropFolder(true);
    const rescue = rescuer(d.hand);
    try {
      assert.throws(
        () =>
          readHandInFile(d.hand, trustedFolders(d.base), {
            // The student's rename: the checked name is a FIFO at the open.
            beforeOpen: () => Deno.renameSync(d.fifo, d.hand),
          }),
        (e) =>
          e instanceof UnsafePath &&
          /li-lei\.json was replaced while guardlab opened it; try again$/
            .test(e.message),
      );
      assert.equal(rescue.rescued(), false, "the open waited for a writer");
    } finally {
      rescue.stop();
    }
  },
});

Deno.test({
  name:
    "hand-in read: a link to a FIFO swapped in is opened without waiting and refused" +
    FIFO_IGNORED,
  ignore: NO_FIFO || !CAN_RUN,
  async fn() {
    await using d = await dropFolder(true);
    const rescue = rescuer(d.fifo);
    try {
      assert.throws(
        () =>
          readHandInFile(d.hand, trustedFolders(d.base), {
            beforeOpen: () => {
              Deno.removeSync(d.hand);
              Deno.symlinkSync(d.fifo, d.hand);
            },
          }),
        (e) => e instanceof UnsafePath && /was replaced/.test(e.message),
      );
      assert.equal(rescue.rescued(), false, "the open waited for a writer");
    } finally {
      rescue.stop();
    }
  },
});

Deno.test({
  name:
    "grade: a hand-in whose name is not UTF-8 is a row that says so, the others are graded" +
    (CAN_RUN
      ? ""
      : " [ignored: naming a file in bytes needs --allow-run (sh); run `deno task test`]"),
  ignore: Deno.build.os === "windows" || !CAN_RUN,
  async fn() {
    await using d = await dropFolder();
    const drop = join(d.base, "drop");
    // Deno names files by strings: the shell makes the name of raw bytes.
    const made = await new Deno.Command("sh", {
      args: ["-c", `printf '{}\\n' > "$1/b$(printf '\\377').json"`, "sh", drop],
    }).output();
    assert.ok(made.success, "sh made the file");
    const sources = handInSources([drop], d.base);
    assert.deepEqual(sources.map((s) => s.file), [
      "b\ufffd.json",
      "li-lei.json",
    ]);
    assert.deepEqual(sources[0].problem, {
      en:
        "its name is not UTF-8, so guardlab cannot open it by name; rename it",
      zh: "它的名字不是 UTF-8，guardlab 无法按名字打开它；请给它改名",
    });
    assert.equal(sources[1].problem, undefined);
    assert.equal((await sources[1].read()).text, "{}\n");
  },
});

Deno.test("hand-in read: the file checked is read whole, with its owner and mode", async () => {
  await using d = await dropFolder();
  await Deno.chmod(d.hand, 0o640);
  const read = readHandInFile(d.hand, trustedFolders(d.base));
  assert.deepEqual(read, {
    text: "{}\n",
    owner: Deno.lstatSync(d.hand).uid,
    mode: 0o640,
  });
});

Deno.test("hand-in read: a character cut between two reads is read whole", async () => {
  await using d = await dropFolder();
  // 李 is three bytes across the first 64 KiB, where a reader in parts
  // would cut it (the reader's own test cuts every character:
  // tests/sandbox/read_bounded_test.ts).
  const text = "a".repeat((64 << 10) - 1) + "李雷\n";
  await Deno.writeTextFile(d.hand, text);
  assert.equal(readHandInFile(d.hand, trustedFolders(d.base)).text, text);
});

Deno.test("hand-in read: a file over the hand-in bound is not read (text null)", async () => {
  await using d = await dropFolder();
  // Sparse: 9 MiB on paper, nothing on disk.
  await Deno.truncate(d.hand, 9 << 20);
  const read = readHandInFile(d.hand, trustedFolders(d.base));
  assert.equal(read.text, null);
});

Deno.test("grade: a folder's listing is read no further than the most hand-ins graded", async () => {
  await using baseFolder = await tempDir("guardlab-drop-");
  const base = baseFolder.path;
  let pulled = 0;
  // A folder of endless names: the listing must stop one past the bound.
  const endless = function* (): Generator<Deno.DirEntry> {
    while (true) {
      pulled++;
      if (pulled > MAX_HAND_INS + 1) throw new Error("read past the bound");
      yield {
        name: `s${pulled}.json`,
        isFile: true,
        isDirectory: false,
        isSymlink: false,
      };
    }
  };
  assert.throws(
    () => handInSources([base], base, { readDir: endless }),
    (e) =>
      e instanceof ExerciseUsageError &&
      e.message === `more than ${MAX_HAND_INS} hand-ins: grade them in parts`,
  );
  assert.equal(pulled, MAX_HAND_INS + 1);
});

const twoUsers = twoUsersMissing();

Deno.test({
  name:
    "grade as a teacher: a student's file the teacher may not read is one line in guardlab's words, its name inert, exit 4" +
    (twoUsers ? ` [ignored: ${twoUsers}]` : ""),
  ignore: twoUsers !== "",
  async fn() {
    const r = await inNamespace(`
mkdir -m 1733 /tmp/drop && chown 10001:10001 /tmp/drop
as_user 10002 sh -c 'f="/tmp/drop/$(printf "\\033]0;x\\007")a.json"; umask 077; printf "{}\\n" > "$f"'
step grade guardlab_as 10001 exercise grade /tmp/drop
`);
    assert.equal(r.code, 0, r.err);
    const grade = steps(r.out).get("grade")!;
    assert.equal(grade.code, 4, [...grade.out, ...grade.err].join("\n"));
    assert.deepEqual(grade.out, []);
    assert.deepEqual(grade.err, [
      "guardlab: refused: /tmp/drop/\\u001b]0;x\\u0007a.json cannot be read: " +
      "the system denies you access to it (permission denied)",
    ]);
  },
});

/** Why a program holding a lease on a file cannot be had here, or "". */
function leaseMissing(): string {
  if (Deno.build.os !== "linux") return "leases (F_SETLEASE) are Linux's";
  if (!CAN_RUN) return "a lease holder needs --allow-run; run `deno task test`";
  try {
    const ran = new Deno.Command("python3", {
      args: ["-c", "import fcntl"],
      stdout: "null",
      stderr: "null",
    }).outputSync();
    return ran.success ? "" : "python3 cannot import fcntl here";
  } catch {
    return "no python3 to hold a lease";
  }
}

const noLease = leaseMissing();

Deno.test({
  name:
    "hand-in read: a student's write lease on their hand-in is refused in one line at once, never waited on" +
    (noLease ? ` [ignored: ${noLease}]` : ""),
  ignore: noLease !== "",
  async fn() {
    await using d = await dropFolder();
    // The student owns the file, so may lease it (F_SETLEASE, F_WRLCK):
    // every other open then waits for them, up to the system's
    // lease-break time (45 s by default), once per hand-in.
    const holder = new Deno.Command("python3", {
      args: [
        "-c",
        "import fcntl, os, signal, sys\n" +
        "fd = os.open(sys.argv[1], os.O_RDONLY)\n" +
        "signal.signal(signal.SIGIO, signal.SIG_IGN)\n" +
        "fcntl.fcntl(fd, 1024, fcntl.F_WRLCK)\n" +
        "print('leased', flush=True)\n" +
        "sys.stdin.read()\n",
        d.hand,
      ],
      stdin: "piped",
      stdout: "piped",
      stderr: "inherit",
    }).spawn();
    try {
      // The holder says when the lease is taken: read to its first line.
      let said = "";
      const reader = holder.stdout.getReader();
      while (!said.includes("\n")) {
        const { done, value } = await reader.read();
        if (done) break;
        said += new TextDecoder().decode(value);
      }
      reader.releaseLock();
      assert.equal(said, "leased\n");
      assert.throws(
        () => readHandInFile(d.hand, trustedFolders(d.base)),
        (e) =>
          e instanceof UnsafePath &&
          e.message.endsWith(
            "li-lei.json is held by another program's lease, which makes " +
              "every open wait until that program lets go; guardlab does " +
              "not wait; try again later, or grade a copy of it",
          ),
      );
    } finally {
      await holder.stdin.close();
      await holder.stdout.cancel();
      await holder.status;
    }
  },
});

Deno.test({
  name:
    "grade as a teacher: a student's link in the teacher's drop folder is refused with the rm that works there" +
    (twoUsers ? ` [ignored: ${twoUsers}]` : ""),
  ignore: twoUsers !== "",
  async fn() {
    // The drop folder is the teacher's: its owner may remove any name in
    // it, sticky or not, whoever made the name. In the shared /tmp, only
    // the link's maker may (the remedy tests hold that side).
    const r = await inNamespace(`
mkdir -m 1733 /tmp/drop && chown 10001:10001 /tmp/drop
as_user 10002 sh -c 'umask 022; printf "{}\\n" > /tmp/drop/b.json; ln -s /etc/passwd /tmp/drop/a.json'
step grade guardlab_as 10001 exercise grade /tmp/drop
step rm as_user 10001 rm /tmp/drop/a.json
`);
    assert.equal(r.code, 0, r.err);
    const all = steps(r.out);
    const grade = all.get("grade")!;
    assert.equal(grade.code, 4, [...grade.out, ...grade.err].join("\n"));
    assert.deepEqual(grade.err, [
      "guardlab: refused: /tmp/drop/a.json is a symbolic link; guardlab " +
      "never follows links; remove the link (rm /tmp/drop/a.json)",
    ]);
    assert.deepEqual(all.get("rm"), { code: 0, out: [], err: [] });
  },
});

Deno.test("hand-in write: the way out of the shared /tmp names the file as chapters 5 and 6 do, NAME.json", () => {
  // A class of files all named hand-in.json would overwrite each other in
  // the teacher's folder: the chapters say NAME.json, and so does this line.
  assert.deepEqual(HAND_IN_FILE_MESSAGES.ownFolder, {
    en: "write the hand-in inside a folder of your own that no one else " +
      "can write (e.g. mkdir -m 700 /tmp/NAME, then --output " +
      "/tmp/NAME/NAME.json), never into the shared /tmp itself",
    zh: "请把作业写进只有你能写的自己的目录（例如 mkdir -m 700 /tmp/NAME，" +
      "再用 --output /tmp/NAME/NAME.json），不要直接写进共享的 /tmp",
  });
  for (const lang of ["en", "zh"]) {
    const chapter = Deno.readTextFileSync(
      new URL(`../../docs/${lang}/05-exercises.md`, import.meta.url),
    );
    assert.ok(chapter.includes("hand-in --output /tmp/NAME/NAME.json"), lang);
  }
});
