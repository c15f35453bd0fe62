/**
 * `guardlab compensate`: undo a committed draft the business's own way.
 *
 * @module
 */
import { InjectedFailure } from "../../timing/errors.ts";
import { trustedFolders } from "../../sandbox/sandbox.ts";
import {
  compensate as runCompensation,
  COMPENSATION_FAULTS,
} from "../../timing/compensation.ts";
import { Ledger } from "../../timing/ledger.ts";
import { raisedOf } from "../../timing/attempt.ts";
import { wrap } from "../../base/terminal.ts";
import { fill, say, type Text } from "../../base/i18n.ts";
import { EXIT } from "../exit.ts";
import { existingLedgerPath, LEDGER_OPTIONS } from "../places.ts";
import { command, UsageError } from "../parser.ts";

/** What `compensate` tells a person. */
export const COMPENSATE_MESSAGES = {
  voided: {
    en: "{job}: voided (draft row kept), compensation receipt #{attempt}",
    zh: "{job}：已作废（草稿行保留），补偿回执 #{attempt}",
  },
  already_voided: {
    en: "{job}: already voided; nothing written",
    zh: "{job}：早已作废，什么也没写",
  },
  no_draft: {
    en: "{job}: no draft; nothing to compensate",
    zh: "{job}：没有草稿，无需补偿",
  },
  failed: {
    en:
      "{job}: the compensation failed ({message}); reconcile shows where it stopped",
    zh: "{job}：补偿失败（{message}）；用 reconcile 查看它停在哪一步",
  },
} as const satisfies Record<string, Text>;

/** The `compensate` command. */
export const compensate = command({
  name: "compensate",
  summary: {
    en: "undo a committed draft with a compensation, which can itself fail",
    zh: "用补偿撤销已提交的草稿（补偿本身也可能失败）",
  },
  usage: `compensate (--ledger NAME | --ledger-file PATH) --job JOB
                    [--fail-at POINT] [--json]`,
  about: {
    en:
      `No check undoes a commit; undoing a draft takes the business's own flow.
compensate records the request (one commit), voids the draft in its own
transaction (the draft row stays; the void is recorded beside it), then writes
the compensation's own receipt. A voided key is closed: a retry is refused as
key_voided, never re-created. --fail-at makes it fail before its commit (the
request stays unconfirmed) or after it (voided, no compensation receipt);
reconcile tells the three apart.`,
    zh:
      `检查撤销不了提交；撤销草稿要走业务自己的流程。compensate 先记录补偿请求（一次
提交），再在自己的事务里作废草稿（草稿行保留，作废记录在旁边），然后写下补偿自己
的回执。被作废的业务键就此关闭：重试会被拒绝为 key_voided，不会重新创建。
--fail-at 让补偿在提交前失败（请求一直未确认）或提交后失败（已作废，没有补偿
回执）；reconcile 能区分这三种情况。`,
  },
  options: {
    ...LEDGER_OPTIONS,
    job: {
      type: "string",
      value: "JOB",
      help: { en: "the business key to compensate", zh: "要补偿的业务键" },
    },
    "fail-at": {
      type: "string",
      value: "POINT",
      choices: COMPENSATION_FAULTS,
      help: {
        en: `fault: fail at ${COMPENSATION_FAULTS.join(" or ")}`,
        zh: `故障：在 ${COMPENSATION_FAULTS.join(" 或 ")} 处失败`,
      },
    },
    json: {
      type: "boolean",
      help: { en: "print the result as JSON", zh: "以 JSON 输出结果" },
    },
  },
  maxPositionals: 0,
  exits: {
    0: {
      en: "voided, already voided, or there was no draft to undo",
      zh: "已作废、早已作废，或没有可撤销的草稿",
    },
    1: {
      en: "the compensation failed (see reconcile)",
      zh: "补偿失败（见 reconcile）",
    },
    2: null,
    4: null,
  },
  run({ values, io, lang }) {
    if (values.job === undefined) {
      throw new UsageError({
        en: "--job JOB is required",
        zh: "需要 --job JOB",
      }, "compensate");
    }
    const failAt = values["fail-at"];
    // Compensating a ledger that does not exist is a mistake, not a new ledger.
    const path = existingLedgerPath("compensate", io, values);
    const ledger = Ledger.open(path, { trusted: trustedFolders(io.base) });
    try {
      const result = runCompensation(ledger, values.job, failAt);
      if (values.json) io.out(JSON.stringify(result));
      else {
        io.out(say(
          fill(COMPENSATE_MESSAGES[result.status], {
            job: result.job,
            attempt: result.attempt ?? "",
          }),
          lang,
        ));
      }
      return EXIT.ok;
    } catch (error) {
      const raised = error instanceof InjectedFailure
        ? { raised: "injected", message: error.message }
        : raisedOf(error);
      if (raised === undefined) throw error;
      if (values.json) io.out(JSON.stringify(raised));
      else {
        const line = say(
          fill(COMPENSATE_MESSAGES.failed, {
            job: values.job,
            message: raised.message,
          }),
          lang,
        );
        for (const part of wrap(line, 80)) io.out(part);
      }
      return EXIT.failed;
    } finally {
      ledger.close();
    }
  },
});
