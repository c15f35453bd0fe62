/**
 * The notes under an `accept host` row say how the host ended: a process
 * exits (or a signal or the limit ends it); a host run in process has no
 * process, so its end is its run's return, what the run threw, or the
 * abort at the limit. Rows written by hand.
 *
 * @module
 */
import assert from "node:assert/strict";
import { say } from "../../lib/base/i18n.ts";
import { notesOf } from "../../lib/accept/views/host_view.ts";
import type { HostCaseResult } from "../../lib/accept/host.ts";

/** A RUN-ABORTED row as a host that threw at its next tools/list leaves it. */
function row(end: Partial<HostCaseResult>): HostCaseResult {
  return {
    case: "session-expired-after-commit",
    variant: "keyed",
    transport: "http",
    verdict: "RUN-ABORTED",
    class: "info",
    info: [],
    reached: true,
    resent: 0,
    resent_same_arguments: null,
    cancelled: false,
    told: "nothing",
    new_key_called: false,
    effects: 1,
    effects_key: 1,
    effects_new_key: 0,
    host_end: "exit",
    host_code: 1,
    clients: [],
    key: "k-1",
    new_key: "k-2",
    ms: 300,
    host_output: ["SdkHttpError: Session not found"],
    history: { version: 1, subject: "agent-host", records: [] },
    ...end,
  } as unknown as HostCaseResult;
}

/** The note about the host's end, in `lang`. */
function endNote(r: HostCaseResult, inProcess: boolean, lang: "en" | "zh") {
  const notes = notesOf(r, inProcess).map((t) => say(t, lang));
  return notes.filter((n) =>
    /host|宿主/.test(n) &&
    /exit|threw|returned|limit|signal|退出|抛出|返回|时限|信号/.test(n)
  );
}

Deno.test("accept host view: a process's end is its exit code, a signal or the limit", () => {
  assert.deepEqual(endNote(row({}), false, "en"), ["the host exited with 1"]);
  assert.deepEqual(endNote(row({ host_code: null }), false, "en"), [
    "a signal ended the host",
  ]);
  assert.deepEqual(endNote(row({ host_end: "limit" }), false, "en"), [
    "the host was still running at the case's limit; guardlab ended its process group",
  ]);
});

Deno.test("accept host view: a host run in process returned, threw (its line), or was aborted at the limit", () => {
  assert.deepEqual(endNote(row({}), true, "en"), [
    "the host's run threw: SdkHttpError: Session not found",
  ]);
  assert.deepEqual(endNote(row({}), true, "zh"), [
    "宿主的运行抛出了错误：SdkHttpError: Session not found",
  ]);
  assert.deepEqual(
    endNote(row({ host_code: 0, host_output: [] }), true, "en"),
    [
      "the host's run returned",
    ],
  );
  assert.deepEqual(endNote(row({ host_end: "limit" }), true, "en"), [
    "the host's run was still going at the case's limit; guardlab aborted it",
  ]);
});
