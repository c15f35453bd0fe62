/**
 * The bounds of the wire, stated once: how much of one message is read,
 * how deep it may nest, and how long each end of a server's life or of an
 * HTTP body is waited for. A server or a client may be hostile; each
 * message is measured against these before anything reads it.
 *
 * @module
 */

/**
 * The largest message guardlab reads from a server it tests or a client
 * it proxies: 4 MiB (longer ones are discarded as they arrive).
 * `guardlab mcp`'s own transport reads at most 1 MiB a line, a script
 * step's bound.
 */
export const MAX_MESSAGE_BYTES = 4 * 1024 * 1024;

/**
 * The deepest nesting of arrays and objects a message may have: 64. An
 * MCP message is a few levels deep; past this a message is read no
 * further, at either end, so nothing that reads it after the parse (a
 * schema check, a walker of a result) recurses deeper.
 */
export const MAX_DEPTH = 64;

/**
 * How long a server guardlab started gets to exit after its input closed
 * (`accept` at its end, `proxy` when the client has gone): 5 s. Then its
 * process group is ended.
 */
export const EXIT_GRACE_MS = 5_000;

/**
 * How long guardlab still reads a server's output after the server exited:
 * 1 s. What the server wrote before it went is read; a process it started
 * that holds the pipe open is not waited on.
 */
export const DRAIN_GRACE_MS = 1_000;

/**
 * How long guardlab waits for the end of a session over Streamable HTTP
 * (its DELETE), and for an HTTP body it no longer needs to be cancelled: 2 s.
 */
export const HTTP_CLOSE_MS = 2_000;

/**
 * The most messages (lines) a server may send while guardlab waits for one
 * answer, counted from the last answer it waited for: 10,000. Progress and
 * log notifications stay far below it; past it the server is flooding, and
 * guardlab stops reading and ends it. A count, so the bound holds however
 * fast or slow guardlab reads (a loaded machine reads slower, not more).
 */
export const MAX_WAIT_MESSAGES = 10_000;

/**
 * The most bytes a server may send while guardlab waits for one answer,
 * counted as {@linkcode MAX_WAIT_MESSAGES} is: 64 MiB (16 messages of the
 * largest size guardlab reads).
 */
export const MAX_WAIT_BYTES = 64 * 1024 * 1024;
