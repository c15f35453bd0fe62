/**
 * `guardlab proxy show FILE --agent AGENTFILE` drawn: the merged timeline
 * (`_agent_merge.ts`) as text in four lanes within 80 columns, as SVG and
 * as JSON, with the effects by key and a line per agent call saying where
 * it stopped relative to its effect: before any `tools/call` (an input
 * guardrail), or after the effect was visible (an output guardrail, a
 * timeout).
 *
 * @module
 */
import { fill, type Lang, same, say, type Text } from "../../base/i18n.ts";
import { isPlainRecord } from "../../base/json.ts";
import { inert, wrap } from "../../base/terminal.ts";
import {
  type AgentCall,
  type AgentLine,
  refusedBeforeSending,
  shownName,
} from "../agent_record.ts";
import { AGENT_MESSAGES as A } from "../agent_messages.ts";
import { MAX_DRAWN_EVENTS } from "../limits.ts";
import { TIMELINE_WORDS as W } from "../messages.ts";
import { PROXY_WORDS as P } from "../proxy_messages.ts";
import { type Oracle, pointerGet } from "../oracle.ts";
import type { RecordLine } from "../record.ts";
import { lanesSvg, laneTable } from "./accept_view.ts";
import { effectLines, probeNote, type SessionPointer } from "./proxy_view.ts";
import {
  endsTheRun,
  type Merged,
  MERGED_LANES,
  mergedTimeline,
  trippedTurns,
} from "./_agent_merge.ts";

/** The merged table's columns: a narrower time, a wider agent lane (79 columns in all). */
const LAYOUT = { timeW: 9, widths: [20, 14, 14, 14] } as const;

function callsWord(call: number | null): Text {
  return call === null ? same("?") : fill(W.one, { n: call });
}

/** A call's label: its tool, and its business key when the oracle names one. */
function label(call: AgentCall, oracle: Oracle | undefined): string {
  const tool = shownName(call.tool);
  const spec = oracle?.tools.find((t) => t.tool === call.tool);
  if (spec === undefined || call.args === null) return tool;
  try {
    const found = pointerGet(JSON.parse(call.args), spec.key);
    return found.found &&
        (typeof found.value === "string" || typeof found.value === "number")
      ? `${tool} ${shownName(String(found.value))}`
      : tool;
  } catch {
    return tool;
  }
}

/** A read of a call's key as drawn: where in the merged order, when the proxy made it, what it counted. */
interface DrawnRead {
  readonly at: number;
  readonly when: "delivery" | "cancel" | "end";
  readonly count: number | null;
}

/** Per proxy call, every read of its key's effect, in the merged order. */
function readsByCall(merged: Merged): Map<number, DrawnRead[]> {
  const reads = new Map<number, DrawnRead[]>();
  merged.steps.forEach((s, at) => {
    if (s.effect === undefined) return;
    const read = { at, when: s.effect.when, count: s.effect.count };
    for (const call of s.effect.calls) {
      const list = reads.get(call);
      if (list === undefined) reads.set(call, [read]);
      else list.push(read);
    }
  });
  return reads;
}

/** When a read was made, in words. */
const WHEN: Record<DrawnRead["when"], Text> = {
  delivery: A.whenDelivery,
  cancel: A.whenCancel,
  end: A.whenEnd,
};

/**
 * How the session was recorded, from its start line: with an oracle,
 * with --read-before-delivery (undefined: a record made before its start
 * line said so).
 */
function recordedWith(lines: readonly RecordLine[]) {
  const start = lines[0];
  return start.kind === "start"
    ? { oracle: start.oracle, held: start.read_before_delivery }
    : { oracle: undefined, held: undefined };
}

/**
 * A timed-out call's line: what the reads of its key found, and when. A
 * read on the cancel was made as the client gave up, so its count says
 * what was there at the timeout. No answer is delivered to a timed-out
 * call, so no advice about reading before delivery applies.
 */
function timedOutText(
  words: { what: string; calls: Text },
  reads: readonly DrawnRead[],
  timeoutAt: number | undefined,
  oracle: boolean | undefined,
): Text {
  const found = reads.find((r) => r.count !== null && r.count > 0);
  const zero = reads.filter((r) => r.count === 0);
  if (found !== undefined) {
    const count = found.count!;
    if (timeoutAt !== undefined && found.at < timeoutAt) {
      return fill(A.timedOut, { ...words, count });
    }
    const before = zero.find((r) => r.at < found.at);
    if (before !== undefined) {
      return fill(A.timedOutFoundLater, {
        ...words,
        count,
        first: WHEN[before.when],
        when: WHEN[found.when],
      });
    }
    return found.when === "end"
      ? fill(A.timedOutReadLater, { ...words, count })
      : fill(A.timedOutFound, { ...words, count, when: WHEN[found.when] });
  }
  const last = zero.at(-1);
  if (last !== undefined) {
    return fill(A.timedOutNothing, { ...words, when: WHEN[last.when] });
  }
  const failed = reads.at(-1);
  if (failed !== undefined) {
    return fill(A.timedOutReadFailed, { ...words, when: WHEN[failed.when] });
  }
  return fill(oracle === false ? A.timedOutNoOracle : A.timedOutUnread, words);
}

/**
 * The line of a call an output guardrail refused after the server
 * answered: where the read of its key fell. The advice to record with
 * --oracle FILE --read-before-delivery is given only to a record made
 * without them.
 */
function rejectedText(
  words: { what: string; calls: Text; name: string; decision: string },
  reads: readonly DrawnRead[],
  markAt: number | undefined,
  how: ReturnType<typeof recordedWith>,
): Text {
  const found = reads.find((r) => r.count !== null && r.count > 0);
  if (found !== undefined) {
    const count = found.count!;
    if (markAt !== undefined && found.at < markAt) {
      return fill(A.rejectedAfterEffect, { ...words, count });
    }
    return how.held === true
      ? fill(A.rejectedReadLaterHeld, {
        ...words,
        count,
        when: WHEN[found.when],
      })
      : fill(A.rejectedReadLater, { ...words, count });
  }
  const last = reads.filter((r) => r.count === 0).at(-1);
  if (last !== undefined) {
    return fill(A.rejectedNoEffect, { ...words, when: WHEN[last.when] });
  }
  const failed = reads.at(-1);
  if (failed !== undefined) {
    return fill(A.rejectedAfterAnswerUnread, {
      ...words,
      why: fill(A.readFailed, { when: WHEN[failed.when] }),
    });
  }
  return how.oracle === true && how.held === true
    ? fill(A.rejectedAfterAnswerUnread, { ...words, why: A.noReadOfIt })
    : fill(A.rejectedAfterAnswer, words);
}

/**
 * What a call's line adds about the earlier call it repeats (the one rule
 * of `retry_rule.ts`): a retry of it, with the same arguments or only the
 * same key, or of the call an input guardrail refused; or a call sent
 * beside it while it was open, which retries nothing.
 */
function repeatText(
  text: Text,
  call: AgentCall,
  byN: ReadonlyMap<number, AgentCall>,
): Text {
  const n = call.retryOf ?? call.sentWhileOpen;
  const earlier = n === null ? undefined : byN.get(n);
  if (earlier === undefined) return text;
  const first = earlier.proxyCall;
  const sameArgs = earlier.args === call.args;
  if (call.retryOf !== null) {
    return refusedBeforeSending(earlier)
      ? fill(A.retryOfRefused, { what: text })
      : first === null
      ? fill(A.retryOfUnrecorded, { what: text })
      : fill(sameArgs ? A.retry : A.retryKeyOnly, {
        what: text,
        calls: callsWord(first),
      });
  }
  return first === null
    ? fill(
      sameArgs ? A.sentWhileOpenUnrecorded : A.sentWhileOpenKeyUnrecorded,
      { what: text },
    )
    : fill(sameArgs ? A.sentWhileOpen : A.sentWhileOpenKey, {
      what: text,
      calls: callsWord(first),
    });
}

/** Where each of the agent's calls stopped, relative to the effect, one line each (within 80 columns). */
function callLines(
  lines: readonly RecordLine[],
  merged: Merged,
  lang: Lang,
  oracle: Oracle | undefined,
): string[] {
  const { story } = merged;
  if (story.calls.length === 0) return [];
  const reads = readsByCall(merged);
  const how = recordedWith(lines);
  const cut = lines.some((l) => l.kind === "end" && l.truncated);
  // Where each agent call's marks were drawn, by kind.
  const marks = new Map<string, number[]>();
  merged.steps.forEach((s, at) => {
    if (s.agent_call === undefined) return;
    const key = `${s.agent_call} ${s.kind}`;
    const list = marks.get(key);
    if (list === undefined) marks.set(key, [at]);
    else list.push(at);
  });
  const byN = new Map(story.calls.map((c) => [c.n, c]));
  const out: string[] = [say(A.callsTitle, lang)];
  for (const call of story.calls.slice(0, MAX_DRAWN_EVENTS)) {
    const what = label(call, oracle);
    const calls = call.proxyCall === null
      ? A.notSent
      : callsWord(call.proxyCall);
    const stop = call.guardrails.find((g) => g.decision !== "allow");
    const drawn = call.proxyCall === null
      ? []
      : reads.get(call.proxyCall) ?? [];
    const outcome = call.mcp?.result?.outcome;
    let text: Text;
    if (refusedBeforeSending(call)) {
      text = fill(A.stoppedBefore, {
        what,
        calls,
        name: shownName(stop?.name ?? "?"),
        decision: stop?.decision ?? "?",
      });
    } else if (call.proxyCall === null) {
      // The hook saw it leave for an MCP server: no function tool's call.
      text = call.mcp === null ? fill(A.notInRecord, { what, calls }) : fill(
        cut ? A.notInRecordCut : A.notInRecordMcp,
        { what, server: shownName(call.mcp.server ?? "?") },
      );
    } else if (outcome === "timeout") {
      text = timedOutText(
        { what, calls },
        drawn,
        marks.get(`${call.n} timeout`)?.[0],
        how.oracle,
      );
    } else if (stop !== undefined && stop.stage === "output") {
      const outputs = call.guardrails.filter((g) => g.stage === "output");
      text = rejectedText(
        {
          what,
          calls,
          name: shownName(stop.name),
          decision: stop.decision,
        },
        drawn,
        marks.get(`${call.n} output-guardrail`)?.[outputs.indexOf(stop)],
        how,
      );
    } else if (
      outcome === "error" || outcome === "aborted" ||
      (call.mcp === null && call.error !== null)
    ) {
      text = fill(A.passedButFailed, {
        what,
        calls,
        error: quoted(call.mcp?.result?.error ?? call.error ?? outcome ?? "?"),
      });
    } else if (endsUnseen(call)) {
      text = fill(A.unfinished, { what, calls });
    } else {
      text = fill(A.passed, { what, calls });
    }
    // A guardrail that tripped (throwException) or threw ended the run.
    if (call.guardrails.some((g) => endsTheRun(g.decision))) {
      text = fill(A.runEnded, { what: text });
    }
    text = repeatText(text, call, byN);
    // Made visible first, so an escape in a name takes the room it shows in.
    out.push(...wrap(inert(say(text, lang)), 78, 4));
  }
  if (story.calls.length > MAX_DRAWN_EVENTS) {
    out.push(
      say(
        fill(A.callsNotListed, { n: story.calls.length - MAX_DRAWN_EVENTS }),
        lang,
      ),
    );
  }
  return out;
}

/**
 * Whether the agent record ends before the call did (it stopped at its
 * bound, or the agent before close()): its function span never ended, or
 * (no spans) its MCP call has no result and no output guardrail ran.
 */
function endsUnseen(call: AgentCall): boolean {
  if (call.start !== null) return call.end === null;
  return call.mcp !== null && call.mcp.result === null &&
    !call.guardrails.some((g) => g.stage === "output");
}

/** An error as a line quotes it: on one line, at most 80 characters. */
function quoted(error: string): string {
  const one = error.replace(/\s+/g, " ").trim();
  return `«${one.length > 80 ? one.slice(0, 80) + "…" : one}»`;
}

/** The notes under the merged timeline: the clocks, what the agent record lacks. */
function notes(merged: Merged, lang: Lang): string[] {
  const out = [
    say(
      merged.contradictory
        ? A.contradictory
        : merged.shiftMs === 0
        ? A.clocksAgree
        : fill(A.clocks, { ms: Math.round(merged.shiftMs * 10) / 10 }),
      lang,
    ),
  ];
  if (trippedTurns(merged.story).size > 0) out.push(say(A.sdkTurnNote, lang));
  if (!merged.story.traced) out.push(say(A.untraced, lang));
  if (merged.story.full) out.push(say(A.agentFull, lang));
  return out.flatMap((l) => wrap(l, 78, 0));
}

/** The title of the merged screen and SVG. */
function titleOf(files: { record: string; agent: string }): Text {
  return fill(A.title, { file: files.record, agent: files.agent });
}

/** The text screen of `guardlab proxy show FILE --agent AGENTFILE`. */
export function mergedShowLines(
  lines: readonly RecordLine[],
  agent: readonly AgentLine[],
  files: {
    readonly record: string;
    readonly agent: string;
    /** Where a probe record's session is. */
    readonly next?: SessionPointer;
  },
  lang: Lang,
  oracle?: Oracle,
): string[] {
  const merged = mergedTimeline(lines, agent, oracle);
  const start = lines[0];
  const out = [say(titleOf(files), lang)];
  if (start.kind === "start") {
    out.push(
      say(fill(P.showServer, { command: start.command.join(" ") }), lang),
    );
  }
  out.push(...probeNote(lines, lang, files.next));
  out.push(
    "",
    ...laneTable(
      merged.steps.slice(0, MAX_DRAWN_EVENTS),
      lang,
      true,
      MERGED_LANES,
      LAYOUT,
    ),
  );
  if (merged.steps.length > MAX_DRAWN_EVENTS) {
    out.push(
      say(
        fill(P.showMore, { n: merged.steps.length - MAX_DRAWN_EVENTS }),
        lang,
      ),
    );
  }
  if (lines.some((l) => l.kind === "end" && l.truncated)) {
    out.push(say(P.showTruncated, lang));
  }
  out.push(
    "",
    ...effectLines(lines, lang),
    "",
    ...callLines(lines, merged, lang, oracle),
    "",
    ...notes(merged, lang),
  );
  return out;
}

/** The SVG of `proxy show FILE --agent AGENTFILE --format svg`: four lanes. */
export function mergedSvg(
  lines: readonly RecordLine[],
  agent: readonly AgentLine[],
  files: { readonly record: string; readonly agent: string },
  lang: Lang,
  oracle?: Oracle,
): string {
  const merged = mergedTimeline(lines, agent, oracle);
  // Under the lanes, what the text screen says under its table: where
  // each call stopped (the answer to the question), and the clocks.
  const calls = callLines(lines, merged, lang, oracle);
  return lanesSvg(
    say(titleOf(files), lang),
    [{
      title: same(effectLines(lines, lang).join(" ")),
      steps: merged.steps.slice(0, MAX_DRAWN_EVENTS),
    }],
    lang,
    MERGED_LANES,
    [...calls, ...(calls.length > 0 ? [""] : []), ...notes(merged, lang)],
  );
}

/** `proxy show FILE --agent AGENTFILE --json`: the steps, the agent's calls matched, the effects. */
export function mergedJson(
  lines: readonly RecordLine[],
  agent: readonly AgentLine[],
  files: { readonly record: string; readonly agent: string },
  lang: Lang,
  oracle?: Oracle,
) {
  const merged = mergedTimeline(lines, agent, oracle);
  const round = (ms: number) => Math.round(ms * 10) / 10;
  return {
    record: files.record,
    agent_record: files.agent,
    offset_ms: round(merged.offsetMs),
    shift_ms: round(merged.shiftMs),
    contradictory: merged.contradictory,
    traced: merged.story.traced,
    agent_record_full: merged.story.full,
    steps: merged.steps.slice(0, MAX_DRAWN_EVENTS).map((s) => ({
      lane: s.lane,
      kind: s.kind,
      at_ms: s.at_ms,
      call: s.call ?? null,
      agent_call: s.agent_call ?? null,
      text: say(s.text, lang),
      ...(s.visible !== undefined ? { effect_visible: s.visible } : {}),
    })),
    steps_not_shown: Math.max(0, merged.steps.length - MAX_DRAWN_EVENTS),
    calls_not_shown: Math.max(0, merged.story.calls.length - MAX_DRAWN_EVENTS),
    calls: merged.story.calls.slice(0, MAX_DRAWN_EVENTS).map((c) => ({
      agent_call: c.n,
      tool: c.tool,
      call_id: c.callId,
      arguments: c.args === null ? null : parsed(c.args),
      proxy_call: c.proxyCall,
      retry_of: c.retryOf,
      sent_while_open: c.sentWhileOpen,
      guardrails: c.guardrails.map((g) => ({
        stage: g.stage,
        name: g.name,
        decision: g.decision,
        message: g.message,
      })),
      mcp: c.mcp?.result?.outcome ?? (c.mcp === null ? null : "no-result"),
      told: c.told,
    })),
    effects: lines.filter((l) => l.kind === "effect"),
  };
}

function parsed(json: string): unknown {
  try {
    const value = JSON.parse(json);
    return isPlainRecord(value) || Array.isArray(value) ? value : json;
  } catch {
    return json;
  }
}
