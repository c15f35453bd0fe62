/**
 * `accept init`: an oracle drafted from what a server lists. Every tool not
 * marked `readOnlyHint: true` is a write tool; its `call` is built from its
 * input schema (required fields, `const`, `enum`, `default`, `examples`,
 * string formats, and `{run}`/`{n:3}` in the strings guardlab writes). What
 * a schema cannot say is guessed, and each guess is marked in the entry's
 * `guesses` with why: the key (a required string named like an id, key,
 * name or path), the read tool (a read-only tool that takes the key, or
 * one that lists), the count, and `other_count`. `accept` refuses the
 * oracle until the engineer has checked each and deleted its entry.
 * `bad_call` drops a required field beside the key (or, failing that,
 * sends an unknown one to a schema that forbids it); `other_call` is the
 * call with the same key and another value.
 *
 * @module
 */
import { redact } from "../base/secrets.ts";
import { fill, type Lang, same, say, type Text } from "../base/i18n.ts";
import { inertOutput } from "../base/terminal.ts";
import { MAX_ORACLE_BYTES, MAX_ORACLE_TOOLS } from "./limits.ts";
import {
  BadOracle,
  type Count,
  type Json,
  parseOracle,
  type Placeholders,
  pointerGet,
  substitute,
  type ToolCall,
} from "./oracle.ts";
import {
  fieldsOf,
  formatOf,
  freeString,
  type Leaf,
  own,
  put,
  removeAt,
  type Schema,
  SchemaReader,
  SchemaTooBig,
  setAt,
  token,
  typeOf,
} from "./_schema.ts";
import { KEY_WORDS, keyWord, namedLikeRead, wordsOf } from "./_names.ts";
import { DRAFT_MESSAGES as D } from "./ci_messages.ts";

const NOTHING = same("");

/** One tool as a server listed it, checked enough to draft from. */
interface Listed {
  readonly name: string;
  readonly input: unknown;
  readonly output: unknown;
  readonly readOnly: boolean;
  readonly readLike: boolean;
}

/** A tool `init` did not draft, and why. */
export interface Skipped {
  /** The tool's name. */
  readonly tool: string;
  /** Why. */
  readonly why: Text;
}

/** What `init` drafted from a server's tool list. */
export interface Draft {
  /** The oracle's text: JSON, two-space indented, guesses marked, every invisible character escaped. */
  readonly text: string;
  /** The write tools drafted, in the server's order. */
  readonly drafted: readonly string[];
  /** Each drafted tool's guessed fields, in the same order. */
  readonly guessed: readonly (readonly string[])[];
  /** The tools left out as read-only (`readOnlyHint: true`). */
  readonly readOnly: readonly string[];
  /** The write tools that could not be drafted, each with why. */
  readonly skipped: readonly Skipped[];
  /** Whether the server marks no tool read-only (so every tool was drafted as a write tool). */
  readonly noAnnotations: boolean;
  /** The drafted entries, as the text holds them. */
  readonly entries: readonly Record<string, Json>[];
}

/** Too few usable tools to draft anything: the one line says why. */
export class NothingToDraft extends Error {
  /** What was listed, for the line. */
  constructor(readonly listed: number, readonly skipped: readonly Skipped[]) {
    super("nothing to draft");
  }
}

/** The tools of a `tools/list`, checked: a name of 1 to 128 characters, each name once. */
function listedTools(listed: readonly unknown[]): Listed[] {
  const seen = new Set<string>();
  const out: Listed[] = [];
  for (const t of listed) {
    const name = own(t, "name");
    if (typeof name !== "string" || name === "" || name.length > 128) continue;
    if (seen.has(name)) continue;
    seen.add(name);
    out.push({
      name,
      input: own(t, "inputSchema") ?? {},
      output: own(t, "outputSchema"),
      readOnly: own(own(t, "annotations"), "readOnlyHint") === true,
      readLike: namedLikeRead(name),
    });
  }
  return out;
}

/**
 * Draft an oracle from `listed` (a server's `tools/list`, as
 * {@linkcode Session.listed} keeps it), the guesses' notes in `lang`.
 * Throws {@linkcode NothingToDraft} when no write tool can be drafted.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { draftOracle } from "./draft.ts";
 * const draft = draftOracle([
 *   { name: "put_note", inputSchema: { type: "object", required: ["id", "text"],
 *     properties: { id: { type: "string" }, text: { type: "string" } } } },
 *   { name: "get_notes", annotations: { readOnlyHint: true }, inputSchema: {
 *     type: "object", required: ["id"], properties: { id: { type: "string" } } } },
 * ], "en");
 * const entry = JSON.parse(draft.text).tools[0];
 * assert.equal(entry.key, "/id");
 * assert.deepEqual(entry.read, { tool: "get_notes", arguments: { id: "{key}" } });
 * assert.deepEqual(Object.keys(entry.guesses), ["key", "read", "count", "other_count"]);
 * ```
 */
export function draftOracle(listed: readonly unknown[], lang: Lang): Draft {
  const tools = listedTools(listed);
  const noAnnotations = !tools.some((t) => t.readOnly);
  const readers = noAnnotations
    ? tools.filter((t) => t.readLike)
    : tools.filter((t) => t.readOnly);
  const entries: Record<string, Json>[] = [];
  const drafted: string[] = [];
  const guessed: string[][] = [];
  const skipped: Skipped[] = [];
  let size = 16;
  for (const tool of tools.filter((t) => !t.readOnly)) {
    if (entries.length >= MAX_ORACLE_TOOLS) {
      skipped.push({
        tool: tool.name,
        why: fill(D.beyondMax, { max: MAX_ORACLE_TOOLS }),
      });
      continue;
    }
    const result = draftEntry(tool, readers, noAnnotations, lang);
    if ("skip" in result) {
      skipped.push({ tool: tool.name, why: result.skip });
      continue;
    }
    const { entry } = result;
    // Each entry must be one `accept` reads once its guesses are confirmed
    // (a server's own default could hold `{key}`), and all of them must fit
    // the oracle's bound.
    try {
      parseOracle(JSON.stringify({ tools: [entry] }), { draft: true });
    } catch (error) {
      if (!(error instanceof BadOracle)) throw error;
      skipped.push({
        tool: tool.name,
        why: fill(D.notOracle, { why: error.text }),
      });
      continue;
    }
    size += JSON.stringify(entry, null, 2).length + 8;
    if (size > MAX_ORACLE_BYTES) {
      skipped.push({
        tool: tool.name,
        why: fill(D.tooLarge, { max: MAX_ORACLE_BYTES }),
      });
      continue;
    }
    entries.push(entry);
    drafted.push(tool.name);
    guessed.push(Object.keys(entry.guesses as Record<string, Json>));
  }
  if (entries.length === 0) throw new NothingToDraft(tools.length, skipped);
  return {
    text: draftText(entries),
    entries,
    drafted,
    guessed,
    readOnly: tools.filter((t) => t.readOnly).map((t) => t.name),
    skipped,
    noAnnotations,
  };
}

/** The oracle's text of `entries`. */
function draftText(entries: readonly Record<string, Json>[]): string {
  // A server's names may hold invisible or bidirectional characters: the
  // file shows each as its JSON escape, which reads back as the same name.
  return inertOutput(JSON.stringify({ tools: entries }, null, 2), false) + "\n";
}

/** The read of a key no call has used, for drafted entry `entry`: the key, the read's call, and how it counts. */
export interface FreshRead {
  /** The key, never sent in a call. */
  readonly key: string;
  /** The read tool and its arguments, for that key. */
  readonly read: ToolCall;
  /** The entry's count. */
  readonly count: Count;
  /** The placeholders the count is filled with. */
  readonly p: Placeholders;
}

/**
 * What `init` reads before it writes the draft, for drafted entry
 * `entry`: its read, with the key its call would carry in a run named
 * `run` (a run no call is ever made in). As `accept` does before a case,
 * the count must be 0 for a key never used; `null` when the entry has no
 * read tool or no key to fill.
 */
export function freshRead(
  entry: Record<string, Json>,
  run: string,
): FreshRead | null {
  const read = entry.read as unknown as ToolCall;
  if (read.tool === "?" || typeof entry.key !== "string") return null;
  const found = pointerGet(entry.call, entry.key);
  if (!found.found || typeof found.value !== "string") return null;
  const base: Placeholders = { run, n: 1 };
  const key = substitute(found.value, base);
  const p = { ...base, key };
  return { key, read: substitute(read, p), count: entry.count as Count, p };
}

/**
 * `draft` with entry `index`'s count marked as a guess init could not
 * confirm: a read of `key`, never used, counted `n` (the read shows the
 * key it was asked for); `words` is what the read answered, cut.
 */
export function countUnconfirmed(
  draft: Draft,
  index: number,
  why: { key: string; n: number; words: string },
  lang: Lang,
): Draft {
  const entries = draft.entries.map((e) => structuredClone(e));
  const guesses = entries[index].guesses as Record<string, Json>;
  put(guesses, "count", say(fill(D.countUnconfirmed, why), lang));
  const guessed = draft.guessed.map((g, i) =>
    i === index && !g.includes("count") ? [...g, "count"] : g
  );
  return { ...draft, entries, guessed, text: draftText(entries) };
}

/** The read tool chosen for a key, with how it takes it. */
interface ReadChoice {
  readonly tool: Listed;
  readonly arguments: Record<string, Json>;
  /** The read's argument that takes the key, or null for a tool that lists. */
  readonly takes: string | null;
  /** The read's arguments guardlab had to make up (neither the key nor copied from the call). */
  readonly madeUp: readonly string[];
  readonly score: number;
}

function draftEntry(
  tool: Listed,
  readers: readonly Listed[],
  noAnnotations: boolean,
  lang: Lang,
): { entry: Record<string, Json> } | { skip: Text } {
  const reader = new SchemaReader(tool.input);
  let root: Schema;
  let drafted;
  try {
    root = reader.resolve(tool.input) ?? {};
    drafted = reader.draft({ ...root, type: "object" });
  } catch (error) {
    if (error instanceof SchemaTooBig) return { skip: D.tooBig[error.why] };
    throw error;
  }
  const call = drafted.value as Record<string, Json>;
  // Every required field an enum or a fixed value (task-orchestrator's
  // manage_container): an optional string carries the key instead.
  const key = chooseKey(drafted.leaves) ?? optionalKey(reader, root);
  if (key === null) return { skip: D.noKeyString };
  // The key is fresh in every case and for every copy, whatever the schema gave.
  setAt(call, key.leaf.pointer, freeString(key.leaf.name, key.leaf.format));
  const guesses: Record<string, Json> = {};
  const note = (field: string, text: Text) =>
    put(guesses, field, say(text, lang));
  if (noAnnotations && tool.readLike) note("tool", D.toolReadLike);
  // What the schema asked of the key's own value, which a fresh key replaced.
  const keyMade = drafted.made.filter((m) =>
    m.startsWith(`${key.leaf.pointer}: `)
  );
  const keyText = fill(
    key.optional ? D.keyOptional : key.named ? D.keyNamed : D.keyFirst,
    { pointer: key.leaf.pointer, name: key.leaf.name },
  );
  note(
    "key",
    keyMade.length === 0 ? keyText : fill(same("{key}{shape}"), {
      key: keyText,
      shape: fill(D.keyFixedShape, {
        what: shownList(
          keyMade.map((m) => m.slice(key.leaf.pointer.length + 2)),
        ),
      }),
    }),
  );
  const made = drafted.made.filter((m) => !keyMade.includes(m));
  const callNotes = [
    ...(made.length > 0 ? [fill(D.callMade, { what: shownList(made) })] : []),
    ...(drafted.unchecked.length > 0
      ? [fill(D.callUnchecked, { what: shownList(drafted.unchecked) })]
      : []),
  ];
  if (callNotes.length > 0) {
    put(guesses, "call", callNotes.map((t) => say(t, lang)).join("; "));
  }
  const read = chooseRead(key.leaf, call, readers.filter((r) => r !== tool));
  const readCall: ToolCall = read === null
    ? { tool: "?", arguments: {} }
    : { tool: read.tool.name, arguments: read.arguments };
  note(
    "read",
    read === null ? D.readNone : fill(
      read.takes === null ? D.readLists : D.readTakes,
      {
        tool: read.tool.name,
        arg: read.takes ?? "",
        unmarked: noAnnotations ? D.readUnmarked : NOTHING,
        madeUp: read.madeUp.length > 0
          ? fill(D.readMadeUp, { args: read.madeUp.join(", ") })
          : NOTHING,
      },
    ),
  );
  const counted = chooseCount(key.leaf, drafted.leaves, read);
  note("count", counted.why);
  const entry: Record<string, Json> = {};
  put(entry, "tool", tool.name);
  put(entry, "guesses", guesses);
  put(entry, "call", call);
  put(entry, "key", key.leaf.pointer);
  put(entry, "read", readCall as unknown as Json);
  put(entry, "count", counted.count as unknown as Json);
  const bad = badCall(call, key.leaf.pointer, root);
  if (bad !== null) put(entry, "bad_call", bad);
  const other = otherCall(call, key.leaf, drafted.leaves, counted.count);
  if (other !== null) {
    put(entry, "other_call", other.call);
    put(entry, "other_count", other.count as unknown as Json);
    note("other_count", other.why);
  }
  return { entry };
}

/** At most 8 of `items`, each cut at 80 characters (secrets out before the cut: lib/base/secrets.ts), and how many more. */
function shownList(items: readonly string[]): string {
  const shown = items.slice(0, 8).map((u) => redact(u).slice(0, 80));
  const more = items.length - shown.length;
  return shown.join("; ") + (more > 0 ? ` (+${more})` : "");
}

/** The key chosen, and how. */
interface KeyChoice {
  readonly leaf: Leaf;
  /** Named like an id, key, name or path. */
  readonly named: boolean;
  /** An optional property init adds to the call (no required field could carry a key). */
  readonly optional?: boolean;
}

/** An optional string property of `root` (no enum, no const) to carry the key: one named like a key first, else the first. */
function optionalKey(reader: SchemaReader, root: Schema): KeyChoice | null {
  const { names, required } = reader.properties(root);
  const leaves: Leaf[] = [];
  for (const name of names) {
    if (required.includes(name)) continue;
    const s = reader.resolve(reader.property(root, name)) ?? {};
    if (typeOf(s) !== "string" || own(s, "enum") !== undefined) continue;
    if (own(s, "const") !== undefined) continue;
    // A uuid or a date a fresh key cannot be (and, for a create, often
    // the id the server assigns): never the key.
    const format = formatOf(s);
    if (format !== undefined && !FREE_KEY_FORMATS.includes(format)) continue;
    if (own(s, "pattern") !== undefined) continue;
    leaves.push({
      pointer: `/${token(name)}`,
      name,
      kind: "free",
      ...(format !== undefined ? { format } : {}),
    });
  }
  const chosen = chooseKey(leaves);
  return chosen === null ? null : { ...chosen, optional: true };
}

/** The formats a fresh key keeps (guardlab's string, dressed as one). */
const FREE_KEY_FORMATS = ["email", "idn-email", "uri", "url", "hostname"];

/** The key: a free string named like an id, key, name or path (exact names first, later ones on a tie); else the first free string. */
function chooseKey(
  leaves: readonly Leaf[],
): KeyChoice | null {
  const usable = leaves.filter((l) => l.kind !== "enum");
  let best: Leaf | null = null;
  let bestScore = 0;
  for (const leaf of usable) {
    const word = keyWord(leaf.name);
    if (word === null) continue;
    const exact = wordsOf(leaf.name).length === 1;
    const score = (exact ? 20 : 10) - KEY_WORDS.indexOf(word.word) / 10;
    if (score >= bestScore) [best, bestScore] = [leaf, score];
  }
  if (best !== null) return { leaf: best, named: true };
  const first = usable.find((l) => l.kind === "free") ?? usable[0];
  return first === undefined ? null : { leaf: first, named: false };
}

/** The read tool for `key`: one that takes it (by its own name, its plural, or its key word), else one that lists. */
function chooseRead(
  key: Leaf,
  call: Record<string, Json>,
  readers: readonly Listed[],
): ReadChoice | null {
  let best: ReadChoice | null = null;
  for (const tool of readers) {
    const choice = readFor(tool, key, call);
    if (choice !== null && (best === null || choice.score > best.score)) {
      best = choice;
    }
  }
  return best;
}

function readFor(
  tool: Listed,
  key: Leaf,
  call: Record<string, Json>,
): ReadChoice | null {
  const reader = new SchemaReader(tool.input);
  try {
    const root = reader.resolve(tool.input) ?? {};
    const { names, required } = reader.properties(root);
    const k = keyWord(key.name);
    let takes: string | null = null;
    let takesList = false;
    let score = 0;
    for (const p of names) {
      const s = reader.property(root, p);
      const isList = typeOf(s) === "array";
      const w = keyWord(p);
      const exact = p === key.name && !isList;
      const plural = isList && (p === `${key.name}s` || p === key.name);
      const word = w !== null && k !== null && w.word === k.word &&
        w.plural === isList;
      const s2 = exact ? 4 : plural ? 3 : word ? 2 : 0;
      if (s2 > score) [takes, takesList, score] = [p, isList, s2];
    }
    if (takes === null && required.length > 0) return null;
    if (takes === null) score = 1;
    const args: Record<string, Json> = {};
    const madeUp: string[] = [];
    for (const p of new Set([...required, ...(takes ? [takes] : [])])) {
      if (p === takes) {
        put(args, p, takesList ? ["{key}"] : "{key}");
      } else if (Object.hasOwn(call, p)) {
        put(args, p, call[p]);
      } else {
        put(args, p, reader.draft(reader.property(root, p), "", p).value);
        madeUp.push(p);
      }
    }
    return {
      tool,
      arguments: args,
      takes,
      madeUp,
      score: score - madeUp.length / 4,
    };
  } catch (error) {
    if (error instanceof SchemaTooBig) return null;
    throw error;
  }
}

/**
 * How to count: the items of an array in the read's output schema whose
 * key property equals the key; else, for a read that takes the key, the
 * call's first other string the read does not echo back as an argument;
 * else the key's occurrences in the read's text.
 */
function chooseCount(
  key: Leaf,
  leaves: readonly Leaf[],
  read: ReadChoice | null,
): { count: Count; why: Text; itemField?: string; list?: string } {
  if (read !== null && read.tool.output !== undefined) {
    const found = keyedArray(read.tool.output, key.name);
    if (found !== null) {
      const match: { [k: string]: Json } = {};
      put(match, found.field, "{key}");
      return {
        count: { json: found.pointer, match },
        why: fill(D.countJson, { pointer: found.pointer, field: found.field }),
        itemField: found.field,
        list: found.pointer,
      };
    }
  }
  if (read !== null && read.takes !== null) {
    const echoed = new Set(Object.keys(read.arguments));
    const content = leaves.find((l) =>
      l.kind === "free" && l.pointer !== key.pointer &&
      keyWord(l.name) === null && !echoed.has(l.pointer.split("/")[1])
    );
    if (content !== undefined) {
      return {
        count: { text: freeString(content.name, content.format) },
        why: fill(D.countContent, { pointer: content.pointer }),
      };
    }
  }
  return { count: { text: "{key}" }, why: D.countKey };
}

/** An array (within 4 levels of an output schema) whose items carry the key's property, or its key word. */
function keyedArray(
  output: unknown,
  keyName: string,
): { pointer: string; field: string } | null {
  const reader = new SchemaReader(output);
  const k = keyWord(keyName);
  try {
    let level: { pointer: string; schema: Schema }[] = [{
      pointer: "",
      schema: reader.resolve(output) ?? {},
    }];
    for (let depth = 0; depth < 4 && level.length > 0; depth++) {
      const next: typeof level = [];
      for (const { pointer, schema } of level) {
        for (const p of reader.properties(schema).names) {
          const s = reader.property(schema, p);
          const at = `${pointer}/${token(p)}`;
          if (typeOf(s) === "array") {
            const item = reader.item(s, 0);
            const fields = reader.properties(item).names;
            const field = fields.find((f) => f === keyName) ??
              fields.find((f) => {
                const w = keyWord(f);
                return w !== null && k !== null && w.word === k.word &&
                  !w.plural;
              });
            if (field !== undefined) return { pointer: at, field };
          } else if (typeOf(s) === "object") {
            next.push({ pointer: at, schema: s });
          }
        }
      }
      level = next;
    }
  } catch (error) {
    if (!(error instanceof SchemaTooBig)) throw error;
  }
  return null;
}

/** A copy of `call` the tool must refuse: a required field beside the key removed, else an unknown field where the schema forbids one. */
function badCall(
  call: Record<string, Json>,
  keyPointer: string,
  root: Schema,
): Record<string, Json> | null {
  const fields = fieldsOf(call, "").filter((f) =>
    !keyPointer.startsWith(`${f.pointer}/`) && f.pointer !== keyPointer
  );
  const parent = keyPointer.slice(0, keyPointer.lastIndexOf("/"));
  const rank = (f: { pointer: string; name: string }) =>
    (f.pointer.slice(0, f.pointer.lastIndexOf("/")) === parent ? 0 : 2) +
    (keyWord(f.name) === null ? 0 : 1);
  const chosen = [...fields].sort((a, b) => rank(a) - rank(b))[0];
  const copy = structuredClone(call);
  if (chosen !== undefined) {
    removeAt(copy, chosen.pointer);
    return copy;
  }
  if (own(root, "additionalProperties") === false) {
    put(copy, "guardlab_unexpected_field", 1);
    return copy;
  }
  return null;
}

/** The same key with another value: the first other free string (a plain one before one named like a key) changed. */
function otherCall(
  call: Record<string, Json>,
  key: Leaf,
  leaves: readonly Leaf[],
  count: Count,
): { call: Record<string, Json>; count: Count; why: Text } | null {
  const others = leaves.filter((l) =>
    l.kind === "free" && l.pointer !== key.pointer
  );
  const leaf = others.find((l) => keyWord(l.name) === null) ?? others[0];
  if (leaf === undefined) return null;
  const value = freeString(leaf.name, leaf.format, "other-");
  const copy = structuredClone(call);
  setAt(copy, leaf.pointer, value);
  const sameItem = leaf.pointer.slice(0, leaf.pointer.lastIndexOf("/")) ===
    key.pointer.slice(0, key.pointer.lastIndexOf("/"));
  if ("json" in count && sameItem) {
    const match: { [k: string]: Json } = { ...count.match };
    put(match, leaf.name, value);
    return {
      call: copy,
      count: { json: count.json, match },
      why: fill(D.otherJson, { pointer: leaf.pointer }),
    };
  }
  return {
    call: copy,
    count: { text: value },
    why: fill(D.otherText, { pointer: leaf.pointer }),
  };
}
