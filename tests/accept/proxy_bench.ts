/**
 * What `guardlab proxy` adds to a round trip: one `tools/call` to an echo-
 * fast server (the fixture's read tool), spoken to directly over its pipes,
 * against the same call through `guardlab proxy` (under the engineers'
 * grant, recording every message) in front of the same server, in one run.
 * The goal is at most 1.5× direct. Run with `deno task bench` (needs
 * --allow-run and --allow-env; ignored without them).
 */
import { spawnChannel } from "../../lib/accept/channel.ts";
import { Session } from "../../lib/accept/session.ts";
import {
  CAN_START,
  engineerCommand,
  fixtureCommand,
  ROOT,
} from "../_helpers/accept_helpers.ts";

async function open(command: string[]): Promise<Session> {
  const [program, ...args] = command;
  return await Session.open(spawnChannel(program, args), 60_000);
}

let direct: Session | undefined;
let proxied: Session | undefined;
let folder = "";
if (CAN_START) {
  folder = Deno.makeTempDirSync({ prefix: "gl-proxy-bench-" });
  Deno.chmodSync(folder, 0o700);
  direct = await open(fixtureCommand("correct"));
  const { command, args } = engineerCommand([
    "proxy",
    "--record",
    `${folder}/bench.jsonl`,
    "--",
    ...fixtureCommand("correct"),
  ]);
  // The proxy is started from the repository, as deno task would.
  Deno.chdir(ROOT);
  proxied = await open([command, ...args]);
  globalThis.addEventListener("unload", () => {
    direct?.close();
    proxied?.close();
    Deno.removeSync(folder, { recursive: true });
  });
}

async function roundTrip(session: Session): Promise<void> {
  session.beginCase();
  const answer = await session.own("get_notes", { id: "bench" }, "read");
  if (answer.outcome !== "success") throw new Error(answer.outcome);
}

Deno.bench({
  name: "tools/call round trip, direct to the server",
  group: "proxy",
  baseline: true,
  ignore: !CAN_START,
  async fn() {
    await roundTrip(direct!);
  },
});

Deno.bench({
  name: "tools/call round trip, through guardlab proxy (recording)",
  group: "proxy",
  ignore: !CAN_START,
  async fn() {
    await roundTrip(proxied!);
  },
});
