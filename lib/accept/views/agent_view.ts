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
import { effectLines } from "./proxy_view.ts";
import { type Merged, MERGED_LANES, mergedTimeline } from "./_agent_merge.ts";

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

/**
 * Per proxy call, where (in the merged order) the first read that saw its
 * key's effect was drawn, and what it saw.
 */
function effectsSeen(merged: Merged) {
  const seen = new Map<number, { at: number; key: string; count: number }>();
  merged.steps.forEach((s, at) => {
    const count = s.effect?.count;
    if (typeof count !== "number" || count <= 0) return;
    for (const call of s.effect!.calls) {
      if (!seen.has(call)) seen.set(call, { at, key: s.effect!.key, count });
    }
  });
  return seen;
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
  const seen = effectsSeen(merged);
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
    const read = call.proxyCall === null ? undefined : seen.get(call.proxyCall);
    // The effect counts as visible before a mark only where the timeline
    // drew its read before that mark; a read at the end of the session
    // cannot say when the effect came.
    const visibleBefore = (at: number | undefined) =>
      read !== undefined && at !== undefined && read.at < at;
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
      const at = marks.get(`${call.n} timeout`)?.[0];
      text = read === undefined
        ? fill(A.timedOutUnread, { what, calls })
        : visibleBefore(at)
        ? fill(A.timedOut, { what, calls, ...read })
        : fill(A.timedOutReadLater, { what, calls, count: read.count });
    } else if (stop !== undefined && stop.stage === "output") {
      const outputs = call.guardrails.filter((g) => g.stage === "output");
      const at = marks.get(`${call.n} output-guardrail`)?.[
        outputs.indexOf(stop)
      ];
      const args = {
        what,
        calls,
        name: shownName(stop.name),
        decision: stop.decision,
      };
      text = read === undefined
        ? fill(A.rejectedAfterAnswer, args)
        : visibleBefore(at)
        ? fill(A.rejectedAfterEffect, { ...args, ...read })
        : fill(A.rejectedReadLater, { ...args, count: read.count });
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
    if (call.retryOf !== null) {
      const first = byN.get(call.retryOf)?.proxyCall ?? null;
      text = first === null
        ? fill(A.retryOfUnrecorded, { what: text })
        : fill(A.retry, { what: text, calls: callsWord(first) });
    } else if (call.sentWhileOpen !== null) {
      const first = byN.get(call.sentWhileOpen)?.proxyCall ?? null;
      text = first === null
        ? fill(A.sentWhileOpenUnrecorded, { what: text })
        : fill(A.sentWhileOpen, { what: text, calls: callsWord(first) });
    }
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
  files: { readonly record: string; readonly agent: string },
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
