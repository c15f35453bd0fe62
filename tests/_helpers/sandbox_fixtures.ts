/**
 * Fixtures for tests that attack the sandbox in process: a stand-in for the
 * shared temp folder, a snapshot of every file's bytes, and the shape of a
 * refusal (exit 4, one line).
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { currentUid } from "../../lib/sandbox/safe_fs.ts";
import { privateRoot } from "../../lib/sandbox/sandbox.ts";
import { removeScratch } from "../../lib/sandbox/scratch.ts";
import { TEST_BASE } from "./helpers.ts";

/** Whether this test process runs as root (and so can act as a second user with chown). */
export const IS_ROOT: boolean = currentUid(TEST_BASE) === 0;

/** The uid tests hand files to, to stand for another user. */
export const OTHER_UID = 65534;

/** A fresh stand-in for the shared temp folder (mode 1777), plus a folder "outside" it. */
export async function sharedPlace(): Promise<
  { base: string; outside: string; root: () => string } & AsyncDisposable
> {
  const top = await Deno.makeTempDir({ prefix: "guardlab-attack-" });
  const base = join(top, "tmp");
  const outside = join(top, "outside");
  await Deno.mkdir(base);
  await Deno.chmod(base, 0o1777);
  await Deno.mkdir(outside, { mode: 0o700 });
  return {
    base,
    outside,
    root: () => privateRoot(base)!,
    async [Symbol.asyncDispose]() {
      removeScratch();
      await Deno.remove(top, { recursive: true });
    },
  };
}

/** Every entry below `dir` with its bytes' hash (links as their target text, folders with their mode). */
export async function snapshot(dir: string): Promise<Map<string, string>> {
  const seen = new Map<string, string>();
  const walk = async (d: string) => {
    for await (const entry of Deno.readDir(d)) {
      const path = join(d, entry.name);
      if (entry.isSymlink) seen.set(path, "-> " + await Deno.readLink(path));
      else if (entry.isDirectory) {
        seen.set(path, `dir ${(await Deno.lstat(path)).mode}`);
        await walk(path);
      } else {
        seen.set(path, await sha256(await Deno.readFile(path)));
      }
    }
  };
  await walk(dir);
  return seen;
}

/** The SHA-256 of `bytes`, in hex. */
export async function sha256(bytes: Uint8Array): Promise<string> {
  const digest = await crypto.subtle.digest(
    "SHA-256",
    bytes as Uint8Array<ArrayBuffer>,
  );
  return [...new Uint8Array(digest)].map((b) => b.toString(16).padStart(2, "0"))
    .join("");
}

/** Exit 4, nothing on stdout, exactly one line on stderr matching `why`. */
export function assertRefused(
  r: { code: number; out: string[]; err: string[] },
  why: RegExp,
): void {
  assert.equal(r.code, 4, [...r.out, ...r.err].join("\n"));
  assert.deepEqual(r.out, []);
  assert.equal(r.err.length, 1, r.err.join("\n"));
  assert.match(r.err[0], /^guardlab: (refused|拒绝)/);
  assert.match(r.err[0], why);
}
