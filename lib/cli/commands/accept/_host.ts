/**
 * `guardlab accept host [--url URL] [--cases LIST] [--variant V]
 * [--case-ms N] [--json] [--junit FILE] [--otlp FILE] -- HOSTCOMMAND…`,
 * top to bottom: the flags, the grant, `--junit`'s and `--otlp`'s new
 * files checked before anything starts, the run (one line on stderr per
 * case as it is judged), the screen or the JSON, the JUnit file, the
 * trace, the exit code. `accept host --example HOST`: the same with a host
 * run in guardlab's own process, under the students' grant. And `accept
 * host-tool DIR`, the tool's stdio end the host starts.
 *
 * @module
 */
import { fill, type Lang, say, type Text } from "../../../base/i18n.ts";
import { Refused } from "../../../base/errors.ts";
import { mayStartProcesses } from "../../../sandbox/grant.ts";
import {
  HOST_EXAMPLE_CASES,
  HOST_EXAMPLE_NAMES,
  HOST_TRANSPORT_CASES,
  HOST_VARIANTS,
  type HostCaseName,
  type HostTransport,
  type HostVariant,
} from "../../../accept/cases.ts";
import {
  DEFAULT_CASE_MS,
  HOST_EXAMPLE_RUN_MS,
  MAX_CASE_MS,
  MIN_CASE_MS,
} from "../../../accept/limits.ts";
import {
  type HostCaseResult,
  type HostReport,
  hostReportOf,
  runHost,
} from "../../../accept/host.ts";
import { hostExample } from "../../../accept/mod.ts";
import { relay } from "../../../accept/host_relay.ts";
import { HOST_WORDS } from "../../../accept/host_messages.ts";
import { hostJunitXml, hostScreen } from "../../../accept/views/host_view.ts";
import { hostTrace, randomIds } from "../../../accept/host_otlp.ts";
import { encodeTrace } from "../../../otlp/trace.ts";
import { assertNewFile, writeNewFile } from "../../../sandbox/new_file.ts";
import { launchCommand, thisInstall } from "../../../mcp/host_config.ts";
import { EXIT, type ExitCode } from "../../exit.ts";
import type { Io } from "../../io.ts";
import { choice, printable, UsageError, wholeFlag } from "../../parser.ts";
import { ACCEPT_MESSAGES as M } from "./_messages.ts";
import { exitOf } from "./_ci.ts";
import { assertFlagsAmong } from "./_args.ts";

/** The flags `accept host` takes before its `--`. */
const HOST_FLAGS = [
  "example",
  "url",
  "cases",
  "variant",
  "case-ms",
  "json",
  "junit",
  "otlp",
  "lang",
  "home",
];

/** What a run of `accept host` needs beside its flags. */
export interface HostContext {
  /** The folders files may be under. */
  readonly trusted: readonly string[];
  /** Where to write. */
  readonly io: Io;
  /** The language of the screen. */
  readonly lang: Lang;
}

/** `accept host` with its flags (`values`) and the host's command (`argv`); returns the exit code. */
export async function runHostCommand(
  values: Readonly<Record<string, unknown>>,
  argv: readonly string[],
  { trusted, io, lang }: HostContext,
): Promise<ExitCode> {
  assertFlagsAmong(values, HOST_FLAGS, M.hostFlags);
  if (values.example !== undefined) {
    return await runHostExampleCommand(values, argv, { trusted, io, lang });
  }
  if (argv.length === 0) throw new UsageError(M.hostNeedsCommand, "accept");
  const url = values.url === undefined
    ? undefined
    : toolUrl(values.url as string);
  const transport: HostTransport = url === undefined ? "stdio" : "http";
  const cases = hostCases(
    values.cases as string | undefined,
    HOST_TRANSPORT_CASES[transport],
    transport,
  );
  const variants: HostVariant[] = values.variant === undefined
    ? [...HOST_VARIANTS]
    : [values.variant as HostVariant];
  const caseMs = wholeFlag(
    "accept",
    "--case-ms",
    values["case-ms"] as string | undefined,
    DEFAULT_CASE_MS,
    MIN_CASE_MS,
    MAX_CASE_MS,
  );
  if (
    !mayStartProcesses() ||
    Deno.permissions.querySync({ name: "net", host: "127.0.0.1" }).state !==
      "granted"
  ) {
    throw new Refused(M.hostNeedsGrant);
  }
  const junit = values.junit as string | undefined;
  if (junit !== undefined) assertNewFile(junit, trusted);
  const otlp = values.otlp as string | undefined;
  if (otlp !== undefined) assertNewFile(otlp, trusted);
  let report: HostReport;
  try {
    report = await runHost({
      argv,
      transport,
      ...(url === undefined ? {} : { url }),
      cases,
      variants,
      caseMs,
      base: io.base,
      guardlab: launchCommand(thisInstall(), "guardlab-engineer"),
      onRow: (row) => progress(row, io, lang),
    });
  } catch (error) {
    if (error instanceof Deno.errors.AddrInUse && url !== undefined) {
      io.err(
        `guardlab: ${say(fill(M.hostCannotListen, { url: url.href }), lang)}`,
      );
      return EXIT.failed;
    }
    if (
      error instanceof Deno.errors.NotFound ||
      error instanceof Deno.errors.PermissionDenied
    ) {
      io.err(`guardlab: ${
        say(
          fill(M.hostCannotStart, {
            command: JSON.stringify(argv[0]),
            why: error.message.split("\n")[0],
          }),
          lang,
        )
      }`);
      return EXIT.failed;
    }
    throw error;
  }
  return shown(report, values.json === true, junit, otlp, {
    trusted,
    io,
    lang,
  });
}

/** One case's line on stderr as it is judged. */
function progress(row: HostCaseResult, io: Io, lang: Lang): void {
  io.err(say(
    fill(HOST_WORDS.progress, {
      case: row.case,
      variant: row.variant,
      verdict: row.verdict,
      seconds: (row.ms / 1000).toFixed(1),
    }),
    lang,
  ));
}

/** The report as the screen or the JSON, the JUnit file, the trace; its exit code. */
function shown(
  report: HostReport,
  json: boolean,
  junit: string | undefined,
  otlp: string | undefined,
  { trusted, io, lang }: HostContext,
): ExitCode {
  const code = exitOf(report);
  if (json) {
    io.out(JSON.stringify({ ...report, exit: code }, null, 2));
  } else {
    for (const line of hostScreen(report, lang)) io.out(line);
  }
  if (junit !== undefined) {
    writeNewFile(
      junit,
      trusted,
      hostJunitXml(report, { lang, at: new Date(), exit: code }),
    );
  }
  if (otlp !== undefined) {
    // Random ids: the run is an event, traced once, as it is written.
    writeNewFile(
      otlp,
      trusted,
      encodeTrace(hostTrace(report, randomIds())).text,
    );
  }
  return code;
}

/**
 * `accept host --example HOST`: the host run in guardlab's own process on
 * each case and variant, under either grant (the host reads the
 * environment, which both ignore but for the variables the engineers'
 * lists).
 */
async function runHostExampleCommand(
  values: Readonly<Record<string, unknown>>,
  argv: readonly string[],
  { trusted, io, lang }: HostContext,
): Promise<ExitCode> {
  assertFlagsAmong(
    values,
    ["example", "cases", "variant", "json", "junit", "otlp", "lang", "home"],
    M.hostExampleFlags,
  );
  if (argv.length > 0) {
    throw new UsageError(
      fill(M.hostExampleNoCommand, { arg: printable(argv[0]) }),
      "accept",
    );
  }
  const name = choice(
    "accept",
    "--example",
    values.example as string,
    HOST_EXAMPLE_NAMES,
  )!;
  const cases = hostCases(
    values.cases as string | undefined,
    HOST_EXAMPLE_CASES,
    M.inProcessTransport,
  );
  const variants: HostVariant[] = values.variant === undefined
    ? [...HOST_VARIANTS]
    : [values.variant as HostVariant];
  const junit = values.junit as string | undefined;
  if (junit !== undefined) assertNewFile(junit, trusted);
  const otlp = values.otlp as string | undefined;
  if (otlp !== undefined) assertNewFile(otlp, trusted);
  const results: HostCaseResult[] = [];
  for (const c of cases) {
    for (const variant of variants) {
      const row = await hostExample(name, c, variant, io.base);
      results.push(row);
      progress(row, io, lang);
    }
  }
  const report = hostReportOf(
    { program: name },
    "http",
    HOST_EXAMPLE_RUN_MS,
    results,
    true,
  );
  return shown(report, values.json === true, junit, otlp, {
    trusted,
    io,
    lang,
  });
}

/** The URL `--url` names for the tool: http on 127.0.0.1, a port (0: any), a path. */
function toolUrl(text: string): URL {
  let url: URL | null = null;
  try {
    url = new URL(text);
  } catch {
    // Said below.
  }
  if (
    url === null || url.protocol !== "http:" || url.hostname !== "127.0.0.1" ||
    url.username !== "" || url.password !== "" || url.search !== "" ||
    url.hash !== ""
  ) {
    throw new UsageError(fill(M.hostUrl, { got: printable(text) }), "accept");
  }
  return url;
}

/** The cases of `--cases` among `allowed` (all of them when not given), each name checked; `transport` names where they run. */
function hostCases(
  list: string | undefined,
  allowed: readonly HostCaseName[],
  transport: string | Text,
): HostCaseName[] {
  if (list === undefined) return [...allowed];
  const names = list.split(",").map((s) => s.trim()).filter((s) => s !== "");
  for (const name of names) {
    if (!(allowed as readonly string[]).includes(name)) {
      throw new UsageError(
        fill(M.hostUnknownCase, {
          got: printable(name),
          transport,
          names: allowed.join(", "),
        }),
        "accept",
      );
    }
  }
  return [...new Set(names)] as HostCaseName[];
}

/** `accept host-tool DIR`: relay the host's stdio to the run that wrote DIR; 0 when either side ended, 1 when it cannot connect. */
export async function runHostTool(
  values: Readonly<Record<string, unknown>>,
  rest: readonly string[],
  { trusted, io, lang }: HostContext,
): Promise<ExitCode> {
  assertFlagsAmong(values, ["lang", "home"], M.hostToolArgs);
  if (rest.length !== 1) throw new UsageError(M.hostToolArgs, "accept");
  try {
    await relay(rest[0], trusted);
    return EXIT.ok;
  } catch (error) {
    if (error instanceof Refused) throw error;
    const why = error instanceof Error
      ? error.message.split("\n")[0]
      : String(error);
    io.err(
      `guardlab: ${
        say(fill(M.hostToolFailed, { dir: JSON.stringify(rest[0]), why }), lang)
      }`,
    );
    return EXIT.failed;
  }
}
