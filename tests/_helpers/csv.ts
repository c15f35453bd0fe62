/**
 * CSV read as a spreadsheet reads it (RFC 4180): an optional UTF-8 byte
 * order mark, fields separated by commas, a field in double quotes may hold
 * commas, line breaks and `""` for a quote, and a record ends at LF or CRLF.
 * Written here, not taken from the program, so a test of `--csv` does not
 * use the code it checks.
 */

/** The rows of `text`, and whether it started with a BOM. */
export function readCsv(text: string): { bom: boolean; rows: string[][] } {
  const bom = text.startsWith("\ufeff");
  const body = bom ? text.slice(1) : text;
  const rows: string[][] = [];
  let row: string[] = [];
  let field = "";
  let quoted = false;
  for (let i = 0; i < body.length; i++) {
    const c = body[i];
    if (quoted) {
      if (c === '"' && body[i + 1] === '"') {
        field += '"';
        i++;
      } else if (c === '"') quoted = false;
      else field += c;
    } else if (c === '"') quoted = true;
    else if (c === ",") {
      row.push(field);
      field = "";
    } else if (c === "\n" || (c === "\r" && body[i + 1] === "\n")) {
      if (c === "\r") i++;
      row.push(field);
      rows.push(row);
      row = [];
      field = "";
    } else field += c;
  }
  if (field !== "" || row.length > 0) {
    row.push(field);
    rows.push(row);
  }
  return { bom, rows };
}
