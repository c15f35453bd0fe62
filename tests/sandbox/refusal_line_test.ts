/**
 * A sandbox refusal is one line in the screen's language: the runtime says
 * what it refused in English ("read access to "/etc/hosts""), and the
 * Chinese line says the kind of access in Chinese, the path as given.
 * Written by hand, both languages side by side.
 */
import assert from "node:assert/strict";
import { refusalLine, SANDBOX_ROOT } from "../../lib/sandbox/sandbox.ts";

Deno.test("sandbox refusal: the kind of access said in each language", () => {
  const denied = (message: string) =>
    refusalLine(new Deno.errors.NotCapable(message));
  assert.deepEqual(
    denied(
      'Requires read access to "/etc/hosts", run again with the --allow-read flag',
    ),
    {
      en: 'refused by the sandbox: read access to "/etc/hosts" (guardlab may ' +
        `only read and write under ${SANDBOX_ROOT})`,
      zh: `被沙箱拒绝：读取 "/etc/hosts"（guardlab 只能读写 ${SANDBOX_ROOT}）`,
    },
  );
  assert.equal(
    denied('Requires write access to "/var/x", run again with --allow-write')
      .zh,
    `被沙箱拒绝：写入 "/var/x"（guardlab 只能读写 ${SANDBOX_ROOT}）`,
  );
  // A message of another shape is shown as the runtime gave it.
  assert.equal(
    denied("Requires something else").zh,
    `被沙箱拒绝：something else（guardlab 只能读写 ${SANDBOX_ROOT}）`,
  );
});
