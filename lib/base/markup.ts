/**
 * Markup every guardlab document shares, SVG and XML alike (the lab's
 * timelines, accept's lanes, the JUnit report): text escaped so any XML
 * parser accepts it, and the opening of an SVG with fonts for both
 * languages.
 *
 * @module
 */
import { inert } from "./terminal.ts";

/**
 * A character XML 1.0 does not allow in a document (its `Char` production
 * is tab, line feed, carriage return, U+0020–U+D7FF, U+E000–U+FFFD and
 * U+10000–U+10FFFF): C0 controls, U+FFFE, U+FFFF, unpaired surrogates.
 */
const NOT_XML_CHAR =
  /[^\t\n\r\u0020-\ud7ff\ue000-\ufffd\u{10000}-\u{10ffff}]/gu;

/**
 * Escape text for XML content and attributes; `@std/html`'s `escape` is
 * the JSR equivalent. The result is always text an XML parser accepts,
 * whatever the ledger held.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { xmlEscape } from "./markup.ts";
 * assert.equal(xmlEscape("<a>\uffff"), "&lt;a&gt;\\uffff");
 * ```
 */
export function xmlEscape(text: string): string {
  // Control and invisible characters, and those XML forbids, are written
  // as \uXXXX first: XML allows no controls, bidirectional overrides would
  // reorder what a slide shows, and an invisible one would hide a
  // difference. What `inert` leaves is checked against XML's own rule.
  return inert(text).replace(
    NOT_XML_CHAR,
    (c) => "\\u" + c.charCodeAt(0).toString(16).padStart(4, "0"),
  ).replace(
    /[<>&"']/g,
    (c) =>
      ({
        "<": "&lt;",
        ">": "&gt;",
        "&": "&amp;",
        '"': "&quot;",
        "'": "&apos;",
      })[c]!,
  );
}

/**
 * Fonts for both languages: the CJK faces first where a machine has them
 * (Linux: Noto Sans CJK or WenQuanYi; macOS: PingFang; Windows: Microsoft
 * YaHei). A machine with none shows empty boxes for Chinese text.
 */
export const FONT_STACK: string =
  "'Noto Sans CJK SC', 'Source Han Sans SC', 'PingFang SC', " +
  "'Microsoft YaHei', 'WenQuanYi Micro Hei', sans-serif";

/**
 * The opening of every guardlab SVG: the document with the CJK-capable font
 * stack, its title, a white page and the title drawn at the top left.
 */
export function svgStart(
  title: string,
  width: number,
  height: number,
  fontSize: number,
): string[] {
  return [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" ` +
    `viewBox="0 0 ${width} ${height}" font-family="${FONT_STACK}" font-size="${fontSize}">`,
    `<title>${xmlEscape(title)}</title>`,
    `<rect width="${width}" height="${height}" fill="#ffffff"/>`,
    `<text x="20" y="30" font-size="18" font-weight="bold">${
      xmlEscape(title)
    }</text>`,
  ];
}
