/**
 * The JSON-RPC messages of an MCP session as a test client writes them by
 * hand, built from the protocol version guardlab itself asks for (one
 * place: `PROTOCOL_VERSION`), so a test never states its own.
 */
import { PROTOCOL_VERSION } from "../../lib/accept/session.ts";

export { PROTOCOL_VERSION };

/** A JSON-RPC request or notification, as a test writes it. */
export type Message = {
  readonly jsonrpc: "2.0";
  readonly id?: number | string;
  readonly method: string;
  readonly params?: unknown;
};

/** The `initialize` request's params, from a client named `name`. */
export function initializeParams(
  name = "test",
  version = "1",
): {
  protocolVersion: string;
  capabilities: Record<string, never>;
  clientInfo: { name: string; version: string };
} {
  return {
    protocolVersion: PROTOCOL_VERSION,
    capabilities: {},
    clientInfo: { name, version },
  };
}

/** The `initialize` request with `id`, from a client named `name`. */
export function initialize(
  id: number | string = 1,
  name = "test",
  version = "1",
): Message {
  return {
    jsonrpc: "2.0",
    id,
    method: "initialize",
    params: initializeParams(name, version),
  };
}

/** The `notifications/initialized` a client sends once it has the answer. */
export const INITIALIZED: Message = {
  jsonrpc: "2.0",
  method: "notifications/initialized",
};

/** A `tools/call` request with `id`: tool `name` with `args`. */
export function callTool(
  id: number | string,
  name: string,
  args: unknown,
): Message {
  return {
    jsonrpc: "2.0",
    id,
    method: "tools/call",
    params: { name, arguments: args },
  };
}
