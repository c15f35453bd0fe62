/**
 * What makes a call a retry, stated once for every lane that draws one
 * (the client's lane of `proxy show`, the agent's lane of
 * `proxy show --agent`; chapter 9 says the same in words):
 *
 * A call is a retry of the last earlier call of the same tool with the same key:
 * the business key at the oracle's pointer, where the oracle names the tool
 * and the arguments carry a key there, else the same arguments. Other
 * arguments with the same key are still a retry (the same job sent again,
 * changed); where no key is named, only the same arguments make one. A lane
 * counts the calls it saw: the agent's lane counts a call its tool input
 * guardrail refused (the agent asked again), the client's lane only the
 * calls that reached the proxy. A call that began while the earlier one
 * was still open went beside it, and is no retry.
 *
 * @module
 */
import { canonicalJson } from "../base/json.ts";
import { type Oracle, pointerGet } from "./oracle.ts";

/**
 * The key two calls share when one retries the other: the tool and its
 * business key (by the oracle), else the tool and its arguments as
 * canonical JSON; null when the arguments are unknown (a message too big
 * to keep), so the call is nobody's retry and retries nothing.
 */
export function retryKey(
  oracle: Oracle | undefined,
  tool: string,
  args: unknown,
): string | null {
  if (args === undefined) return null;
  const spec = oracle?.tools.find((t) => t.tool === tool);
  if (spec !== undefined) {
    const found = pointerGet(args, spec.key);
    if (
      found.found &&
      (typeof found.value === "string" || typeof found.value === "number")
    ) return `${tool}\u0000key:${found.value}`;
  }
  try {
    return `${tool}\u0000args:${canonicalJson(args)}`;
  } catch {
    return null;
  }
}
