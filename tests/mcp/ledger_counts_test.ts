/**
 * The MCP ledger tool says a count of one as one in English: "1 receipt",
 * "1 draft" (an input_rejected call leaves exactly one receipt). Written by
 * hand, both languages side by side.
 */
import assert from "node:assert/strict";
import { SERVER_MESSAGES } from "../../lib/mcp/_messages.ts";

Deno.test("plurals: the MCP ledger tool counts 1 receipt and 1 draft", () => {
  assert.deepEqual(SERVER_MESSAGES.ledgerAll(1, 1), {
    en: "1 draft, 1 receipt",
    zh: "1 份草稿，1 条回执",
  });
  assert.deepEqual(SERVER_MESSAGES.ledgerAll(0, 2), {
    en: "0 drafts, 2 receipts",
    zh: "0 份草稿，2 条回执",
  });
  assert.deepEqual(SERVER_MESSAGES.ledgerNoDraft("JOB-001", 1), {
    en: "no draft JOB-001; 1 receipt for it",
    zh: "草稿 JOB-001 不存在；它有 1 条回执",
  });
  assert.deepEqual(SERVER_MESSAGES.ledgerDraft("JOB-001", 1, "accepted"), {
    en: "the draft JOB-001 exists; 1 receipt for it, the last: accepted",
    zh: "草稿 JOB-001 存在；它有 1 条回执，最后一条：accepted",
  });
});

Deno.test("plurals: the MCP reconcile tool says 1 key needs attention", () => {
  assert.deepEqual(SERVER_MESSAGES.pending(["JOB-001 unaccepted"]), {
    en: "1 key needs attention: JOB-001 unaccepted",
    zh: "1 个业务键需要处理：JOB-001 unaccepted",
  });
  assert.deepEqual(
    SERVER_MESSAGES.pending(["JOB-001 unaccepted", "JOB-002 no_receipt"]),
    {
      en: "2 keys need attention: JOB-001 unaccepted, JOB-002 no_receipt",
      zh: "2 个业务键需要处理：JOB-001 unaccepted、JOB-002 no_receipt",
    },
  );
});
