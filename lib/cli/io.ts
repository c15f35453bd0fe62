/**
 * The CLI's window on the world, injectable so tests can run commands in
 * process: stdout for machine output, stderr for diagnostics.
 *
 * @module
 */

/** Where a command writes and reads. */
export interface Io {
  /** Write one line (a newline is added) to stdout, flushed at once. */
  out(line: string): void;
  /** Write one line to stderr. */
  err(line: string): void;
  /** Standard input as a byte stream. */
  stdin(): ReadableStream<Uint8Array>;
  /** Whether human output may use colour (a terminal, and `NO_COLOR` unset). */
  color: boolean;
}

const encoder = new TextEncoder();

function writeAll(
  target: { writeSync(p: Uint8Array): number },
  text: string,
): void {
  let bytes = encoder.encode(text);
  while (bytes.length > 0) bytes = bytes.subarray(target.writeSync(bytes));
}

/** Write, but treat a closed reader (`guardlab demo | head`) as the end of interest. */
function quietly(
  target: { writeSync(p: Uint8Array): number },
  text: string,
): void {
  try {
    writeAll(target, text);
  } catch (error) {
    if (!(error instanceof Deno.errors.BrokenPipe)) throw error;
  }
}

/** The real process streams. Colour only on a terminal and never under `NO_COLOR`. */
export function processIo(): Io {
  return {
    out: (line) => quietly(Deno.stdout, line + "\n"),
    err: (line) => quietly(Deno.stderr, line + "\n"),
    stdin: () => Deno.stdin.readable,
    color: !Deno.noColor && Deno.stdout.isTerminal(),
  };
}

/** An in-memory Io for tests: collects lines, reads `input` as stdin. */
export function memoryIo(
  input = "",
  color = false,
): Io & { stdout: string[]; stderr: string[] } {
  const stdout: string[] = [];
  const stderr: string[] = [];
  return {
    stdout,
    stderr,
    out: (line) => stdout.push(...line.split("\n")),
    err: (line) => stderr.push(...line.split("\n")),
    stdin: () =>
      new ReadableStream({
        start(controller) {
          controller.enqueue(encoder.encode(input));
          controller.close();
        },
      }),
    color,
  };
}
