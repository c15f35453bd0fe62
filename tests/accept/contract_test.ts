/**
 * The idempotency-key contract's cases over MCP, against the fixture
 * server: the in-flight conflict a server declares retryable (judged
 * safe under its own verdict when the oracle declares it, and the old
 * verdict with the way to declare it when not), and the places a key may
 * live. Each verdict is checked against the fixture's own store.
 */
import assert from "node:assert/strict";
import { EXAMPLE_ORACLE } from "../../lib/accept/example_oracle.ts";
import type { WriteTool } from "../../lib/accept/oracle.ts";
import { acceptScreen } from "../../lib/accept/views/accept_view.ts";
import {
  acceptFixture as accept,
  CAN_START,
  matrixOf,
  NEEDS_START,
  storedUnder,
} from "../_helpers/accept_helpers.ts";

const TOOL = EXAMPLE_ORACLE.tools[0];

/** The example oracle's entry with `more`. */
function oracleWith(more: Partial<WriteTool>) {
  return { tools: [{ ...TOOL, ...more } as WriteTool] };
}

/** The screen of `report` in `lang`, one string. */
function screenOf(
  report: Parameters<typeof acceptScreen>[0],
  lang: "en" | "zh",
): string {
  return acceptScreen(report, {
    source: { kind: "command" },
    timeline: false,
    exit: 0,
  }, lang)
    .join("\n");
}

Deno.test({
  name:
    "contract: a declared in-flight conflict (a JSON-RPC code) with a retry that gets the result is ONCE-AFTER-CONFLICT, safe; one note in the fixture's store" +
    NEEDS_START,
  ignore: !CAN_START,
  async fn() {
    const report = await accept("in-flight-conflict", ["concurrent-same"], {
      oracle: oracleWith({ conflict: { code: -32010 } }),
    });
    assert.deepEqual(matrixOf(report), [
      "concurrent-same: ONCE-AFTER-CONFLICT",
    ]);
    const row = report.results[0];
    assert.equal(report.unsafe, 0);
    assert.equal(row.class, "safe");
    assert.ok((row.conflicts ?? 0) >= 1, JSON.stringify(row.answers));
    // Ten copies, then the one retry after the conflict.
    assert.equal(row.client_saw.length, 11);
    assert.equal(row.client_saw.at(-1), "success");
    const key = row.key;
    assert.equal(storedUnder(report, key), 1);
    assert.match(screenOf(report, "en"), /refused with the declared conflict/);
    assert.match(screenOf(report, "zh"), /收到了声明的冲突/);
  },
});

Deno.test({
  name:
    "contract: the same fixture, no conflict declared: the refused copies are FALSE-FAILURE, and the screen says how to declare the code it saw" +
    NEEDS_START,
  ignore: !CAN_START,
  async fn() {
    const report = await accept("in-flight-conflict", ["concurrent-same"]);
    assert.deepEqual(matrixOf(report), ["concurrent-same: FALSE-FAILURE"]);
    const row = report.results[0];
    // No retry without a declared conflict: the ten copies only.
    assert.equal(row.client_saw.length, 10);
    assert.equal(storedUnder(report, row.key), 1);
    assert.match(screenOf(report, "en"), /"conflict": \{"code": -32010\}/);
    assert.match(screenOf(report, "zh"), /"conflict": \{"code": -32010\}/);
  },
});

Deno.test({
  name:
    "contract: a conflict declared as a pointer and a value into the tool result ({json, value}) is ONCE-AFTER-CONFLICT once its retry gets the result; another value is FALSE-FAILURE; one note in the store either way" +
    NEEDS_START,
  ignore: !CAN_START,
  async fn() {
    const pointer = "/structuredContent/error/code";
    const report = await accept("in-flight-conflict-result", [
      "concurrent-same",
    ], {
      oracle: oracleWith({ conflict: { json: pointer, value: "IN_FLIGHT" } }),
    });
    assert.deepEqual(matrixOf(report), [
      "concurrent-same: ONCE-AFTER-CONFLICT",
    ]);
    const row = report.results[0];
    assert.equal(row.class, "safe");
    assert.ok((row.conflicts ?? 0) >= 1, JSON.stringify(row.answers));
    // Ten copies, then the one retry after the conflict.
    assert.equal(row.client_saw.length, 11);
    assert.equal(row.client_saw.at(-1), "success");
    assert.equal(storedUnder(report, row.key), 1);
    // The value at the pointer is kept with each refused answer, so the
    // history can be judged again without the server.
    assert.ok(
      JSON.stringify(row.history.records).includes('"pointed":"IN_FLIGHT"'),
      "the pointed value is recorded",
    );

    const other = await accept("in-flight-conflict-result", [
      "concurrent-same",
    ], { oracle: oracleWith({ conflict: { json: pointer, value: "BUSY" } }) });
    assert.deepEqual(matrixOf(other), ["concurrent-same: FALSE-FAILURE"]);
    assert.equal(other.results[0].client_saw.length, 10);
    assert.equal(storedUnder(other, other.results[0].key), 1);
  },
});

Deno.test({
  name:
    "contract: a conflict declared where the server says nothing of the kind (correct) changes nothing: ONCE, no retry" +
    NEEDS_START,
  ignore: !CAN_START,
  async fn() {
    const report = await accept("correct", ["concurrent-same"], {
      oracle: oracleWith({ conflict: { code: -32010 } }),
    });
    assert.deepEqual(matrixOf(report), ["concurrent-same: ONCE"]);
    assert.equal(report.results[0].client_saw.length, 10);
    assert.equal(storedUnder(report, report.results[0].key), 1);
  },
});

/** The cases a key beside the arguments is tested with, and their rows by hand. */
const ASIDE_CASES = [
  "once",
  "lost-reply-retry",
  "concurrent-same",
  "replay-after-completion",
  "missing-key",
] as const;
const ASIDE_ROWS = [
  "once: ONCE",
  "lost-reply-retry: ONCE",
  "concurrent-same: ONCE",
  // The stored result, as it was.
  "replay-after-completion: REPLAYED",
  // Refused with isError, and no note.
  "missing-key: KEY-REQUIRED",
];

for (
  const [place, more] of [
    ["_meta", {
      key_in: "_meta",
      meta: { idempotencyKey: "k-{run}-{n:3}" },
      key: "/idempotencyKey",
    }],
    ["idempotencyKey", {
      key_in: "idempotencyKey",
      idempotency_key: "k-{run}-{n:3}",
      key: "",
    }],
  ] as const
) {
  Deno.test({
    name:
      `contract: a key in ${place} goes there in every call (none in the missing-key case), and the fixture that reads it there is judged on it` +
      NEEDS_START,
    ignore: !CAN_START,
    async fn() {
      // The note's id is no longer the key: the read counts by the id.
      const report = await accept("key-aside", ASIDE_CASES, {
        oracle: oracleWith({
          ...more,
          read: { tool: "get_notes", arguments: { id: "note-{run}-{n:3}" } },
          count: { json: "/notes", match: { id: "note-{run}-{n:3}" } },
        } as Partial<WriteTool>),
      });
      assert.deepEqual(matrixOf(report), ASIDE_ROWS);
      for (const row of report.results) {
        const calls = row.history.records.filter((r) => r.op === "call");
        for (const c of calls) {
          assert.ok(c.op === "call");
          assert.equal(c.key, `k-${row.run}-001`, row.case);
          if (place === "_meta") {
            assert.deepEqual(
              c.meta,
              c.keyless ? {} : { idempotencyKey: c.key },
              row.case,
            );
          } else assert.equal(c.meta, undefined);
        }
        const id = `note-${row.run}-001`;
        assert.equal(
          storedUnder(report, id),
          row.case === "missing-key" ? 0 : 1,
          row.case,
        );
      }
    },
  });
}

Deno.test({
  name:
    "contract: the same fixture with the key declared among the arguments: missing-key is NOT-RUN (that call is rejected's), and the calls carry no key beside them, so the fixture refuses them (NONE)" +
    NEEDS_START,
  ignore: !CAN_START,
  async fn() {
    const report = await accept("key-aside", ["once", "missing-key"]);
    // Refused for want of the key, nothing written: a valid call that left
    // no effect.
    assert.deepEqual(matrixOf(report), [
      "once: NONE",
      "missing-key: NOT-RUN",
    ]);
  },
});
