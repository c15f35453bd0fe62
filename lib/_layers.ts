/**
 * The layers of `lib/`, lowest first: the one statement of which way the
 * imports point. A module may import from its own layer or a lower one,
 * never from a higher one, and no import chain may come back to where it
 * started (type imports included). `tests/architecture/layers_test.ts` parses every
 * import in `lib/` and holds the code to this table; a new top-level file
 * or folder of `lib/` must be placed here first.
 *
 * And each area's public files ({@linkcode PUBLIC_FILES}): which of its
 * files another area may import, held by
 * `tests/architecture/boundaries_test.ts`.
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
    role: "traces: a timeline as OpenTelemetry's OTLP JSON, its ids and " +
      "W3C trace context, the attribute names it follows",
    members: ["otlp"],
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

/**
 * Each area's public files: the files of `lib/AREA/` that a file of another
 * area (or `lib/mod.ts`) may import, as a package's `exports` lists its
 * entry points in denoland/std. An area's `mod.ts`, its door, is public
 * without being listed. Every other file is the area's own, with a `_` or
 * without (a file without one may serve the area's other folders, as
 * `cli/places.ts` serves `cli/commands/`), until it is listed here.
 *
 * Not "only through `mod.ts`": a door brings its whole area, and measured
 * that way a command would load 2.4 times the modules it needs (issue 44),
 * against the lazy command registry. A file here is one that other areas
 * name by design; a new one is a decision, made here.
 */
export const PUBLIC_FILES: Readonly<Record<string, readonly string[]>> = {
  base: [
    "errors.ts",
    "exit_hooks.ts",
    "fold.ts",
    "i18n.ts",
    "json.ts",
    "jsonl.ts",
    "lines.ts",
    "markup.ts",
    "messages.ts",
    "node_builtin.ts",
    "path.ts",
    "plain.ts",
    "secrets.ts",
    "terminal.ts",
    "text_error.ts",
  ],
  otlp: ["ids.ts", "semconv.ts", "trace.ts"],
  sandbox: [
    "grant.ts",
    "new_file.ts",
    "plain_file.ts",
    "private_file.ts",
    "read_bounded.ts",
    "safe_fs.ts",
    "sandbox.ts",
    "scratch.ts",
  ],
  wire: [
    "channel.ts",
    "http.ts",
    "http_api.ts",
    "limits.ts",
    "line_transport.ts",
    "message.ts",
    "server_process.ts",
  ],
  store: ["db.ts", "wire.ts"],
  timing: [
    "args.ts",
    "attempt.ts",
    "call_schema.ts",
    "compensation.ts",
    "errors.ts",
    "lab.ts",
    "ledger.ts",
    "messages.ts",
    "reconcile.ts",
    "stages.ts",
  ],
  policy: ["policy.ts"],
  experiments: [
    "article_demo.ts",
    "article_scenarios.ts",
    "demo.ts",
    "lesson_scenarios.ts",
    "policy_scenarios.ts",
    "scenario.ts",
    "script.ts",
    "timing_scenarios.ts",
    "verify.ts",
  ],
  mcp: ["faults.ts", "host_config.ts", "server.ts"],
  accept: [
    "agent_hook_source.ts",
    "agent_messages.ts",
    "agent_record.ts",
    "baseline.ts",
    "cases.ts",
    "draft.ts",
    "example_oracle.ts",
    "faults.ts",
    "files.ts",
    "host.ts",
    "host_judge.ts",
    "host_messages.ts",
    "host_otlp.ts",
    "host_relay.ts",
    "host_report.ts",
    "http_oracle.ts",
    "judge.ts",
    "limits.ts",
    "messages.ts",
    "oracle.ts",
    "proxy.ts",
    "record.ts",
    "run.ts",
    "session.ts",
    "start.ts",
    "views/accept_junit.ts",
    "views/accept_otlp.ts",
    "views/accept_view.ts",
    "views/agent_view.ts",
    "views/host_view.ts",
    "views/proxy_otlp.ts",
    "views/proxy_view.ts",
  ],
  content: ["explain.ts", "lessons.ts", "sdk_lens.ts", "sdk_sources.ts"],
  exercises: [
    "class_grade.ts",
    "course.ts",
    "hand_in_files.ts",
    "messages.ts",
    "student.ts",
  ],
  views: [
    "compensation_view.ts",
    "grade_table.ts",
    "ledger_history.ts",
    "ledger_otlp.ts",
    "ledger_rows.ts",
    "ledger_timeline.ts",
    "lms_results.ts",
    "policy_demo.ts",
    "policy_view.ts",
    "shown_history.ts",
    "svg.ts",
    "timeline.ts",
    "view_bound.ts",
  ],
  cli: [],
};
