/**
 * A secret given to guardlab never leaves it: a server that says the
 * request's Authorization header back (whole and split across its
 * serverInfo's name and version, and in an answer, twice, the second
 * across the 200th character where guardlab cuts) gets none of it into
 * anything guardlab prints or writes: `accept init`'s screen and draft,
 * `accept`'s screen, `--json`, JUnit, error lines. The test looks for every
 * piece of 8 characters of the header (and the whole), as it is and as JSON
 * and XML write it.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { linesOf } from "../../lib/base/lines.ts";
import {
  forgetSecrets,
  keepSecret,
  MIN_SECRET_FRAGMENT,
  redact,
  REDACTED,
} from "../../lib/base/secrets.ts";
import {
  CAN_START,
  fixtureCommand,
  NEEDS_START,
  privateDir,
  runEngineer,
} from "../_helpers/accept_helpers.ts";

const TOKEN = "Bearer echo-s3cret-0123456789";

/** Every piece of `secret` guardlab must not let out: the whole, and each of 8 characters. */
function piecesOf(secret: string): string[] {
  const out = [secret];
  for (let at = 0; at + MIN_SECRET_FRAGMENT <= secret.length; at++) {
    out.push(secret.slice(at, at + MIN_SECRET_FRAGMENT));
  }
  return out;
}

/** Fail when `text` (named `where`) holds a piece of the token. */
function assertNoPiece(text: string, where: string): void {
  for (const piece of piecesOf(TOKEN)) {
    assert.ok(!text.includes(piece), `${where} holds ${JSON.stringify(piece)}`);
  }
}

Deno.test("secrets: a secret is taken out whole, repeated, split, cut, and as JSON and XML write it; nothing else changes", () => {
  forgetSecrets();
  try {
    assert.equal(redact(`a ${TOKEN} b`), `a ${TOKEN} b`);
    keepSecret(TOKEN);
    keepSecret('q"<&>\\-quote-1234');
    assert.equal(redact("no secret here"), "no secret here");
    assert.equal(redact(`${TOKEN}${TOKEN} x ${TOKEN}`), `${REDACTED} x ***`);
    // Split across two fields, each a piece of 8 or more.
    assert.equal(
      redact(`name "Bearer echo-s" version "3cret-0123456789"`),
      `name "${REDACTED}" version "${REDACTED}"`,
    );
    // Cut: the piece before the cut mark goes.
    assert.equal(redact("seen Bearer echo…"), `seen ${REDACTED}…`);
    // As JSON and XML write a secret with quotes, a backslash, <, & and >:
    // the text around it stays readable.
    const json = JSON.stringify({ a: 'q"<&>\\-quote-1234', b: 1 });
    assert.deepEqual(JSON.parse(redact(json)), { a: REDACTED, b: 1 });
    assert.equal(
      redact('<p v="q&quot;&lt;&amp;&gt;\\-quote-1234"/>'),
      `<p v="${REDACTED}"/>`,
    );
    // A piece shorter than 8 on its own is not a secret's.
    assert.equal(redact("Bearer"), "Bearer");
    // A value shorter than 8 is not searched for: kept, "1" would take
    // every 1 out of every screen.
    keepSecret("1");
    keepSecret("v2-beta");
    assert.equal(
      redact("exit 1, 10 calls, v2-beta"),
      "exit 1, 10 calls, v2-beta",
    );
  } finally {
    forgetSecrets();
  }
});

Deno.test({
  name:
    "secrets: a server that echoes the Authorization header: no piece of it in accept init's screen or draft, accept's screen, --json, JUnit (before: printed in all of them)" +
    NEEDS_START,
  ignore: !CAN_START,
  async fn() {
    const [command, ...args] = fixtureCommand("http-echo-auth");
    const child = new Deno.Command(command, {
      args,
      stdout: "piped",
      stderr: "null",
      stdin: "null",
    }).spawn();
    try {
      // The fixture writes its port first: wait for that line, not for time.
      const first = (await linesOf(child.stdout).next()).value as {
        text: string;
      };
      const url = `http://127.0.0.1:${first.text}/mcp`;
      using dir = privateDir("gl-accept-secrets-");
      const env = { GUARDLAB_HEADER_TOKEN: TOKEN };
      const header = ["--header-env", "Authorization=GUARDLAB_HEADER_TOKEN"];
      const draft = join(dir.path, "o.json");
      const init = await runEngineer(
        ["accept", "init", "--output", draft, "--url", url, ...header],
        "",
        env,
      );
      assert.equal(init.code, 0, init.err.join("\n"));
      const shownInit = await runEngineer(
        ["accept", "init", "--url", url, ...header],
        "",
        env,
      );
      assert.equal(shownInit.code, 0, shownInit.err.join("\n"));
      const oracle = join(dir.path, "ok.json");
      const drafted = JSON.parse(Deno.readTextFileSync(draft));
      for (const t of drafted.tools) delete t.guesses;
      Deno.writeTextFileSync(oracle, JSON.stringify(drafted));
      const junit = join(dir.path, "r.xml");
      const run = await runEngineer(
        [
          "accept",
          "--json",
          "--oracle",
          oracle,
          "--junit",
          junit,
          "--cases",
          "once,rejected",
          "--url",
          url,
          ...header,
          // A --header's value is a secret too.
          "--header",
          `X-Other=${TOKEN.replace("Bearer", "Other")}`,
        ],
        "",
        env,
      );
      assert.equal(run.code, 0, run.err.join("\n"));
      const screen = await runEngineer(
        [
          "accept",
          "--oracle",
          oracle,
          "--cases",
          "once",
          "--url",
          url,
          ...header,
        ],
        "",
        env,
      );
      assert.equal(screen.code, 0, screen.err.join("\n"));
      const report = JSON.parse(run.stdout);
      // What guardlab saw, with the secret out: the name says where it was.
      assert.equal(report.server.name, "echo authorization=*** ***");
      assert.equal(report.server.version, REDACTED);
      // The answer's words, taken out before the cut at 200 characters:
      // the text left is shorter, and holds no piece either side of a cut.
      assert.match(run.stdout, /"seen \*\*\*; x+\*\*\*"/);
      for (
        const [where, text] of [
          ["init's screen", shownInit.stdout + shownInit.stderr],
          ["init's summary", init.stdout + init.stderr],
          ["the draft", Deno.readTextFileSync(draft)],
          ["--json", run.stdout + run.stderr],
          ["the JUnit file", Deno.readTextFileSync(junit)],
          ["the screen", screen.stdout + screen.stderr],
        ] as const
      ) {
        assertNoPiece(text, where);
      }
    } finally {
      child.kill();
      await child.status;
    }
  },
});
