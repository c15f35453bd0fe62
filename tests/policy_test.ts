import assert from "node:assert/strict";
import { isSqliteError } from "../lib/errors.ts";
import { policyDemo } from "../lib/experiments/demo.ts";
import { join } from "node:path";
import type { DatabaseSync } from "node:sqlite";
import expectedPolicy from "../fixtures/expected-policy.json" with {
  type: "json",
};
import {
  changePolicy,
  connect,
  initialize,
  InjectedFailure,
  InputRejected,
  insertChecked,
  insertNaive,
  precheck,
  rows,
} from "../lib/mod.ts";

const REQUEST = { job: "JOB-001", copies: 2 };

/** One scenario with two real connections to one fresh file, as the reference fixture. */
function scenario(
  t: Deno.TestContext,
  name: string,
  body: (reader: DatabaseSync, editor: DatabaseSync) => void,
): Promise<boolean> {
  return t.step(name, async () => {
    const dir = await Deno.makeTempDir({ prefix: "guardlab-policy-" });
    const path = join(dir, "fixture.sqlite");
    const reader = connect(path);
    const editor = connect(path);
    try {
      initialize(reader);
      body(reader, editor);
    } finally {
      reader.close();
      editor.close();
      await Deno.remove(dir, { recursive: true });
    }
  });
}

Deno.test("policy boundary: the 14 reference scenarios", async (t) => {
  await scenario(t, "unchanged rule commits", (reader, editor) => {
    const seen = precheck(reader, REQUEST);
    assert.equal(insertChecked(reader, REQUEST, seen), true);
    assert.deepEqual(rows(editor), [["JOB-001", 2, 1]]);
  });

  await scenario(t, "negative control accepts stale rule", (reader, editor) => {
    const seen = precheck(reader, REQUEST);
    changePolicy(editor, 1);
    insertNaive(reader, REQUEST, seen);
    assert.deepEqual(rows(editor), [["JOB-001", 2, 1]]);
  });

  await scenario(t, "changed rule inserts nothing", (reader, editor) => {
    const seen = precheck(reader, REQUEST);
    changePolicy(editor, 1);
    assert.equal(insertChecked(reader, REQUEST, seen), false);
    assert.deepEqual(rows(editor), []);
    assert.equal(reader.isTransaction, false);
  });

  await scenario(
    t,
    "fresh check still refuses same input",
    (reader, editor) => {
      changePolicy(editor, 1);
      assert.throws(
        () => precheck(reader, REQUEST),
        new InputRejected("current_limit"),
      );
      assert.deepEqual(rows(editor), []);
    },
  );

  await scenario(t, "recovery requires new valid input", (reader, editor) => {
    const seen = precheck(reader, REQUEST);
    changePolicy(editor, 1);
    assert.equal(insertChecked(reader, REQUEST, seen), false);
    const smaller = { job: "JOB-002", copies: 1 };
    const fresh = precheck(reader, smaller);
    assert.equal(insertChecked(reader, smaller, fresh), true);
    assert.deepEqual(rows(editor), [["JOB-002", 1, 2]]);
  });

  await scenario(
    t,
    "restoring value does not restore revision",
    (reader, editor) => {
      const seen = precheck(reader, REQUEST);
      changePolicy(editor, 1);
      changePolicy(editor, 3);
      assert.equal(insertChecked(reader, REQUEST, seen), false);
      assert.deepEqual(rows(editor), []);
    },
  );

  await scenario(
    t,
    "relaxed rule still requires fresh check",
    (reader, editor) => {
      const seen = precheck(reader, REQUEST);
      changePolicy(editor, 4);
      assert.equal(insertChecked(reader, REQUEST, seen), false);
      const fresh = precheck(reader, REQUEST);
      assert.equal(insertChecked(reader, REQUEST, fresh), true);
      assert.deepEqual(rows(editor), [["JOB-001", 2, 2]]);
    },
  );

  await scenario(
    t,
    "current predicate rechecks changed arguments",
    (reader, editor) => {
      const seen = precheck(reader, REQUEST);
      assert.equal(
        insertChecked(reader, { job: "JOB-001", copies: 4 }, seen),
        false,
      );
      assert.deepEqual(rows(editor), []);
    },
  );

  await scenario(t, "precommit failure rolls back", (reader, editor) => {
    const seen = precheck(reader, REQUEST);
    assert.throws(
      () => insertChecked(reader, REQUEST, seen, { failBeforeCommit: true }),
      new InjectedFailure("injected_before_commit"),
    );
    assert.deepEqual(rows(editor), []);
    assert.equal(reader.isTransaction, false);
  });

  await scenario(
    t,
    "duplicate key is error not rule change",
    (reader, editor) => {
      const seen = precheck(reader, REQUEST);
      assert.equal(insertChecked(reader, REQUEST, seen), true);
      assert.throws(
        () => insertChecked(reader, REQUEST, seen),
        (e) => isSqliteError(e) && /UNIQUE/.test(e.message),
      );
      assert.deepEqual(rows(editor), [["JOB-001", 2, 1]]);
      assert.equal(reader.isTransaction, false);
    },
  );

  await scenario(t, "busy is error not rule change", (reader, editor) => {
    const seen = precheck(reader, REQUEST);
    editor.exec("BEGIN IMMEDIATE");
    try {
      assert.throws(
        () => insertChecked(reader, REQUEST, seen),
        (e) => isSqliteError(e) && /locked|busy/.test(e.message),
      );
      assert.equal(reader.isTransaction, false);
    } finally {
      editor.exec("ROLLBACK");
    }
    assert.deepEqual(rows(editor), []);
  });

  await scenario(t, "missing policy does not insert", (reader, editor) => {
    const seen = precheck(reader, REQUEST);
    editor.exec("DELETE FROM policy");
    assert.equal(insertChecked(reader, REQUEST, seen), false);
    assert.deepEqual(rows(editor), []);
    assert.throws(
      () => precheck(reader, REQUEST),
      new InputRejected("missing_policy"),
    );
  });

  await scenario(t, "bad request shapes", (reader, editor) => {
    const bad: [unknown, unknown, string][] = [
      ["../x", 2, "job"],
      ["JOB-001", true, "copies"],
      ["JOB-001", 0, "copies"],
      ["JOB-001", 10, "copies"],
      ["JOB-001\n", 2, "job"],
      ["JOB-001", 2.5, "copies"],
    ];
    for (const [job, copies, reason] of bad) {
      assert.throws(
        () => precheck(reader, { job, copies }),
        new InputRejected(reason),
      );
    }
    assert.deepEqual(rows(editor), []);
  });

  await t.step("manual oracle", async () => {
    const dir = await Deno.makeTempDir({ prefix: "guardlab-policy-demo-" });
    try {
      assert.deepEqual(await policyDemo(dir), expectedPolicy);
      assert.deepEqual(
        [...Deno.readDirSync(dir)],
        [],
        "each fixture database is removed",
      );
    } finally {
      await Deno.remove(dir, { recursive: true });
    }
  });
});

Deno.test("policy boundary: changePolicy is trusted setup with its own validation", async (t) => {
  await scenario(
    t,
    "every change advances the revision, even to the same value",
    (reader, editor) => {
      changePolicy(editor, 3);
      assert.deepEqual({ ...precheck(reader, REQUEST) }, {
        revision: 2,
        max_copies: 3,
      });
    },
  );
  await scenario(
    t,
    "out-of-range limits are refused and change nothing",
    (reader, editor) => {
      for (const bad of [-1, 10, 1.5, true, "2"]) {
        assert.throws(() => changePolicy(editor, bad), RangeError);
      }
      assert.deepEqual({ ...precheck(reader, REQUEST) }, {
        revision: 1,
        max_copies: 3,
      });
    },
  );
});
