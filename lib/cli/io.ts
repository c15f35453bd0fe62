/**
 * The CLI's window on the world, injectable so tests can run commands in
 * process: stdout for machine output, stderr for diagnostics. Light on
 * purpose (the entry point answers `--version` with it before anything
 * else loads).
 *
 * @module
 */
import { redact } from "../base/secrets.ts";
import { inertOutput } from "../base/terminal.ts";
import { SANDBOX_ROOT } from "../sandbox/grant.ts";

/** Where a command writes and reads. */
export interface Io {
  /** Write one line (a newline is added) to stdout, flushed at once. */
  out(line: string): void;
  /** Write one line to stderr. */
  err(line: string): void;
  /**
   * Start stdout with the UTF-8 byte order mark (a CSV for a spreadsheet):
   * the one character written past the last guard, which shows U+FEFF
   * anywhere else as `\ufeff`. Call it before the first line.
   */
  byteOrderMark(): void;
  /** Standard input as a byte stream. */
  stdin(): ReadableStream<Uint8Array>;
  /** Whether human output may use colour (a terminal, and `NO_COLOR` unset). */
  color: boolean;
  /** Whether standard input is a terminal (a person typing, not a pipe). */
  stdinIsTerminal: boolean;
  /**
   * The granted temp folder that holds this user's private guardlab folder:
   * the sandbox root for a real process; tests put a folder of their own
   * here, so the real one is never touched.
   */
  base: string;
  /**
   * A folder of the user's own, given with `--home`, that keeps what
   * persists instead of `base/guardlab-UID` (set once a command's flags are
   * parsed).
   */
  home?: string;
}

const encoder = new TextEncoder();

/** U+FEFF, which tells a spreadsheet that the file is UTF-8. */
const BYTE_ORDER_MARK = "\ufeff";

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

/**
 * A line as it is shown: every secret guardlab was given taken out, then
 * made inert (the last guard every line of stdout and stderr passes).
 */
function shown(line: string, color: boolean): string {
  return inertOutput(redact(line), color);
}

/** The real process streams. Colour only on a terminal and never under `NO_COLOR`. */
export function processIo(): Io {
  const color = !Deno.noColor && Deno.stdout.isTerminal();
  // Every line passes the last guard: text from a ledger, a script or an
  // argument never reaches the terminal as a control sequence.
  return {
    out: (line) => quietly(Deno.stdout, shown(line, color) + "\n"),
    err: (line) => quietly(Deno.stderr, shown(line, color) + "\n"),
    byteOrderMark: () => quietly(Deno.stdout, BYTE_ORDER_MARK),
    stdin: () => Deno.stdin.readable,
    color,
    stdinIsTerminal: Deno.stdin.isTerminal(),
    base: SANDBOX_ROOT,
  };
}

/**
 * An in-memory Io for tests: collects lines, reads `input` as stdin, and
 * keeps its private guardlab folder in `base` (a test's own temp folder).
 */
export function memoryIo(
  input: string | Uint8Array,
  color: boolean,
  base: string,
): Io & { stdout: string[]; stderr: string[] } {
  const stdout: string[] = [];
  const stderr: string[] = [];
  // The mark starts the next line written, as it starts the stream.
  let mark = "";
  return {
    stdout,
    stderr,
    out: (line) => {
      const lines = shown(line, color).split("\n");
      lines[0] = mark + lines[0];
      mark = "";
      stdout.push(...lines);
    },
    byteOrderMark: () => {
      mark = BYTE_ORDER_MARK;
    },
    err: (line) => stderr.push(...shown(line, color).split("\n")),
    stdin: () =>
      new ReadableStream({
        start(controller) {
          controller.enqueue(
            typeof input === "string" ? encoder.encode(input) : input,
          );
          controller.close();
        },
      }),
    color,
    stdinIsTerminal: false,
    base,
  };
}
