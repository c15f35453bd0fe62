import assert from "node:assert/strict";
import { isSqliteError } from "../../lib/base/errors.ts";
import { policyDemo } from "../../lib/experiments/demo.ts";
import { join } from "node:path";
import expectedPolicy from "../../fixtures/expected-policy.json" with {
  type: "json",
};
import { InjectedFailure, InputRejected, PolicyLab } from "../../lib/mod.ts";
import { tempDir } from "../_helpers/tmp.ts";

const REQUEST = { job: "JOB-001", copies: 2 };

/** One scenario with two real connections to one fresh file, as the reference fixture. */
function scenario(
  t: Deno.TestContext,
  name: string,
  body: (reader: PolicyLab, editor: PolicyLab) => void,
): Promise<boolean> {
  return t.step(name, async () => {
    const dir = await Deno.makeTempDir({ prefix: "guardlab-policy-" });
    const path = join(dir, "fixture.sqlite");
    const reader = PolicyLab.open(path);
    const editor = PolicyLab.open(path);
    try {
      reader.initialize();
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
    const seen = reader.precheck(REQUEST);
    assert.equal(reader.insertChecked(REQUEST, seen), true);
    assert.deepEqual(editor.rows(), [["JOB-001", 2, 1]]);
  });

  await scenario(t, "negative control accepts stale rule", (reader, editor) => {
    const seen = reader.precheck(REQUEST);
    editor.changePolicy(1);
    reader.insertNaive(REQUEST, seen);
    assert.deepEqual(editor.rows(), [["JOB-001", 2, 1]]);
  });

  await scenario(t, "changed rule inserts nothing", (reader, editor) => {
    const seen = reader.precheck(REQUEST);
    editor.changePolicy(1);
    assert.equal(reader.insertChecked(REQUEST, seen), false);
    assert.deepEqual(editor.rows(), []);
    assert.equal(reader.inTransaction, false);
  });

  await scenario(
    t,
    "fresh check still refuses same input",
    (reader, editor) => {
      editor.changePolicy(1);
      assert.throws(
        () => reader.precheck(REQUEST),
        new InputRejected("current_limit"),
      );
      assert.deepEqual(editor.rows(), []);
    },
  );

  await scenario(t, "recovery requires new valid input", (reader, editor) => {
    const seen = reader.precheck(REQUEST);
    editor.changePolicy(1);
    assert.equal(reader.insertChecked(REQUEST, seen), false);
    const smaller = { job: "JOB-002", copies: 1 };
    const fresh = reader.precheck(smaller);
    assert.equal(reader.insertChecked(smaller, fresh), true);
    assert.deepEqual(editor.rows(), [["JOB-002", 1, 2]]);
  });

  await scenario(
    t,
    "restoring value does not restore revision",
    (reader, editor) => {
      const seen = reader.precheck(REQUEST);
      editor.changePolicy(1);
      editor.changePolicy(3);
      assert.equal(reader.insertChecked(REQUEST, seen), false);
      assert.deepEqual(editor.rows(), []);
    },
  );

  await scenario(
    t,
    "relaxed rule still requires fresh check",
    (reader, editor) => {
      const seen = reader.precheck(REQUEST);
      editor.changePolicy(4);
      assert.equal(reader.insertChecked(REQUEST, seen), false);
      const fresh = reader.precheck(REQUEST);
      assert.equal(reader.insertChecked(REQUEST, fresh), true);
      assert.deepEqual(editor.rows(), [["JOB-001", 2, 2]]);
    },
  );

  await scenario(
    t,
    "current predicate rechecks changed arguments",
    (reader, editor) => {
      const seen = reader.precheck(REQUEST);
      assert.equal(
        reader.insertChecked({ job: "JOB-001", copies: 4 }, seen),
        false,
      );
      assert.deepEqual(editor.rows(), []);
    },
  );

  await scenario(t, "precommit failure rolls back", (reader, editor) => {
    const seen = reader.precheck(REQUEST);
    assert.throws(
      () => reader.insertChecked(REQUEST, seen, { failBeforeCommit: true }),
      new InjectedFailure("injected_before_commit"),
    );
    assert.deepEqual(editor.rows(), []);
    assert.equal(reader.inTransaction, false);
  });

  await scenario(
    t,
    "duplicate key is error not rule change",
    (reader, editor) => {
      const seen = reader.precheck(REQUEST);
      assert.equal(reader.insertChecked(REQUEST, seen), true);
      assert.throws(
        () => reader.insertChecked(REQUEST, seen),
        (e) => isSqliteError(e) && /UNIQUE/.test(e.message),
      );
      assert.deepEqual(editor.rows(), [["JOB-001", 2, 1]]);
      assert.equal(reader.inTransaction, false);
    },
  );

  await scenario(t, "busy is error not rule change", (reader, editor) => {
    const seen = reader.precheck(REQUEST);
    editor.holdWriteLock();
    try {
      assert.throws(
        () => reader.insertChecked(REQUEST, seen),
        (e) => isSqliteError(e) && /locked|busy/.test(e.message),
      );
      assert.equal(reader.inTransaction, false);
    } finally {
      editor.releaseWriteLock();
    }
    assert.deepEqual(editor.rows(), []);
  });

  await scenario(t, "missing policy does not insert", (reader, editor) => {
    const seen = reader.precheck(REQUEST);
    editor.deleteRule();
    assert.equal(reader.insertChecked(REQUEST, seen), false);
    assert.deepEqual(editor.rows(), []);
    assert.throws(
      () => reader.precheck(REQUEST),
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
        () => reader.precheck({ job, copies }),
        new InputRejected(reason),
      );
    }
    assert.deepEqual(editor.rows(), []);
  });

  await t.step("manual oracle", async () => {
    await using dirFolder = await tempDir("guardlab-policy-demo-");
    const dir = dirFolder.path;
    assert.deepEqual(await policyDemo(dir), expectedPolicy);
    assert.deepEqual(
      [...Deno.readDirSync(dir)],
      [],
      "each fixture database is removed",
    );
  });
});

Deno.test("policy boundary: changePolicy is trusted setup with its own validation", async (t) => {
  await scenario(
    t,
    "every change advances the revision, even to the same value",
    (reader, editor) => {
      editor.changePolicy(3);
      assert.deepEqual({ ...reader.precheck(REQUEST) }, {
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
        assert.throws(() => editor.changePolicy(bad), RangeError);
      }
      assert.deepEqual({ ...reader.precheck(REQUEST) }, {
        revision: 1,
        max_copies: 3,
      });
    },
  );
});

Deno.test("policy lab: the ledger's shape, its connection private", async () => {
  await using dirFolder = await tempDir("guardlab-policy-shape-");
  const dir = dirFolder.path;
  const lab = PolicyLab.open(join(dir, "policy.sqlite"), { trusted: [dir] });
  try {
    // Every statement is a method; no caller reaches the connection itself.
    assert.deepEqual(Object.keys(lab), []);
    assert.equal("db" in lab, false);
    lab.initialize();
    assert.deepEqual({ ...lab.currentPolicy() }, {
      revision: 1,
      max_copies: 3,
    });
  } finally {
    lab.close();
  }
});
