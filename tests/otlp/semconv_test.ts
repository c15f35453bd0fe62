/**
 * The OpenTelemetry names a guardlab trace carries are the ones
 * `@opentelemetry/semantic-conventions` 1.41.1 defines (import_map.json
 * pins that version): each checked against the package's own constant,
 * so a typo, or a pin moved to a release that renamed one, fails here.
 */
import assert from "node:assert/strict";
import importMap from "../../import_map.json" with { type: "json" };
import { OTEL, OTEL_VALUE, SEMCONV_VERSION } from "../../lib/otlp/semconv.ts";
import {
  semconvIncubating as inc,
  semconvStable as stable,
} from "../_helpers/deps.ts";

Deno.test("otlp: the version stated is the package's pinned version", () => {
  assert.equal(
    importMap.imports["@opentelemetry/semantic-conventions"],
    `npm:@opentelemetry/semantic-conventions@${SEMCONV_VERSION}`,
  );
});

Deno.test("otlp: every OpenTelemetry name is the package's constant", () => {
  assert.deepEqual(OTEL, {
    serviceName: stable.ATTR_SERVICE_NAME,
    serviceVersion: stable.ATTR_SERVICE_VERSION,
    mcpMethodName: inc.ATTR_MCP_METHOD_NAME,
    mcpSessionId: inc.ATTR_MCP_SESSION_ID,
    mcpProtocolVersion: inc.ATTR_MCP_PROTOCOL_VERSION,
    genAiToolName: inc.ATTR_GEN_AI_TOOL_NAME,
    genAiOperationName: inc.ATTR_GEN_AI_OPERATION_NAME,
    genAiToolCallId: inc.ATTR_GEN_AI_TOOL_CALL_ID,
    genAiAgentName: inc.ATTR_GEN_AI_AGENT_NAME,
    jsonrpcRequestId: inc.ATTR_JSONRPC_REQUEST_ID,
    errorType: stable.ATTR_ERROR_TYPE,
    networkTransport: stable.ATTR_NETWORK_TRANSPORT,
    networkProtocolName: stable.ATTR_NETWORK_PROTOCOL_NAME,
    genAiResponseId: inc.ATTR_GEN_AI_RESPONSE_ID,
    genAiResponseFinishReasons: inc.ATTR_GEN_AI_RESPONSE_FINISH_REASONS,
    genAiRequestStream: inc.ATTR_GEN_AI_REQUEST_STREAM,
    genAiToolCallResult: inc.ATTR_GEN_AI_TOOL_CALL_RESULT,
    processExitCode: inc.ATTR_PROCESS_EXIT_CODE,
  });
  assert.deepEqual(OTEL_VALUE, {
    toolsCall: inc.MCP_METHOD_NAME_VALUE_TOOLS_CALL,
    executeTool: inc.GEN_AI_OPERATION_NAME_VALUE_EXECUTE_TOOL,
    chat: inc.GEN_AI_OPERATION_NAME_VALUE_CHAT,
    notificationsCancelled: inc.MCP_METHOD_NAME_VALUE_NOTIFICATIONS_CANCELLED,
    pipe: stable.NETWORK_TRANSPORT_VALUE_PIPE,
    tcp: stable.NETWORK_TRANSPORT_VALUE_TCP,
    // The MCP page: network.protocol.name "http" over Streamable HTTP.
    http: "http",
    // The MCP page's note on error.type: "When CallToolResult is returned
    // with isError set to true, this attribute SHOULD be set to tool_error".
    toolError: "tool_error",
    other: stable.ERROR_TYPE_VALUE_OTHER,
  });
});
