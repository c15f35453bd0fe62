/**
 * The hand-in: one JSON object that says whose work it is (the name, the
 * course, the guardlab version) and, per exercise, the answer with when it
 * first passed, how many checks were tried, how many hints were shown and
 * whether a prediction's outcome was revealed. Nothing in it is trusted by
 * `grade`, which re-runs every answer; the name is the claim the grade table
 * is about.
 *
 * The digest is SHA-256 over the rest of the object, so an accidental edit
 * (an editor that changed line endings, a half-pasted answer) shows. It is
 * NOT a signature: anyone can edit a hand-in and compute the digest again.
 *
 * A file is read strictly: an unknown format or version, an unknown key, an
 * answer that is not text, each is a named reason, never a silent "missing".
 *
 * @module
 */
import { createHash } from "node:crypto";
import { isPlainRecord } from "../base/json.ts";
import { fill, same, say, type Text } from "../base/i18n.ts";
import { checkCourseCode, checkName } from "./student.ts";

/** The value of a hand-in's `format` field. */
export const HAND_IN_FORMAT = "guardlab-hand-in";

/** The version of the hand-in format this guardlab writes and reads. */
export const HAND_IN_VERSION = 1;

/** The largest hand-in file read: 8 MiB. A larger file is refused unread past that. */
export const MAX_HAND_IN_BYTES = 8 << 20;

/** One exercise in a hand-in. */
export interface HandedExercise {
  /** The answer: the passing one, else the last one checked. */
  answer: string;
  /** When it first passed (ISO 8601), or null if it never did. */
  passed: string | null;
  /** How many times it was checked. */
  checks: number;
  /** How many hints were shown. */
  hints: number;
  /** Whether a prediction's outcome was revealed before it was guessed right. */
  revealed: boolean;
}

/** A hand-in, as written by `exercise hand-in`. */
export interface HandIn {
  /** Always {@linkcode HAND_IN_FORMAT}. */
  format: typeof HAND_IN_FORMAT;
  /** Always {@linkcode HAND_IN_VERSION}. */
  version: typeof HAND_IN_VERSION;
  /** The student's name (`guardlab config name`). */
  name: string;
  /** The version of the guardlab that wrote it. */
  guardlab: string;
  /** The course: its id, and the course code (null without one). */
  course: { id: string; code: string | null };
  /** By exercise slug (its stable name, whatever its place in the course). */
  exercises: Record<string, HandedExercise>;
  /** `sha256:` and the hex digest of everything else; not a signature. */
  digest: string;
}

const TOP_KEYS = [
  "format",
  "version",
  "name",
  "guardlab",
  "course",
  "exercises",
  "digest",
];
const COURSE_KEYS = ["id", "code"];
const EXERCISE_KEYS = ["answer", "passed", "checks", "hints", "revealed"];

/** JSON with every object's keys in sorted order: one text for one value. */
function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(",")}]`;
  if (isPlainRecord(value)) {
    return `{${
      Object.keys(value).sort().map((k) =>
        `${JSON.stringify(k)}:${canonical(value[k])}`
      ).join(",")
    }}`;
  }
  return JSON.stringify(value);
}

/** The digest of a hand-in without its `digest` field. */
export function digestOf(handIn: Omit<HandIn, "digest">): string {
  const { digest: _, ...rest } = handIn as HandIn;
  return "sha256:" +
    createHash("sha256").update(canonical(rest)).digest("hex");
}

/** A hand-in with its digest. */
export function makeHandIn(
  fields: Omit<HandIn, "format" | "version" | "digest">,
): HandIn {
  const body = {
    format: HAND_IN_FORMAT,
    version: HAND_IN_VERSION,
    ...fields,
  } as const;
  return { ...body, digest: digestOf(body) };
}

/** A hand-in that was read: the hand-in, and whether its digest still matches. */
export interface ReadHandIn {
  /** The hand-in. */
  handIn: HandIn;
  /** False when the digest does not match: the file was changed after hand-in. */
  intact: boolean;
}

/** Why a file is not a hand-in this guardlab can grade. */
export class MalformedHandIn extends Error {
  /** The reason, in both languages. */
  readonly text: Text;
  /** Build the refusal. */
  constructor(text: Text) {
    super(say(text, "en"));
    this.name = "MalformedHandIn";
    this.text = text;
  }
}

function malformed(en: string, zh: string): never {
  throw new MalformedHandIn({ en, zh });
}

function keysExactly(
  record: Record<string, unknown>,
  keys: readonly string[],
  where: Text,
): void {
  for (const key of Object.keys(record)) {
    if (!keys.includes(key)) {
      throw new MalformedHandIn(
        fill({ en: "unknown key {key}{where}", zh: "未知的键 {key}{where}" }, {
          key: JSON.stringify(key),
          where,
        }),
      );
    }
  }
  for (const key of keys) {
    if (!Object.hasOwn(record, key)) {
      throw new MalformedHandIn(
        fill({ en: "missing key {key}{where}", zh: "缺少键 {key}{where}" }, {
          key: JSON.stringify(key),
          where,
        }),
      );
    }
  }
}

const TOP: Text = same("");
const VERSION_TEXT = /^[0-9A-Za-z.+-]{1,32}$/;
const COURSE_ID = /^[0-9A-Za-z][0-9A-Za-z._-]{0,63}$/;
const SLUG = /^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$/;
const MAX_COUNT = 1_000_000;

/**
 * Read `text` as a hand-in, strictly. Throws {@linkcode MalformedHandIn}
 * with the reason for anything this guardlab cannot grade.
 */
export function readHandIn(text: string): ReadHandIn {
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch {
    malformed("not JSON", "不是 JSON");
  }
  if (!isPlainRecord(data)) {
    malformed("not a JSON object", "不是 JSON 对象");
  }
  if (!Object.hasOwn(data, "format")) {
    malformed(
      Object.hasOwn(data, "answers")
        ? 'no "format": a hand-in from an older guardlab; hand in again'
        : 'no "format": not a guardlab hand-in',
      Object.hasOwn(data, "answers")
        ? "没有“format”：旧版 guardlab 的作业文件；请重新交"
        : "没有“format”：不是 guardlab 的作业文件",
    );
  }
  if (data.format !== HAND_IN_FORMAT) {
    malformed(
      `unknown format ${JSON.stringify(String(data.format).slice(0, 40))}`,
      `未知的格式 ${JSON.stringify(String(data.format).slice(0, 40))}`,
    );
  }
  if (data.version !== HAND_IN_VERSION) {
    malformed(
      `format version ${
        JSON.stringify(String(data.version).slice(0, 40))
      } is not known to this guardlab (it reads ${HAND_IN_VERSION})`,
      `这个 guardlab 不认识格式版本 ${
        JSON.stringify(String(data.version).slice(0, 40))
      }（它读的是 ${HAND_IN_VERSION}）`,
    );
  }
  keysExactly(data, TOP_KEYS, TOP);
  if (typeof data.name !== "string") {
    malformed('"name" is not text', "“name”不是文本");
  }
  const name = checkName(data.name);
  if ("problem" in name) {
    throw new MalformedHandIn(
      fill({ en: '"name": {problem}', zh: "“name”：{problem}" }, {
        problem: name.problem,
      }),
    );
  }
  if (name.name !== data.name) {
    malformed(
      '"name" has spaces a stored name never has',
      "“name”含有保存的名字不会有的空白",
    );
  }
  if (typeof data.guardlab !== "string" || !VERSION_TEXT.test(data.guardlab)) {
    malformed('"guardlab" is not a version', "“guardlab”不是版本号");
  }
  const course = data.course;
  if (!isPlainRecord(course)) {
    malformed('"course" is not an object', "“course”不是对象");
  }
  keysExactly(course, COURSE_KEYS, {
    en: " in course",
    zh: "（在 course 中）",
  });
  if (typeof course.id !== "string" || !COURSE_ID.test(course.id)) {
    malformed('"course.id" is not a course id', "“course.id”不是课程标识");
  }
  if (
    course.code !== null &&
    (typeof course.code !== "string" ||
      "problem" in checkCourseCode(course.code))
  ) {
    malformed(
      '"course.code" is not a course code',
      "“course.code”不是课程代码",
    );
  }
  const exercises = data.exercises;
  if (!isPlainRecord(exercises)) {
    malformed('"exercises" is not an object', "“exercises”不是对象");
  }
  for (const [n, entry] of Object.entries(exercises)) {
    const where = {
      en: ` in exercise ${JSON.stringify(n.slice(0, 40))}`,
      zh: `（在练习 ${JSON.stringify(n.slice(0, 40))} 中）`,
    };
    if (!SLUG.test(n)) {
      malformed(
        `exercise key ${
          JSON.stringify(n.slice(0, 40))
        } is not an exercise name`,
        `练习键 ${JSON.stringify(n.slice(0, 40))} 不是练习名`,
      );
    }
    if (!isPlainRecord(entry)) {
      malformed(
        `exercise ${n} is not an object`,
        `练习 ${n} 不是对象`,
      );
    }
    keysExactly(entry, EXERCISE_KEYS, where);
    if (typeof entry.answer !== "string") {
      malformed(
        `the answer to exercise ${n} is not text`,
        `练习 ${n} 的答案不是文本`,
      );
    }
    if (
      entry.passed !== null &&
      (typeof entry.passed !== "string" ||
        Number.isNaN(Date.parse(entry.passed)) || entry.passed.length > 40)
    ) {
      malformed(
        `"passed" of exercise ${n} is not a time or null`,
        `练习 ${n} 的“passed”不是时间或 null`,
      );
    }
    for (const key of ["checks", "hints"]) {
      const v = entry[key];
      if (
        !Number.isInteger(v) || (v as number) < 0 || (v as number) > MAX_COUNT
      ) {
        malformed(
          `"${key}" of exercise ${n} is not a count`,
          `练习 ${n} 的“${key}”不是计数`,
        );
      }
    }
    if (typeof entry.revealed !== "boolean") {
      malformed(
        `"revealed" of exercise ${n} is not true or false`,
        `练习 ${n} 的“revealed”不是 true 或 false`,
      );
    }
  }
  if (typeof data.digest !== "string") {
    malformed('"digest" is not text', "“digest”不是文本");
  }
  const handIn = data as unknown as HandIn;
  return { handIn, intact: digestOf(handIn) === handIn.digest };
}

/**
 * Read at most {@linkcode MAX_HAND_IN_BYTES} of `stream` as text; a longer
 * stream is cancelled there and refused, never held whole.
 */
export async function readBounded(
  stream: ReadableStream<Uint8Array>,
  max: number = MAX_HAND_IN_BYTES,
): Promise<string | null> {
  const parts: Uint8Array[] = [];
  let size = 0;
  const reader = stream.getReader();
  try {
    while (true) {
      const { done, value } = await reader.read();
      if (done) break;
      size += value.length;
      if (size > max) {
        await reader.cancel().catch(() => {});
        return null;
      }
      parts.push(value.slice());
    }
  } finally {
    reader.releaseLock();
  }
  const joined = new Uint8Array(size);
  let at = 0;
  for (const part of parts) {
    joined.set(part, at);
    at += part.length;
  }
  return new TextDecoder().decode(joined);
}
