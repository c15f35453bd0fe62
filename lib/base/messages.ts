/**
 * What the ground floor itself says, in both languages: the last line a
 * signal prints before the process ends.
 *
 * @module
 */
import type { Text } from "./i18n.ts";

/** The ground floor's texts. */
export const BASE_MESSAGES = {
  fileSizeLimit: {
    en: "stopped: a write went past the file size limit (ulimit -f); " +
      "what was committed before it is kept",
    zh:
      "已停止：一次写入超过了文件大小上限（ulimit -f）；此前已提交的内容都保留着",
  },
} as const satisfies Record<string, Text>;
