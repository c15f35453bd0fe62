/**
 * Who a hand-in belongs to: the student's name and the course code a teacher
 * told the class. Both are checked the same way wherever they come from (the
 * `config` command, a hand-in file), bounded, and free of control characters,
 * so a name can never break a grade table, a CSV cell or a terminal.
 *
 * @module
 */
import type { Text } from "../base/i18n.ts";

/** The longest name kept: 40 characters (code points) after trimming. */
export const MAX_NAME_CHARS = 40;

/** A course code: 1 to 32 letters, digits, `.`, `_` or `-`, starting with a letter or digit. */
export const COURSE_CODE = /^[A-Za-z0-9][A-Za-z0-9._-]{0,31}$/;

// Control, format (bidi overrides, zero-width), line and paragraph separators,
// private use and unpaired surrogates: none of them belongs in a name.
const FORBIDDEN = /[\p{Cc}\p{Cf}\p{Zl}\p{Zp}\p{Co}\p{Cs}]/u;

/**
 * `raw` as a name (NFC, trimmed, inner spaces as one), or the reason it is
 * not one.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { checkName } from "./student.ts";
 * assert.deepEqual(checkName("  李雷 "), { name: "李雷" });
 * assert.ok("problem" in checkName("a\u0007b"));
 * ```
 */
export function checkName(raw: string): { name: string } | { problem: Text } {
  // Refuse the absurd before any work proportional to it.
  if (raw.length > 8 * MAX_NAME_CHARS) return { problem: tooLong() };
  if (FORBIDDEN.test(raw)) {
    return {
      problem: {
        en: "a name may not contain control or invisible characters",
        zh: "名字里不能有控制字符或不可见字符",
      },
    };
  }
  const name = raw.normalize("NFC").trim().replace(/\s+/gu, " ");
  if (name === "") {
    return { problem: { en: "the name is empty", zh: "名字是空的" } };
  }
  if ([...name].length > MAX_NAME_CHARS) return { problem: tooLong() };
  return { name };
}

function tooLong(): Text {
  return {
    en: `a name has at most ${MAX_NAME_CHARS} characters`,
    zh: `名字最多 ${MAX_NAME_CHARS} 个字符`,
  };
}

/** `raw` as a course code, or the reason it is not one. */
export function checkCourseCode(
  raw: string,
): { code: string } | { problem: Text } {
  return COURSE_CODE.test(raw) ? { code: raw } : {
    problem: {
      en: "a course code is 1-32 letters, digits, '.', '_' or '-', " +
        "starting with a letter or digit",
      zh: "课程代码是 1-32 个字母、数字、“.”、“_”或“-”，以字母或数字开头",
    },
  };
}

/**
 * The form two names are compared in: case and width folded, so "Li Lei",
 * "li lei" and "ｌｉ ｌｅｉ" are one student (for duplicates and variants).
 */
export function nameKey(name: string): string {
  return name.normalize("NFKC").toLowerCase().trim().replace(/\s+/gu, " ");
}
