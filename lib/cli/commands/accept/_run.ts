/**
 * A run of `guardlab accept`, top to bottom: the flags read, the server and
 * the oracle picked, everything that can refuse checked before the server
 * starts (the oracle, `--junit`'s new file, the baseline), the matrix run,
 * then shown (the screen, `--json` or `--format svg`) and written
 * (`--junit`, `--otlp`), and its exit code.
 *
 * @module
 */
import { fill, type Lang, say } from "../../../base/i18n.ts";
import { EXAMPLE_ORACLE } from "../../../accept/example_oracle.ts";
import {
  DEFAULT_COPIES,
  MAX_COPIES,
  MAX_DELAY_MS,
} from "../../../accept/limits.ts";
import { declaresContract, type Oracle } from "../../../accept/oracle.ts";
import type { HttpOracle } from "../../../accept/http_oracle.ts";
import { ALL_CASE_NAMES } from "../../../accept/cases.ts";
import { httpCases, httpOracleFor } from "./_http.ts";
import {
  type AcceptOptions,
  type AcceptReport,
  runAccept,
} from "../../../accept/run.ts";
import { InitializeFailed } from "../../../accept/session.ts";
import {
  assertGrantFor,
  serverChannel,
  type ServerSource,
  StartFailed,
} from "../../../accept/start.ts";
import {
  acceptScreen,
  acceptSvg,
  titleText,
} from "../../../accept/views/accept_view.ts";
import { junitXml } from "../../../accept/views/accept_junit.ts";
import { encodeTrace } from "../../../otlp/trace.ts";
import { assertNewFile, writeNewFile } from "../../../sandbox/new_file.ts";
import {
  assertSameOracle,
  assertSameServer,
  type Baseline,
  compareWithBaseline,
  type Comparison,
  oracleDigest,
} from "../../../accept/baseline.ts";
import { EXIT, type ExitCode } from "../../exit.ts";
import type { Io } from "../../io.ts";
import { readOracleFile } from "../../oracle_file.ts";
import { ACCEPT_PROXY_MESSAGES as S } from "../../messages/common.ts";
import { ACCEPT_MESSAGES as M } from "./_messages.ts";
import { printable, UsageError, wholeFlag } from "../../parser.ts";
import { exitOf, headersOf, readBaseline, reportJson, sameRun } from "./_ci.ts";
import { casesOf, sourceOf } from "./_args.ts";

/** The flags of a run, as the parser gives them. */
type Values = Readonly<Record<string, string | boolean | string[] | undefined>>;

/** What a run needs beside its flags. */
export interface RunContext {
  /** The folders files may be under. */
  readonly trusted: readonly string[];
  /** The bound of every wait for an answer. */
  readonly timeoutMs: number;
  /** Where to write. */
  readonly io: Io;
  /** The language of the screen. */
  readonly lang: Lang;
  /** The one line of a server that did not get through initialize. */
  readonly initLine: (error: InitializeFailed) => string;
}

/** Run the matrix as the flags say; returns the exit code. */
export async function runMatrix(
  values: Values,
  positionals: string[],
  ctx: RunContext,
): Promise<ExitCode> {
  const flag = (name: string) => values[name] as string | undefined;
  if (flag("output") !== undefined) {
    throw new UsageError(fill(M.initFlags, { flag: "--output" }), "accept");
  }
  let source = sourceOf(
    "accept",
    values,
    positionals,
    headersOf("accept", values),
  );
  const options = runOptions(values, ctx.timeoutMs);
  if (values.json && values.format === "svg") {
    throw new UsageError(S.jsonOrSvg, "accept");
  }
  const http = flag("http-oracle") !== undefined;
  const oracle = http
    ? await httpOracleFor(source, values, ctx)
    : await oracleFor(source, values, ctx);
  if (typeof oracle === "number") return oracle;
  if (http && source.kind !== "example") {
    source = {
      ...source,
      api: { keyHeader: (oracle as HttpOracle).keyHeader },
    };
  }
  // Everything that can refuse is checked before the server starts.
  const digest = oracleDigest(oracle);
  if (flag("junit") !== undefined) assertNewFile(flag("junit")!, ctx.trusted);
  if (flag("otlp") !== undefined) assertNewFile(flag("otlp")!, ctx.trusted);
  const baseline = await baselineFor(flag("baseline"), digest, ctx);
  if (typeof baseline === "number") return baseline;
  // An oracle that declares part of the idempotency-key contract runs the
  // contract's cases too, unless --cases names the cases.
  const cases = http
    ? httpCases(flag("cases"), options.cases)
    : flag("cases") === undefined &&
        oracle.tools.some((t) => declaresContract(t))
    ? [...ALL_CASE_NAMES]
    : options.cases;
  const report = await run(
    source,
    { ...options, cases, oracle, tool: flag("tool") },
    ctx,
  );
  if (typeof report === "number") return report;
  let comparison: Comparison | undefined;
  if (baseline !== undefined) {
    sameRun(() => assertSameServer(baseline, report, flag("baseline")!));
    comparison = compareWithBaseline(report, baseline);
  }
  const code = exitOf(report, comparison);
  show(report, { source, values, digest, code, comparison }, ctx);
  if (flag("junit") !== undefined) {
    writeNewFile(
      flag("junit")!,
      ctx.trusted,
      junitXml(report, {
        lang: ctx.lang,
        at: new Date(),
        oracleDigest: digest,
        exit: code,
        comparison,
      }),
    );
  }
  if (flag("otlp") !== undefined) {
    // Random ids: the run is an event, traced once, as it is written.
    const { acceptTrace, randomIds } = await import(
      "../../../accept/views/accept_otlp.ts"
    );
    writeNewFile(
      flag("otlp")!,
      ctx.trusted,
      encodeTrace(acceptTrace(report, randomIds())).text,
    );
  }
  return code;
}

/** The cases, copies and waits the flags ask for. */
function runOptions(
  values: Values,
  timeoutMs: number,
): Omit<AcceptOptions, "oracle"> {
  const text = (name: string) => values[name] as string | undefined;
  return {
    cases: casesOf(text("cases")),
    copies: wholeFlag(
      "accept",
      "--copies",
      text("copies"),
      DEFAULT_COPIES,
      1,
      MAX_COPIES,
    ),
    timeoutMs,
    // Absent: half the median latency measured before the case.
    cancelAfterMs: text("cancel-after-ms") === undefined
      ? undefined
      : wholeFlag(
        "accept",
        "--cancel-after-ms",
        text("cancel-after-ms"),
        0,
        0,
        MAX_DELAY_MS,
      ),
  };
}

/**
 * The oracle: the built-in one for an example, else the file `--oracle`
 * names (read once the grant the server needs is checked); the exit code
 * after its one line when the file cannot be read.
 */
async function oracleFor(
  source: ServerSource,
  values: Values,
  ctx: RunContext,
): Promise<Oracle | ExitCode> {
  const file = values.oracle as string | undefined;
  const tool = values.tool as string | undefined;
  if (values.openapi !== undefined) {
    throw new UsageError(M.openapiNeedsHttp, "accept");
  }
  if ((source.kind === "example") !== (file === undefined)) {
    throw new UsageError(M.needsOracle, "accept");
  }
  let oracle = EXAMPLE_ORACLE;
  if (file !== undefined) {
    assertGrantFor(source, "accept");
    const read = await readOracleFile(
      file,
      ctx.trusted,
      ctx.io,
      ctx.lang,
      "accept",
    );
    if (typeof read === "number") return read;
    oracle = read;
  }
  if (tool !== undefined && !oracle.tools.some((t) => t.tool === tool)) {
    throw new UsageError(
      fill(M.unknownTool, { got: printable(tool) }),
      "accept",
    );
  }
  return oracle;
}

/** The baseline `--baseline` names, checked against the oracle's digest; the exit code after its one line when it cannot be read. */
async function baselineFor(
  file: string | undefined,
  digest: string,
  ctx: RunContext,
): Promise<Baseline | ExitCode | undefined> {
  if (file === undefined) return undefined;
  const read = await readBaseline(file, ctx.trusted, ctx.io, ctx.lang);
  if (typeof read === "number") return read;
  sameRun(() => assertSameOracle(read, digest, file));
  return read;
}

/** Start the server and run the matrix; a server that could not start, or did not get through initialize, is one line and its exit code. */
async function run(
  source: ServerSource,
  options: AcceptOptions,
  ctx: RunContext,
): Promise<AcceptReport | ExitCode> {
  try {
    const { channel, start } = await serverChannel(source);
    return await runAccept(channel, { ...options, start });
  } catch (error) {
    if (error instanceof StartFailed) {
      ctx.io.err(`guardlab: ${say(error.text, ctx.lang)}`);
      return EXIT.failed;
    }
    if (error instanceof InitializeFailed) {
      ctx.io.err(`guardlab: ${ctx.initLine(error)}`);
      return EXIT.inconclusive;
    }
    throw error;
  }
}

/** Show the report as the flags ask: `--json`, `--format svg`, or the screen. */
function show(
  report: AcceptReport,
  { source, values, digest, code, comparison }: {
    source: ServerSource;
    values: Values;
    digest: string;
    code: ExitCode;
    comparison?: Comparison;
  },
  { io, lang }: RunContext,
): void {
  if (values.json) {
    io.out(reportJson(report, digest, code, comparison));
    return;
  }
  if (values.format === "svg") {
    io.out(acceptSvg(report, lang, say(titleText(report), lang)));
    return;
  }
  const file = values.baseline as string | undefined;
  const screen = acceptScreen(report, {
    source: {
      kind: source.kind,
      name: source.kind === "example" ? source.name : undefined,
    },
    timeline: values.timeline === true,
    exit: code,
    ...(comparison && file ? { baseline: { file, comparison } } : {}),
  }, lang);
  for (const line of screen) io.out(line);
}
