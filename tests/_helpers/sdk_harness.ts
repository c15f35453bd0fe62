/**
 * The conformance harness: the real `@openai/agents-core` driven by a
 * scripted model, with a tool whose `execute` runs guardlab's `Lab` on a
 * scratch ledger. Nothing here reaches a network or needs a key: the model is
 * a script, tracing is off, and the ledger lives in a fresh temp folder.
 *
 * A run is described by what it observably did, in the lens's own terms
 * ({@linkcode Observed}), so a test can compare it with the lens's machine
 * fields.
 *
 * @module
 */
import { join } from "node:path";
import { DatabaseSync } from "node:sqlite";
import { Lab } from "../../lib/mod.ts";
import { loadAgentsCore } from "./deps.ts";
import { lastToolResult as lastResult } from "../../examples/scripted_agent.ts";

/** The SDK module, as the pinned import gives it. */
export type Sdk = Awaited<ReturnType<typeof loadAgentsCore>>;

/**
 * Why the SDK cannot be loaded here, or `null` when it can. Evaluating the
 * package reads all of `process.env`, so without the whole env permission
 * its import throws; a test reports itself ignored with this reason instead.
 */
export async function sdkUnavailable(): Promise<string | null> {
  const env = await Deno.permissions.query({ name: "env" });
  return env.state === "granted"
    ? null
    : "needs --allow-env: @openai/agents-core reads all of process.env " +
      "when it is imported (deno task test grants it)";
}

let loaded: Sdk | undefined;

/** The SDK, loaded once, with tracing off (no exporter, no network). */
export async function sdk(): Promise<Sdk> {
  if (loaded === undefined) {
    loaded = await loadAgentsCore();
    loaded.setTracingDisabled(true);
  }
  return loaded;
}

// The scripted model is the documented example's (examples/scripted_agent.ts).
export {
  functionCall,
  message,
  ScriptedModel,
  type Turn,
} from "../../examples/scripted_agent.ts";

/** A scratch ledger in a fresh temp folder, read through a second connection. */
export class ScratchLedger {
  /** The folder holding the ledger. */
  readonly folder: string;
  /** The ledger file. */
  readonly path: string;

  private constructor(folder: string) {
    this.folder = folder;
    this.path = join(folder, "conformance.sqlite");
  }

  /** A new, empty scratch folder. */
  static async create(): Promise<ScratchLedger> {
    return new ScratchLedger(
      await Deno.makeTempDir({ prefix: "guardlab-sdk-" }),
    );
  }

  /** What a second connection sees: drafts and receipt statuses. */
  observe(): { drafts: string[]; receipts: string[] } {
    try {
      Deno.statSync(this.path);
    } catch {
      return { drafts: [], receipts: [] };
    }
    const observer = new DatabaseSync(this.path, { readOnly: true });
    try {
      const drafts = observer.prepare("SELECT job FROM drafts ORDER BY job")
        .all().map((r) => String(r.job));
      const receipts = observer.prepare(
        "SELECT status FROM receipts ORDER BY rowid",
      ).all().map((r) => String(r.status));
      return { drafts, receipts };
    } finally {
      observer.close();
    }
  }

  /** Remove the folder. */
  async remove(): Promise<void> {
    await Deno.remove(this.folder, { recursive: true });
  }
}

/**
 * The text of the last tool result in a model request, or `null` when the
 * request carries none: what the model received after the tool step.
 */
export function lastToolResult(input: unknown): string | null {
  return lastResult(input)?.text ?? null;
}

/** The name of the error class that ended a run, or `null`. */
export function errorClass(error: unknown): string | null {
  if (error === undefined || error === null) return null;
  return error instanceof Error ? error.constructor.name : typeof error;
}

/** A promise that settles after `ms` milliseconds. */
export function delay(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/**
 * The tool's business step: guardlab's `Lab` on the scratch ledger. It logs
 * `tool:start` and, once the lab returns, `tool:<status>` (after the commit
 * point when the status is accepted).
 */
export async function runLab(
  ledger: ScratchLedger,
  args: unknown,
  log: string[],
): Promise<string> {
  log.push("tool:start");
  const lab = Lab.open(ledger.path);
  try {
    const result = await lab.run(args);
    log.push(`tool:${result.status}`);
    return result.released === null
      ? `status ${result.status}`
      : `${result.status}: ${result.released.text}`;
  } finally {
    lab.close();
  }
}

/** How a run ended: its final output, or what it threw, and its pauses. */
export interface RunEnd {
  /** The final output, when the run finished. */
  finalOutput: unknown;
  /** What ended the run, when something did. */
  error: unknown;
  /** The approvals the run stopped for. */
  interruptions: unknown[];
  /** The run state, to approve and resume from. */
  state: unknown;
}

/**
 * Run `agent` on `input` (a prompt, or a state to resume), streamed or not,
 * and return how it ended instead of throwing.
 */
export async function runAgent(
  api: Sdk,
  // deno-lint-ignore no-explicit-any
  agent: any,
  input: unknown,
  stream: boolean,
  runner: InstanceType<Sdk["Runner"]> = new api.Runner({
    tracingDisabled: true,
  }),
): Promise<RunEnd> {
  // deno-lint-ignore no-explicit-any
  const run = runner.run.bind(runner) as any;
  try {
    if (stream) {
      const result = await run(agent, input, { stream: true });
      for await (const _event of result) { /* drain */ }
      await result.completed;
      if (result.error) throw result.error;
      return {
        finalOutput: result.finalOutput,
        error: undefined,
        interruptions: result.interruptions ?? [],
        state: result.state,
      };
    }
    const result = await run(agent, input);
    return {
      finalOutput: result.finalOutput,
      error: undefined,
      interruptions: result.interruptions ?? [],
      state: result.state,
    };
  } catch (error) {
    return { finalOutput: undefined, error, interruptions: [], state: null };
  }
}
