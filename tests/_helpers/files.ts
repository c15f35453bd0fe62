/** What a folder holds, to prove a command changed nothing in it. */
import { join } from "node:path";

/** Every entry below `dir`: its name and the SHA-256 of its bytes. */
export async function listing(dir: string): Promise<Record<string, string>> {
  const seen: Record<string, string> = {};
  const walk = async (d: string) => {
    for await (const entry of Deno.readDir(d)) {
      const path = join(d, entry.name);
      if (entry.isSymlink) seen[path] = "-> " + await Deno.readLink(path);
      else if (entry.isDirectory) {
        seen[path] = "dir";
        await walk(path);
      } else {
        seen[path] = await sha256(await Deno.readFile(path));
      }
    }
  };
  await walk(dir);
  return Object.fromEntries(Object.entries(seen).sort());
}

async function sha256(bytes: Uint8Array): Promise<string> {
  const digest = await crypto.subtle.digest(
    "SHA-256",
    bytes as Uint8Array<ArrayBuffer>,
  );
  return [...new Uint8Array(digest)].map((b) => b.toString(16).padStart(2, "0"))
    .join("");
}
