/**
 * A ledger from a classmate, valid schema, with escape sequences and shell
 * syntax in every text field: the views show that text, never obey it. No
 * raw ESC, BEL, CR, C1, DEL or bidirectional override reaches stdout, in
 * text, SVG or JSON, in either language; JSON stays valid and means the
 * same; no stored line break makes a line of its own; and a suggested
 * command, pasted into a shell, runs nothing but guardlab.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { DatabaseSync } from "node:sqlite";
import { LEDGER_SCHEMA } from "../../lib/timing/ledger.ts";
import { COMPENSATION_TABLES } from "../../lib/timing/_compensation_schema.ts";
import { fingerprint } from "../../lib/store/wire.ts";
import { inert, inertOutput } from "../../lib/base/terminal.ts";
import { cli } from "../_helpers/helpers.ts";
import { XMLValidator } from "../_helpers/deps.ts";
import { CAN_RUN, NEEDS_RUN, spawnGuardlab } from "../_helpers/spawn.ts";
import { runFlags } from "../_helpers/lab_flags.ts";
import { tempDir } from "../_helpers/tmp.ts";

const FAKE = "nothing to reconcile: every live draft has an accepted receipt";

/** What a hostile classmate writes into text fields. */
const ATTACKS = {
  osc52: "JOB-1\x1b]52;c;dG91Y2ggcHduZWQ=\x07",
  osc0: "JOB-2\x1b]0;you have been graded\x07",
  clear: "JOB-3\x1b[2J\x1b[H",
  overwrite: `JOB-4\x1b[1A\x1b[2K\r${FAKE}`,
  subshell: "JOB-5$(touch MARKER)",
  backticks: "JOB-6`touch MARKER`",
  semicolon: "JOB-7;touch MARKER",
  newline: `JOB-8\n${FAKE}\ntouch MARKER`,
  c1: "JOB-9\u009b2J\u0090x\u009c",
  bidi: "JOB-A\u202egnp.exe\u2066x\u2069",
  del: "JOB-B\x7f\x08\x08",
};

/** Every character no output may carry raw (without colour, not even ESC). */
const RAW =
  // deno-lint-ignore no-control-regex -- the characters the test looks for
  /[\x00-\x08\x0b-\x1f\x7f-\x9f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]/;

/** A ledger with the exact schema and an attack in each text field. */
function hostileLedger(path: string): void {
  const db = new DatabaseSync(path);
  db.exec(LEDGER_SCHEMA.create);
  db.exec(COMPENSATION_TABLES.compensations.create);
  db.exec(COMPENSATION_TABLES.compensation_receipts.create);
  const draft = db.prepare("INSERT INTO drafts VALUES(?,?,?)");
  const receipt = db.prepare(
    "INSERT INTO receipts(job,status,effect_exists,events) VALUES(?,?,1,?)",
  );
  for (const [name, job] of Object.entries(ATTACKS)) {
    // The digest of these arguments: a retry could be suggested for it.
    draft.run(
      job,
      fingerprint({ job, topic: "river", copies: 2 }),
      JSON.stringify({ job, text: `body ${job}` }),
    );
    receipt.run(
      job,
      `output_rejected${ATTACKS.overwrite}`,
      JSON.stringify(["arguments_valid", `event ${name} ${job}`]),
    );
  }
  db.prepare("INSERT INTO compensations VALUES(?, 'requested')").run(
    ATTACKS.subshell,
  );
  db.close();
}

/** The views of one ledger file, and what each prints. */
const VIEWS: string[][] = [
  ["ledger"],
  ["ledger", "--json"],
  ["ledger", "--timeline"],
  ["ledger", "--timeline", "--format", "svg"],
  ["ledger", "--timeline", "--format", "json"],
  ["reconcile"],
  ["reconcile", "--json"],
];

async function place(): Promise<
  { base: string; mine: string; path: string } & AsyncDisposable
> {
  const top = await Deno.makeTempDir({ prefix: "guardlab-inert-" });
  const base = join(top, "tmp");
  await Deno.mkdir(base);
  await Deno.chmod(base, 0o1777);
  const mine = join(base, "mine");
  await Deno.mkdir(mine, { mode: 0o700 });
  const path = join(mine, "lab.sqlite");
  hostileLedger(path);
  return {
    base,
    mine,
    path,
    async [Symbol.asyncDispose]() {
      await Deno.remove(top, { recursive: true });
    },
  };
}

Deno.test("inert text: the helpers", () => {
  for (const attack of Object.values(ATTACKS)) {
    assert.doesNotMatch(inert(attack), RAW);
    // Inside a JSON string the visible form is the same character.
    assert.equal(
      JSON.parse(`"${inert(attack).replaceAll('"', '\\"')}"`),
      attack,
    );
  }
  assert.equal(
    inertOutput("\x1b[1;31mred\x1b[0m", true),
    "\x1b[1;31mred\x1b[0m",
  );
  assert.doesNotMatch(inertOutput("\x1b[1;31mred", false), RAW);
  assert.equal(inertOutput("a\nb\tc", false), "a\nb\tc");
});

Deno.test("inert text: every view of a hostile ledger", async (t) => {
  await using p = await place();
  for (const view of VIEWS) {
    for (const lang of ["en", "zh"]) {
      await t.step(`${view.join(" ")} --lang ${lang}`, async () => {
        const r = await cli(
          [...view, "--ledger-file", p.path, "--lang", lang],
          "",
          false,
          p.base,
        );
        assert.ok(r.code === 0 || r.code === 3, r.err.join("\n"));
        const all = [...r.out, ...r.err];
        for (const line of all) assert.doesNotMatch(line, RAW, line);
        // A stored line break never makes a line of its own.
        assert.ok(!all.some((l) => l.trim() === FAKE), "no fake line");
        assert.ok(!all.some((l) => l.trim().startsWith("touch")));
        const format = view.includes("svg")
          ? "svg"
          : view.includes("json") || view.includes("--json")
          ? "json"
          : "text";
        if (format === "json") {
          assert.equal(r.out.length, 1);
          const parsed = JSON.stringify(JSON.parse(r.out[0]));
          // Every attack comes back whole: JSON escaping, same values.
          for (const attack of Object.values(ATTACKS)) {
            assert.ok(parsed.includes(JSON.stringify(attack).slice(1, -1)));
          }
        } else if (format === "svg") {
          assert.equal(XMLValidator.validate(r.out.join("\n")), true);
        } else {
          // The attack is visible, as \uXXXX.
          assert.match(r.out.join("\n"), /JOB-1\\u001b\]52;c;/);
        }
      });
    }
  }

  await t.step("reconcile suggests no command for a foreign key", async () => {
    for (const lang of ["en", "zh"]) {
      const r = await cli(
        ["reconcile", "--ledger-file", p.path, "--lang", lang],
        "",
        false,
        p.base,
      );
      const next = r.out.filter((l) => /next:|下一步：/.test(l));
      assert.ok(next.length >= Object.keys(ATTACKS).length);
      for (const line of next) {
        assert.match(
          line,
          /this key is not one guardlab would write|这个业务键不是 guardlab 会写下的/,
        );
        assert.doesNotMatch(line, /guardlab (run|compensate) /);
      }
    }
  });
});

Deno.test({
  name: "inert text: pasted into sh, a suggestion runs only guardlab" +
    NEEDS_RUN,
  ignore: !CAN_RUN,
  async fn() {
    // A folder whose name is shell syntax: the suggested --ledger-file must
    // carry it as one word.
    await using topFolder = await tempDir("guardlab-paste-");
    const top = topFolder.path;
    const odd = join(top, "a b;$(touch MARKER)`touch MARKER`'q'");
    await Deno.mkdir(odd, { mode: 0o700 });
    const path = join(odd, "lab.sqlite");
    const made = await cli(
      [
        "run",
        "--ledger-file",
        path,
        ...runFlags(),
        "--bad-output",
      ],
      "",
      false,
      top,
    );
    assert.equal(made.code, 0, made.err.join("\n"));
    const r = await cli(["reconcile", "--ledger-file", path], "", false, top);
    assert.equal(r.code, 3);
    const at = r.out.findIndex((l) => l.includes("next: guardlab run"));
    assert.ok(at >= 0, r.out.join("\n"));
    let pasted = r.out[at].replace(/^\s*next: /, "");
    // A long suggestion continues on the next line after a backslash.
    if (pasted.endsWith("\\")) pasted += "\n" + r.out[at + 1];
    const work = join(top, "work");
    await Deno.mkdir(work);
    const shell = await new Deno.Command("sh", {
      args: [
        "-c",
        `guardlab() { for a in "$@"; do printf '%s\\n' "$a"; done; }\n${pasted}`,
      ],
      cwd: work,
      stdout: "piped",
    }).output();
    assert.equal(shell.code, 0);
    const args = new TextDecoder().decode(shell.stdout).trimEnd().split("\n");
    assert.deepEqual(args, [
      "run",
      "--ledger-file",
      path,
      ...runFlags(),
    ]);
    assert.deepEqual([...Deno.readDirSync(work)], [], "nothing ran");

    // The real process: not one raw control byte on stdout.
    const hostile = join(top, "hostile");
    await Deno.mkdir(hostile, { mode: 0o700 });
    hostileLedger(join(hostile, "lab.sqlite"));
    for (const view of VIEWS) {
      const out = await spawnGuardlab([
        ...view,
        "--ledger-file",
        join(hostile, "lab.sqlite"),
      ]);
      for (const line of [...out.out, ...out.err]) {
        assert.doesNotMatch(line, RAW, `${view.join(" ")}: ${line}`);
      }
    }
  },
});
