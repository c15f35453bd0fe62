/**
 * An agent's calls matched with the calls guardlab proxy saw: each agent
 * call that left the agent takes the first unmatched `tools/call` of the
 * proxy's record with the same tool and arguments, in order; the proxy's
 * call number is then the call's name on every lane.
 *
 * @module
 */
import { isPlainRecord } from "../base/json.ts";
import {
  type AgentCall,
  type AgentStory,
  argumentsKey,
  leftTheAgent,
} from "./agent_record.ts";
import type { RecordLine } from "./record.ts";

/** One `tools/call` the proxy forwarded: its number, tool and arguments. */
export interface ProxyCall {
  /** The proxy's call number. */
  readonly call: number;
  /** The tool. */
  readonly tool: string;
  /** The arguments' canonical JSON, when the record kept the message. */
  readonly args: string | null;
}

/** The `tools/call` requests of a proxy record, in order. */
export function proxyCalls(lines: readonly RecordLine[]): ProxyCall[] {
  const out: ProxyCall[] = [];
  for (const line of lines) {
    if (
      line.kind !== "msg" || line.dir !== "client>server" ||
      line.action !== "forwarded" || line.call === undefined
    ) continue;
    const msg = isPlainRecord(line.msg) ? line.msg : undefined;
    if (msg?.method !== "tools/call") continue;
    const params = isPlainRecord(msg.params) ? msg.params : undefined;
    out.push({
      call: line.call,
      tool: line.tool ?? "",
      args: params === undefined ? null : argumentsKey(params.arguments ?? {}),
    });
  }
  return out;
}

/**
 * Match the agent's calls that left it with the proxy's calls: each takes
 * the first unmatched proxy call of the same tool with the same arguments
 * (or, when either side did not keep them, the same tool), in order. Sets
 * `proxyCall` on each call matched.
 */
export function matchCalls(
  story: AgentStory,
  calls: readonly ProxyCall[],
): void {
  const watched = story.calls.some((c) => c.mcp !== null);
  type Queue = { items: ProxyCall[]; at: number };
  const queue = (map: Map<string, Queue>, key: string) => {
    let q = map.get(key);
    if (q === undefined) map.set(key, q = { items: [], at: 0 });
    return q;
  };
  const sameArgs = new Map<string, Queue>();
  const sameTool = new Map<string, Queue>();
  const taken = new Set<number>();
  for (const p of calls) {
    queue(sameArgs, `${p.tool}\u0000${p.args}`).items.push(p);
    queue(sameTool, p.tool).items.push(p);
  }
  const next = (q: Queue | undefined) => {
    while (q !== undefined && q.at < q.items.length) {
      const p = q.items[q.at++];
      if (!taken.has(p.call)) return p;
    }
    return undefined;
  };
  const leaving = story.calls.filter((c) => leftTheAgent(c, watched))
    .sort((a, b) => sentAt(a) - sentAt(b));
  for (const call of leaving) {
    const tool = call.mcp?.tool ?? call.tool;
    const args = call.mcp?.args ?? call.args;
    const found = args === null
      ? next(sameTool.get(tool))
      : next(sameArgs.get(`${tool}\u0000${args}`));
    if (found === undefined) continue;
    taken.add(found.call);
    call.proxyCall = found.call;
  }
}

/** When a call went out: its MCP call, else its function span's start. */
function sentAt(call: AgentCall): number {
  return call.mcp?.t ?? call.start ?? call.guardrails[0]?.t ?? 0;
}
