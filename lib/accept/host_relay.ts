/**
 * The tool's stdio end for `accept host`: `guardlab accept host-tool DIR`,
 * the command the `mcpServers` file names. The host starts it as its MCP
 * server; it reads the case's port and token from DIR (the case's private
 * folder: a plain file of this user, never through a link), connects to
 * guardlab on 127.0.0.1, says who it is, and carries bytes both ways until
 * either side ends. It keeps nothing and decides nothing: the tool is the
 * `accept host` run's, in that process.
 *
 * @module
 */
import { join } from "../base/path.ts";
import { isPlainRecord } from "../base/json.ts";
import { parseJson } from "../wire/message.ts";
import { readBoundedFile } from "./files.ts";

/** The relay file's name in a case's folder (`accept host` writes it). */
export const RELAY_FILE = "relay.json";

/** Why the relay could not start: the file, or the connection. */
export class RelayFailed extends Error {}

/**
 * Relay this process's stdin and stdout to the case in `dir` until either
 * side ends. `trusted`: the folders a file may be read from (the grant's).
 */
export async function relay(
  dir: string,
  trusted: readonly string[],
): Promise<void> {
  const text = await readBoundedFile(join(dir, RELAY_FILE), trusted, 4096);
  const parsed = parseJson(text, 2);
  const said = "value" in parsed && isPlainRecord(parsed.value)
    ? parsed.value
    : {};
  if (!Number.isSafeInteger(said.port) || typeof said.token !== "string") {
    throw new RelayFailed("not a relay file");
  }
  const socket = await Deno.connect({
    hostname: "127.0.0.1",
    port: said.port as number,
  });
  const hello = JSON.stringify({ token: said.token, pid: Deno.pid }) + "\n";
  await socket.write(new TextEncoder().encode(hello));
  // The host's end: when it closes our stdin, the server is to stop.
  const up = (async () => {
    for await (const chunk of Deno.stdin.readable) await socket.write(chunk);
  })();
  // guardlab's end: when the case ends, so does this process.
  const down = socket.readable.pipeTo(Deno.stdout.writable, {
    preventClose: true,
  });
  await Promise.race([up, down]).catch(() => {});
  try {
    socket.close();
  } catch {
    // Closed already.
  }
}
