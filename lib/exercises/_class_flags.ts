/**
 * What only the whole class shows, flagged once every hand-in is graded:
 *
 * - identical hand-ins: the same digest, or the same answers byte for byte
 *   (a file handed in twice, or handed in under another name);
 * - one variant seed in two hand-ins that are not identical: one student's
 *   work was the start of the other's;
 * - one name in two hand-ins that are not identical (real namesakes, or a
 *   borrowed name): the table then shows each row's file;
 * - copies: an answer identical to one that passes for its owner, yet fails
 *   for this student (the pasted answer names the owner's values).
 *
 * Each flag names the other files, so the teacher can open them.
 *
 * @module
 */
import type { Row, Seen } from "./class_grade.ts";
import { nameKey } from "./student.ts";

/** Flag `rows` for what they share; `seen` holds what grading learnt of each readable one. */
export function flagClass(
  rows: Row[],
  seen: ReadonlyMap<Row, Seen>,
  answers: ReadonlyMap<number, ReadonlyMap<string, Row[]>>,
): void {
  const identical = new Map<Row, Set<Row>>();
  const same = (a: Row, b: Row) => identical.get(a)?.has(b) ?? false;
  const graded = rows.filter((r) => seen.has(r));
  for (const [i, a] of graded.entries()) {
    for (const b of graded.slice(i + 1)) {
      const [x, y] = [seen.get(a)!, seen.get(b)!];
      if (
        x.digest === y.digest || (x.answers !== null && x.answers === y.answers)
      ) {
        for (const [p, q] of [[a, b], [b, a]]) {
          identical.set(p, (identical.get(p) ?? new Set()).add(q));
        }
      }
    }
  }
  for (const row of graded) {
    const twins = identical.get(row);
    if (twins) row.flags.push({ kind: "identical", of: files(twins) });
  }
  groups(graded, (r) => seen.get(r)!.variant, (row, group) => {
    const others = group.filter((o) => o !== row && !same(row, o));
    if (others.length > 0) {
      row.flags.push({ kind: "same-variant", of: files(others) });
    }
  });
  groups(graded, (r) => nameKey(r.name!), (row, group) => {
    const others = group.filter((o) => o !== row && !same(row, o));
    if (others.length > 0) {
      row.flags.push({ kind: "duplicate-name", others: files(others) });
    }
  });
  flagCopies(answers);
}

function files(rows: Iterable<Row>): string[] {
  return [...rows].map((r) => r.file);
}

/** Call `each(row, group)` for every row of a group of two or more with one key (null: none). */
function groups(
  rows: Row[],
  keyOf: (row: Row) => string | null,
  each: (row: Row, group: Row[]) => void,
): void {
  const by = new Map<string, Row[]>();
  for (const row of rows) {
    const key = keyOf(row);
    if (key !== null) by.set(key, [...(by.get(key) ?? []), row]);
  }
  for (const group of by.values()) {
    if (group.length < 2) continue;
    for (const row of group) each(row, group);
  }
}

/**
 * An answer identical to one that passes for its owner, yet fails for this
 * student, is a copy: the pasted file names the owner's values.
 */
function flagCopies(
  answers: ReadonlyMap<number, ReadonlyMap<string, Row[]>>,
): void {
  for (const [n, byKey] of answers) {
    for (const group of byKey.values()) {
      const owners = group.filter((r) => r.cells[n] === "done");
      if (owners.length === 0) continue;
      for (const row of group) {
        if (row.cells[n] !== "not-yet") continue;
        row.cells[n] = "copy";
        row.flags.push({
          kind: "copy",
          exercise: n,
          of: owners.filter((o) => o !== row).map((o) => o.file),
        });
      }
    }
  }
}
