/**
 * Where a server comes from, and the oracle it is judged by: a command to
 * start (the engineer grant: run), a loopback URL (loopback net), or an
 * example built into guardlab (no grant beyond the temp folder). A grant
 * that is missing is refused in one line that names the grant needed.
 *
 * @module
 */
import { Refused } from "../base/errors.ts";
import { fill } from "../base/i18n.ts";
import { TextError } from "../base/text_error.ts";
import type { ExampleName } from "./cases.ts";
import { type Channel, spawnChannel } from "../wire/channel.ts";
import { mayStartProcesses } from "../sandbox/grant.ts";
import { readBoundedFile } from "./files.ts";
import { httpChannel, isLoopback, netHostOf } from "../wire/http.ts";
import {
  ApiNotStarted,
  httpApiChannel,
  startHttpApi,
} from "../wire/http_api.ts";
import {
  MAX_OPENAPI_BYTES,
  MAX_ORACLE_BYTES,
  START_TIMEOUT_MS,
} from "./limits.ts";
import { START_MESSAGES } from "./messages.ts";
import { BadOracle, type Oracle, parseOracle } from "./oracle.ts";
import {
  type HttpOracle,
  openapiOperations,
  type Operations,
  parseHttpOracle,
} from "./http_oracle.ts";

/** An HTTP API under test (`--http-oracle`): its endpoints are called as the oracle says, the key in this header. */
export interface ApiSide {
  /** The header that carries the key. */
  readonly keyHeader: string;
}

/** Where the server under test comes from. */
export type ServerSource =
  | {
    readonly kind: "command";
    readonly command: string;
    readonly args: readonly string[];
    /** An HTTP API, started on a free loopback port (`PORT`, `{port}`), rather than an MCP server over stdio. */
    readonly api?: ApiSide;
  }
  | {
    readonly kind: "url";
    readonly url: URL;
    /** Headers sent with every request (`--header`, `--header-env`): never shown or recorded. */
    readonly headers?: Readonly<Record<string, string>>;
    /** An HTTP API at this URL, rather than an MCP server over Streamable HTTP. */
    readonly api?: ApiSide;
  }
  | { readonly kind: "example"; readonly name: ExampleName };

/** A server that could not be started, with the one line that says why. */
export class StartFailed extends TextError {}

/** Refuse (exit 4) unless this process holds the grant `source` needs; `command` names the guardlab command. */
export function assertGrantFor(source: ServerSource, command: string): void {
  const granted = source.kind === "command"
    ? mayStartProcesses()
    : source.kind === "url"
    ? Deno.permissions.querySync({ name: "net", host: netHostOf(source.url) })
      .state === "granted"
    : true;
  if (!granted && source.kind === "url" && !isLoopback(source.url)) {
    throw new Refused(
      fill(START_MESSAGES.hostNotGranted, {
        command: `guardlab ${command}`,
        host: netHostOf(source.url),
      }),
    );
  }
  if (!granted) {
    throw new Refused(
      fill(START_MESSAGES.needsGrant, { command: `guardlab ${command}` }),
    );
  }
}

/** A started server, and how to start another of its kind over the same store. */
export interface StartedServer {
  /** The channel to the server just started (or connected to). */
  readonly channel: Channel;
  /**
   * Start another server of the same kind: the same command (over the
   * same store, as a second agent session or a restart would), or another
   * in-process example over the same notes. Absent for a URL: guardlab did
   * not start that server and can neither start a second nor restart it.
   */
  readonly start?: () => Promise<Channel>;
}

/** Start (or connect to) the server of `source`; an HTTP API guardlab starts gets `startTimeoutMs` to take a connection. */
export async function serverChannel(
  source: ServerSource,
  startTimeoutMs = START_TIMEOUT_MS,
): Promise<StartedServer> {
  if (source.kind !== "example" && source.api !== undefined) {
    return apiChannel(source, source.api, startTimeoutMs);
  }
  if (source.kind === "example") {
    // The literal specifier keeps the SDK out of every other command's graph.
    const { exampleServer } = await import("./_examples.ts");
    const server = exampleServer(source.name);
    return { channel: await server.open(), start: server.open };
  }
  if (source.kind === "url") {
    return { channel: httpChannel(source.url, source.headers ?? {}) };
  }
  const start = () => Promise.resolve(spawnOf(source.command, source.args));
  return { channel: spawnOf(source.command, source.args), start };
}

/** An HTTP API's channel: at its URL, or started (and startable again) from its command. */
async function apiChannel(
  source: Exclude<ServerSource, { kind: "example" }>,
  api: ApiSide,
  startTimeoutMs: number,
): Promise<StartedServer> {
  if (source.kind === "url") {
    return {
      channel: httpApiChannel(source.url, {
        keyHeader: api.keyHeader,
        headers: source.headers ?? {},
        name: "http-api",
        version: source.url.origin,
      }),
    };
  }
  const start = async () => {
    try {
      return await startHttpApi(source.command, source.args, {
        keyHeader: api.keyHeader,
        startTimeoutMs,
      });
    } catch (error) {
      const shown = JSON.stringify(source.command);
      if (error instanceof ApiNotStarted) {
        throw new StartFailed(
          fill(
            error.why === "exited"
              ? START_MESSAGES.apiExited
              : START_MESSAGES.apiNoPort,
            {
              command: shown,
              ms: startTimeoutMs,
              tail: error.tail === undefined
                ? ""
                : fill(START_MESSAGES.apiTail, { line: error.tail }),
            },
          ),
        );
      }
      if (error instanceof Deno.errors.NotFound) {
        throw new StartFailed(
          fill(START_MESSAGES.notFound, { command: shown }),
        );
      }
      throw error;
    }
  };
  return { channel: await start(), start };
}

/** Start `command`, or say in one line why it cannot start. */
function spawnOf(command: string, args: readonly string[]): Channel {
  try {
    return spawnChannel(command, args);
  } catch (error) {
    const shown = JSON.stringify(command);
    if (error instanceof Deno.errors.NotFound) {
      throw new StartFailed(fill(START_MESSAGES.notFound, { command: shown }));
    }
    const why = error instanceof Error
      ? error.message.split("\n")[0]
      : String(error);
    throw new StartFailed(
      fill(START_MESSAGES.cannotStart, { command: shown, why }),
    );
  }
}

/**
 * The oracle in file `path`: a plain file of this user's under the grant,
 * at most {@linkcode MAX_ORACLE_BYTES} (else {@linkcode Refused}), checked
 * field by field (else {@linkcode BadOracle}, naming the file).
 */
export async function loadOracle(
  path: string,
  trusted: readonly string[],
): Promise<Oracle> {
  const text = await readBoundedFile(path, trusted, MAX_ORACLE_BYTES);
  return named(path, () => parseOracle(text));
}

/**
 * The HTTP oracle in file `path`, its operations resolved from the OpenAPI
 * document in `openapi` when given: each a plain file of this user's under
 * the grant, bounded (else {@linkcode Refused}), checked field by field
 * (else {@linkcode BadOracle}, naming the file).
 */
export async function loadHttpOracle(
  path: string,
  trusted: readonly string[],
  openapi?: string,
): Promise<HttpOracle> {
  const operations = openapi === undefined
    ? undefined
    : await loadOpenapi(openapi, trusted);
  const text = await readBoundedFile(path, trusted, MAX_ORACLE_BYTES);
  return named(path, () => parseHttpOracle(text, operations));
}

/** The operations of the OpenAPI document in `path` (JSON, bounded). */
export async function loadOpenapi(
  path: string,
  trusted: readonly string[],
): Promise<Operations & { doc: unknown }> {
  const text = await readBoundedFile(path, trusted, MAX_OPENAPI_BYTES);
  return named(path, () => openapiOperations(text));
}

/** `read()`, a bad oracle's line naming the file it came from. */
function named<T>(path: string, read: () => T): T {
  try {
    return read();
  } catch (error) {
    if (error instanceof BadOracle) {
      throw new BadOracle(
        fill(START_MESSAGES.badOracle, {
          file: JSON.stringify(path),
          why: error.text,
        }),
      );
    }
    throw error;
  }
}
