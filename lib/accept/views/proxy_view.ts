/**
 * A recorded proxy session drawn as the acceptance test's timeline: the
 * client (the agent's host), guardlab (the proxy, with each fault it
 * applied) and the server, one message a row with its time, so an engineer
 * sees where their agent's retries, timeouts and cancels fell. A call with
 * the same key as an earlier one (`retry_rule.ts`: by the oracle's key,
 * else the same arguments) is drawn as a retry; the effect read by key at
 * the end of the session closes the timeline.
 *
 * @module
 */
import { fill, type Lang, same, say, type Text } from "../../base/i18n.ts";
import { isPlainRecord } from "../../base/json.ts";
import { MAX_DRAWN_EVENTS, MAX_RECORDED_MESSAGE_BYTES } from "../limits.ts";
import { MAX_DEPTH, MAX_MESSAGE_BYTES } from "../../wire/limits.ts";
import { inert } from "../../base/terminal.ts";
import { OUTCOME_WORD, TIMELINE_WORDS as W } from "../messages.ts";
import { PROXY_LOG as L, PROXY_WORDS as P } from "../proxy_messages.ts";
import type { Oracle } from "../oracle.ts";
import { retryKey } from "../retry_rule.ts";
import type { RecordLine } from "../record.ts";
import type { Outcome } from "../session.ts";
import { lanesSvg, type LaneStep, laneTable } from "./accept_view.ts";

/**
 * A drawn step of a proxy record: besides its lane and words, the call it
 * is about, and whether it is where the client got that call's answer (or
 * the error a fault gave it instead), which an agent's later marks follow.
 */
export type ProxyStep = LaneStep & {
  readonly kind: string;
  readonly call?: number;
  readonly toClient?: true;
  /** The record's own time, unrounded. */
  readonly t?: number;
  /** A read by key: the calls of that key so far, the count it saw, and when it was made. */
  readonly effect?: EffectRead;
};

/** A read of an effect by key, as drawn: its key, the calls it is about, its count, and when the proxy made it. */
export interface EffectRead {
  /** The business key. */
  readonly key: string;
  /** The calls it is about (every call of the key at the session's end). */
  readonly calls: readonly number[];
  /** What it counted, or null when the read failed. */
  readonly count: number | null;
  /** Before a call's answer went on, as the client cancelled a call, or at the session's end. */
  readonly when: "delivery" | "cancel" | "end";
}
type Step = ProxyStep;

/**
 * What an answer said, in words: its outcome, or, for a message too big to
 * be kept in the record, that it was not kept (never a guessed success).
 */
function outcomeWord(
  line: { readonly bytes: number },
  msg: Record<string, unknown> | undefined,
): Text {
  return msg === undefined && line.bytes > MAX_RECORDED_MESSAGE_BYTES
    ? fill(P.notKept, { bytes: line.bytes })
    : OUTCOME_WORD[outcomeOf(msg)];
}

function outcomeOf(msg: unknown): Outcome {
  if (!isPlainRecord(msg)) return "success";
  if ("error" in msg) return "rpc-error";
  return isPlainRecord(msg.result) && msg.result.isError === true
    ? "tool-error"
    : "success";
}

function callsText(call: number | undefined): Text {
  return call === undefined ? same("") : fill(W.one, { n: call });
}

/** The steps of a record, lane by lane: each line of it drawn where it happened. */
export function proxySteps(
  lines: readonly RecordLine[],
  oracle?: Oracle,
): Step[] {
  const walk: Walk = {
    steps: [],
    methods: new Map(),
    lastOfKey: new Map(),
    seen: new Set(),
    oracle,
  };
  for (const line of lines) {
    if (line.kind === "effect") effectStep(walk, line);
    else if (line.kind === "msg") messageSteps(walk, line);
  }
  return walk.steps;
}

/** What drawing a record keeps from line to line. */
interface Walk {
  /** The steps so far. */
  readonly steps: Step[];
  /** Each request's method, by its id: an answer is named by what it answers. */
  readonly methods: Map<string, string>;
  /** The last call of each key so far: a later one is its retry. */
  readonly lastOfKey: Map<string, number>;
  /** The keys whose effect a read has seen. */
  readonly seen: Set<string>;
  /** The oracle, for the keys of calls. */
  readonly oracle?: Oracle;
}

type MsgLine = Extract<RecordLine, { kind: "msg" }>;

/** A read of an effect by key: the first that counts the effect of a key is where it showed. */
function effectStep(
  walk: Walk,
  line: Extract<RecordLine, { kind: "effect" }>,
): void {
  const at = `${line.tool}\u0000${line.key}`;
  const first = typeof line.count === "number" && line.count > 0 &&
    !walk.seen.has(at);
  if (first) walk.seen.add(at);
  walk.steps.push({
    lane: "guardlab",
    kind: "read",
    at_ms: Math.round(line.t),
    t: line.t,
    text: fill(
      line.after_cancel !== undefined ? P.oracleReadOnCancel : P.oracleReadStep,
      {
        tool: inert(line.tool),
        key: inert(line.key),
        count: line.count ?? "?",
        calls: callsText(line.after_cancel),
      },
    ),
    effect: {
      key: line.key,
      calls: line.calls,
      count: line.count,
      when: line.before_delivery !== undefined
        ? "delivery"
        : line.after_cancel !== undefined
        ? "cancel"
        : "end",
    },
    ...(first
      ? {
        visible: line.count!,
        divider: fill(P.visibleKey, {
          key: inert(line.key),
          count: line.count!,
        }),
      }
      : {}),
  });
}

/** One message line: drawn by where it went and what guardlab did with it. */
function messageSteps(walk: Walk, line: MsgLine): void {
  const calls = callsText(line.call);
  const msg = isPlainRecord(line.msg) ? line.msg : undefined;
  const push = pusher(walk, line);
  const answered = (lane: Step["lane"], toClient = false) =>
    push(
      lane,
      "answered",
      fill(P.answers, { calls, outcome: outcomeWord(line, msg) }),
      toClient,
    );
  // The server's answer was drawn when guardlab held it to read the effect.
  const held = line.after_read === true;
  switch (`${line.dir} ${line.action}`) {
    case "client>server forwarded":
      return clientSent(walk, line, msg);
    case "guardlab>server copy":
      return push(
        "guardlab",
        "bad",
        fill(P.copies, { calls, n: line.copies ?? 1 }),
      );
    case "guardlab>server cancelled":
      return push(
        "guardlab",
        "cancelled",
        fill(P.cancelledAt, { calls }),
        true,
      );
    case "server>guardlab held":
      answered("server");
      return push("guardlab", "held", fill(P.holdsToRead, { calls }));
    case "server>guardlab dropped":
      if (!held) answered("server");
      return push("guardlab", "withheld", fill(P.dropped, { calls }));
    case "server>guardlab delayed":
      if (!held) answered("server");
      return push(
        "guardlab",
        "held",
        fill(P.delayed, { calls, ms: line.ms ?? 0 }),
      );
    case "guardlab>client delivered":
      return push(
        "guardlab",
        "delivered",
        fill(P.delivers, { calls, outcome: outcomeWord(line, msg) }),
        true,
      );
    case "server>guardlab copy":
      return push(
        "server",
        "answered",
        fill(P.answersCopy, { calls, outcome: outcomeWord(line, msg) }),
      );
    case "server>guardlab late":
      return push(
        held ? "guardlab" : "server",
        "answered",
        fill(held ? P.lateAfterRead : P.late, {
          calls,
          outcome: outcomeWord(line, msg),
        }),
      );
    case "server>client forwarded":
      if (line.call !== undefined) return answered("server", true);
      return serverSaid(walk, line, msg);
    case "server>client not-json":
      return push("server", "problem", fill(L.serverNotJson, {}));
    case "server>client too-deep":
      return push("server", "problem", fill(L.tooDeep, { max: MAX_DEPTH }));
    case "server>client too-long":
    case "client>server too-long":
      return push(
        line.dir === "server>client" ? "server" : "client",
        "problem",
        fill(L.tooLong, {
          side: line.dir === "server>client" ? L.sideServer : L.sideClient,
          max: MAX_MESSAGE_BYTES,
        }),
      );
  }
}

/** How a step of `line` is added: in its lane, at its time, with its call. */
function pusher(walk: Walk, line: MsgLine) {
  return (lane: Step["lane"], kind: string, text: Text, toClient = false) => {
    walk.steps.push({
      lane,
      kind,
      text,
      at_ms: Math.round(line.t),
      t: line.t,
      ...(line.call !== undefined ? { call: line.call } : {}),
      ...(toClient ? { toClient: true as const } : {}),
    });
  };
}

/** What the client sent: a call (first of its key, or a retry), a cancel, or another message. */
function clientSent(
  walk: Walk,
  line: MsgLine,
  msg: Record<string, unknown> | undefined,
): void {
  const push = pusher(walk, line);
  const calls = callsText(line.call);
  // A record is input (a classmate may hand you one): every name in it
  // is shown inert, before the lanes are laid out.
  const tool = inert(line.tool ?? "");
  if (
    msg !== undefined && typeof msg.method === "string" &&
    msg.id !== undefined
  ) {
    walk.methods.set(JSON.stringify(msg.id), msg.method);
  }
  if (line.call !== undefined && msg === undefined) {
    // A call too big to be kept: what it carried, its key included,
    // is unknown, so it is nobody's retry and nobody retries it.
    push(
      "client",
      "sent",
      fill(P.sendsNotKept, { calls, tool, bytes: line.bytes }),
    );
  } else if (line.call !== undefined && msg?.method === "tools/call") {
    // One rule for every lane (retry_rule.ts).
    const key = retryKey(
      walk.oracle,
      line.tool ?? "",
      isPlainRecord(msg.params) ? msg.params.arguments ?? null : null,
    );
    const first = key === null ? undefined : walk.lastOfKey.get(key);
    if (key !== null) walk.lastOfKey.set(key, line.call);
    if (first === undefined) {
      push("client", "sent", fill(P.sends, { calls, tool }));
    } else {
      push("client", "retried", fill(P.retries, { calls, tool, first }));
    }
  } else if (line.call !== undefined) {
    push("client", "cancelled", fill(P.cancels, { calls }));
  } else {
    push(
      "client",
      "other",
      fill(P.clientOther, { method: inert(String(msg?.method ?? "answer")) }),
    );
  }
}

/** What the server sent the client that answers no call: a request or notification of its own, or the answer to another request. */
function serverSaid(
  walk: Walk,
  line: MsgLine,
  msg: Record<string, unknown> | undefined,
): void {
  const push = pusher(walk, line);
  if (msg !== undefined && typeof msg.method === "string") {
    push("server", "other", same(inert(msg.method)));
  } else if (msg !== undefined) {
    const method = walk.methods.get(JSON.stringify(msg.id));
    push(
      "server",
      "other",
      fill(P.answers, {
        calls: same(inert(method ?? "?")),
        outcome: outcomeWord(line, msg),
      }),
    );
  }
}

/**
 * Whether a record holds a client's discovery probe and nothing more: a
 * `server/discover` from the client, and no initialize and no call (a
 * client that probes first, as agents-core 0.20.0's MCP client does, runs
 * the probe on a server process of its own, then starts another for the
 * session).
 */
export function probeOnly(lines: readonly RecordLine[]): boolean {
  let probe = false;
  for (const l of lines) {
    if (l.kind !== "msg" || l.dir !== "client>server") continue;
    if (l.call !== undefined) return false;
    const method = isPlainRecord(l.msg) ? l.msg.method : undefined;
    if (method === "initialize") return false;
    if (method === "server/discover") probe = true;
  }
  return probe;
}

/** Where the session a probe record was made for is: the next free name the proxy took, and whether it is there. */
export interface SessionPointer {
  /** The record's next numbered name. */
  readonly path: string;
  /** Whether a file of that name is there. */
  readonly found: boolean;
}

/** The line that says a record holds a probe only, and where the session's record is. */
function probeLines(next: SessionPointer | undefined, lang: Lang): string[] {
  if (next === undefined) return [say(P.probeOnlyNowhere, lang)];
  return [
    say(
      fill(next.found ? P.probeOnly : P.probeOnlyMissing, {
        next: inert(next.path),
      }),
      lang,
    ),
  ];
}

/** Why a record holds no read of the session's end, from what its start and end lines say. */
function noEffectsWhy(lines: readonly RecordLine[]): Text {
  const start = lines[0];
  const end = lines.at(-1);
  if (end?.kind === "end" && end.truncated) return P.noEffectsCut;
  const during = lines.some((l) => l.kind === "effect");
  // A record made before its start line said whether an oracle was given.
  const oracle = start.kind === "start" ? start.oracle : undefined;
  if (oracle === undefined) return during ? P.noEffectsAtEnd : P.noEffects;
  if (!oracle) return P.noEffects;
  if (end?.kind !== "end") return P.noEffectsStopped;
  if (during) return P.noEffectsAtEnd;
  const called = lines.some((l) =>
    l.kind === "msg" && l.dir === "client>server" && l.call !== undefined
  );
  return called ? P.noEffectsNoKey : P.noEffectsNoCall;
}

/** The effect lines under a drawn record. */
export function effectLines(
  lines: readonly RecordLine[],
  lang: Lang,
): string[] {
  // The reads at the end of the session: the ones made while it ran
  // (before a delivery, on a cancel) are on the timeline.
  const effects = lines.filter((l): l is Extract<RecordLine, {
    kind: "effect";
  }> =>
    l.kind === "effect" && l.before_delivery === undefined &&
    l.after_cancel === undefined
  );
  if (effects.length === 0) return [say(noEffectsWhy(lines), lang)];
  return [
    say(P.effectsTitle, lang),
    ...effects.map((e) =>
      say(
        fill(P.effectLine, {
          tool: inert(e.tool),
          key: inert(e.key),
          calls: e.calls.join(", "),
          count: e.count ?? "?",
        }),
        lang,
      )
    ),
  ];
}

/** The text screen of `guardlab proxy show FILE`. */
export function proxyShowLines(
  lines: readonly RecordLine[],
  file: string,
  lang: Lang,
  oracle?: Oracle,
  next?: SessionPointer,
): string[] {
  const start = lines[0];
  const out = [say(fill(P.showTitle, { file }), lang)];
  if (start.kind === "start") {
    out.push(
      say(
        fill(P.showServer, { command: inert(start.command.join(" ")) }),
        lang,
      ),
    );
  }
  if (probeOnly(lines)) out.push(...probeLines(next, lang));
  const steps = proxySteps(lines, oracle);
  out.push("", ...laneTable(steps.slice(0, MAX_DRAWN_EVENTS), lang, true));
  if (steps.length > MAX_DRAWN_EVENTS) {
    out.push(
      say(fill(P.showMore, { n: steps.length - MAX_DRAWN_EVENTS }), lang),
    );
  }
  if (lines.some((l) => l.kind === "end" && l.truncated)) {
    out.push(say(P.showTruncated, lang));
  }
  if (!probeOnly(lines)) out.push("", ...effectLines(lines, lang));
  return out;
}

/** What a screen says above its timeline of a probe record: that it is one, and where the session is (nothing for any other record). */
export function probeNote(
  lines: readonly RecordLine[],
  lang: Lang,
  next?: SessionPointer,
): string[] {
  return probeOnly(lines) ? probeLines(next, lang) : [];
}

/** The SVG of `guardlab proxy show FILE --format svg`. */
export function proxySvg(
  lines: readonly RecordLine[],
  file: string,
  lang: Lang,
  oracle?: Oracle,
  next?: SessionPointer,
): string {
  const steps = proxySteps(lines, oracle).slice(0, MAX_DRAWN_EVENTS);
  const title = say(fill(P.showTitle, { file }), lang);
  return lanesSvg(title, [{
    title: same(
      (probeOnly(lines) ? probeLines(next, lang) : effectLines(lines, lang))
        .join(" "),
    ),
    steps,
  }], lang);
}

/** `guardlab proxy show FILE --json`: the steps as drawn, and the effects by key. */
export function proxyJson(
  lines: readonly RecordLine[],
  file: string,
  lang: Lang,
  oracle?: Oracle,
  next?: SessionPointer,
) {
  const steps = proxySteps(lines, oracle);
  const start = lines[0];
  return {
    record: file,
    command: start.kind === "start" ? start.command : [],
    ...probeJson(lines, next),
    steps: steps.slice(0, MAX_DRAWN_EVENTS).map((s) => ({
      lane: s.lane,
      kind: s.kind,
      at_ms: s.at_ms ?? null,
      call: s.call ?? null,
      text: say(s.text, lang),
      ...(s.visible !== undefined ? { effect_visible: s.visible } : {}),
    })),
    steps_not_shown: Math.max(0, steps.length - MAX_DRAWN_EVENTS),
    truncated: lines.some((l) => l.kind === "end" && l.truncated),
    effects: lines.filter((l) => l.kind === "effect"),
  };
}

/** A probe record's fields in `--json`: that it holds the probe only, and the session's record (null when none was found). */
export function probeJson(
  lines: readonly RecordLine[],
  next?: SessionPointer,
): { probe_only: boolean; session_record?: string | null } {
  if (!probeOnly(lines)) return { probe_only: false };
  return {
    probe_only: true,
    session_record: next?.found ? next.path : null,
  };
}
