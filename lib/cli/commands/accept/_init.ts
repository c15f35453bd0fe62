/**
 * `guardlab accept init`: start (or connect to) the server, read its
 * `tools/list`, and write a draft oracle (`lib/accept/draft.ts`) with each
 * guess marked. With `--output FILE` the draft goes to a new file (never
 * through a link, never over an existing name; checked before the server
 * starts) and the summary to stdout; without it the draft goes to stdout
 * and the summary to stderr, so `> FILE` keeps only the JSON.
 *
 * @module
 */
import { fill, type Lang, say } from "../../../base/i18n.ts";
import { inert } from "../../../base/terminal.ts";
import {
  countUnconfirmed,
  type Draft,
  draftOracle,
  freshRead,
  NothingToDraft,
} from "../../../accept/draft.ts";
import { countIn } from "../../../accept/oracle.ts";
import { redact } from "../../../base/secrets.ts";
import { assertNewFile, writeNewFile } from "../../../sandbox/new_file.ts";
import { InitializeFailed, Session } from "../../../accept/session.ts";
import {
  serverChannel,
  type ServerSource,
  StartFailed,
} from "../../../accept/start.ts";
import { EXIT, type ExitCode } from "../../exit.ts";
import type { Io } from "../../io.ts";
import { ACCEPT_MESSAGES as U, INIT_MESSAGES as C } from "./_messages.ts";
import { UsageError } from "../../parser.ts";
import { assertFlagsAmong } from "./_args.ts";
import { MATRIX_WORDS as M } from "../../../accept/messages.ts";

/** What `init` needs: the server, where the draft goes, the bound of each wait. */
export interface InitCall {
  /** The server (a command or a URL; the grant already checked). */
  readonly source: ServerSource;
  /** The new file for the draft, or undefined for stdout. */
  readonly output?: string;
  /** The folders files may be under. */
  readonly trusted: readonly string[];
  /** The bound of every wait. */
  readonly timeoutMs: number;
  /** Where to write. */
  readonly io: Io;
  /** The language of the summary and of the guesses' notes. */
  readonly lang: Lang;
  /** The one line of a server that did not get through initialize. */
  readonly initLine: (error: InitializeFailed) => string;
}

/** The flags `init` takes: the server's, `--output` and `--timeout-ms`. */
const INIT_FLAGS = [
  "output",
  "url",
  "header",
  "header-env",
  "timeout-ms",
  "lang",
  "home",
];

/** Refuse (a usage error) a flag `init` does not take, or no server at all. */
export function assertInitFlags(
  values: Readonly<Record<string, unknown>>,
  rest: readonly string[],
): void {
  assertFlagsAmong(values, INIT_FLAGS, U.initFlags);
  if (rest.length === 0 && values.url === undefined) {
    throw new UsageError(U.initNeedsServer, "accept");
  }
}

/**
 * Before the draft is written, each drafted count is tried as `accept`
 * tries it before a case: a read of a key no call has used must count 0.
 * One that counts more is a read that shows the key it was asked for (a
 * query echoed in its result), and its count is marked as a guess init
 * could not confirm. A read that cannot be counted proves nothing, as in
 * `accept`, and changes nothing. The run's name is one no call is made in.
 */
async function proveCounts(
  session: Session,
  draft: Draft,
  lang: Lang,
): Promise<{
  draft: Draft;
  unconfirmed: { tool: string; key: string; n: number }[];
}> {
  const run = `fresh-${crypto.randomUUID().slice(0, 8)}`;
  const unconfirmed: { tool: string; key: string; n: number }[] = [];
  for (let i = 0; i < draft.entries.length; i++) {
    const fresh = freshRead(draft.entries[i], run);
    if (fresh === null) continue;
    const answer = await session.own(
      fresh.read.tool,
      fresh.read.arguments,
      "read",
    );
    const n = answer.outcome === "success" && answer.result
      ? countIn(fresh.count, answer.result, fresh.p)
      : null;
    if (n === null || n === 0) continue;
    // Secrets out before the cut (lib/base/secrets.ts); the session has
    // shown every character that could drive a terminal as its escape.
    const words = inert(redact(answer.text ?? "").slice(0, 80));
    draft = countUnconfirmed(draft, i, { key: fresh.key, n, words }, lang);
    unconfirmed.push({ tool: draft.drafted[i], key: fresh.key, n });
  }
  return { draft, unconfirmed };
}

/** Why a `tools/list` failed, in words; undefined when it did not. */
function listFailedWhy(failed: Session["listFailed"]) {
  return failed === undefined
    ? undefined
    : failed === "no-answer"
    ? M.listNoAnswer
    : failed === "error"
    ? M.listError
    : M.listNotAList;
}

/** Run `accept init`; returns the exit code. */
export async function runInit(call: InitCall): Promise<ExitCode> {
  const { io, lang } = call;
  if (call.output !== undefined) assertNewFile(call.output, call.trusted);
  let session: Session;
  try {
    const { channel } = await serverChannel(call.source);
    // A server that does not get through initialize is ended too (bounded):
    // its pipes would otherwise keep guardlab from exiting.
    session = await Session.open(channel, call.timeoutMs).catch(
      async (error) => {
        await channel.close();
        throw error;
      },
    );
  } catch (error) {
    if (error instanceof StartFailed) {
      io.err(`guardlab: ${say(error.text, lang)}`);
      return EXIT.failed;
    }
    if (error instanceof InitializeFailed) {
      io.err(`guardlab: ${call.initLine(error)}`);
      return EXIT.inconclusive;
    }
    throw error;
  }
  const listed = session.listed;
  const server = session.serverInfo;
  const listFailed = session.listFailed;
  const failedWhy = listFailedWhy(listFailed);
  if (failedWhy !== undefined && listed.length === 0) {
    await session.close();
    // Nothing was read: "lists 0 tools" would be more than was seen.
    io.err(
      `guardlab: ${say(fill(C.initListFailed, { why: failedWhy }), lang)}`,
    );
    return EXIT.inconclusive;
  }
  const say1 = (line: string) =>
    call.output === undefined ? io.err(line) : io.out(line);
  let draft;
  try {
    draft = draftOracle(listed, lang);
  } catch (error) {
    await session.close();
    if (!(error instanceof NothingToDraft)) throw error;
    const first = error.skipped[0];
    io.err(
      `guardlab: ${
        say(
          fill(C.initNothing, {
            n: error.listed,
            why: first === undefined ? "" : fill(C.initNothingWhy, {
              tool: inert(first.tool),
              why: first.why,
            }),
          }),
          lang,
        )
      }`,
    );
    return EXIT.failed;
  }
  let unconfirmed: { tool: string; key: string; n: number }[];
  try {
    ({ draft, unconfirmed } = await proveCounts(session, draft, lang));
  } finally {
    await session.close();
  }
  if (call.output === undefined) io.out(draft.text.trimEnd());
  else writeNewFile(call.output, call.trusted, draft.text);
  const n = draft.drafted.length;
  say1(say(
    fill(C.initTitle, {
      server: inert(server.name),
      version: inert(server.version),
      n: listed.length,
    }),
    lang,
  ));
  say1(say(
    call.output === undefined
      ? fill(C.initStdout, { n })
      : fill(C.initWritten, { file: JSON.stringify(call.output), n }),
    lang,
  ));
  if (failedWhy !== undefined) {
    say1(say(fill(C.initListPartial, { why: failedWhy }), lang));
  }
  for (const u of unconfirmed) {
    say1(say(
      fill(C.initCountUnconfirmed, { ...u, tool: inert(u.tool) }),
      lang,
    ));
  }
  if (draft.noAnnotations) say1(say(C.initNoAnnotations, lang));
  else if (draft.readOnly.length > 0) {
    say1(say(
      fill(C.initReadOnly, { tools: draft.readOnly.map(inert).join(", ") }),
      lang,
    ));
  }
  for (const s of draft.skipped) {
    say1(say(fill(C.initSkipped, { tool: inert(s.tool), why: s.why }), lang));
  }
  say1(say(C.initGuesses, lang));
  draft.drafted.forEach((tool, i) =>
    say1(
      "  " + say(
        fill(C.initGuess, {
          tool: inert(tool),
          fields: draft.guessed[i].join(", "),
        }),
        lang,
      ),
    )
  );
  say1(say(C.initNext, lang));
  return EXIT.ok;
}
