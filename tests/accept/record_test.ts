/**
 * A proxy record that cannot be written: another user can fill a shared
 * `/tmp`, and the write of the record then fails. The record ends there,
 * once, in one line; the session it records goes on, every message
 * forwarded. Held in process (a file whose every write fails with ENOSPC)
 * and as it happens (a full tmpfs, in a private mount namespace).
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { RecordWriter } from "../../lib/accept/record.ts";
import { fill, same, say, type Text } from "../../lib/base/i18n.ts";
import { PROXY_LOG, PROXY_WORDS } from "../../lib/accept/proxy_messages.ts";
import {
  CAN_START,
  engineerCommand,
  NEEDS_START,
  PUT_NOTE_SESSION,
  ROOT,
} from "../_helpers/accept_helpers.ts";
import { namespaceMissing } from "../_helpers/namespace.ts";
import { sandboxCommand } from "../_helpers/spawn.ts";
import { tempDir } from "../_helpers/tmp.ts";

/** A file every write of which fails as on a full disk; it counts its closes. */
function fullDisk(): {
  file: Deno.FsFile;
  writes: () => number;
  closes: () => number;
} {
  let writes = 0;
  let closes = 0;
  const file = {
    writeSync(): number {
      writes++;
      throw Object.assign(new Error("No space left on device (os error 28)"), {
        code: "ENOSPC",
      });
    },
    close(): void {
      closes++;
    },
  } as unknown as Deno.FsFile;
  return { file, writes: () => writes, closes: () => closes };
}

/** One turn of the event loop after the writes queued before it. */
const turn = () => new Promise<void>((done) => setImmediate(done));

Deno.test("record: a write that fails ends the record once, and throws nothing", async () => {
  const disk = fullDisk();
  const failed: Text[] = [];
  const record = new RecordWriter(disk.file, (why) => failed.push(why));
  record.write({
    kind: "start",
    guardlab_proxy: 1,
    command: ["x"],
    epoch_ms: 1,
  });
  // The record's own turn writes the line; an error thrown there would be
  // uncaught, and would end the proxy.
  await turn();
  assert.deepEqual(failed, [{
    en: "guardlab proxy: the record could not be written (no space left on " +
      "its device; on a shared /tmp, another user may have filled it); " +
      "later messages are forwarded, not recorded",
    zh: "guardlab proxy：记录无法写入（所在设备没有剩余空间；在共享的 /tmp " +
      "上，可能是别的用户把它占满了）；之后的消息照常转发，不再记录",
  }]);
  assert.equal(record.full, true);
  record.message(
    { dir: "client>server", action: "forwarded" },
    "{}",
  );
  await turn();
  record.close();
  assert.equal(disk.writes(), 1, "nothing more is tried once a write failed");
  assert.equal(failed.length, 1, "said once");
  assert.equal(disk.closes(), 1, "the file is closed");
});

const missing = CAN_START ? namespaceMissing() : "";

Deno.test({
  name:
    "proxy: a record on a full disk ends in one line, and the session goes on" +
    (NEEDS_START || (missing ? ` [ignored: ${missing}]` : "")),
  ignore: !CAN_START || missing !== "",
  async fn() {
    await using baseFolder = await tempDir("gl-record-full-");
    const base = baseFolder.path;
    const small = join(base, "small");
    await Deno.mkdir(small, { mode: 0o700 });
    const record = join(small, "record.jsonl");
    const { program, args } = sandboxCommand();
    const proxy = engineerCommand([
      "proxy",
      "--record",
      record,
      "--",
      program,
      ...args,
      "mcp",
    ]);
    // A tmpfs of 16 KiB, filled, in a mount namespace of its own: only
    // the record's folder is full.
    const script = `mount -t tmpfs -o size=16k,mode=700 tmpfs "$1" && ` +
      `(dd if=/dev/zero of="$1/fill" bs=1k count=64 2>/dev/null; true) && ` +
      `shift && exec "$@"`;
    const child = new Deno.Command("unshare", {
      args: [
        "-m",
        "bash",
        "-c",
        script,
        "bash",
        small,
        proxy.command,
        ...proxy.args,
      ],
      cwd: ROOT,
      env: { NO_COLOR: "1" },
      stdin: "piped",
      stdout: "piped",
      stderr: "piped",
    }).spawn();
    const writer = child.stdin.getWriter();
    await writer.write(new TextEncoder().encode(PUT_NOTE_SESSION));
    await writer.close();
    const { code, stdout, stderr } = await child.output();
    const err = new TextDecoder().decode(stderr).trim().split("\n");
    const out = new TextDecoder().decode(stdout).trim().split("\n");
    assert.equal(code, 0, err.join("\n"));
    // Both answers reached the client.
    assert.deepEqual(out.map((l) => JSON.parse(l).id), [1, 2]);
    assert.deepEqual(
      err.filter((l) => /record/.test(l)),
      [
        `guardlab proxy: recording to ${record}; the server runs with your own rights`,
        "guardlab proxy: the record could not be written (no space left on " +
        "its device; on a shared /tmp, another user may have filled it); " +
        "later messages are forwarded, not recorded",
      ],
    );
  },
});

Deno.test("proxy: a count of one reads right on its log and its timeline (before: '1 more copies', 'the effect of 1 keys')", () => {
  assert.equal(
    say(fill(PROXY_WORDS.copies, { calls: same("call 2"), n: 1 }), "en"),
    "sends copies of call 2: 1 more (fault)",
  );
  assert.equal(
    say(fill(PROXY_LOG.oracleRead, { n: 1 }), "en"),
    "guardlab proxy: read the effect by key from the server at the end of the session (keys: 1)",
  );
});
