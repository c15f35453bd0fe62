/**
 * The words of each step of `accept`'s timeline, in the lane where it
 * happened: what the client sent, what guardlab did with the answer, what
 * the server answered (an error with its own words), the reads, the
 * processes a case started and ended, each named when a case started its
 * own.
 *
 * @module
 */
import { fill, same, type Text } from "../../base/i18n.ts";
import { MAX_MESSAGE_BYTES } from "../../wire/limits.ts";
import {
  OUTCOME_WORD,
  PROBLEM_WORD,
  TIMELINE_WORDS as W,
} from "../messages.ts";
import type { TimelineEvent } from "../session.ts";

/** One event's words, for `calls` (one call number or a run of them), with its process when a case started its own. */
export function eventText(e: TimelineEvent, calls: Text, n: number): Text {
  const text = eventWords(e, calls, n);
  return e.process === undefined || PROCESS_KINDS.includes(e.kind)
    ? text
    : fill(W.onProcess, { text, n: e.process });
}

/** The kinds whose words name their process already. */
export const PROCESS_KINDS: readonly TimelineEvent["kind"][] = [
  "started",
  "killed",
  "closed",
];

function eventWords(e: TimelineEvent, calls: Text, n: number): Text {
  const outcome = e.outcome ? OUTCOME_WORD[e.outcome] : same("");
  switch (e.kind) {
    case "sent":
      return fill(W.sent, { calls });
    case "retried":
      return fill(W.retried, { calls });
    case "forwarded":
      return fill(W.forwarded, { calls });
    case "answered":
      // An error's own words are drawn where it was said; a success's are in the JSON.
      return e.text && e.outcome !== "success"
        ? fill(W.answeredText, { calls, outcome, text: e.text })
        : fill(W.answered, { calls, outcome });
    case "delivered":
      return fill(W.delivered, { calls, outcome });
    case "withheld":
      return fill(W.withheld, { calls });
    case "gave-up":
      return fill(W.gaveUp, { calls });
    case "cancelled":
      return fill(W.cancelled, { calls });
    case "too-late":
      return fill(W.tooLate, { calls });
    case "read":
      if (e.count === null || e.count === undefined) return W.readFailed;
      if (e.polled) return fill(W.readPolled, { count: e.count });
      return n > 1
        ? fill(W.readMany, { n, count: e.count })
        : fill(W.read, { count: e.count });
    case "waited":
      return fill(W.waited, { ms: e.ms ?? "?" });
    case "setup":
      return fill(W.setup, { outcome });
    case "started":
      return fill(W.started, { n: e.process ?? "?" });
    case "killed":
      return fill(W.killed, { n: e.process ?? "?" });
    case "closed":
      return fill(W.closed, { n: e.process ?? "?" });
    case "notice":
      return W.notice;
    case "exited":
      return W.exited;
    case "problem":
      return fill(PROBLEM_WORD[e.problem ?? "not-message"], {
        id: e.id ?? "?",
        max: MAX_MESSAGE_BYTES,
      });
  }
}
