// @ts-check
/**
 * guardlab agent hook: an "agent record" of an @openai/agents-core agent, to
 * draw beside guardlab proxy's record of its MCP server
 * (`guardlab proxy show RECORD --agent AGENTRECORD`).
 *
 * The SDK makes trace spans for function calls, model turns and agent-level
 * guardrails, but none for tool input and output guardrails. This file adds
 * a tracing processor for the spans, and wraps the tool guardrails to note
 * when each ran, on which call, and what it decided (allow, rejectContent,
 * throwException). Each MCP call is noted as it leaves and as it ends (a
 * timeout included). It imports nothing but the runtime's own node:fs and
 * node:process, runs under Node (20 or later) and Deno, and is handed the
 * agents-core module by its caller.
 *
 *     import * as agents from "@openai/agents-core";
 *     import { guardlabAgentRecord } from "./guardlab-agent-hook.mjs";
 *     const hook = await guardlabAgentRecord(agents, "/tmp/me/agent.jsonl");
 *     const server = hook.watch(new agents.MCPServerStdio({ ... }));
 *
 * The record is JSON Lines, one event a line, each time `t` in milliseconds
 * since the record's start, whose wall-clock time (Unix milliseconds) the
 * first line gives as `epoch_ms`: the clock guardlab proxy's record uses.
 * It is a new file (mode 0600) in a folder of yours that no one else can
 * change; a link is never followed, and an existing name takes the next
 * free one (agent-2.jsonl, ...). At most 100000 lines, 64 MiB, and 64 KiB a
 * line: a longer text is cut, and past the bound nothing more is written.
 * Spans are only made while the SDK's tracing is on (not under
 * NODE_ENV=test, OPENAI_AGENTS_DISABLE_TRACING or tracingDisabled).
 *
 * Each MCP call also carries the agent's trace context, as OpenTelemetry's
 * MCP conventions ask of a client: a `traceparent` in the request's
 * `params._meta` (unless it has one), built from the SDK's own ids: its
 * trace id without `trace_` (32 hex digits) and the first 16 of the 24 hex
 * digits of the function span's id. guardlab proxy records it, so its
 * spans of the call become that span's children in one trace
 * (`guardlab proxy show RECORD --otlp FILE`). `{ traceparent: false }`
 * leaves the requests as they are.
 *
 * Printed by `guardlab proxy --print-agent-hook`; the format is in
 * guardlab's docs, chapter 9.
 *
 * @module
 */

/** The bounds of an agent record: guardlab proxy's record's. */
export const AGENT_RECORD_LIMITS = Object.freeze({
  lines: 100000,
  bytes: 64 * 1024 * 1024,
  lineBytes: 64 * 1024,
  text: 2000,
});

/** The most numbered names tried after the one asked for. */
const MAX_NAMES = 99;

/**
 * @typedef {object} AgentRecord
 * @property {string} path The file being written.
 * @property {object} processor The tracing processor (already added).
 * @property {<T>(server: T) => T} watch Wrap an MCP server's tool guardrails and calls, in place.
 * @property {<T>(tool: T) => T} watchTool Wrap a function tool's guardrails, in place.
 * @property {(guardrails: any[]) => any[]} input Tool input guardrails, wrapped.
 * @property {(guardrails: any[]) => any[]} output Tool output guardrails, wrapped.
 * @property {() => void} close Write the end line and close the file.
 */

/**
 * Start an agent record at `path` and add its tracing processor.
 *
 * @param {any} agents The @openai/agents-core module.
 * @param {string} path The record to create.
 * @param {{ replaceProcessors?: boolean, traceparent?: boolean }} [options]
 *   `replaceProcessors`: use setTraceProcessors (this processor only)
 *   instead of addTraceProcessor; `traceparent: false`: add no trace
 *   context to an MCP call.
 * @returns {Promise<AgentRecord>}
 */
export async function guardlabAgentRecord(agents, path, options = {}) {
  const fs = await import("node:fs");
  const proc = (await import("node:process")).default;
  const opened = openNew(fs, proc, path);
  const fd = opened.fd;
  const started = performance.now();
  const now = () => Math.round((performance.now() - started) * 10) / 10;
  let lines = 0;
  let bytes = 0;
  let full = false;
  let closed = false;
  const encoder = new TextEncoder();

  /** @param {Record<string, unknown>} line */
  const write = (line) => {
    if (full || closed) return;
    let data = encoder.encode(serialized(line) + "\n");
    if (data.length > AGENT_RECORD_LIMITS.lineBytes) {
      data = encoder.encode(serialized(shrunk(line)) + "\n");
    }
    if (
      lines + 2 > AGENT_RECORD_LIMITS.lines ||
      bytes + data.length + 200 > AGENT_RECORD_LIMITS.bytes
    ) {
      full = true;
      const end = { kind: "full", t: now() };
      writeOrSay(encoder.encode(JSON.stringify(end) + "\n"));
      return;
    }
    lines++;
    bytes += data.length;
    writeOrSay(data);
  };

  /**
   * Write `data`; a write that fails (a full disk: another user can fill a
   * shared /tmp) ends the record, never the agent: stderr says why.
   *
   * @param {Uint8Array} data
   */
  function writeOrSay(data) {
    try {
      fs.writeSync(fd, data);
    } catch (error) {
      full = true;
      console.error(`guardlab agent hook: ${opened.path}: ${text(error)}`);
    }
  }

  write({
    kind: "start",
    guardlab_agent: 1,
    epoch_ms: Math.round((performance.timeOrigin + started) * 1000) / 1000,
    runtime: "Deno" in globalThis ? "deno" : "node",
  });

  /** The id of the span the caller runs in (the function span of a tool call), or null. */
  const currentSpan = () => {
    try {
      const span = agents.getCurrentSpan?.();
      const id = span?.spanId;
      return typeof id === "string" && id !== "no-op" ? id : null;
    } catch {
      return null;
    }
  };

  /**
   * The W3C traceparent of the span the caller runs in: the SDK's trace id
   * without its prefix, the first 16 hex digits of its 24-digit span id;
   * null when there is none, or an id generator of the engineer's own made
   * ids of another shape.
   */
  const currentTraceparent = () => {
    if (options.traceparent === false) return null;
    try {
      const trace = /^trace_([0-9a-f]{32})$/.exec(
        String(agents.getCurrentTrace?.()?.traceId),
      );
      const span = /^span_([0-9a-f]{16})[0-9a-f]*$/.exec(
        String(agents.getCurrentSpan?.()?.spanId),
      );
      return trace && span ? `00-${trace[1]}-${span[1]}-01` : null;
    } catch {
      return null;
    }
  };

  const SPAN_TYPES = ["function", "guardrail", "turn"];
  const processor = {
    /** @param {any} span */
    onSpanStart(span) {
      const data = span?.spanData;
      if (!SPAN_TYPES.includes(data?.type)) return Promise.resolve();
      write({
        kind: "span_start",
        t: now(),
        type: data.type,
        span: String(span.spanId),
        trace: text(span.traceId),
        parent: text(span.parentId),
        ...(data.type === "turn"
          ? { turn: data.turn, agent: text(data.agent_name) }
          : { name: text(data.name) }),
      });
      return Promise.resolve();
    },
    /** @param {any} span */
    onSpanEnd(span) {
      const data = span?.spanData;
      if (!SPAN_TYPES.includes(data?.type)) return Promise.resolve();
      const error = span.error ?? null;
      write({
        kind: "span_end",
        t: now(),
        type: data.type,
        span: String(span.spanId),
        ...(data.type === "function"
          ? {
            name: text(data.name),
            input: text(data.input),
            output: text(data.output),
            mcp_server: data.mcp_data?.server === undefined
              ? null
              : text(data.mcp_data.server),
          }
          : data.type === "guardrail"
          ? { name: text(data.name), triggered: data.triggered === true }
          : { turn: data.turn }),
        error: error === null ? null : text(error.message),
      });
      return Promise.resolve();
    },
    onTraceStart: () => Promise.resolve(),
    onTraceEnd: () => Promise.resolve(),
    shutdown: () => Promise.resolve(),
    forceFlush: () => Promise.resolve(),
  };
  if (options.replaceProcessors) agents.setTraceProcessors([processor]);
  else agents.addTraceProcessor(processor);

  /**
   * One tool guardrail, wrapped: it runs as before, and its decision is noted.
   *
   * @param {"input" | "output"} stage
   * @param {any} guardrail
   */
  const wrap = (stage, guardrail) => {
    if (guardrail?.guardlabWrapped) return guardrail;
    return {
      ...guardrail,
      type: guardrail?.type ?? `tool_${stage}`,
      name: guardrail?.name,
      guardlabWrapped: true,
      /** @param {any} data */
      async run(data) {
        const began = now();
        const call = data?.toolCall ?? {};
        const base = {
          kind: "tool_guardrail",
          stage,
          name: text(guardrail?.name),
          tool: text(call.name),
          call_id: text(call.callId),
          arguments: typeof call.arguments === "string" ? call.arguments : null,
          span: currentSpan(),
          began,
          ...(stage === "output" ? { output: text(outputText(data)) } : {}),
        };
        try {
          const result = await guardrail.run(data);
          const behavior = result?.behavior ?? { type: "allow" };
          write({
            ...base,
            t: now(),
            decision: text(behavior.type),
            ...(behavior.type === "rejectContent"
              ? { message: text(behavior.message) }
              : {}),
          });
          return result;
        } catch (error) {
          write({ ...base, t: now(), decision: "error", message: text(error) });
          throw error;
        }
      },
    };
  };
  /**
   * @param {"input" | "output"} stage
   * @param {any} list
   */
  const wrapAll = (stage, list) =>
    Array.isArray(list) ? list.map((g) => wrap(stage, g)) : list;

  let mcpCalls = 0;
  /**
   * @param {any} server
   * @param {string} method
   */
  const wrapCall = (server, method) => {
    const original = server[method];
    if (typeof original !== "function" || original.guardlabWrapped) return;
    /** @param {any[]} args */
    const wrapped = async function (...args) {
      const n = ++mcpCalls;
      // callTool(name, args, meta, options): meta becomes params._meta.
      const meta = args[2];
      const given = meta !== null && typeof meta === "object" &&
        typeof meta.traceparent === "string";
      const traceparent = given ? null : currentTraceparent();
      if (traceparent !== null) {
        args[2] = { ...(meta ?? {}), traceparent };
      }
      write({
        kind: "mcp_call",
        t: now(),
        n,
        server: text(server.name),
        tool: text(args[0]),
        arguments: args[1] ?? {},
        span: currentSpan(),
        traceparent: given ? text(meta.traceparent) : traceparent,
      });
      try {
        const result = await original.apply(server, args);
        // callToolResult's result says isError; callTool's content carries it too.
        const isError = /** @type {any} */ (result)?.isError === true;
        write({
          kind: "mcp_result",
          t: now(),
          n,
          outcome: isError ? "tool-error" : "success",
        });
        return result;
      } catch (error) {
        write({
          kind: "mcp_result",
          t: now(),
          n,
          outcome: failure(error),
          error: text(error),
        });
        throw error;
      }
    };
    wrapped.guardlabWrapped = true;
    server[method] = wrapped;
  };

  return {
    path: opened.path,
    processor,
    watch(server) {
      const s = /** @type {any} */ (server);
      s.toolInputGuardrails = wrapAll("input", s.toolInputGuardrails);
      s.toolOutputGuardrails = wrapAll("output", s.toolOutputGuardrails);
      // callTool goes through callToolResult where a server has both.
      wrapCall(
        s,
        typeof s.callToolResult === "function" ? "callToolResult" : "callTool",
      );
      return server;
    },
    watchTool(tool) {
      const t = /** @type {any} */ (tool);
      t.inputGuardrails = wrapAll("input", t.inputGuardrails);
      t.outputGuardrails = wrapAll("output", t.outputGuardrails);
      return tool;
    },
    input: (list) => wrapAll("input", list),
    output: (list) => wrapAll("output", list),
    close() {
      if (closed) return;
      if (!full) {
        writeOrSay(
          encoder.encode(JSON.stringify({ kind: "end", t: now() }) + "\n"),
        );
      }
      closed = true;
      fs.closeSync(fd);
    },
  };
}

/**
 * A value as bounded text: a string cut at the text bound, an error as its
 * message, anything else as JSON (cut the same way).
 *
 * @param {unknown} value
 * @returns {string | null}
 */
function text(value) {
  if (value === undefined || value === null) return null;
  let s;
  if (typeof value === "string") s = value;
  else if (value instanceof Error) s = value.message;
  else {
    try {
      s = JSON.stringify(value) ?? String(value);
    } catch {
      s = String(value);
    }
  }
  const max = AGENT_RECORD_LIMITS.text;
  return s.length > max ? s.slice(0, max) + "\u2026" : s;
}

/**
 * What an output guardrail was handed, as text.
 *
 * @param {any} data
 */
function outputText(data) {
  const out = data?.output;
  if (typeof out === "string") return out;
  const parts = Array.isArray(out) ? out : [out];
  const texts = parts.map((p) => typeof p?.text === "string" ? p.text : null);
  return texts.every((t) => t !== null) ? texts.join("\n") : out;
}

/**
 * How an MCP call failed: "timeout" for the client's own request timeout.
 *
 * @param {any} error
 */
function failure(error) {
  const code = error?.code;
  if (
    code === -32001 || code === "REQUEST_TIMEOUT" ||
    /timed? ?out/i.test(String(error?.message ?? ""))
  ) return "timeout";
  if (error?.name === "AbortError") return "aborted";
  return "error";
}

/**
 * A line as JSON; a value JSON cannot hold (a cycle, a BigInt) as its text.
 *
 * @param {Record<string, unknown>} line
 */
function serialized(line) {
  try {
    return JSON.stringify(line);
  } catch {
    /** @type {Record<string, unknown>} */
    const out = {};
    for (const [key, value] of Object.entries(line)) {
      try {
        JSON.stringify(value);
        out[key] = value;
      } catch {
        out[key] = String(value);
      }
    }
    return JSON.stringify(out);
  }
}

/**
 * A line too long for the bound, with its long fields replaced by their size.
 *
 * @param {Record<string, unknown>} line
 */
function shrunk(line) {
  /** @type {Record<string, unknown>} */
  const out = {};
  for (const [key, value] of Object.entries(line)) {
    const size = serialized({ value }).length;
    if (size > 1024) out[`${key}_bytes`] = size;
    else out[key] = value;
  }
  return out;
}

/**
 * A folder's lstat, or null when the runtime does not let this program
 * look (Deno outside its --allow-read grant).
 *
 * @param {any} fs
 * @param {string} dir
 */
function lstatOrNull(fs, dir) {
  try {
    return fs.lstatSync(dir);
  } catch (error) {
    const name = /** @type {any} */ (error)?.name;
    if (name === "NotCapable" || name === "PermissionDenied") return null;
    throw error;
  }
}

/**
 * Open `path` as a new private file: every folder on the way is a real
 * folder of yours or root's (one that others may write must be sticky, as
 * /tmp is), the last one is yours alone, and the name is created with
 * O_EXCL (an existing name, a link included, is never opened).
 *
 * @param {any} fs
 * @param {any} proc
 * @param {string} path
 * @returns {{ fd: number, path: string }}
 */
function openNew(fs, proc, path) {
  if (typeof path !== "string" || path === "") {
    throw new Error("guardlab agent hook: give the record's path");
  }
  const windows = proc.platform === "win32";
  const absolute = windows
    ? /^([a-zA-Z]:)?[\\/]/.test(path)
    : path.startsWith("/");
  const parts = (absolute ? path : `${proc.cwd()}/${path}`).split(
    windows ? /[\\/]/ : /\//,
  );
  const name = parts.pop() ?? "";
  if (name === "" || name === "." || name === "..") {
    throw new Error(`guardlab agent hook: ${path} names no file`);
  }
  /** @type {{ dir: string, info: any }[]} */
  const chain = [];
  let dir = "";
  for (const [i, part] of parts.entries()) {
    if (part === "" && i > 0) continue;
    if (part === "." || part === "..") {
      throw new Error(`guardlab agent hook: ${path}: no . or .. in the path`);
    }
    dir = i > 0
      ? dir.replace(/[\\/]$/, "") + "/" + part
      : part === ""
      ? "/"
      : `${part}/`; // a drive, C:/
    chain.push({ dir, info: lstatOrNull(fs, dir) });
  }
  // Deno lets a program look only where it may read: a folder above that
  // grant cannot be checked, the record's own folder must be.
  if (chain.at(-1)?.info === null) {
    throw new Error(
      `guardlab agent hook: cannot check ${dir}: allow reading it (--allow-read)`,
    );
  }
  // Who you are: the system says, or (Deno without --allow-sys) the owner
  // of the folder you asked for, checked against the new file's owner below.
  const owner = windows ? null : chain.at(-1)?.info.uid ?? null;
  let uid = owner;
  try {
    if (!windows && typeof proc.getuid === "function") uid = proc.getuid();
  } catch { /* not allowed to ask: the folder's owner stands in */ }
  for (const [i, link] of chain.entries()) {
    let info = link.info;
    if (info === null) continue;
    if (info.isSymbolicLink()) {
      // Only a system link at the top (macOS's /tmp, root's) is followed.
      if (i !== 1 || (uid !== null && info.uid !== 0)) {
        throw new Error(`guardlab agent hook: refused: ${link.dir} is a link`);
      }
      info = fs.statSync(link.dir);
    }
    if (!info.isDirectory()) {
      throw new Error(
        `guardlab agent hook: refused: ${link.dir} is not a folder`,
      );
    }
    if (uid === null) continue;
    const last = i === chain.length - 1;
    if (info.uid !== uid && (last || info.uid !== 0)) {
      throw new Error(
        `guardlab agent hook: refused: ${link.dir} belongs to someone else`,
      );
    }
    const othersWrite = (info.mode & 0o022) !== 0;
    if (othersWrite && (last || (info.mode & 0o1000) === 0)) {
      throw new Error(
        `guardlab agent hook: refused: others can change ${link.dir}`,
      );
    }
  }
  const folder = dir === "" ? "." : dir.replace(/[\\/]$/, "");
  const dot = name.lastIndexOf(".");
  const stem = dot > 0 ? name.slice(0, dot) : name;
  const ext = dot > 0 ? name.slice(dot) : "";
  const c = fs.constants;
  const flags = c.O_WRONLY | c.O_CREAT | c.O_EXCL | (c.O_NOFOLLOW ?? 0);
  for (let n = 1; n <= MAX_NAMES + 1; n++) {
    const file = `${folder}/${n === 1 ? name : `${stem}-${n}${ext}`}`;
    let fd;
    try {
      fd = fs.openSync(file, flags, 0o600);
    } catch (error) {
      if (/** @type {any} */ (error)?.code === "EEXIST") continue;
      throw error;
    }
    if (uid !== null) {
      fs.fchmodSync(fd, 0o600);
      if (fs.fstatSync(fd).uid !== uid) {
        fs.closeSync(fd);
        fs.unlinkSync(file);
        throw new Error(
          `guardlab agent hook: refused: ${folder} is not a folder of yours`,
        );
      }
    }
    return { fd, path: file };
  }
  throw new Error(
    `guardlab agent hook: ${path} and ${MAX_NAMES} numbered names after it exist`,
  );
}
