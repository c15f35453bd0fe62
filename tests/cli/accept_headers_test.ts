/**
 * The headers of `accept --url`: each `--header` checked (a header name,
 * a value of one line, none of the headers accept sets itself, at most 32
 * in all), and a refusal never repeats what a `--header` was given.
 */
import assert from "node:assert/strict";
import { headersOf } from "../../lib/cli/commands/accept/_ci.ts";
import { UsageError } from "../../lib/cli/parser.ts";
import { MAX_HEADERS } from "../../lib/accept/limits.ts";

const URL_ = "http://127.0.0.1:9/mcp";

Deno.test("accept headers: names and values as given, by lower-case name", () => {
  assert.equal(headersOf("accept", { url: URL_ }), undefined);
  assert.deepEqual(
    headersOf("accept", {
      url: URL_,
      header: ["Authorization=Bearer a=b", "X-Trace=", "__proto__=x"],
    }),
    Object.fromEntries([
      ["authorization", "Bearer a=b"],
      ["x-trace", ""],
      ["__proto__", "x"],
    ]),
  );
  assert.equal(Object.getPrototypeOf({}), Object.prototype);
});

Deno.test("accept headers: each bad one is a usage error that never shows the value", () => {
  const refused = (header: string[], re: RegExp) =>
    assert.throws(
      () => headersOf("accept", { url: URL_, header }),
      (e) =>
        e instanceof UsageError && re.test(e.text.en) &&
        !e.text.en.includes("s3cret") && !e.text.zh.includes("s3cret"),
      header.join(" "),
    );
  refused(["Authorization: Bearer s3cret"], /^--header …: not NAME=VALUE/);
  refused(["=s3cret"], /^--header …: not NAME=VALUE/);
  refused(["Bad Name=s3cret"], /^--header …: not NAME=VALUE/);
  refused(
    ["Authorization=s3cret\r\nX-Evil: 1"],
    /^--header "authorization": not NAME=VALUE/,
  );
  refused(["Authorization=s3cret\u0000"], /^--header "authorization": not/);
  // Not a byte string a request can carry: refused here, never found out
  // when the first request cannot be sent.
  refused(
    ["Authorization=tok-秘密-s3cret"],
    /^--header "authorization": not NAME=VALUE.*visible ASCII/,
  );
  refused(["Authorization=s3cret\u00e9"], /^--header "authorization": not/);
  refused(
    ["Authorization=" + "s3cret".repeat(2000)],
    /^--header "authorization": not/,
  );
  for (
    const name of [
      "Content-Type",
      "accept",
      "Mcp-Session-Id",
      "MCP-Protocol-Version",
      "Host",
    ]
  ) {
    refused([`${name}=s3cret`], /is a header accept sets itself$/);
  }
  refused(
    Array.from({ length: MAX_HEADERS + 1 }, (_, i) => `X-${i}=v`),
    /^at most 32 --header and --header-env flags$/,
  );
  assert.throws(
    () => headersOf("accept", { header: ["A=b"] }),
    (e) => e instanceof UsageError && /go with --url/.test(e.text.en),
  );
  assert.throws(
    () => headersOf("accept", { url: URL_, "header-env": ["A=not a name"] }),
    (e) =>
      e instanceof UsageError &&
      /^--header-env "A=not a name": not NAME=VALUE/.test(e.text.en),
  );
});

const CAN_SET_ENV =
  Deno.permissions.querySync({ name: "env" }).state === "granted";

Deno.test({
  name:
    "accept headers: a --header-env value that is not a byte string (tok-秘密-123) is refused in one line at the start, without the value" +
    (CAN_SET_ENV ? "" : " (ignored: needs --allow-env to set the variable)"),
  ignore: !CAN_SET_ENV,
}, () => {
  const variable = "GUARDLAB_HEADER_TEST_NOT_BYTES";
  Deno.env.set(variable, "tok-秘密-123");
  try {
    assert.throws(
      () =>
        headersOf("accept", {
          url: URL_,
          "header-env": [`Authorization=${variable}`],
        }),
      (e) =>
        e instanceof UsageError &&
        e.text.en ===
          `--header-env ${variable}: its value is not one line of at most 8192 visible ASCII characters and spaces, which a request can carry (the value is not shown)` &&
        !e.text.zh.includes("秘密"),
    );
  } finally {
    Deno.env.delete(variable);
  }
});
