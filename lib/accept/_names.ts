/**
 * The names `accept init` reads meaning into: which tool names read (a read
 * word such as get or list, and no write word), and which property names
 * hold a key (ending in id, key, name, path, …; `fileName`, `entity_id`,
 * `names`).
 *
 * @module
 */

const READ_WORDS = new Set([
  "get",
  "read",
  "list",
  "search",
  "find",
  "open",
  "show",
  "view",
  "describe",
  "query",
  "lookup",
  "fetch",
  "count",
  "info",
  "status",
]);
const WRITE_WORDS = new Set([
  "create",
  "write",
  "put",
  "add",
  "update",
  "set",
  "delete",
  "remove",
  "insert",
  "edit",
  "append",
  "mark",
  "approve",
  "move",
  "rename",
  "save",
  "send",
  "post",
  "upload",
  "register",
  "request",
  "run",
  "execute",
  "make",
  "new",
]);

/** The words of a tool or property name: `memory_bank_read`, `getNotes`, `entity-name`. */
export function wordsOf(name: string): string[] {
  return name.replace(/([a-z0-9])([A-Z])/g, "$1 $2").toLowerCase().split(
    /[^a-z0-9]+/,
  ).filter((w) => w !== "");
}

/** Whether a tool's name says it reads: a read word (get, list, …) and no write word. */
export function namedLikeRead(name: string): boolean {
  const words = wordsOf(name);
  return words.some((w) => READ_WORDS.has(w)) &&
    !words.some((w) => WRITE_WORDS.has(w));
}

/** The words a key's property may end in, most specific first. */
export const KEY_WORDS = ["id", "key", "name", "path", "slug", "uuid", "uri"];

/** The key word `name` ends in (`fileName` → `name`), with its plural (`entityNames`). */
export function keyWord(
  name: string,
): { word: string; plural: boolean } | null {
  const last = wordsOf(name).at(-1) ?? "";
  for (const w of KEY_WORDS) {
    if (last === w) return { word: w, plural: false };
    if (last === `${w}s`) return { word: w, plural: true };
  }
  return null;
}
