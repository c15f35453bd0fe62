/**
 * The article's picture for a real agent: an `@openai/agents-core` agent
 * with a tool input guardrail and a tool output guardrail calls
 * `create_draft` on `guardlab mcp` through `guardlab proxy`, and the two
 * records (the proxy's and the agent's, written by the agent hook) are
 * drawn as one timeline. The model is a script: no key, no network, nothing
 * sent anywhere. Run it from the checkout (`deno task example:guardrails`,
 * `--lang zh` for the Chinese screens):
 *
 *     deno run -q --lock=deno.lock --frozen --allow-env --allow-run \
 *       --allow-read --allow-write=/tmp examples/guardrails_agent.ts [--lang zh]
 *
 * It plays the article's three contrasts on the real SDK:
 *
 * - the tool input guardrail refuses 4 copies: the call never reaches the
 *   proxy, so it can have no effect;
 * - the tool output guardrail refuses a forest draft after the server
 *   committed it: the draft stays, and the model is told the call failed;
 * - the proxy drops the answer to the next call (a fault), the agent's
 *   client times out, the scripted model sends the same call again, and
 *   the server reuses the draft: one effect by key.
 *
 * Then `guardlab proxy show` draws both records, and `guardlab ledger`
 * reads the ledger through a second connection. Every file is in a new
 * private temp folder, removed at the end; the servers it starts run with
 * your own rights.
 *
 * @module
 */
import type * as AgentsCore from "@openai/agents-core";
import { guardlabAgentRecord } from "../lib/accept/agent_hook.mjs";
import { launchCommand, thisInstall } from "../lib/mcp/host_config.ts";
import { functionCall, message, ScriptedModel } from "./scripted_agent.ts";

/**
 * How long the agent's client waits for an answer: long enough for every
 * answer on a loaded machine, so only the dropped one ever meets it.
 */
export const TIMEOUT_MS = 5000;

/** The oracle of `guardlab mcp`'s `create_draft`: the job is the key, `ledger` reads it. */
export const ORACLE = {
  tools: [{
    tool: "create_draft",
    call: { job: "JOB-{n:3}", topic: "river", copies: 2 },
    key: "/job",
    read: { tool: "ledger", arguments: { job: "{key}" } },
    count: { json: "/drafts", match: { job: "{key}" } },
  }],
};

/** The proxy's fault: the answer to the second create_draft that reaches it is dropped. */
export const FAULTS = [{ tool: "create_draft", call: 2, drop_response: true }];

/** What the scripted model asks for, turn by turn. */
export const TURNS = [
  [functionCall(
    "create_draft",
    { job: "JOB-001", topic: "river", copies: 4 },
    "call_1",
  )],
  [functionCall(
    "create_draft",
    { job: "JOB-002", topic: "forest", copies: 2 },
    "call_2",
  )],
  [functionCall(
    "create_draft",
    { job: "JOB-003", topic: "river", copies: 2 },
    "call_3",
  )],
  // After "An error occurred ... Please try again.": the same job again.
  [functionCall(
    "create_draft",
    { job: "JOB-003", topic: "river", copies: 2 },
    "call_4",
  )],
  [message(
    "JOB-003 is drafted; JOB-001 asked for too many copies; JOB-002 waits for a review.",
  )],
];

/** The tool input guardrail: the article's batch limit, checked before the call leaves. */
export function batchLimit(sdk: typeof AgentsCore) {
  return sdk.defineToolInputGuardrail({
    name: "batch_limit",
    run: ({ toolCall }) => {
      const args = JSON.parse(toolCall.arguments || "{}");
      return Promise.resolve(
        typeof args.copies === "number" && args.copies > 3
          ? sdk.ToolGuardrailFunctionOutputFactory.rejectContent(
            "refused: at most 3 copies per call",
          )
          : sdk.ToolGuardrailFunctionOutputFactory.allow(),
      );
    },
  });
}

/**
 * The tool output guardrail: a forest draft needs a review before the
 * model may use it. The rule looks only at the arguments, so it could have
 * been an input guardrail; placed here, it runs after the server's commit.
 */
export function forestReview(sdk: typeof AgentsCore) {
  return sdk.defineToolOutputGuardrail({
    name: "forest_review",
    run: ({ toolCall }) => {
      const args = JSON.parse(toolCall.arguments || "{}");
      return Promise.resolve(
        args.topic === "forest"
          ? sdk.ToolGuardrailFunctionOutputFactory.rejectContent(
            "refused: a forest draft needs a review first",
          )
          : sdk.ToolGuardrailFunctionOutputFactory.allow(),
      );
    },
  });
}

/**
 * Run guardlab with `args` in `folder` (the student grant: it only reads
 * files there); its output.
 */
async function guardlab(folder: string, args: string[]): Promise<string> {
  const { command, args: flags } = launchCommand(thisInstall());
  const out = await new Deno.Command(command, {
    args: [...flags, ...args],
    cwd: folder,
    stdin: "null",
    stdout: "piped",
    stderr: "inherit",
  }).output();
  return new TextDecoder().decode(out.stdout);
}

/** The agent's session through the proxy; the files it leaves in `folder`. */
export async function playSession(
  sdk: typeof AgentsCore,
  folder: string,
): Promise<{ record: string; agent: string; oracle: string; ledger: string }> {
  const oracle = `${folder}/oracle.json`;
  const faults = `${folder}/faults.jsonl`;
  const ledger = `${folder}/lab.sqlite`;
  await Deno.writeTextFile(oracle, JSON.stringify(ORACLE));
  await Deno.writeTextFile(
    faults,
    FAULTS.map((f) => JSON.stringify(f)).join("\n") + "\n",
  );
  // The agent hook: the two lines an engineer adds to an agent.
  const hook = await guardlabAgentRecord(sdk, `${folder}/agent.jsonl`, {
    replaceProcessors: true,
  });
  const engineer = launchCommand(thisInstall(), "guardlab-engineer");
  const server = launchCommand(thisInstall());
  const mcp = hook.watch(
    new sdk.MCPServerStdio({
      name: "guardlab",
      command: engineer.command,
      args: [
        ...engineer.args,
        "proxy",
        "--record",
        `${folder}/session.jsonl`,
        "--faults",
        faults,
        "--oracle",
        oracle,
        "--read-before-delivery",
        "--",
        server.command,
        ...server.args,
        "mcp",
        "--ledger-file",
        ledger,
      ],
      timeout: TIMEOUT_MS,
      // Starting the proxy and the server may take a while on a busy machine.
      clientSessionTimeoutSeconds: 60,
      cacheToolsList: true,
      toolInputGuardrails: [batchLimit(sdk)],
      toolOutputGuardrails: [forestReview(sdk)],
    }),
  );
  const model = new ScriptedModel(sdk, TURNS);
  try {
    await mcp.connect();
    await proxyNoted(folder, "notifications/initialized");
    const agent = new sdk.Agent({
      name: "clerk",
      instructions: "Draft the print jobs you are asked for.",
      // deno-lint-ignore no-explicit-any
      model: model as any,
      mcpServers: [mcp],
    });
    await new sdk.Runner().run(agent, "Draft JOB-001, JOB-002 and JOB-003.");
  } finally {
    await mcp.close();
    hook.close();
  }
  return {
    record: lastRecord(folder),
    agent: hook.path,
    oracle,
    ledger,
  };
}

/**
 * The SDK's client first probes the server and starts it again: the
 * session is in the last record the proxy wrote in `folder`.
 */
function lastRecord(folder: string): string {
  const records = [...Deno.readDirSync(folder)].map((e) => e.name)
    .filter((n) => /^session(-\d+)?\.jsonl$/.test(n))
    .sort((a, b) => number(a) - number(b));
  return `${folder}/${records.at(-1)}`;
}

/**
 * Wait until the proxy's record notes the client's `method`. The client has
 * sent notifications/initialized when connect() resolves, but the proxy
 * notes it when it reads it: on a busy machine, after the agent's first
 * model turn began, and the screen's first rows would change places from
 * run to run. Waits for the record to change, never for a time; gives up
 * after 60 s, as the session's start does.
 */
async function proxyNoted(folder: string, method: string): Promise<void> {
  const needle = `"method":${JSON.stringify(method)}`;
  // No record yet is not noted yet: the watch below sees it made.
  const noted = () => {
    try {
      return Deno.readTextFileSync(lastRecord(folder)).includes(needle);
    } catch (error) {
      if (error instanceof Deno.errors.NotFound) return false;
      throw error;
    }
  };
  if (noted()) return;
  const watcher = Deno.watchFs(folder, { recursive: false });
  const bound = setTimeout(() => watcher.close(), 60_000);
  try {
    // Checked after the watch began: a write before it is seen here.
    if (noted()) return;
    for await (const _ of watcher) if (noted()) return;
    throw new Error(`the proxy's record never noted ${method} within 60 s`);
  } finally {
    clearTimeout(bound);
    try {
      watcher.close();
    } catch {
      // closed by the bound
    }
  }
}

function number(name: string): number {
  return Number(/-(\d+)\.jsonl$/.exec(name)?.[1] ?? 1);
}

if (import.meta.main) {
  const lang = Deno.args.includes("--lang") &&
      Deno.args[Deno.args.indexOf("--lang") + 1] === "zh"
    ? "zh"
    : "en";
  const sdk = await import("@openai/agents-core");
  const folder = await Deno.makeTempDir({ prefix: "guardlab-guardrails-" });
  await Deno.chmod(folder, 0o700);
  try {
    const files = await playSession(sdk, folder);
    const name = (path: string) => path.slice(folder.length + 1);
    const language = lang === "zh" ? ["--lang", "zh"] : [];
    // The two commands an engineer runs after a session, in its folder.
    const show = [
      "proxy",
      "show",
      name(files.record),
      "--agent",
      name(files.agent),
      "--oracle",
      name(files.oracle),
      ...language,
    ];
    const ledger = ["ledger", "--ledger-file", name(files.ledger), ...language];
    for (const args of [show, ledger]) {
      console.log(`$ guardlab ${args.join(" ")}`);
      console.log((await guardlab(folder, args)).trimEnd());
      console.log("");
    }
  } finally {
    await Deno.remove(folder, { recursive: true });
  }
}
