/**
 * Every bound of `accept` and `proxy`, stated once: how much of a file is
 * read, how long a wait lasts, how many copies run at once (a message's
 * own bounds, and the ends of a server's life, are the wire's:
 * `lib/wire/limits.ts`). A server, an oracle or a record may be hostile; each is measured
 * against these before it is parsed.
 *
 * @module
 */

/** The largest oracle file read: 256 KiB. */
export const MAX_ORACLE_BYTES = 256 * 1024;

/** The deepest nesting of arrays and objects an oracle may have. */
export const MAX_ORACLE_DEPTH = 32;

/** The most write tools one oracle may name. */
export const MAX_ORACLE_TOOLS = 32;

/** The most setup calls before one case. */
export const MAX_SETUP_CALLS = 8;

/**
 * The most characters of an answer's text guardlab keeps (in `--json` and
 * on the timeline): 200. Enough for "UNIQUE constraint failed: notes.id";
 * a longer text is cut and ends in "…".
 */
export const MAX_ANSWER_TEXT = 200;

/** The default N of the concurrent cases. */
export const DEFAULT_COPIES = 10;

/** The most copies `--copies` may ask for. */
export const MAX_COPIES = 64;

/** How long guardlab waits for any one answer unless `--timeout-ms` says: 10 s. */
export const DEFAULT_ANSWER_TIMEOUT_MS = 10_000;

/**
 * How long guardlab waits for a server's answer to `initialize`, at least:
 * 30 s. A server's first answer includes its own start (a runtime, a
 * package read from a cache), which is slower than any answer after it and
 * slower still on a busy machine; `--timeout-ms` bounds the answers after.
 */
export const START_TIMEOUT_MS = 30_000;

/** The longest `--timeout-ms`: 10 minutes. */
export const MAX_ANSWER_TIMEOUT_MS = 600_000;

/** The shortest `--timeout-ms`: 50 ms. */
export const MIN_ANSWER_TIMEOUT_MS = 50;

/**
 * How long after sending `cancel-after-send` cancels when neither
 * `--cancel-after-ms` says nor a latency was measured before it (the
 * default order measures one: `once`, then `lost-reply-retry`'s first call).
 */
export const DEFAULT_CANCEL_AFTER_MS = 20;

/**
 * How long `crash-after-commit` waits between two reads while it waits for
 * the effect to show (the wait itself is bounded by `--timeout-ms`).
 */
export const POLL_READ_MS = 5;

/** The longest delay a fault or a flag may ask for: 10 minutes. */
export const MAX_DELAY_MS = 600_000;

/** The largest faults file the proxy reads: 64 KiB. */
export const MAX_FAULTS_BYTES = 64 * 1024;

/** The most fault lines a faults file may hold. */
export const MAX_FAULT_LINES = 1000;

/** The most extra copies one `fanout` fault sends. */
export const MAX_FANOUT = 64;

/** The largest record file the proxy writes or `proxy show` reads: 64 MiB. */
export const MAX_RECORD_BYTES = 64 * 1024 * 1024;

/** The most lines a record holds; after that messages are still forwarded, not recorded. */
export const MAX_RECORD_LINES = 100_000;

/** The largest message kept whole in a record: 64 KiB (a longer one is kept as its size). */
export const MAX_RECORDED_MESSAGE_BYTES = 64 * 1024;

/**
 * The longest text an agent record keeps in one field: 2000 characters (the
 * agent hook cuts a longer one, and `proxy show --agent` cuts what it reads).
 */
export const MAX_AGENT_TEXT_CHARS = 2000;

/** The most events `proxy show` draws (the first ones); the rest are counted. */
export const MAX_DRAWN_EVENTS = 2000;

/** The largest `--json` report read (`--baseline FILE`, `accept judge FILE`): 16 MiB. */
export const MAX_REPORT_BYTES = 16 * 1024 * 1024;

/**
 * The deepest nesting of a `--json` report read: a report nests 6 levels
 * down to a call's arguments in its history, and the arguments as deep
 * as an oracle may be.
 */
export const MAX_REPORT_DEPTH = MAX_ORACLE_DEPTH + 8;

/** The most tools `accept init` reads from a server's `tools/list` (all pages together). */
export const MAX_LISTED_TOOLS = 1000;

/** The most pages of `tools/list` `accept init` follows (`nextCursor`). */
export const MAX_TOOL_PAGES = 20;

/**
 * How deep `accept init` walks a tool's input schema: past it the tool is
 * skipped, not drafted (a server's schema is input, and may nest forever
 * through `$ref`).
 */
export const MAX_SCHEMA_DEPTH = 12;

/** How many schema nodes `accept init` visits for one tool, `$ref`s resolved included. */
export const MAX_SCHEMA_NODES = 5000;

/** The most items `accept init` puts in one array of a drafted call (a schema's `minItems` above it skips the tool). */
export const MAX_DRAFT_ITEMS = 8;

/** The longest string of a schema (`default`, `enum`, `examples`) `accept init` copies into a draft. */
export const MAX_DRAFT_STRING = 1024;

/** The longest `pattern` `accept init` reads to make a value that fits it (a longer one is a guess it cannot make). */
export const MAX_PATTERN = 256;

/** The longest value `accept init` makes to fit a `pattern`. */
export const MAX_PATTERN_VALUE = 64;

/** The most `--header` and `--header-env` flags together. */
export const MAX_HEADERS = 32;

/** The longest header value guardlab sends: 8 KiB. */
export const MAX_HEADER_BYTES = 8 * 1024;

/**
 * How long one case of `accept host` may take unless `--case-ms` says: 2
 * minutes. A host under test starts a runtime, lists its tools, asks the
 * model twice or three times and waits for its own timeout (agents-core's
 * and the MCP SDK's are 60 s by default): seconds to a minute. At the
 * limit, the host's process group is ended and the case is judged on what
 * it did until then.
 */
export const DEFAULT_CASE_MS = 120_000;

/** The shortest `--case-ms`: 1 s. */
export const MIN_CASE_MS = 1_000;

/** The longest `--case-ms`: 30 minutes (qwen-code's own tool timeout is 10). */
export const MAX_CASE_MS = 1_800_000;

/**
 * The most records one host history keeps: 5,000 (a case makes a few
 * dozen; a host that floods the model or the tool is counted past it, and
 * the reads at the end and the host's own end are always kept).
 */
export const MAX_HOST_RECORDS = 5_000;

/**
 * The largest request body the model guardlab plays reads: 4 MiB (a coding
 * agent sends its whole tool list, tens of KiB, with every request).
 */
export const MAX_MODEL_BODY_BYTES = 4 * 1024 * 1024;

/** The most `tools/call`s the tool takes in one case; past it, each is refused without an effect. */
export const MAX_HOST_CALLS = 64;

/**
 * The most characters of a tool result guardlab keeps from what the host
 * told the model: 400, enough for qwen-code's 262-character "may have
 * completed" text whole.
 */
export const MAX_TOLD_TEXT = 400;

/** The largest arguments of one call the ledger keeps: 64 KiB (larger ones are refused). */
export const MAX_HOST_ARGUMENTS_BYTES = 64 * 1024;

/**
 * The MCP client timeout of a host run in process (`accept host --example`,
 * exercise 20): 1 s per `tools/call`, the host's own option (agents-core:
 * `timeout`). A withheld reply is given up on after it.
 */
export const HOST_EXAMPLE_TIMEOUT_MS = 1_000;

/**
 * The longest a host run in process may take: 30 s (it takes about 2 s:
 * its MCP timeout once, three model turns). At the limit its run is
 * aborted and the case judged on what it did until then.
 */
export const HOST_EXAMPLE_RUN_MS = 30_000;

/** How long a relay started by the host gets to say who it is once connected: 10 s. */
export const RELAY_HELLO_MS = 10_000;

/**
 * The longest key-lifetime waits before its retry: half the lifetime the
 * oracle states, and at most 60 s. A key kept a day is tested for the
 * first minute of it; the row says how long guardlab waited.
 */
export const MAX_LIFETIME_WAIT_MS = 60_000;

/** The most calls one case makes: N copies and a retry after a declared conflict. */
export const MAX_CASE_CALLS = MAX_COPIES + 1;

/** The largest OpenAPI document read (`--openapi`): 4 MiB, JSON only. */
export const MAX_OPENAPI_BYTES = 4 * 1024 * 1024;

/**
 * The most problems one case's history keeps: 100 (a server's flood of
 * lines that are not messages is kept as its first ones, and the flood
 * itself; the verdict is the same).
 */
export const MAX_CASE_PROBLEMS = 100;
