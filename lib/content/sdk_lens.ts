/**
 * The SDK lens: what the OpenAI Agents SDK does with each guardrail
 * behaviour, beside what guardlab's ledger holds, as `explain --sdk` prints
 * it. The prose of every row is built here from the rows' machine fields
 * (`_sdk_guardrail_rows.ts`, `_sdk_tool_rows.ts`), in both languages; each
 * row says how its facts were verified (`sdk_sources.ts`). The lab's
 * statuses are not SDK status names, and the lens says so.
 *
 * @module
 */
import {
  fill,
  joinTexts,
  type Lang,
  same,
  say,
  type Text,
} from "../base/i18n.ts";
import { wrap } from "../base/terminal.ts";
import { SDK_LENS_MESSAGES, SDK_LENS_WORDS } from "./_messages.ts";
import { type Behaviour, SDK_ROWS } from "./_sdk_guardrail_rows.ts";
import { APPROVAL_ROWS, TOOL_TYPE_ROWS } from "./_sdk_tool_rows.ts";
import { CANCEL_ROWS, type ToldFact } from "./_sdk_cancel_rows.ts";
import {
  SDK_JS_VERSION,
  SDK_PY_COMMIT,
  SDK_PY_VERSION,
  SDK_SOURCES,
  type Verified,
} from "./sdk_sources.ts";

/**
 * Which rows a topic stands for. A topic no guardrail behaviour matches (a
 * cancellation, a receipt, the policy lab's commit condition) maps to none,
 * and the lens says so.
 */
export const SDK_TOPICS: Readonly<Record<string, readonly string[]>> = {
  input_rejected: [
    "tool_input_reject",
    "tool_input_reject_schema",
    "tool_input_raise",
  ],
  output_rejected: ["tool_output_reject", "tool_output_raise"],
  retry_same_request: ["tool_input_allow", "tool_output_allow"],
  parallel_input_guardrail: ["agent_input_parallel"],
  sequential_input_guardrail: ["agent_input_sequential"],
  new_key_second_draft: ["tool_input_allow", "tool_output_allow"],
  compensation_can_fail: [
    "tool_output_reject",
    "agent_output",
    "agent_output_tool_final",
  ],
  tool_types: TOOL_TYPE_ROWS.map((r) => r.id),
  cancelled_after_business: CANCEL_ROWS.map((r) => r.id),
  approval_recheck: APPROVAL_ROWS.map((r) => r.id),
};

const M = SDK_LENS_MESSAGES;
const W = SDK_LENS_WORDS;

/** The two SDKs, by the names the lens writes them with. */
const SDK_NAME = { python: "Python", js: "JS" } as const;

/** Which SDK a fact is about. */
export type Sdk = keyof typeof SDK_NAME;

/** `label: value`, with each language's colon. */
function labelled(label: Text, value: Text): Text {
  return fill(M.labelled, { label, value });
}

function yesNo(value: boolean): Text {
  return value ? W.yes : W.no;
}

/** How `verified` reads for `sdk`. */
function provenance(sdk: Sdk, verified: Verified): Text {
  return fill(
    verified.how === "run" ? M.run : sdk === "js" ? M.readJs : M.read,
    {
      js: SDK_JS_VERSION,
      py: SDK_PY_VERSION,
      commit: SDK_PY_COMMIT.slice(0, 8),
      at: verified.how === "read" ? verified.at.join(", ") : "",
    },
  );
}

/** The prose of one behaviour, derived from its fields. */
function behaviour(sdk: Sdk, b: Behaviour): Text {
  const parts: Text[] = [
    labelled(M.model, yesNo(b.modelCalled)),
    labelled(M.tool, W[b.toolRan]),
    labelled(M.next, W[b.next]),
    labelled(M.continues, yesNo(b.continues)),
  ];
  if (b.error !== null) {
    parts.push(labelled(
      M.error,
      b.wrappedIn === undefined
        ? same(b.error)
        : fill(M.wrapped, { error: b.error, wrapper: b.wrappedIn }),
    ));
  }
  if (b.note !== undefined) parts.push(b.note);
  return labelled(
    same(`${SDK_NAME[sdk]} ${b.name}`),
    joinTexts(parts, M.separator),
  );
}

/** The prose of one behaviour, derived from its fields, in `lang`. */
export function behaviourText(sdk: Sdk, b: Behaviour, lang: Lang): string {
  return say(behaviour(sdk, b), lang);
}

/** One row: its heading, marked → when the topic stands for it. */
interface LensRow {
  readonly id: string;
  readonly what: Text;
  /** Each SDK's fact and how it was verified. */
  readonly facts: readonly { sdk: Sdk; body: Text; verified: Verified }[];
  /** The line under the facts: the ledger, or the commit point. */
  readonly under?: Text;
}

/** Each SDK's fact for a row, Python first. */
function bothSdks<T extends { verified: Verified }>(
  row: Readonly<Record<Sdk, T>>,
  body: (sdk: Sdk, fact: T) => Text,
): LensRow["facts"] {
  return (["python", "js"] as const).map((sdk) => ({
    sdk,
    body: body(sdk, row[sdk]),
    verified: row[sdk].verified,
  }));
}

const GUARDRAIL_ROWS: readonly LensRow[] = SDK_ROWS.map((row) => ({
  id: row.id,
  what: row.what,
  facts: bothSdks(row, behaviour),
  under: labelled(M.ledger, row.ledger),
}));

const TOOL_ROWS: readonly LensRow[] = TOOL_TYPE_ROWS.map((row) => ({
  id: row.id,
  what: row.what,
  facts: bothSdks(row, (sdk, fact) =>
    joinTexts([
      labelled(same(SDK_NAME[sdk]), labelled(M.guarded, W[fact.guarded])),
      ...(fact.note === undefined ? [] : [fact.note]),
    ], M.separator)),
  under: labelled(M.commit, row.commit),
}));

const APPROVAL_LENS_ROWS: readonly LensRow[] = APPROVAL_ROWS.map((row) => ({
  id: row.id,
  what: row.what,
  facts: bothSdks(row, (sdk, fact) =>
    labelled(
      same(SDK_NAME[sdk]),
      labelled(M.checks, joinTexts(fact.checks.map((c) => W[c]), M.and)),
    )),
}));

/** What one SDK tells the model after a timeout or a cancel, derived from its fields. */
function told(sdk: Sdk, fact: ToldFact): Text {
  const parts: Text[] = [
    labelled(M.next, fact.told === null ? W.nothing : same(`"${fact.told}"`)),
    labelled(M.continues, yesNo(fact.continues)),
  ];
  if (fact.error !== null) parts.push(labelled(M.error, same(fact.error)));
  if (fact.note !== undefined) parts.push(fact.note);
  return labelled(
    same(`${SDK_NAME[sdk]} ${fact.name}`),
    joinTexts(parts, M.separator),
  );
}

const CANCEL_LENS_ROWS: readonly LensRow[] = CANCEL_ROWS.map((row) => ({
  id: row.id,
  what: row.what,
  facts: bothSdks(row, told),
  under: labelled(M.ledger, row.ledger),
}));

/** The lens for `topic` in `lang`, within 80 columns. */
export function sdkLensLines(topic: string, lang: Lang): string[] {
  const mapped = SDK_TOPICS[topic] ?? [];
  const shows = (rows: readonly LensRow[]) =>
    rows.some((r) => mapped.includes(r.id));
  // A topic about tool types, approvals or a cancel shows its own table only.
  const own = [TOOL_ROWS, APPROVAL_LENS_ROWS, CANCEL_LENS_ROWS].filter(shows);
  const lines = [
    say(fill(M.header, { topic }), lang),
    say(mapped.length === 0 ? M.none : M.marked, lang),
  ];
  for (const row of own.length === 0 ? GUARDRAIL_ROWS : own.flat()) {
    lines.push(
      `${mapped.includes(row.id) ? "→ " : "  "}${say(row.what, lang)}`,
    );
    for (const { sdk, body, verified } of row.facts) {
      lines.push(
        ...wrap(`    ${say(body, lang)}`, 80),
        ...wrap(`      [${say(provenance(sdk, verified), lang)}]`, 80),
      );
    }
    if (row.under) lines.push(...wrap(`    ${say(row.under, lang)}`, 80));
  }
  if (own.length === 0) lines.push(...wrap(say(M.more, lang), 80));
  lines.push(say(M.sources, lang));
  for (const source of SDK_SOURCES) {
    lines.push(...wrap(`  - ${say(source, lang)}`, 80));
  }
  lines.push(...wrap(say(M.statuses, lang), 80));
  return lines.flatMap((l) => wrap(l, 80));
}
