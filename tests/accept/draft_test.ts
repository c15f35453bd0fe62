/**
 * `accept init`'s draft: what it writes for a server's tool list (the
 * expected entries written by hand, from the schemas), the guesses marked
 * and refused until confirmed, and a hostile server's schema: nesting,
 * `$ref` cycles, size, a pattern that backtracks for ever, names that are
 * prototype properties, invisible characters, `{key}` in a default.
 */
import assert from "node:assert/strict";
import { draftOracle, NothingToDraft } from "../../lib/accept/draft.ts";
import { BadOracle, parseOracle } from "../../lib/accept/oracle.ts";
import { MAX_ORACLE_TOOLS } from "../../lib/accept/limits.ts";

const NOTE = {
  type: "object",
  properties: { id: { type: "string" }, text: { type: "string" } },
  required: ["id", "text"],
};
/** The fixture server's list (tests/accept/fixture_server.ts). */
const NOTES = [
  { name: "put_note", inputSchema: NOTE, annotations: { readOnlyHint: false } },
  {
    name: "get_notes",
    inputSchema: {
      type: "object",
      properties: { id: { type: "string" } },
      required: ["id"],
    },
    outputSchema: {
      type: "object",
      properties: { notes: { type: "array", items: NOTE } },
    },
    annotations: { readOnlyHint: true },
  },
];

const entriesOf = (listed: unknown[]) =>
  JSON.parse(draftOracle(listed, "en").text).tools;

Deno.test("draft: the fixture's put_note, every field as written by hand", () => {
  const draft = draftOracle(NOTES, "en");
  assert.deepEqual(draft.drafted, ["put_note"]);
  assert.deepEqual(draft.readOnly, ["get_notes"]);
  assert.deepEqual(JSON.parse(draft.text), {
    tools: [{
      tool: "put_note",
      guesses: {
        key: "/id: a required string named like an id, key, name or path",
        read: "get_notes takes the key as id",
        count:
          "the items of /notes in the read's result whose id is the key (from the read tool's output schema)",
        other_count:
          "/text changed; counts the items with the key and the other value",
      },
      call: { id: "gl-id-{run}-{n:3}", text: "gl-text-{run}-{n:3}" },
      key: "/id",
      read: { tool: "get_notes", arguments: { id: "{key}" } },
      count: { json: "/notes", match: { id: "{key}" } },
      bad_call: { id: "gl-id-{run}-{n:3}" },
      other_call: {
        id: "gl-id-{run}-{n:3}",
        text: "gl-other-text-{run}-{n:3}",
      },
      other_count: {
        json: "/notes",
        match: { id: "{key}", text: "gl-other-text-{run}-{n:3}" },
      },
    }],
  });
  // The notes are in the language asked for.
  const zh = JSON.parse(draftOracle(NOTES, "zh").text).tools[0].guesses;
  assert.equal(zh.read, "get_notes 以 id 接收业务键");
});

Deno.test("draft: accept refuses a draft until every guess is deleted, naming them; then it reads", () => {
  const { text } = draftOracle(NOTES, "en");
  assert.throws(
    () => parseOracle(text),
    (e) =>
      e instanceof BadOracle &&
      e.text.en ===
        "unconfirmed guesses of accept init: tools[0] (put_note): key, read, count, other_count; check each field, then delete its entry from guesses" &&
      e.text.zh ===
        "还有 accept init 未确认的猜测：tools[0] (put_note): key, read, count, other_count；请逐项核对该字段，再从 guesses 中删除这一项",
  );
  const one = JSON.parse(text);
  delete one.tools[0].guesses.key;
  assert.throws(
    () => parseOracle(JSON.stringify(one)),
    (e) =>
      e instanceof BadOracle &&
      /put_note\): read, count, other_count;/.test(e.text.en),
  );
  one.tools[0].guesses = {};
  const oracle = parseOracle(JSON.stringify(one));
  assert.equal(oracle.tools[0].key, "/id");
  // A guess must name a field of the entry, with a note.
  for (const guesses of [{ keys: "x" }, { key: 1 }, [], { setup: "x" }]) {
    one.tools[0].guesses = guesses;
    assert.throws(
      () => parseOracle(JSON.stringify(one), { draft: true }),
      BadOracle,
      JSON.stringify(guesses),
    );
  }
});

Deno.test("draft: a server that marks nothing read-only: every tool drafted, the read-like ones marked, a read tool chosen by name", () => {
  const s = (props: string[]) => ({
    type: "object",
    properties: Object.fromEntries(props.map((p) => [p, { type: "string" }])),
    required: props,
  });
  const draft = draftOracle([
    { name: "list_projects", inputSchema: { type: "object", properties: {} } },
    { name: "memory_bank_read", inputSchema: s(["projectName", "fileName"]) },
    {
      name: "memory_bank_write",
      inputSchema: s(["projectName", "fileName", "content"]),
    },
  ], "en");
  assert.equal(draft.noAnnotations, true);
  assert.deepEqual(draft.drafted, ["memory_bank_read", "memory_bank_write"]);
  assert.deepEqual(draft.skipped.map((x) => [x.tool, x.why.en]), [[
    "list_projects",
    "its arguments hold no string that could carry a fresh key",
  ]]);
  const [read, write] = JSON.parse(draft.text).tools;
  assert.ok("tool" in read.guesses);
  assert.ok(!("tool" in write.guesses));
  assert.deepEqual(write.call, {
    projectName: "gl-projectname-{run}-{n:3}",
    fileName: "gl-filename-{run}-{n:3}",
    content: "gl-content-{run}-{n:3}",
  });
  // Two names end in Name: the later one (the item in its container) is the key.
  assert.equal(write.key, "/fileName");
  assert.deepEqual(write.read, {
    tool: "memory_bank_read",
    arguments: { projectName: "gl-projectname-{run}-{n:3}", fileName: "{key}" },
  });
  // The read takes the key and shows the content: the content is counted.
  assert.deepEqual(write.count, { text: "gl-content-{run}-{n:3}" });
  assert.deepEqual(write.bad_call, {
    projectName: "gl-projectname-{run}-{n:3}",
    fileName: "gl-filename-{run}-{n:3}",
  });
  assert.deepEqual(write.other_count, { text: "gl-other-content-{run}-{n:3}" });
});

Deno.test("draft: required fields, const, enum, default, examples, formats and bounds make a valid call", () => {
  const [entry] = entriesOf([{
    name: "book",
    inputSchema: {
      type: "object",
      required: [
        "ref",
        "kind",
        "mode",
        "count",
        "when",
        "mail",
        "site",
        "tags",
        "flag",
        "owner",
        "note",
      ],
      properties: {
        ref: { type: "string" },
        kind: { const: "hotel" },
        mode: { enum: [null, "fast", "slow"] },
        count: { type: "integer", minimum: 3, maximum: 9 },
        when: { type: "string", format: "date-time" },
        mail: { type: "string", format: "email" },
        site: { type: "string", format: "uri" },
        tags: { type: "array", items: { type: "string" }, minItems: 2 },
        flag: { type: "boolean" },
        owner: { $ref: "#/$defs/person" },
        note: { type: "string", default: "hello", examples: ["x"] },
        optional: { type: "string" },
      },
      $defs: {
        person: {
          type: "object",
          required: ["name"],
          properties: { name: { type: "string", pattern: "^(a+)+$" } },
        },
      },
    },
  }]);
  assert.deepEqual(entry.call, {
    ref: "gl-ref-{run}-{n:3}",
    kind: "hotel",
    mode: "fast",
    count: 3,
    when: "2026-01-01T00:00:00Z",
    mail: "gl-mail-{run}-{n:3}@example.com",
    site: "https://example.com/gl-site-{run}-{n:3}",
    tags: ["gl-tags-{run}-{n:3}", "gl-2tags-{run}-{n:3}"],
    flag: false,
    owner: { name: "gl-name-{run}-{n:3}" },
    note: "hello",
  });
  // An exact key word (name) before a suffix one; ref is not a key word.
  assert.equal(entry.key, "/owner/name");
  // The values made to fit a bound or a format are guesses; a pattern
  // outside the plain subset is never evaluated: reported as unchecked.
  assert.equal(
    entry.guesses.call,
    "guardlab made these values to fit the schema (a guess the server may still refuse): /count: minimum, maximum → 3; /when: format date-time; " +
      "guardlab did not check these constraints (it never evaluates a server's pattern): /owner/name: pattern",
  );
  // The key's object holds nothing else, so the first other field goes.
  const { ref: _, ...rest } = entry.call;
  assert.deepEqual(entry.bad_call, rest);
});

Deno.test("draft: a hostile schema is bounded: depth, $ref cycles, size, items; the tool is skipped, never half drafted", () => {
  let deep: Record<string, unknown> = { type: "string" };
  for (let i = 0; i < 40; i++) {
    deep = { type: "object", required: ["a"], properties: { a: deep } };
  }
  const cycle = {
    type: "object",
    required: ["id", "next"],
    properties: { id: { type: "string" }, next: { $ref: "#" } },
  };
  const wide = {
    type: "object",
    required: Array.from({ length: 6000 }, (_, i) => `p${i}`),
    properties: {},
  };
  const items = {
    type: "object",
    required: ["ids"],
    properties: {
      ids: { type: "array", items: { type: "string" }, minItems: 1e9 },
    },
  };
  const selfRef = { $ref: "#/$defs/a", $defs: { a: { $ref: "#/$defs/a" } } };
  const started = performance.now();
  const draft = draftOracle([
    { name: "deep", inputSchema: deep },
    { name: "cycle", inputSchema: cycle },
    { name: "wide", inputSchema: wide },
    { name: "items", inputSchema: items },
    { name: "self", inputSchema: selfRef },
    { name: "ok", inputSchema: NOTE },
  ], "en");
  assert.deepEqual(draft.drafted, ["ok"]);
  assert.deepEqual(
    Object.fromEntries(draft.skipped.map((s) => [s.tool, s.why.en])),
    {
      deep: "its input schema nests deeper than guardlab reads (12 levels)",
      cycle: "its input schema nests deeper than guardlab reads (12 levels)",
      wide: "its input schema is larger than guardlab reads (5000 nodes)",
      items: "its input schema asks for more than 8 items in one array",
      self: "its arguments hold no string that could carry a fresh key",
    },
  );
  // Bounds, not luck: the whole list is drafted well within a second.
  assert.ok(performance.now() - started < 5000);
});

Deno.test("draft: names from the server are names: no prototype reached or polluted, {key} never taken from a default, invisible characters escaped", () => {
  const draft = draftOracle([{
    name: "put\u202e_evil\u0007",
    inputSchema: {
      type: "object",
      required: ["__proto__", "constructor", "id", "toString"],
      properties: {
        "__proto__": { type: "string" },
        "constructor": { type: "string", default: "{key}" },
        id: { type: "string" },
      },
    },
  }], "en");
  assert.equal(({} as Record<string, unknown>).polluted, undefined);
  assert.equal(
    Object.prototype.hasOwnProperty.call(Object.prototype, "id"),
    false,
  );
  // The file shows the name's invisible characters as JSON escapes.
  assert.match(draft.text, /"tool": "put\\u202e_evil\\u0007"/);
  const [entry] = JSON.parse(draft.text).tools;
  assert.equal(entry.tool, "put\u202e_evil\u0007");
  assert.deepEqual(Object.keys(entry.call), [
    "__proto__",
    "constructor",
    "id",
    "toString",
  ]);
  assert.equal(entry.call.constructor, "gl-constructor-{run}-{n:3}");
  assert.equal(entry.key, "/id");
  // And accept reads it once confirmed.
  entry.guesses = {};
  parseOracle(JSON.stringify({ tools: [entry] }));
});

Deno.test("draft: past the oracle's bound of write tools, the rest are named; nothing to draft is its own error", () => {
  const many = Array.from({ length: MAX_ORACLE_TOOLS + 2 }, (_, i) => ({
    name: `put_${i}`,
    inputSchema: NOTE,
  }));
  const draft = draftOracle(many, "en");
  assert.equal(draft.drafted.length, MAX_ORACLE_TOOLS);
  assert.deepEqual(draft.skipped.map((s) => s.tool), ["put_32", "put_33"]);
  assert.throws(
    () => draftOracle([{ name: "ping" }, { name: "" }, 42, null], "en"),
    (e) => e instanceof NothingToDraft && e.listed === 1,
  );
});

Deno.test("draft: a plain pattern gets a value made to fit it, a uuid or a date its format's, each a marked guess; a pattern outside the subset is never run", () => {
  const hostile = "^(a|aa)+$";
  const [entry] = entriesOf([{
    name: "file_ticket",
    inputSchema: {
      type: "object",
      required: ["title", "code", "due", "day", "ref", "weird", "level"],
      properties: {
        title: { type: "string" },
        code: { type: "string", pattern: "^[A-Z]{3}-\\d{4}$" },
        due: { type: "string", format: "date-time" },
        day: { type: "string", format: "date" },
        ref: { type: "string", format: "uuid" },
        weird: { type: "string", pattern: hostile },
        level: { type: "number", exclusiveMinimum: 0, maximum: 0.5 },
      },
    },
  }]);
  assert.deepEqual(entry.call, {
    title: "gl-title-{run}-{n:3}",
    code: "AAA-0000",
    due: "2026-01-01T00:00:00Z",
    day: "2026-01-01",
    ref: "00000000-0000-4000-8000-000000000000",
    weird: "gl-weird-{run}-{n:3}",
    level: 0.5,
  });
  // Each made value fits what the schema asks (checked here, on patterns
  // written by hand; guardlab itself never runs a server's pattern).
  assert.match(entry.call.code, /^[A-Z]{3}-\d{4}$/);
  assert.equal(
    entry.guesses.call,
    'guardlab made these values to fit the schema (a guess the server may still refuse): /code: pattern "^[A-Z]{3}-\\\\d{4}$"; /due: format date-time; /day: format date; /ref: format uuid; /level: exclusiveMinimum, maximum → 0.5; ' +
      "guardlab did not check these constraints (it never evaluates a server's pattern): /weird: pattern",
  );
});

Deno.test("draft: a write tool whose required fields are only enums (task-orchestrator's manage_container) is drafted, its key an optional string init adds and marks", () => {
  const [entry] = entriesOf([{
    name: "manage_container",
    inputSchema: {
      type: "object",
      required: ["operation", "containerType"],
      properties: {
        operation: { type: "string", enum: ["create", "update", "delete"] },
        containerType: { type: "string", enum: ["project", "feature"] },
        id: { type: "string", format: "uuid" },
        name: { type: "string" },
        status: { type: "string", enum: ["planning", "done"] },
        summary: { type: "string" },
      },
    },
  }]);
  assert.deepEqual(entry.call, {
    operation: "create",
    containerType: "project",
    name: "gl-name-{run}-{n:3}",
  });
  assert.equal(entry.key, "/name");
  assert.equal(
    entry.guesses.key,
    "/name: every required field is an enum or a fixed value, so init added this optional string to carry a fresh key: check the tool keeps it and tells one call from another by it",
  );
  // The call without one of its enums is the one to refuse.
  assert.deepEqual(entry.bad_call, {
    containerType: "project",
    name: "gl-name-{run}-{n:3}",
  });
});

Deno.test("draft: a key whose schema asks a shape (a uuid) says a fresh key does not keep it", () => {
  const [entry] = entriesOf([{
    name: "put_doc",
    inputSchema: {
      type: "object",
      required: ["id", "body"],
      properties: {
        id: { type: "string", format: "uuid" },
        body: { type: "string" },
      },
    },
  }]);
  assert.equal(entry.call.id, "gl-id-{run}-{n:3}");
  assert.equal(
    entry.guesses.key,
    "/id: a required string named like an id, key, name or path; the schema asks this field for a shape (format uuid) a fresh key does not keep: give a value that fits, fresh per case ({run}) and per copy ({n:3})",
  );
  assert.equal(entry.guesses.call, undefined);
});
