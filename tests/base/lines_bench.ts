/**
 * The line splitter on hostile input: one 50 MB line with no newline (the
 * issue's reproduction took 11 s and 758 MB before), and 50 MB of ordinary
 * short lines. Run with `deno task bench`.
 */
import { linesOf } from "../../lib/base/lines.ts";

const MB = 1 << 20;
const CHUNK = 64 * 1024;

/** `total` bytes of `byte`, with a newline every `every` bytes (0: never), as 64 KiB chunks. */
function input(total: number, every: number): ReadableStream<Uint8Array> {
  let sent = 0;
  return new ReadableStream({
    pull(controller) {
      if (sent >= total) return controller.close();
      const chunk = new Uint8Array(Math.min(CHUNK, total - sent)).fill(0x78);
      if (every > 0) {
        for (let i = every - 1 - (sent % every); i < chunk.length; i += every) {
          chunk[i] = 0x0a;
        }
      }
      sent += chunk.length;
      controller.enqueue(chunk);
    },
  });
}

Deno.bench({
  name: "lines: one 50 MB line without a newline (refused as too long)",
  group: "lines",
  async fn() {
    let seen = 0;
    for await (const line of linesOf(input(50 * MB, 0))) {
      if (!("tooLong" in line)) throw new Error("expected one overlong line");
      seen++;
    }
    if (seen !== 1) throw new Error(`expected 1 line, got ${seen}`);
  },
});

Deno.bench({
  name: "lines: 50 MB of 100-byte lines",
  group: "lines",
  baseline: true,
  async fn() {
    let seen = 0;
    for await (const _ of linesOf(input(50 * MB, 100))) seen++;
    if (seen < 500_000) throw new Error(`too few lines: ${seen}`);
  },
});
