/**
 * What the host under test wrote: its stdout and stderr read as they come
 * (a pipe nobody reads would stop it), and only their last lines kept,
 * each cut and inert, the run's dummy key masked. They are what to read
 * when a host never reached the tool (a wrong base URL, a missing
 * package); they are shown, never judged.
 *
 * @module
 */
import { cutText } from "./_host_log.ts";

/** How much of each stream's end is kept while it is read: 16 KiB. */
const TAIL_BYTES = 16 * 1024;

/** How many of the last lines of the host's output a row keeps. */
export const HOST_OUTPUT_LINES = 8;

/** The last {@linkcode TAIL_BYTES} of `stream`, read to its end (which comes when guardlab stops reading it). */
export async function tailOf(
  stream: ReadableStream<Uint8Array>,
): Promise<string> {
  let tail = new Uint8Array(0);
  try {
    for await (const chunk of stream) {
      const joined = new Uint8Array(tail.length + chunk.length);
      joined.set(tail);
      joined.set(chunk, tail.length);
      tail = joined.length > TAIL_BYTES
        ? joined.slice(joined.length - TAIL_BYTES)
        : joined;
    }
  } catch {
    // Reading stopped: what was read is kept.
  }
  return new TextDecoder().decode(tail);
}

/** The last lines of the host's streams, each cut and inert, with `secret` masked. */
export function hostOutput(tails: readonly string[], secret: string): string[] {
  return tails.flatMap((t) =>
    t.split("\n").map((l) => l.trimEnd()).filter((l) => l !== "")
      .slice(-HOST_OUTPUT_LINES)
      .map((l) => cutText(l.replaceAll(secret, "…"), 200))
  );
}
