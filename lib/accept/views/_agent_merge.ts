/**
 * A proxy record and an agent record merged into one timeline (drawn by
 * `agent_view.ts`): the agent's lane (model turns, agent guardrails, each
 * function call with its tool input and output guardrails, a timeout, what
 * the model is told) beside the client, guardlab and the server.
 *
 * Both records keep time on the same clock (wall-clock time at their
 * start, then each process's monotonic clock), but two processes' clocks
 * agree only to a millisecond or so. Where a mark of a matched call
 * depends on a mark of the other record (an input guardrail before the
 * `tools/call` it let go, an output guardrail after the answer it checked,
 * the client's timeout before the cancel it sent), the agent's times are
 * shifted by the least amount that puts every such pair in order, and the
 * screen says by how much; the order itself never contradicts a
 * dependency. The first read that sees a key's effect is drawn as the
 * commit line, as everywhere else; a call that never reached the proxy is
 * on the agent's lane alone.
 *
 * @module
 */
import { fill, same, type Text } from "../../base/i18n.ts";
import { inert } from "../../base/terminal.ts";
import {
  type AgentCall,
  type AgentLine,
  type AgentStory,
  agentStory,
  leftTheAgent,
  refusedBeforeSending,
  shownName,
} from "../agent_record.ts";
import { matchCalls, proxyCalls } from "../agent_match.ts";
import { AGENT_MESSAGES as A } from "../agent_messages.ts";
import { TIMELINE_WORDS as W } from "../messages.ts";
import type { Oracle } from "../oracle.ts";
import type { RecordLine } from "../record.ts";
import type { ViewLane } from "./accept_view.ts";
import { type EffectRead, proxySteps } from "./proxy_view.ts";

/** One step of the merged timeline. */
export interface MergedStep {
  /** The lane it is drawn in. */
  readonly lane: ViewLane;
  /** What happened, for styling and scripts. */
  readonly kind: string;
  /** Its words. */
  readonly text: Text;
  /** When, in ms from the proxy record's start (the agent's shifted as the screen says). */
  readonly at_ms: number;
  /** The proxy's call number it is about. */
  readonly call?: number;
  /** The agent call (its number in the agent record) it is about. */
  readonly agent_call?: number;
  /** The effect's count, where this read first saw it. */
  readonly visible?: number;
  /** The divider's words, with the key. */
  readonly divider?: Text;
  /** A read by key: the calls of that key so far, the count it saw, and when. */
  readonly effect?: EffectRead;
}

/** The merged timeline and what the screen says under it. */
export interface Merged {
  /** Every step, in the order drawn. */
  readonly steps: MergedStep[];
  /** The agent record, gathered, its calls matched to the proxy's. */
  readonly story: AgentStory;
  /** The agent record's start minus the proxy record's, in ms, by their clocks. */
  readonly offsetMs: number;
  /** How far the agent's times were moved to put every dependency in order. */
  readonly shiftMs: number;
  /** Whether no shift could (a record that contradicts itself): the order then follows the dependencies alone. */
  readonly contradictory: boolean;
}

/** The lanes of the merged timeline. */
export const MERGED_LANES: readonly ViewLane[] = [
  "agent",
  "client",
  "guardlab",
  "server",
];

/** The longest quoted text in a lane (what the model is told, an error). */
const QUOTE_CHARS = 44;

/**
 * Text the model is told, as a reader wants it: an MCP result's text parts
 * joined (the SDK hands a list of parts on as JSON), cut to a lane's room.
 */
function quote(text: string | null): Text {
  let t = text ?? "";
  try {
    const parts = JSON.parse(t);
    const list = Array.isArray(parts) ? parts : [parts];
    if (list.length > 0 && list.every((p) => typeof p?.text === "string")) {
      t = String(list[0].text);
    }
  } catch { /* plain text */ }
  t = t.replace(/\s+/g, " ").trim();
  if (t.length > QUOTE_CHARS) {
    // Cut at a word's end where there is one.
    const cut = t.slice(0, QUOTE_CHARS + 1);
    const space = cut.lastIndexOf(" ");
    t = (space > QUOTE_CHARS / 2 ? cut.slice(0, space) : cut.slice(0, -1))
      .trimEnd() + "…";
  }
  return same(`«${t}»`);
}

/** A node of the merge: a step, its time (and line, for ties), and the nodes it must follow. */
interface Node {
  step: MergedStep;
  t: number;
  readonly seq: number;
  readonly after: Node[];
  /** A proxy step where the client got its call's answer. */
  readonly toClient: boolean;
  drawn: boolean;
}

function node(step: MergedStep, t: number, seq = 0, toClient = false): Node {
  return { step, t, seq, after: [], toClient, drawn: false };
}

function callsWord(call: number | null): Text {
  return call === null ? same("?") : fill(W.one, { n: call });
}

/**
 * The words of a call's first mark: it calls the tool, where the call went
 * (a proxy call, or not in this record, or nowhere: refused), and, for a
 * retry or a call beside an open one, which earlier call it repeats and
 * whether with the same arguments or only the same key.
 */
function callWords(call: AgentCall, earlier: AgentCall | undefined): Text {
  const tool = shownName(call.tool);
  const calls = callsWord(call.proxyCall);
  const tail = refusedBeforeSending(call)
    ? same("")
    : call.proxyCall === null
    ? A.tailElsewhere
    : fill(A.tailCall, { calls });
  if (earlier === undefined) {
    return refusedBeforeSending(call)
      ? fill(A.callsUnsent, { tool })
      : call.proxyCall === null
      ? fill(A.callsElsewhere, { tool })
      : fill(A.calls, { tool, calls });
  }
  const sameArgs = earlier.args === call.args;
  const refused = refusedBeforeSending(earlier);
  const n = earlier.proxyCall;
  if (call.sentWhileOpen !== null) {
    const same = sameArgs ? A.sameArgs : A.sameKey;
    return n !== null && !refused
      ? fill(A.callsBeside, { tool, n, same, tail })
      : fill(A.callsBesideOther, {
        tool,
        first: refused ? A.theRefusedCall : A.anUnrecordedCall,
        same,
        tail,
      });
  }
  const like = refused
    ? (sameArgs ? A.likeArgsRefused : A.likeKeyRefused)
    : n === null
    ? (sameArgs ? A.likeArgsUnrecorded : A.likeKeyUnrecorded)
    : fill(sameArgs ? A.likeArgs : A.likeKey, { n });
  return fill(A.callsAgain, { tool, like, tail });
}

/** Whether a guardrail's decision ends the run: it tripped (throwException) or threw. */
export function endsTheRun(decision: string): boolean {
  return decision === "throwException" || decision === "error";
}

/** The agent's nodes for one call, and the ones the proxy's steps hang on. */
function callNodes(
  call: AgentCall,
  watched: boolean,
  shift: (t: number) => number,
  earlier: AgentCall | undefined,
) {
  const nodes: Node[] = [];
  const add = (t: number, seq: number, kind: string, text: Text) => {
    const n = node(
      {
        lane: "agent",
        kind,
        text,
        at_ms: 0,
        agent_call: call.n,
        ...(call.proxyCall !== null ? { call: call.proxyCall } : {}),
      },
      shift(t),
      seq,
    );
    nodes.push(n);
    return n;
  };
  const left = leftTheAgent(call, watched);
  // Never sent: an input guardrail refused it. A call that was not
  // refused and reached no proxy (a function tool's, another server's)
  // still ran.
  const refused = refusedBeforeSending(call);
  let beforeSend: Node | undefined;
  if (call.start !== null) {
    beforeSend = add(
      call.start,
      call.startSeq,
      call.retryOf !== null ? "retry" : "call",
      callWords(call, earlier),
    );
  }
  let afterAnswer: Node | undefined;
  let failed: Node | undefined;
  const result = call.mcp?.result ?? null;
  for (const g of call.guardrails) {
    // An MCP call ends before the output guardrails look at its result.
    if (g.stage === "output" && failed === undefined) {
      failed = failureNode(call, add);
    }
    const n = add(
      g.t,
      g.seq,
      `${g.stage}-guardrail`,
      fill(g.stage === "input" ? A.inputGuardrail : A.outputGuardrail, {
        name: shownName(g.name),
        decision: g.decision,
      }),
    );
    if (g.stage === "input") beforeSend = n;
    else afterAnswer ??= n;
  }
  failed ??= failureNode(call, add);
  // A guardrail that tripped (throwException) or threw ends the run: the
  // model is told nothing, and is not called again in this run.
  const ender = call.guardrails.find((g) => endsTheRun(g.decision));
  if (ender !== undefined) {
    const n = add(
      call.end ?? ender.t,
      call.end !== null ? call.endSeq : ender.seq,
      "run-ended",
      fill(refused ? A.runEndsUnsent : A.runEnds, {
        decision: ender.decision,
      }),
    );
    afterAnswer ??= n;
  } else if (call.end !== null && call.told !== null) {
    const n = add(
      call.end,
      call.endSeq,
      "told",
      fill(refused ? A.toldUnsent : A.told, { told: quote(call.told) }),
    );
    afterAnswer ??= n;
  }
  // What the agent did once the answer came: a failure the answer itself
  // brought (a JSON-RPC error) comes after it too. A timeout or an abort
  // did not wait for any answer (nor for one delivered after the client's
  // cancel, which the caller leaves out even where the hook did not watch
  // the server).
  const answered = result === null ||
    (result.outcome !== "timeout" && result.outcome !== "aborted");
  return {
    nodes,
    beforeSend: left ? beforeSend : undefined,
    afterAnswer: !answered
      ? undefined
      : result?.outcome === "error"
      ? failed
      : afterAnswer,
    failed,
    // What the agent did with a failure: the next of its marks.
    afterFailure: failed === undefined
      ? undefined
      : nodes[nodes.indexOf(failed) + 1],
  };
}

/** The node of an MCP call that failed (a timeout, an abort, an error), or undefined. */
function failureNode(
  call: AgentCall,
  add: (t: number, seq: number, kind: string, text: Text) => Node,
): Node | undefined {
  const mcp = call.mcp;
  const result = mcp?.result;
  if (
    mcp === null || mcp === undefined || result === null ||
    result === undefined
  ) return undefined;
  const calls = callsWord(call.proxyCall);
  switch (result.outcome) {
    case "timeout":
      return add(
        result.t,
        result.seq,
        "timeout",
        fill(A.timeout, { calls, ms: Math.round(result.t - mcp.t) }),
      );
    case "aborted":
      return add(result.t, result.seq, "aborted", fill(A.aborted, { calls }));
    case "error":
      return add(
        result.t,
        result.seq,
        "failed",
        fill(A.failed, { calls, error: quote(result.error) }),
      );
    default:
      return undefined;
  }
}

/**
 * The least shift of the agent's clock that puts every dependency in
 * order: `later` pairs need agent + shift ≥ proxy, `earlier` pairs need
 * agent + shift ≤ proxy. Null when no shift can.
 */
function leastShift(
  pairs: readonly { agent: Node; proxy: Node; agentLater: boolean }[],
): number | null {
  let lo = -Infinity;
  let hi = Infinity;
  for (const { agent, proxy, agentLater } of pairs) {
    const gap = proxy.t - agent.t;
    if (agentLater) lo = Math.max(lo, gap);
    else hi = Math.min(hi, gap);
  }
  if (lo > hi) return null;
  return lo > 0 ? lo : hi < 0 ? hi : 0;
}

/**
 * Merge two lists of nodes, each already in its own order: the earlier by
 * time first, unless it must follow a node not drawn yet.
 */
function merge(a: readonly Node[], b: readonly Node[]): MergedStep[] {
  const out: MergedStep[] = [];
  let i = 0;
  let j = 0;
  const ready = (n: Node) => n.after.every((m) => m.drawn);
  const take = (n: Node) => {
    n.drawn = true;
    out.push(n.step);
  };
  while (i < a.length || j < b.length) {
    const x = a[i];
    const y = b[j];
    if (y === undefined) take(a[i++]);
    else if (x === undefined) take(b[j++]);
    else {
      const rx = ready(x);
      const ry = ready(y);
      // Neither ready is a cycle no true record has: then time decides.
      if (rx === ry ? x.t <= y.t : rx) take(a[i++]);
      else take(b[j++]);
    }
  }
  return out;
}

/** The steps of a proxy record and an agent record, merged into one timeline. */
export function mergedTimeline(
  lines: readonly RecordLine[],
  agent: readonly AgentLine[],
  oracle?: Oracle,
): Merged {
  const start = lines[0];
  const story = agentStory(agent, oracle);
  matchCalls(story, proxyCalls(lines));
  const proxyEpoch = start.kind === "start" ? start.epoch_ms ?? 0 : 0;
  const offsetMs = story.epochMs - proxyEpoch;
  const shift = (t: number) => t + offsetMs;
  const proxy = proxyNodes(lines, oracle);
  const linked = linkCalls(story, shift, hooksOf(proxy));
  const agentNodes = [...storyNodes(story, shift), ...linked.nodes];
  markBeside(proxy, linked.besideOf);
  const least = leastShift(linked.pairs);
  const shiftMs = least ?? 0;
  for (const n of agentNodes) {
    n.t += shiftMs;
    // (+ 0: no -0 on the screen or in the JSON)
    n.step = { ...n.step, at_ms: Math.round(n.t) + 0 };
  }
  // Each record's own order: the proxy's as written, the agent's by time
  // (and, for the same time, as written).
  agentNodes.sort((x, y) => x.t - y.t || x.seq - y.seq);
  return {
    steps: merge(agentNodes, proxy),
    story,
    offsetMs,
    shiftMs,
    contradictory: least === null,
  };
}

/** The proxy's steps as nodes of the merged timeline, on the proxy's clock. */
function proxyNodes(lines: readonly RecordLine[], oracle?: Oracle): Node[] {
  return proxySteps(lines, oracle).map((s) =>
    node(
      {
        lane: s.lane,
        kind: s.kind,
        text: s.text,
        at_ms: s.at_ms ?? 0,
        ...(s.call !== undefined ? { call: s.call } : {}),
        ...(s.visible !== undefined ? { visible: s.visible } : {}),
        ...(s.divider !== undefined ? { divider: s.divider } : {}),
        ...(s.effect !== undefined ? { effect: s.effect } : {}),
      },
      s.t ?? s.at_ms ?? 0,
      0,
      s.toClient === true,
    )
  );
}

/** Per call, the proxy's steps an agent's mark hangs on. */
interface Hooks {
  readonly sentAt: Map<number, Node>;
  readonly deliveredAt: Map<number, Node>;
  readonly cancelledAt: Map<number, Node>;
}

/** The proxy's steps an agent's mark hangs on, per call (found once: a record may hold 100000 calls). */
function hooksOf(proxy: readonly Node[]): Hooks {
  const hooks: Hooks = {
    sentAt: new Map(),
    deliveredAt: new Map(),
    cancelledAt: new Map(),
  };
  for (const n of proxy) {
    const k = n.step.call;
    if (k === undefined) continue;
    // An answer delivered after the client cancelled the call is one it
    // no longer waited for: nothing the agent did follows it.
    if (n.toClient && hooks.cancelledAt.has(k)) continue;
    const at = n.step.kind === "sent" || n.step.kind === "retried"
      ? hooks.sentAt
      : n.toClient
      ? hooks.deliveredAt
      : n.step.lane === "client" && n.step.kind === "cancelled"
      ? hooks.cancelledAt
      : undefined;
    if (at !== undefined && !at.has(k)) at.set(k, n);
  }
  return hooks;
}

/**
 * The turns in which an agent guardrail tripped (by their line in the
 * agent record): the run ended in them, so no answer of the model's was
 * used there, and a blocking guardrail stopped the turn before any model
 * call. The SDK began the turn all the same.
 */
export function trippedTurns(story: AgentStory): Set<number> {
  const out = new Set<number>();
  for (const g of story.agentGuardrails) {
    if (g.triggered !== true) continue;
    const turn = story.turns.findLast((t) => t.seq < g.seq);
    if (turn !== undefined) out.add(turn.seq);
  }
  return out;
}

/** The agent's model turns and agent guardrails, as nodes on its clock moved to the proxy's. */
function storyNodes(
  story: AgentStory,
  shift: (t: number) => number,
): Node[] {
  const tripped = trippedTurns(story);
  return [
    ...story.turns.map((t) =>
      node(
        {
          lane: "agent",
          kind: tripped.has(t.seq) ? "sdk-turn" : "turn",
          text: fill(tripped.has(t.seq) ? A.sdkTurn : A.turn, {
            turn: t.turn,
          }),
          at_ms: 0,
        },
        shift(t.t),
        t.seq,
      )
    ),
    ...story.agentGuardrails.map((g) =>
      node(
        {
          lane: "agent",
          kind: "agent-guardrail",
          text: fill(
            g.triggered ? A.agentGuardrailTripped : A.agentGuardrailPassed,
            { name: shownName(g.name) },
          ),
          at_ms: 0,
        },
        shift(g.t),
        g.seq,
      )
    ),
  ];
}

/**
 * The agent's calls as nodes, each hung on the proxy's steps of its call
 * (what must come before what), the pairs whose clocks are held to that
 * order, and the calls the agent sent while an earlier one was open.
 */
function linkCalls(
  story: AgentStory,
  shift: (t: number) => number,
  hooks: Hooks,
): {
  nodes: Node[];
  pairs: { agent: Node; proxy: Node; agentLater: boolean }[];
  besideOf: Map<number, { first: number; tool: string }>;
} {
  const watched = story.calls.some((c) => c.mcp !== null);
  const byN = new Map(story.calls.map((c) => [c.n, c]));
  const nodes: Node[] = [];
  const besideOf = new Map<number, { first: number; tool: string }>();
  const pairs: { agent: Node; proxy: Node; agentLater: boolean }[] = [];
  for (const call of story.calls) {
    const n = call.retryOf ?? call.sentWhileOpen;
    const earlier = n === null ? undefined : byN.get(n);
    const first = earlier?.proxyCall ?? null;
    const made = callNodes(call, watched, shift, earlier);
    nodes.push(...made.nodes);
    const k = call.proxyCall;
    if (k === null) continue;
    // The proxy alone calls a second call of a key a retry; the agent's
    // record says it went while the first was still open.
    if (call.sentWhileOpen !== null && first !== null) {
      besideOf.set(k, { first, tool: call.tool });
    }
    // The call leaves after its input guardrails allowed it.
    const sent = hooks.sentAt.get(k);
    if (sent !== undefined && made.beforeSend !== undefined) {
      sent.after.push(made.beforeSend);
      pairs.push({ agent: made.beforeSend, proxy: sent, agentLater: false });
    }
    // What the agent does with an answer comes after the answer reached it.
    const delivered = hooks.deliveredAt.get(k);
    if (delivered !== undefined && made.afterAnswer !== undefined) {
      made.afterAnswer.after.push(delivered);
      pairs.push({
        agent: made.afterAnswer,
        proxy: delivered,
        agentLater: true,
      });
    }
    // The client's timeout is what sent the cancel, and the SDK hears of
    // the failure only once the cancel has left: the timeout, the cancel,
    // then what the agent did next (an order of cause; the proxy notes the
    // cancel when it arrives, so these are not held to the clocks).
    const cancel = hooks.cancelledAt.get(k);
    if (cancel !== undefined && made.failed !== undefined) {
      cancel.after.push(made.failed);
      made.afterFailure?.after.push(cancel);
    }
  }
  return { nodes, pairs, besideOf };
}

/** A call the proxy alone would call a retry, sent while the first was open: drawn as sent beside it. */
function markBeside(
  proxy: readonly Node[],
  besideOf: ReadonlyMap<number, { first: number; tool: string }>,
): void {
  for (const n of proxy) {
    const k = n.step.call;
    const beside = k === undefined ? undefined : besideOf.get(k);
    if (beside === undefined || n.step.kind !== "retried") continue;
    n.step = {
      ...n.step,
      kind: "sent",
      text: fill(A.sendsBeside, {
        calls: callsWord(k!),
        tool: inert(beside.tool),
        first: beside.first,
      }),
    };
  }
}
