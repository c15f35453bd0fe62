/**
 * What only the whole class shows, flagged once every hand-in is graded:
 *
 * - identical hand-ins: the same digest, or the same answers byte for byte
 *   (a file handed in twice, or handed in under another name); predictions
 *   aside, since a prediction has one right answer;
 * - one variant seed in two hand-ins that are not identical: one student's
 *   work was the start of the other's;
 * - one name in two hand-ins that are not identical (real namesakes, or a
 *   borrowed name): the table then shows each row's file; and two names
 *   that only look the same (they differ in case, width, invisible code
 *   points or look-alike letters of another script, "Li Lei" and "Li Leі"),
 *   with the code points of the odd letters;
 * - copies: an answer identical to one that passes for its owner, yet fails
 *   for this student (the pasted answer names the owner's values).
 *
 * Each flag names the other files, so the teacher can open them. The flags
 * are symmetric: who copied whom is the teacher's call, so for each flagged
 * group the order in which its hand-ins first checked each exercise is set
 * out (as the hand-ins say it), never guessed.
 *
 * @module
 */
import type { OrderBlock, Row, Seen } from "./class_grade.ts";
import { lookAlikeKey, oddLetters } from "../base/fold.ts";

/** The code points of `name` that show nothing, or pass for another letter. */
function unseen(name: string): string[] {
  const hidden = name.match(/[\p{Cf}\p{Default_Ignorable_Code_Point}]/gu);
  return [...hidden ?? [], ...oddLetters(name)];
}

/** A code point as a line names it: `U+0456`. */
function codePoint(c: string): string {
  return `U+${c.codePointAt(0)!.toString(16).toUpperCase().padStart(4, "0")}`;
}

/** What the class shows besides each row's flags. */
export interface ClassFlags {
  /** For each flagged group and exercise, when each hand-in first checked it. */
  order: OrderBlock[];
  /** Each row's group of identical hand-ins (rows of one group share a number). */
  sameWork: ReadonlyMap<Row, number>;
}

/** Flag `rows` for what they share; `seen` holds what grading learnt of each readable one. */
export function flagClass(
  rows: Row[],
  seen: ReadonlyMap<Row, Seen>,
  answers: ReadonlyMap<number, ReadonlyMap<string, Row[]>>,
  exercises: readonly number[],
): ClassFlags {
  const identical = new Map<Row, Set<Row>>();
  const same = (a: Row, b: Row) => identical.get(a)?.has(b) ?? false;
  const graded = rows.filter((r) => seen.has(r));
  // Pairs whose order a teacher may need: [a, b, the exercise or all].
  const linked: [Row, Row, number | null][] = [];
  for (const [i, a] of graded.entries()) {
    for (const b of graded.slice(i + 1)) {
      const [x, y] = [seen.get(a)!, seen.get(b)!];
      if (
        x.digest === y.digest || (x.answers !== null && x.answers === y.answers)
      ) {
        for (const [p, q] of [[a, b], [b, a]]) {
          identical.set(p, (identical.get(p) ?? new Set()).add(q));
        }
        linked.push([a, b, null]);
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
      // Each pair once (the group is walked from both ends).
      for (const o of others) {
        if (group.indexOf(o) > group.indexOf(row)) {
          linked.push([row, o, null]);
        }
      }
    }
  });
  groups(graded, (r) => lookAlikeKey(r.name!), (row, group) => {
    const others = group.filter((o) => o !== row && !same(row, o));
    // The same name, or one that only looks the same: the odd letters of
    // each pair named by their code points, as an invisible one is shown.
    const namesake = others.filter((o) => o.name === row.name);
    const alike = others.filter((o) => o.name !== row.name);
    if (namesake.length > 0) {
      row.flags.push({ kind: "duplicate-name", others: files(namesake) });
    }
    if (alike.length > 0) {
      const letters = new Set(
        [row, ...alike].flatMap((r) => unseen(r.name!)).map(codePoint),
      );
      row.flags.push({
        kind: "look-alike-name",
        others: files(alike),
        letters: [...letters],
      });
    }
  });
  linked.push(...flagCopies(answers));
  return {
    order: orderOf(linked, exercises),
    sameWork: components(
      graded,
      [...identical].flatMap(([a, bs]) =>
        [...bs].map((b) => [a, b] as [Row, Row])
      ),
    ),
  };
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
 * student, is a copy: the pasted file names the owner's values. Returns
 * each copy with its owners, for the order.
 */
function flagCopies(
  answers: ReadonlyMap<number, ReadonlyMap<string, Row[]>>,
): [Row, Row, number][] {
  const pairs: [Row, Row, number][] = [];
  for (const [n, byKey] of answers) {
    for (const group of byKey.values()) {
      const owners = group.filter((r) => r.cells[n] === "done");
      if (owners.length === 0) continue;
      for (const row of group) {
        if (row.cells[n] !== "not-yet") continue;
        row.cells[n] = "copy";
        const of = owners.filter((o) => o !== row);
        row.flags.push({ kind: "copy", exercise: n, of: files(of) });
        for (const o of of) pairs.push([row, o, n]);
      }
    }
  }
  return pairs;
}

/** The group number of each row, rows joined by `pairs` sharing one. */
function components(
  rows: readonly Row[],
  pairs: readonly [Row, Row][],
): Map<Row, number> {
  const parent = new Map<Row, Row>(rows.map((r) => [r, r]));
  const root = (r: Row): Row => {
    while (parent.get(r) !== r) r = parent.get(r)!;
    return r;
  };
  for (const [a, b] of pairs) parent.set(root(a), root(b));
  const numbers = new Map<Row, number>();
  const group = new Map<Row, number>();
  for (const r of rows) {
    const top = root(r);
    if (!numbers.has(top)) numbers.set(top, numbers.size);
    group.set(r, numbers.get(top)!);
  }
  return group;
}

/**
 * For each exercise, the flagged groups that handed it in (two or more
 * hand-ins joined by the pairs that concern it: identical or one seed for
 * every exercise both handed in, a copy for its own), each hand-in with its
 * first check, earliest first (a time not known last).
 */
function orderOf(
  linked: readonly [Row, Row, number | null][],
  exercises: readonly number[],
): OrderBlock[] {
  const blocks: OrderBlock[] = [];
  const handed = (r: Row, n: number) =>
    r.cells[n] !== undefined && r.cells[n] !== "missing";
  for (const n of exercises) {
    const pairs = linked.filter(([a, b, at]) =>
      (at === null || at === n) && handed(a, n) && handed(b, n)
    ).map(([a, b]) => [a, b] as [Row, Row]);
    const rows = [...new Set(pairs.flat())];
    const group = components(rows, pairs);
    const members = new Map<number, Row[]>();
    for (const r of rows) {
      members.set(group.get(r)!, [...(members.get(group.get(r)!) ?? []), r]);
    }
    for (const list of members.values()) {
      const at = (t: string | null) => t === null ? Infinity : Date.parse(t);
      const handIns = list.map((r) => ({
        file: r.file,
        first: r.first[n] ?? null,
      })).sort((x, y) =>
        at(x.first) - at(y.first) ||
        (x.file < y.file ? -1 : x.file > y.file ? 1 : 0)
      );
      blocks.push({ exercise: n, handIns });
    }
  }
  return blocks;
}
