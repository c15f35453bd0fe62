/**
 * The oracle the example servers are judged with: their write tool
 * `put_note`, keyed by `id`, counted by `get_notes`. Kept apart from the
 * servers themselves, which load the MCP SDK.
 *
 * @module
 */
import type { Oracle } from "./oracle.ts";

/** The oracle every example server is judged with. */
export const EXAMPLE_ORACLE: Oracle = {
  tools: [{
    tool: "put_note",
    call: { id: "note-{run}-{n:3}", text: "hello {run}" },
    key: "/id",
    read: { tool: "get_notes", arguments: { id: "{key}" } },
    count: { json: "/notes", match: { id: "{key}" } },
    bad_call: { id: "note-{run}-{n:3}", text: "" },
    other_call: { id: "note-{run}-{n:3}", text: "other {run}" },
    other_count: {
      json: "/notes",
      match: { id: "{key}", text: "other {run}" },
    },
  }],
};
