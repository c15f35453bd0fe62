/**
 * The layers of `lib/`, lowest first: the one statement of which way the
 * imports point. A module may import from its own layer or a lower one,
 * never from a higher one, and no import chain may come back to where it
 * started (type imports included). `tests/architecture/layers_test.ts` parses every
 * import in `lib/` and holds the code to this table; a new top-level file
 * or folder of `lib/` must be placed here first.
 *
 * Internal: not part of the public API (`mod.ts` is the only door).
 *
 * @module
 */

/** One layer: top-level files and folders of `lib/`, and what it holds. */
export interface Layer {
  /** What the layer is for. */
  readonly role: string;
  /** Its entries: a file (`errors.ts`) or a folder (`timing`) under `lib/`. */
  readonly members: readonly string[];
}

/** The layers of `lib/`, lowest first. */
export const LAYERS: readonly Layer[] = [
  {
    role: "text and types: the Text type and the one language picker, " +
      "the Chinese punctuation rule, values in words, terminal width, " +
      "bounded lines of a byte stream, typed errors",
    members: ["_layers.ts", "base"],
  },
  {
    role: "sandbox: the private folder and link-safe file access",
    members: ["sandbox"],
  },
  {
    role: "wire: JSON-RPC 2.0 for both ends, one message parser under " +
      "the stdio server, stdio client and HTTP client transports, every " +
      "message bounded; the server processes guardlab starts",
    members: ["wire"],
  },
  {
    role: "store: SQLite opened in one place, the wire format",
    members: ["store"],
  },
  {
    role: "labs: the timing lab and the policy lab",
    members: ["timing", "policy"],
  },
  {
    role: "drivers: what runs the labs, scenarios and scripts " +
      "(experiments), the MCP server (mcp), and the acceptance test and " +
      "proxy run against any MCP server (accept)",
    members: ["experiments", "mcp", "accept"],
  },
  {
    role: "content: the teaching texts and the exercises",
    members: ["content", "exercises"],
  },
  { role: "views: renderers of timelines, lanes and SVG", members: ["views"] },
  { role: "the command line", members: ["cli"] },
  { role: "the public API's door", members: ["mod.ts"] },
];
