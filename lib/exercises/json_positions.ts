/**
 * A small JSON parser that remembers where each value starts, so that a
 * course file's error can name its line and field (`JSON.parse` names
 * neither). Bounded: at most {@linkcode MAX_COURSE_BYTES} bytes and
 * {@linkcode MAX_DEPTH} levels of nesting. Duplicate keys are refused
 * rather than silently overwritten.
 *
 * @module
 */
import { say, type Text } from "../base/i18n.ts";

/** The largest course file read, in bytes. */
export const MAX_COURSE_BYTES = 1 << 20;

/** The deepest nesting of arrays and objects accepted. */
export const MAX_DEPTH = 32;

/** A value's place: a line and column, from 1. */
export interface Position {
  /** Line, from 1. */
  line: number;
  /** Column, from 1 (in UTF-16 units). */
  column: number;
}

/** A parse or form error at a place, naming the field. */
export class CourseError extends Error {
  /** Where, or null when the whole file is at fault. */
  readonly position: Position | null;
  /** The field's path, e.g. `exercises[2].hints[0].zh`, or "" for the top. */
  readonly field: string;
  /** What is wrong, in both languages. */
  readonly text: Text;
  /** Build the error. */
  constructor(text: Text, field: string, position: Position | null) {
    super(say(text, "en"));
    this.name = "CourseError";
    this.text = text;
    this.field = field;
    this.position = position;
  }
}

const t = (en: string, zh: string): Text => ({ en, zh });

/** A parsed document: its value, and the position of each field path. */
export interface Located {
  /** The value, as `JSON.parse` would give it (objects have no prototype tricks). */
  value: unknown;
  /** Where each path's value starts (`""` is the top value). */
  positions: Map<string, Position>;
}

/** The path of `key` inside `path`. */
export function childPath(path: string, key: string | number): string {
  if (typeof key === "number") return `${path}[${key}]`;
  return /^[A-Za-z_][A-Za-z0-9_]*$/.test(key)
    ? (path === "" ? key : `${path}.${key}`)
    : `${path}[${JSON.stringify(key)}]`;
}

/**
 * Parse `text` as JSON, recording positions.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { parseLocated } from "./json_positions.ts";
 * const { value, positions } = parseLocated('{\n  "a": [1, {"b": true}]\n}');
 * assert.deepEqual(value, { a: [1, { b: true }] });
 * assert.deepEqual(positions.get("a[1].b"), { line: 2, column: 18 });
 * ```
 */
export function parseLocated(text: string): Located {
  if (new TextEncoder().encode(text).length > MAX_COURSE_BYTES) {
    throw new CourseError(
      t(
        `larger than ${MAX_COURSE_BYTES} bytes`,
        `超过 ${MAX_COURSE_BYTES} 字节`,
      ),
      "",
      null,
    );
  }
  return new Parser(text).document();
}

class Parser {
  #i = 0;
  #line = 1;
  #lineStart = 0;
  readonly #text: string;
  readonly #positions = new Map<string, Position>();

  constructor(text: string) {
    this.#text = text.startsWith("\uFEFF") ? text.slice(1) : text;
  }

  document(): Located {
    this.#space();
    const value = this.#value("", 0);
    this.#space();
    if (this.#i < this.#text.length) {
      this.#fail(
        t("unexpected text after the JSON value", "JSON 值之后还有多余的内容"),
        "",
      );
    }
    return { value, positions: this.#positions };
  }

  #position(): Position {
    return { line: this.#line, column: this.#i - this.#lineStart + 1 };
  }

  #fail(message: Text, path: string): never {
    throw new CourseError(message, path, this.#position());
  }

  #space(): void {
    const t = this.#text;
    while (this.#i < t.length) {
      const c = t[this.#i];
      if (c === "\n") {
        this.#i++;
        this.#line++;
        this.#lineStart = this.#i;
      } else if (c === " " || c === "\t" || c === "\r") this.#i++;
      else break;
    }
  }

  #value(path: string, depth: number): unknown {
    this.#positions.set(path, this.#position());
    const c = this.#text[this.#i];
    if (c === "{") return this.#object(path, depth + 1);
    if (c === "[") return this.#array(path, depth + 1);
    if (c === '"') return this.#string(path);
    if (c === "-" || (c >= "0" && c <= "9")) return this.#number(path);
    for (
      const [word, value] of [["true", true], ["false", false], [
        "null",
        null,
      ]] as const
    ) {
      if (this.#text.startsWith(word, this.#i)) {
        this.#i += word.length;
        return value;
      }
    }
    this.#fail(
      c === undefined
        ? t("the file ends where a value should be", "文件在应有值的地方结束了")
        : t(`unexpected ${JSON.stringify(c)}`, `意外的 ${JSON.stringify(c)}`),
      path,
    );
  }

  #deep(depth: number, path: string): void {
    if (depth > MAX_DEPTH) {
      this.#fail(
        t(`nested deeper than ${MAX_DEPTH} levels`, `嵌套超过 ${MAX_DEPTH} 层`),
        path,
      );
    }
  }

  #object(path: string, depth: number): Record<string, unknown> {
    this.#deep(depth, path);
    this.#i++;
    const out: Record<string, unknown> = Object.create(null);
    this.#space();
    if (this.#text[this.#i] === "}") {
      this.#i++;
      return { ...out };
    }
    for (;;) {
      this.#space();
      if (this.#text[this.#i] !== '"') {
        this.#fail(
          t(
            "expected a field name in double quotes",
            "此处应是双引号括起的字段名",
          ),
          path,
        );
      }
      const keyAt = this.#position();
      const key = this.#string(path);
      const child = childPath(path, key);
      if (Object.hasOwn(out, key)) {
        throw new CourseError(
          t(
            `the field ${JSON.stringify(key)} appears twice`,
            `字段 ${JSON.stringify(key)} 出现了两次`,
          ),
          child,
          keyAt,
        );
      }
      this.#space();
      if (this.#text[this.#i] !== ":") {
        this.#fail(t('expected ":"', '此处应是 ":"'), child);
      }
      this.#i++;
      this.#space();
      out[key] = this.#value(child, depth);
      this.#space();
      const c = this.#text[this.#i];
      if (c === ",") {
        this.#i++;
        continue;
      }
      if (c === "}") {
        this.#i++;
        // A plain object, as JSON.parse makes: "__proto__" stays an own key.
        return Object.fromEntries(Object.entries(out));
      }
      this.#fail(t('expected "," or "}"', '此处应是 "," 或 "}"'), path);
    }
  }

  #array(path: string, depth: number): unknown[] {
    this.#deep(depth, path);
    this.#i++;
    const out: unknown[] = [];
    this.#space();
    if (this.#text[this.#i] === "]") {
      this.#i++;
      return out;
    }
    for (;;) {
      this.#space();
      out.push(this.#value(childPath(path, out.length), depth));
      this.#space();
      const c = this.#text[this.#i];
      if (c === ",") {
        this.#i++;
        continue;
      }
      if (c === "]") {
        this.#i++;
        return out;
      }
      this.#fail(t('expected "," or "]"', '此处应是 "," 或 "]"'), path);
    }
  }

  #string(path: string): string {
    const text = this.#text;
    const start = this.#i;
    this.#i++;
    for (;;) {
      const c = text[this.#i];
      if (c === undefined) {
        this.#fail(t("a string is not closed", "字符串没有结束"), path);
      }
      if (c === '"') break;
      if (c === "\\") {
        this.#i += 2;
        continue;
      }
      if (c < " ") {
        this.#fail(
          t("a control character inside a string", "字符串里有控制字符"),
          path,
        );
      }
      this.#i++;
    }
    this.#i++;
    try {
      return JSON.parse(text.slice(start, this.#i));
    } catch {
      this.#i = start;
      this.#fail(t("a string with a bad escape", "字符串里有错误的转义"), path);
    }
  }

  #number(path: string): number {
    const m = /^-?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?/.exec(
      this.#text.slice(this.#i, this.#i + 400),
    );
    if (!m) this.#fail(t("a malformed number", "数字格式不对"), path);
    this.#i += m[0].length;
    return Number(m[0]);
  }
}
