/**
 * The SDK lens's guardrail rows as data: what the OpenAI Agents SDK does
 * with each guardrail behaviour, in Python and in JS, as machine fields
 * beside what guardlab's ledger holds. The prose of every row is built from
 * these fields (`sdk_lens.ts`); only the notes are written by hand. How each
 * SDK's facts were verified is in `sdk_sources.ts`.
 *
 * @module
 */
import type { Text } from "../base/i18n.ts";
import { CITED, RAN, readAt, type Verified } from "./sdk_sources.ts";

/** Whether the tool's function ran: always, never, or depending on timing. */
export type ToolRan = "yes" | "no" | "depends";

/** What the model is sent after the tool step. */
export type Next = "tool_output" | "reject_message" | "nothing";

/** One SDK's behaviour for one row, as machine fields. */
export interface Behaviour {
  /** The SDK's own name for the setting or behaviour. */
  readonly name: string;
  /** Whether the model was called (tokens spent) before the run ended. */
  readonly modelCalled: boolean;
  /** Whether the tool's function ran. */
  readonly toolRan: ToolRan;
  /** What the model is sent next. */
  readonly next: Next;
  /** Whether the run goes on. */
  readonly continues: boolean;
  /** The error class that ends the run, or `null`. */
  readonly error: string | null;
  /** The class the error arrives wrapped in, when it is wrapped. */
  readonly wrappedIn?: string;
  /** How this was verified. */
  readonly verified: Verified;
  /** What the fields cannot say. */
  readonly note?: Text;
}

/** One guardrail behaviour, in both SDKs. */
export interface SdkRow {
  /** A short id, for the topic mapping and the conformance test. */
  readonly id: string;
  /** Which guardrail and which behaviour. */
  readonly what: Text;
  /** The Python SDK, read at `SDK_PY_COMMIT`. */
  readonly python: Behaviour;
  /** The JS SDK, run at `SDK_JS_VERSION`. */
  readonly js: Behaviour;
  /** What guardlab's ledger holds in the matching lab scenario. */
  readonly ledger: Text;
}

const TE = CITED.toolExecution;
const RUN = CITED.run;
const LOOP = CITED.runLoop;
const DOCS = CITED.guardrailDocs;

/** What a behaviour does: the fields both SDKs share, unless one says otherwise. */
type Outcome = Pick<
  Behaviour,
  "modelCalled" | "toolRan" | "next" | "continues" | "error"
>;

/** One SDK's own part of a row: its name, how it was verified, where it differs. */
type Own = Omit<Behaviour, keyof Outcome> & Partial<Outcome>;

/** A row's two behaviours: `outcome` in both SDKs, with each one's own part. */
function inBoth(outcome: Outcome, python: Own, js: Own): {
  python: Behaviour;
  js: Behaviour;
} {
  return { python: { ...outcome, ...python }, js: { ...outcome, ...js } };
}

/** The guardrail let the call through: the tool ran, the model got its output. */
const ALLOWED: Outcome = {
  modelCalled: true,
  toolRan: "yes",
  next: "tool_output",
  continues: true,
  error: null,
};

/** The guardrail answered the model with its reject message instead. */
const REJECTED: Outcome = {
  modelCalled: true,
  toolRan: "no",
  next: "reject_message",
  continues: true,
  error: null,
};

/** The tripwire ended the run with `error`. */
function endedBy(error: string, toolRan: Behaviour["toolRan"]): Outcome {
  return {
    modelCalled: true,
    toolRan,
    next: "nothing",
    continues: false,
    error,
  };
}

const FINAL_OUTPUT_ONLY: Text = {
  en: "the guardrail function receives the final output; the model " +
    "receives nothing from it",
  zh: "护栏函数收到最终输出；模型从它那里什么也收不到",
};

const SEES_TOOL_OUTPUT: Text = {
  en: "here the output guardrail does see the tool's output, after the " +
    "tool ran",
  zh: "这时输出护栏确实看到工具的输出，而工具已经执行",
};

const SAME_MESSAGE: Text = {
  en: "the model is sent the reject message as the tool's output",
  zh: "模型收到的是拒绝消息，作为工具的输出",
};

const DRAFT_COMMITTED: Text = {
  en: "the draft is committed",
  zh: "草稿已提交",
};
const NO_DRAFT: Text = {
  en: "no draft from this call",
  zh: "这次调用没有草稿",
};
const DRAFT_STAYS: Text = {
  en: "the draft stays: the side effect already happened",
  zh: "草稿留下：副作用已经发生",
};

/** The guardrail behaviours. */
export const SDK_ROWS: readonly SdkRow[] = [
  {
    id: "tool_input_allow",
    what: {
      en: "tool input guardrail · allow",
      zh: "工具输入护栏 · allow",
    },
    ...inBoth(
      ALLOWED,
      { name: "allow", verified: readAt(`${TE}:2012-2020`, `${TE}:2694-2725`) },
      { name: "allow", verified: RAN },
    ),
    ledger: DRAFT_COMMITTED,
  },
  {
    id: "tool_input_reject",
    what: {
      en: "tool input guardrail · reject_content / rejectContent",
      zh: "工具输入护栏 · reject_content / rejectContent",
    },
    ...inBoth(
      REJECTED,
      {
        name: "reject_content",
        verified: readAt(`${TE}:2012-2020`, `${TE}:2722-2723`),
        note: SAME_MESSAGE,
      },
      { name: "rejectContent", verified: RAN, note: SAME_MESSAGE },
    ),
    ledger: NO_DRAFT,
  },
  {
    id: "tool_input_reject_schema",
    what: {
      en: "tool input guardrail · rejectContent, the tool has an output " +
        "schema and no error function",
      zh: "工具输入护栏 · rejectContent，工具带输出 schema 且没有错误函数",
    },
    ...inBoth(
      REJECTED,
      {
        name: "reject_content",
        verified: readAt(`${TE}:2018-2020`),
        note: {
          en: "the rejection bypasses the output schema",
          zh: "拒绝消息绕过输出 schema",
        },
      },
      {
        name: "rejectContent",
        ...endedBy("Error", "no"),
        wrappedIn: "ToolCallError",
        verified: RAN,
        note: {
          en: "the reject message is thrown as an error, not sent to the " +
            "model (seen at 0.17.0, still so at 0.20.0); give the tool an " +
            "errorFunction to turn it into output",
          zh:
            "拒绝消息被当作错误抛出，而不是交给模型（0.17.0 已见，0.20.0 依旧）；" +
            "给工具配一个 errorFunction 才会变成输出",
        },
      },
    ),
    ledger: NO_DRAFT,
  },
  {
    id: "tool_input_raise",
    what: {
      en: "tool input guardrail · raise_exception / throwException",
      zh: "工具输入护栏 · raise_exception / throwException",
    },
    ...inBoth(
      endedBy("ToolInputGuardrailTripwireTriggered", "no"),
      { name: "raise_exception", verified: readAt(`${TE}:2720-2721`) },
      { name: "throwException", wrappedIn: "ToolCallError", verified: RAN },
    ),
    ledger: NO_DRAFT,
  },
  {
    id: "tool_output_allow",
    what: {
      en: "tool output guardrail · allow",
      zh: "工具输出护栏 · allow",
    },
    ...inBoth(
      ALLOWED,
      { name: "allow", verified: readAt(`${TE}:2106-2112`, `${TE}:2728-2765`) },
      { name: "allow", verified: RAN },
    ),
    ledger: DRAFT_COMMITTED,
  },
  {
    id: "tool_output_reject",
    what: {
      en: "tool output guardrail · reject_content / rejectContent",
      zh: "工具输出护栏 · reject_content / rejectContent",
    },
    ...inBoth(
      { ...REJECTED, toolRan: "yes" },
      {
        name: "reject_content",
        verified: readAt(`${TE}:2106-2112`, `${TE}:2759-2763`),
      },
      { name: "rejectContent", verified: RAN },
    ),
    ledger: DRAFT_STAYS,
  },
  {
    id: "tool_output_raise",
    what: {
      en: "tool output guardrail · raise_exception / throwException",
      zh: "工具输出护栏 · raise_exception / throwException",
    },
    ...inBoth(
      endedBy("ToolOutputGuardrailTripwireTriggered", "yes"),
      { name: "raise_exception", verified: readAt(`${TE}:2757-2758`) },
      { name: "throwException", wrappedIn: "ToolCallError", verified: RAN },
    ),
    ledger: DRAFT_STAYS,
  },
  {
    id: "agent_input_parallel",
    what: {
      en: "Agent input guardrail · run_in_parallel=True / runInParallel: " +
        "true (the default in both), slower than the model",
      zh: "Agent 输入护栏 · run_in_parallel=True / runInParallel: true" +
        "（两者的默认），比模型慢",
    },
    ...inBoth(
      endedBy("InputGuardrailTripwireTriggered", "depends"),
      {
        name: "run_in_parallel=True",
        verified: readAt(
          `${RUN}:1627-1676`,
          `${LOOP}:2471`,
          `${LOOP}:2035-2049`,
          `${LOOP}:2324-2342`,
          `${DOCS}:36`,
        ),
        note: {
          en: "not streamed: the whole first turn, model and tools, runs " +
            "beside the guardrail and is cancelled when the tripwire fires, " +
            "so a tool that finished first has run; streamed: before the " +
            "tools the runner checks only a tripwire that has already fired, " +
            "and does not wait for a guardrail still running",
          zh:
            "非流式：整个第一轮（模型和工具）与护栏并行，tripwire 触发时才取消，" +
            "所以先跑完的工具已经执行；流式：执行工具前只检查已经触发的 tripwire，" +
            "不等待仍在运行的护栏",
        },
      },
      {
        name: "runInParallel: true",
        toolRan: "no",
        verified: RAN,
        note: {
          en: "streamed and not: the runner awaits the parallel guardrails " +
            "after the model's response and before the turn's tools " +
            "(dist/run.mjs:1095, 1922)",
          zh:
            "流式与非流式相同：运行器在模型响应之后、执行本轮工具之前等待并行护栏" +
            "（dist/run.mjs:1095、1922）",
        },
      },
    ),
    ledger: {
      en: "Python: a draft may already be committed; JS 0.20.0: none",
      zh: "Python：可能已经提交了草稿；JS 0.20.0：没有草稿",
    },
  },
  {
    id: "agent_input_sequential",
    what: {
      en: "Agent input guardrail · run_in_parallel=False / runInParallel: " +
        "false (blocking)",
      zh: "Agent 输入护栏 · run_in_parallel=False / runInParallel: false" +
        "（阻塞）",
    },
    ...inBoth(
      {
        ...endedBy("InputGuardrailTripwireTriggered", "no"),
        modelCalled: false,
      },
      {
        name: "run_in_parallel=False",
        verified: readAt(`${RUN}:1603-1627`, `${DOCS}:38`),
      },
      { name: "runInParallel: false", verified: RAN },
    ),
    ledger: { en: "no draft", zh: "没有草稿" },
  },
  {
    id: "agent_output",
    what: {
      en: "Agent output guardrail · on the final output only",
      zh: "Agent 输出护栏 · 只检查最终输出",
    },
    ...inBoth(
      {
        ...endedBy("OutputGuardrailTripwireTriggered", "yes"),
        next: "tool_output",
      },
      {
        name: "output_guardrails",
        verified: readAt(`${LOOP}:744-748`, `${DOCS}:42-52`),
        note: FINAL_OUTPUT_ONLY,
      },
      { name: "outputGuardrails", verified: RAN, note: FINAL_OUTPUT_ONLY },
    ),
    ledger: {
      en: "drafts from earlier tool calls stay",
      zh: "更早的工具调用写下的草稿都留下",
    },
  },
  {
    id: "agent_output_tool_final",
    what: {
      en: "Agent output guardrail · tool_use_behavior / toolUseBehavior " +
        "makes a tool's result the final output",
      zh: "Agent 输出护栏 · tool_use_behavior / toolUseBehavior 把工具结果" +
        "当作最终输出",
    },
    ...inBoth(
      endedBy("OutputGuardrailTripwireTriggered", "yes"),
      {
        name: "tool_use_behavior",
        verified: readAt(
          "src/agents/run_internal/turn_resolution.py:229-233",
          `${DOCS}:56`,
        ),
        note: SEES_TOOL_OUTPUT,
      },
      {
        name: "toolUseBehavior: 'stop_on_first_tool'",
        verified: RAN,
        note: SEES_TOOL_OUTPUT,
      },
    ),
    ledger: {
      en: "the draft stays: the tool committed it before the check",
      zh: "草稿留下：工具在检查之前已经提交",
    },
  },
];
