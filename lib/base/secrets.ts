/**
 * The secrets guardlab was given (each `--header` and `--header-env`
 * value), and the one function that takes them out of a text. Every
 * output passes it: the lines of stdout and stderr (screens, `--json`,
 * `--format svg`, error lines), and every file guardlab writes (JUnit,
 * baseline, `accept init`'s draft, a proxy record); and a server's text is
 * passed through it before it is cut to its shown length, so no cut leaves
 * a piece behind.
 *
 * A value of fewer than {@linkcode MIN_SECRET_FRAGMENT} characters is not
 * searched for (it cannot be told from ordinary text). A secret is found as
 * it is, and as JSON and XML write it. A secret of
 * more than {@linkcode MIN_SECRET_FRAGMENT} characters is also found in
 * pieces: any run of text made of its pieces of that length (a value a
 * server split across two fields, or cut at a length of its own) is taken
 * out too. That may take out more than the secret (a word the secret
 * shares with the text around it): redaction errs on the side of saying
 * less.
 *
 * @module
 */

/** What stands where a secret was. */
export const REDACTED = "***";

/** The shortest piece of a secret that is found on its own: 8 characters. */
export const MIN_SECRET_FRAGMENT = 8;

/** Each secret as it is and as JSON and XML write it. */
const whole = new Set<string>();
/** Every piece of {@linkcode MIN_SECRET_FRAGMENT} characters of each of them. */
const pieces = new Set<string>();

/**
 * Keep `value` secret from here on: {@linkcode redact} takes it out of
 * everything guardlab prints or writes.
 */
export function keepSecret(value: string): void {
  // A value shorter than a piece ("1", "on", a version) cannot be told
  // from ordinary text: searched for, it would take every "1" out of every
  // screen. guardlab itself never prints a header's value; only a server
  // that says such a short one back is not caught (chapter 8 says so).
  if (value.length < MIN_SECRET_FRAGMENT) return;
  const forms = [
    value,
    JSON.stringify(value).slice(1, -1),
    value.replaceAll("&", "&amp;").replaceAll("<", "&lt;")
      .replaceAll(">", "&gt;").replaceAll('"', "&quot;")
      .replaceAll("'", "&apos;"),
  ];
  for (const form of forms) {
    whole.add(form);
    if (form.length <= MIN_SECRET_FRAGMENT) continue;
    for (let at = 0; at + MIN_SECRET_FRAGMENT <= form.length; at++) {
      pieces.add(form.slice(at, at + MIN_SECRET_FRAGMENT));
    }
  }
}

/** Forget every secret (a test's own, between runs in one process). */
export function forgetSecrets(): void {
  whole.clear();
  pieces.clear();
}

/**
 * `text` with every secret kept ({@linkcode keepSecret}) taken out, each
 * run of it replaced by {@linkcode REDACTED}; `text` itself when none is
 * kept.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { forgetSecrets, keepSecret, redact } from "./secrets.ts";
 * keepSecret("Bearer tok-0123456789");
 * assert.equal(redact("auth=Bearer tok-0123456789!"), "auth=***!");
 * // Split across two fields, or cut: each piece of 8 or more goes.
 * assert.equal(redact('{"a":"Bearer tok-0","b":"123456789"}'), '{"a":"***","b":"***"}');
 * assert.equal(redact("seen: Bearer tok…"), "seen: ***…");
 * forgetSecrets();
 * assert.equal(redact("Bearer tok-0123456789"), "Bearer tok-0123456789");
 * ```
 */
export function redact(text: string): string {
  if (whole.size === 0) return text;
  // Where a secret (or a run of its pieces) covers the text.
  const covered = new Uint8Array(text.length);
  let any = false;
  for (const form of whole) {
    for (
      let at = text.indexOf(form);
      at >= 0;
      // Past the one found: the search always advances (a form is never "").
      at = text.indexOf(form, at + form.length)
    ) {
      covered.fill(1, at, at + form.length);
      any = true;
    }
  }
  if (pieces.size > 0) {
    for (let at = 0; at + MIN_SECRET_FRAGMENT <= text.length; at++) {
      if (pieces.has(text.slice(at, at + MIN_SECRET_FRAGMENT))) {
        covered.fill(1, at, at + MIN_SECRET_FRAGMENT);
        any = true;
      }
    }
  }
  if (!any) return text;
  // Widen each run so it cuts no escape in two (see wholeEscapes).
  for (let at = 0; at < text.length; at++) {
    if (covered[at] === 0) continue;
    let end = at;
    while (end < text.length && covered[end] === 1) end++;
    const [from, to] = wholeEscapes(text, at, end);
    covered.fill(1, from, to);
    at = to;
  }
  let out = "";
  for (let at = 0; at < text.length;) {
    const kind = covered[at];
    let end = at;
    while (end < text.length && covered[end] === kind) end++;
    out += kind === 1 ? REDACTED : text.slice(at, end);
    at = end;
  }
  return out;
}

/**
 * Widen the run [start, end) so it does not cut an escape in two: a JSON
 * `\` escape, or an XML `&…;` entity. A half escape left beside the
 * replacement would make the JSON or XML around it unreadable.
 */
function wholeEscapes(
  text: string,
  start: number,
  end: number,
): [number, number] {
  // A backslash just before the run escapes its first character.
  while (start > 0 && text[start - 1] === "\\") start--;
  // A run that ends on a backslash takes the character it escapes.
  if (end < text.length && text[end - 1] === "\\") end++;
  // An entity the run starts inside of, or ends inside of.
  const amp = text.lastIndexOf("&", start);
  if (amp >= 0 && start - amp <= 6 && !text.slice(amp, start).includes(";")) {
    start = amp;
  }
  const semi = text.indexOf(";", end);
  const open = text.lastIndexOf("&", end - 1);
  if (
    open >= start && semi >= 0 && semi - end < 6 &&
    !text.slice(open, end).includes(";")
  ) end = semi + 1;
  return [start, end];
}
