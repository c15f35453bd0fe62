/**
 * A recorded proxy session drawn as the acceptance test's timeline: the
 * client (the agent's host), guardlab (the proxy, with each fault it
 * applied) and the server, one message a row with its time, so an engineer
 * sees where their agent's retries, timeouts and cancels fell. A call with
 * the same key as an earlier one (by the oracle's key, else the same
 * arguments) is drawn as a retry; the effect read by key at the end of the
 * session closes the timeline.
 *
 * @module
 */
import { fill, type Lang, same, say, type Text } from "../../base/i18n.ts";
import { canonicalJson, isPlainRecord } from "../../base/json.ts";
import { MAX_DRAWN_EVENTS, MAX_RECORDED_MESSAGE_BYTES } from "../limits.ts";
import {
  MAX_DEPTH,
  MAX_MESSAGE_BYTES,
  MAX_WAIT_BYTES,
  MAX_WAIT_MESSAGES,
} from "../../wire/limits.ts";
import { inert } from "../../base/terminal.ts";
import { OUTCOME_WORD, TIMELINE_WORDS as W } from "../messages.ts";
import { PROXY_LOG as L, PROXY_WORDS as P } from "../proxy_messages.ts";
import { type Oracle, pointerGet } from "../oracle.ts";
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
  /** A read by key: the calls of that key so far, and the count it saw. */
  readonly effect?: {
    readonly key: string;
    readonly calls: readonly number[];
    readonly count: number | null;
  };
};
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

/** The business key of a call's arguments, by the oracle's pointer, else its arguments. */
function keyOf(oracle: Oracle | undefined, tool: string, msg: unknown): string {
  const args = isPlainRecord(msg) && isPlainRecord(msg.params)
    ? msg.params.arguments
    : undefined;
  const spec = oracle?.tools.find((t) => t.tool === tool);
  if (spec !== undefined) {
    const found = pointerGet(args, spec.key);
    if (found.found) return `key:${String(found.value)}`;
  }
  try {
    return `args:${canonicalJson(args ?? null)}`;
  } catch {
    return "";
  }
}

/** The steps of a record, lane by lane: each line of it drawn where it happened. */
export function proxySteps(
  lines: readonly RecordLine[],
  oracle?: Oracle,
): Step[] {
  const walk: Walk = {
    steps: [],
    methods: new Map(),
    firstOfKey: new Map(),
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
  /** The first call of each key: a later one is a retry. */
  readonly firstOfKey: Map<string, number>;
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
    text: fill(P.oracleReadStep, {
      tool: inert(line.tool),
      key: inert(line.key),
      count: line.count ?? "?",
    }),
    effect: { key: line.key, calls: line.calls, count: line.count },
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
    case "server>client flood":
      return push(
        "server",
        "problem",
        fill(L.serverFlood, {
          messages: MAX_WAIT_MESSAGES,
          mib: MAX_WAIT_BYTES / (1024 * 1024),
        }),
      );
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
    const key = `${line.tool ?? ""}\u0000${
      keyOf(walk.oracle, line.tool ?? "", msg)
    }`;
    const first = walk.firstOfKey.get(key);
    if (first === undefined) {
      walk.firstOfKey.set(key, line.call);
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

/** The effect lines under a drawn record. */
export function effectLines(
  lines: readonly RecordLine[],
  lang: Lang,
): string[] {
  // The reads at the end of the session: the ones before a delivery are on the timeline.
  const effects = lines.filter((l): l is Extract<RecordLine, {
    kind: "effect";
  }> => l.kind === "effect" && l.before_delivery === undefined);
  if (effects.length === 0) {
    // Recorded with --oracle all the same: a record cut at its bound holds
    // no read of the session's end, one before a delivery is drawn above.
    const cut = lines.some((l) => l.kind === "end" && l.truncated);
    const before = lines.some((l) => l.kind === "effect");
    return [
      say(
        cut ? P.noEffectsCut : before ? P.noEffectsAtEnd : P.noEffects,
        lang,
      ),
    ];
  }
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
  out.push("", ...effectLines(lines, lang));
  return out;
}

/** The SVG of `guardlab proxy show FILE --format svg`. */
export function proxySvg(
  lines: readonly RecordLine[],
  file: string,
  lang: Lang,
  oracle?: Oracle,
): string {
  const steps = proxySteps(lines, oracle).slice(0, MAX_DRAWN_EVENTS);
  const title = say(fill(P.showTitle, { file }), lang);
  return lanesSvg(title, [{
    title: same(effectLines(lines, lang).join(" ")),
    steps,
  }], lang);
}

/** `guardlab proxy show FILE --json`: the steps as drawn, and the effects by key. */
export function proxyJson(
  lines: readonly RecordLine[],
  file: string,
  lang: Lang,
  oracle?: Oracle,
) {
  const steps = proxySteps(lines, oracle);
  const start = lines[0];
  return {
    record: file,
    command: start.kind === "start" ? start.command : [],
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
