/**
 * Every text the exercise system says, in both languages side by side: the
 * form's and the course reader's refusals, the judge's feedback lines, the
 * evidence's bounds, the student's names and values, the hand-in reader's
 * reasons, and the lines that describe an exercise for a teacher (what an
 * answer did, and the legend of the marks, are in `_feedback_messages.ts`).
 * Logic picks a text here and fills it in; it never writes one.
 *
 * @module
 */
import { same, type Text } from "../base/i18n.ts";
import { NOT_YET, type ReasonKind } from "./_feedback_messages.ts";

/** What is wrong with a field of an exercise, as the form's checker says it. */
export const FORM_MESSAGES = {
  notObject: { en: "must be an object", zh: "必须是一个对象" },
  unknownField: (expected: readonly string[]): Text => ({
    en: `unknown field (expected ${expected.join(", ")})`,
    zh: `未知字段（应为 ${expected.join("、")}）`,
  }),
  missing: { en: "missing", zh: "缺失" },
  notList: { en: "must be a list", zh: "必须是一个列表" },
  tooFew: (min: number): Text => ({
    en: `needs at least ${min} entries`,
    zh: `至少需要 ${min} 项`,
  }),
  tooMany: (max: number): Text => ({
    en: `has more than ${max} entries`,
    zh: `超过 ${max} 项`,
  }),
  notString: { en: "must be a non-empty string", zh: "必须是非空字符串" },
  tooLong: (max: number): Text => ({
    en: `longer than ${max} characters`,
    zh: `超过 ${max} 个字符`,
  }),
  notBoolean: { en: "must be true or false", zh: "必须是 true 或 false" },
  oneOf: (values: readonly string[]): Text => ({
    en: `must be one of ${values.join(", ")}`,
    zh: `必须是 ${values.join("、")} 之一`,
  }),
  oneOfOps: (ops: readonly string[]): Text => ({
    en: `must be one of ${ops.join(" ")}`,
    zh: `必须是 ${ops.join(" ")} 之一`,
  }),
  notChinese: { en: "must be Chinese", zh: "必须是中文" },
  onlyParams: (placeholder: string, names: readonly string[]): Text => ({
    en: `${placeholder}: only this student's values ({${
      names.join("}, {")
    }}) may be named here`,
    zh: `${placeholder}：这里只能用学生的取值（{${names.join("}、{")}}）`,
  }),
  notBound: (ref: string): Text => ({
    en: `${ref}: no such name bound before this point`,
    zh: `${ref}：此处之前没有绑定这个名字`,
  }),
  valueNotRow: (ref: string, name: string): Text => ({
    en: `${ref}: ${name} holds a value, not a row`,
    zh: `${ref}：${name} 是一个值，不是一行`,
  }),
  refNoField: (
    ref: string,
    source: string,
    field: string,
    fields: readonly string[],
  ): Text => ({
    en: `${ref}: ${source} have no field ${field} (they have ${
      fields.join(", ")
    })`,
    zh: `${ref}：${source} 没有字段 ${field}（有 ${fields.join("、")}）`,
  }),
  noField: (source: string, key: string, fields: readonly string[]): Text => ({
    en: `${source} have no field ${key} (they have ${fields.join(", ")})`,
    zh: `${source} 没有字段 ${key}（有 ${fields.join("、")}）`,
  }),
  notValue: {
    en: 'must be a literal, {"ref": "name.field"} or {"param": "name"}',
    zh: '必须是字面值、{"ref": "name.field"} 或 {"param": "name"}',
  },
  badName: {
    en: "must be a short name (a-z, then letters, digits, _) not used by " +
      "a value of the student",
    zh: "必须是短名字（a-z 开头，随后为字母、数字或 _），且不与学生的取值同名",
  },
  alreadyBound: (name: string): Text => ({
    en: `${name} is already bound`,
    zh: `${name} 已经绑定过了`,
  }),
  notBlock: (kinds: readonly string[]): Text => ({
    en: `must be one of the blocks ${kinds.join(", ")}`,
    zh: `必须是积木 ${kinds.join("、")} 之一`,
  }),
  noneBindsNothing: {
    en: "a block with none binds nothing",
    zh: "带 none 的积木不绑定任何名字",
  },
  notItem: (name: string): Text => ({
    en: `${name}: no step or row bound before this point`,
    zh: `${name}：此处之前没有绑定这个步骤或行`,
  }),
  judged: {
    en: 'must be "ledger", and only on a script exercise',
    zh: '必须是 "ledger"，且只用于 script 练习',
  },
  slug: {
    en: "must be 1-48 of a-z, 0-9 and -, starting with a letter or digit",
    zh: "必须是 1-48 个 a-z、0-9 和 -，以字母或数字开头",
  },
  kind: {
    en: 'must be "script" or "prediction"',
    zh: '必须是 "script" 或 "prediction"',
  },
  onlyPrediction: {
    en: "only a prediction has this",
    zh: "只有预测题才有这一项",
  },
  setupOrExample: {
    en: "a prediction has one of setup, accept_example and host_example",
    zh: "预测题只能有 setup、accept_example、host_example 三者之一",
  },
  factName: {
    en: "must be a short name, used once",
    zh: "必须是短名字，且只用一次",
  },
  accepts: (kinds: readonly string[]): Text => ({
    en: `must be one of ${kinds.join(", ")}, or a list of strings`,
    zh: `必须是 ${kinds.join("、")} 之一，或一个字符串列表`,
  }),
} as const;

/** What is wrong with a course file, beyond one exercise's form. */
export const COURSE_MESSAGES = {
  notCourse: {
    en: 'must be one JSON object {"course": ..., "exercises": [...]}',
    zh: '必须是一个 JSON 对象 {"course": ..., "exercises": [...]}',
  },
  missingField: (field: string): Text => ({
    en: `the field ${field} is missing`,
    zh: `缺少字段 ${field}`,
  }),
  courseId: (builtin: string): Text => ({
    en:
      `must be an id of 1-48 of a-z, 0-9, ".", "_" and "-" (not "${builtin}")`,
    zh:
      `必须是 1-48 个 a-z、0-9、"."、"_" 和 "-" 组成的 id（不能是 "${builtin}"）`,
  }),
  noExercises: {
    en: "must be a list of at least one exercise",
    zh: "必须是至少含一个练习的列表",
  },
  tooManyExercises: (max: number): Text => ({
    en: `has more than ${max} exercises`,
    zh: `超过 ${max} 个练习`,
  }),
  slugTaken: (slug: string, n: number): Text => ({
    en: `the slug ${slug} is also exercise ${n}'s`,
    zh: `slug ${slug} 与练习 ${n} 重复`,
  }),
} as const;

/** What the course file's JSON reader says about text that is not JSON. */
export const JSON_MESSAGES = {
  tooLarge: (max: number): Text => ({
    en: `larger than ${max} bytes`,
    zh: `超过 ${max} 字节`,
  }),
  trailing: {
    en: "unexpected text after the JSON value",
    zh: "JSON 值之后还有多余的内容",
  },
  ends: {
    en: "the file ends where a value should be",
    zh: "文件在应有值的地方结束了",
  },
  unexpected: (char: string): Text => ({
    en: `unexpected ${JSON.stringify(char)}`,
    zh: `意外的 ${JSON.stringify(char)}`,
  }),
  tooDeep: (max: number): Text => ({
    en: `nested deeper than ${max} levels`,
    zh: `嵌套超过 ${max} 层`,
  }),
  fieldName: {
    en: "expected a field name in double quotes",
    zh: "此处应是双引号括起的字段名",
  },
  twice: (key: string): Text => ({
    en: `the field ${JSON.stringify(key)} appears twice`,
    zh: `字段 ${JSON.stringify(key)} 出现了两次`,
  }),
  colon: { en: 'expected ":"', zh: '此处应是 ":"' },
  objectGoesOn: { en: 'expected "," or "}"', zh: '此处应是 "," 或 "}"' },
  listGoesOn: { en: 'expected "," or "]"', zh: '此处应是 "," 或 "]"' },
  unclosed: { en: "a string is not closed", zh: "字符串没有结束" },
  control: {
    en: "a control character inside a string",
    zh: "字符串里有控制字符",
  },
  escape: { en: "a string with a bad escape", zh: "字符串里有错误的转义" },
  number: { en: "a malformed number", zh: "数字格式不对" },
} as const;

/** The mark printed before a finding of each status. */
export const FINDING_MARK = {
  yes: same("[ok]"),
  no: same("[no]"),
  "not-checked": same("[--]"),
} as const;

/** How a value the evidence lacks, or a name nothing bound, reads in a sentence. */
export const VALUE_WORDS = {
  missing: { en: "missing", zh: "缺失" },
  unbound: same("…"),
} as const;

/** The lines of a verdict, and the reasons an answer cannot be judged. */
export const JUDGE_MESSAGES = {
  /** Why nothing was judged: see {@linkcode NOT_YET}. */
  notYet: (reason: Text, kind: ReasonKind = "answer"): Text =>
    NOT_YET[kind](reason),
  finding: (mark: Text, text: Text): Text => ({
    en: `${mark.en} ${text.en}`,
    zh: `${mark.zh} ${text.zh}`,
  }),
  done: (n: number): Text => ({
    en: `exercise ${n}: done`,
    zh: `练习 ${n}：完成`,
  }),
  notDone: (n: number): Text => ({
    en: `exercise ${n}: not yet`,
    zh: `练习 ${n}：未通过`,
  }),
  why: (why: Text): Text => ({ en: `Why: ${why.en}`, zh: `原因：${why.zh}` }),
  whatHappened: { en: "What happened:", zh: "实际发生的是：" },
  happened: (line: Text): Text => ({ en: `  ${line.en}`, zh: `  ${line.zh}` }),
  fact: (field: string, value: Text): Text => ({
    en: `${field}: ${value.en}`,
    zh: `${field}：${value.zh}`,
  }),
  predicted: (field: string, says: Text, said: Text): Text => ({
    en: `${field} (${says.en}): you predicted ${said.en}`,
    zh: `${field}（${says.zh}）：你预测 ${said.zh}`,
  }),
  overWork: (limit: number): Text => ({
    en: `over the limit: judging this answer needs more than ${limit} ` +
      "checks; write fewer steps",
    zh: `判定这个答案需要超过 ${limit} 次检查；请减少步骤`,
  }),
  emptyScript: {
    en: "the answer is empty: write script steps, one JSON object a line",
    zh: "答案是空的：请写 script 步骤，每行一个 JSON 对象",
  },
  invalidStep: (line: number, message: Text): Text => ({
    en: `line ${line} is not a step that can run: ${message.en}; ` +
      "an answer with invalid steps proves nothing",
    zh: `第 ${line} 行不是能运行的步骤：${message.zh}；` +
      "含无效步骤的答案什么也证明不了",
  }),
  snapshotNeverTaken: (
    line: number,
    name: string,
    precheck: number,
    why: string,
  ): Text => ({
    en: `line ${line} names the Snapshot ${name}, which was never taken: ` +
      `the pre-check on line ${precheck} was refused (${why}); ` +
      "an answer with invalid steps proves nothing",
    zh: `第 ${line} 行用的 Snapshot ${name} 从未取得：第 ${precheck} 行的前检` +
      `被拒绝了（${why}）；含无效步骤的答案什么也证明不了`,
  }),
  notACopy: (command: string, n: number): Text => ({
    en: "this is not a ledger copy guardlab made: run " +
      `${command} check ${n} --ledger NAME`,
    zh:
      `这不是 guardlab 生成的账本副本：请运行 ${command} check ${n} --ledger NAME`,
  }),
  revealFirst: (command: string, n: number): Text => ({
    en: "--reveal shows what happened only after your first prediction is " +
      `kept: make it first (${command} check ${n} < guess.json), or give it ` +
      "with --reveal",
    zh: "只有在你的第一次预测保存之后，--reveal 才会显示实际结果：请先预测" +
      `（${command} check ${n} < guess.json），或者和 --reveal 一起给出预测`,
  }),
  givenTwice: { en: "{field} is given twice", zh: "{field} 出现了两次" },
  missingFact: (field: string, example: string): Text => ({
    en: `the field ${JSON.stringify(field)} is missing: the answer is ` +
      example,
    zh: `缺少字段 ${JSON.stringify(field)}：答案的形式是 ${example}`,
  }),
  badFact: (field: string, said: Text, allowed: Text): Text => ({
    en: `${JSON.stringify(field)} is ${said.en}, which it cannot be: it is ` +
      allowed.en,
    zh: `${JSON.stringify(field)} 的值 ${said.zh} 不在允许范围内，应为` +
      allowed.zh,
  }),
  guessUnused: (reason: Text): Text => ({
    en: `${reason.en}; your one guess is still unused`,
    zh: `${reason.zh}（这次不算，你唯一的一次预测仍未用掉）`,
  }),
  anyValue: {
    en: "a string, a number, true, false or null",
    zh: "字符串、数字、true、false 或 null",
  },
  trueOrFalse: { en: "true or false", zh: " true 或 false" },
  aCount: {
    en: "a count: 0, 1, 2, … (a number, not text)",
    zh: "一个计数：0、1、2……（数字，不是文本）",
  },
  oneOfValues: (en: string, zh: string): Text => ({
    en: `one of ${en}`,
    zh: ` ${zh} 之一`,
  }),
  oneOfVerdicts: (en: string, zh: string): Text => ({
    en: `one of the verdicts guardlab accept prints: ${en}`,
    zh: ` guardlab accept 输出的结论之一：${zh}`,
  }),
  emptyPrediction: {
    en: "the answer is empty: write one JSON line",
    zh: "答案是空的：请写一行 JSON",
  },
  oneLine: (extra: number): Text => ({
    en: `a prediction is one line; line ${extra} is one too many`,
    zh: `预测只能写一行；第 ${extra} 行是多出来的`,
  }),
  notGuess: (example: string): Text => ({
    en: `the answer must be one JSON object: ${example}`,
    zh: `答案必须是一个 JSON 对象：${example}`,
  }),
  unknownFact: (field: string, fields: readonly string[]): Text => ({
    en: `unknown field ${JSON.stringify(field)}: the fields are ${
      fields.join(", ")
    }`,
    zh: `未知字段 ${JSON.stringify(field)}：字段是 ${fields.join("、")}`,
  }),
  setupBroken: {
    en: "this exercise's setup did not run as its course says; " +
      "tell your teacher",
    zh: "这个练习的预设步骤没有按课程所写运行；请告诉老师",
  },
  wrongGuess: {
    en: "your prediction is not what happened",
    zh: "你的预测与实际发生的不符",
  },
  wrongGuessKept: {
    en: "Only your first prediction counts, and which part was wrong is not " +
      "shown. To see what happened (your hand-in then records that it was " +
      "revealed):",
    zh: "只有你的第一次预测算数，也不会显示错在哪一项。" +
      "要看实际发生的（作业文件会记下结果被揭示过）：",
  },
  revealCommand: (command: string, n: number): Text =>
    same(`  ${command} check ${n} --reveal`),
  firstGuess: (guess: string): Text => ({
    en: `only your first prediction counts: ${guess}`,
    zh: `只有你的第一次预测算数：${guess}`,
  }),
} as const;

/** The bounds of the evidence, and what a ledger copy can and cannot claim. */
export const EVIDENCE_MESSAGES = {
  overBytes: (line: number, max: number): Text => ({
    en: `over the limit: line ${line} or what it printed is longer than ` +
      `${max} bytes`,
    zh: `第 ${line} 行或它的输出超过 ${max} 字节`,
  }),
  overSteps: (max: number, line: number): Text => ({
    en: `over the limit: more than ${max} steps (stopped at line ${line})`,
    zh: `步骤多于 ${max} 个（在第 ${line} 行停止）`,
  }),
  tooManyRows: (rows: number, max: number): Text => ({
    en: `over the limit: the ledger has ${rows} rows, more than ` +
      `${max} to judge; use a fresh ledger for this exercise`,
    zh: `账本有 ${rows} 行，超过可判定的 ${max} 行；` +
      "请为这个练习用一个新账本",
  }),
  ledgerTooLarge: (bytes: number, max: number): Text => ({
    en: `over the limit: the ledger is ${bytes} bytes, more than ` +
      `${max} to judge; use a fresh ledger`,
    zh: `账本有 ${bytes} 字节，超过可判定的 ` +
      `${max} 字节；请用一个新账本`,
  }),
  rowsTooLarge: (max: number): Text => ({
    en: `over the limit: the ledger's rows are more than ${max} bytes; ` +
      "use a fresh ledger",
    zh: `账本的行超过 ${max} 字节；请用一个新账本`,
  }),
  copyTooLarge: (max: number): Text => ({
    en: `over the limit: the ledger copy is more than ${max} bytes`,
    zh: `账本副本超过 ${max} 字节`,
  }),
  notACopy: {
    en: "this is not a ledger copy guardlab made",
    zh: "这不是 guardlab 生成的账本副本",
  },
} as const;

/** What a verdict from a ledger cannot claim. */
export const LEDGER_NOT_AGENT: Text = {
  en: "guardlab judges the ledger, not the agent: it requires the calls to " +
    "have come over MCP (the ledger's mcp_calls rows), but not which client " +
    "sent them, and it does not re-run the session; a ledger written by " +
    "hand with the same rows, mcp_calls included, passes too.",
  zh: "guardlab 判定的是账本，不是 Agent：它要求这些调用经由 MCP 到达" +
    "（账本的 mcp_calls 行），但不核对是哪个客户端发的，也不重跑会话；" +
    "手工写出的账本只要有同样几行（含 mcp_calls），也能通过。",
};

/** How grade marks an exercise judged from a ledger copy. */
export const SESSION_NOT_RERUN: Text = {
  en: "ledger copy re-judged, session not re-run",
  zh: "已重新判定账本副本，未重跑会话",
};

/** What is wrong with a name or a course code, and with an answer's keys. */
export const STUDENT_MESSAGES = {
  invisible: {
    en: "a name may not contain control or invisible characters",
    zh: "名字里不能有控制字符或不可见字符",
  },
  emptyName: { en: "the name is empty", zh: "名字是空的" },
  spacing: {
    en: "spaces or a Unicode form a stored name never has",
    zh: "保存的名字不会有的空白或 Unicode 形式",
  },
  longName: (max: number): Text => ({
    en: `a name has at most ${max} characters`,
    zh: `名字最多 ${max} 个字符`,
  }),
  courseCode: {
    en: "a course code is 1-32 letters, digits, '.', '_' or '-', " +
      "starting with a letter or digit",
    zh: "课程代码是 1-32 个字母、数字、“.”、“_”或“-”，以字母或数字开头",
  },
  foreignKey: (
    line: number,
    key: string,
    job: string,
    other: string,
    n: number,
    command: string,
  ): Text => ({
    en: `line ${line} uses the key ${key}, which is not ` +
      `yours: your keys are ${job} and ${other} ` +
      `(${command} show ${n})`,
    zh: `第 ${line} 行用了业务键 ${key}，它不是你的：` +
      `你的业务键是 ${job} 和 ${other}（${command} show ${n}）`,
  }),
  nameFirst: {
    en: "with a course code, your exercise values derive from your name: " +
      'set it first (guardlab config name "YOUR NAME")',
    zh: "设置了课程代码后，练习的取值由你的名字算出：请先设置名字" +
      '（guardlab config name "你的名字"）',
  },
} as const;

/** Why a file is not a hand-in, and what grading asks of its input. */
export const GRADING_MESSAGES = {
  notJson: { en: "not JSON", zh: "不是 JSON" },
  notObject: { en: "not a JSON object", zh: "不是 JSON 对象" },
  olderFormat: {
    en: 'no "format": a hand-in from an older guardlab; hand in again',
    zh: "没有“format”：旧版 guardlab 的作业文件；请重新交",
  },
  noFormat: {
    en: 'no "format": not a guardlab hand-in',
    zh: "没有“format”：不是 guardlab 的作业文件",
  },
  format: (shown: string): Text => ({
    en: `unknown format ${shown}`,
    zh: `未知的格式 ${shown}`,
  }),
  version: (shown: string, newest: number): Text => ({
    en: `format version ${shown} is not known to this guardlab ` +
      `(it reads 1 to ${newest})`,
    zh: `这个 guardlab 不认识格式版本 ${shown}（它读的是 1 到 ${newest}）`,
  }),
  unknownKey: { en: "unknown key {key}{where}", zh: "未知的键 {key}{where}" },
  missingKey: { en: "missing key {key}{where}", zh: "缺少键 {key}{where}" },
  inCourse: { en: " in course", zh: "（在 course 中）" },
  inExercise: (shown: string): Text => ({
    en: ` in exercise ${shown}`,
    zh: `（在练习 ${shown} 中）`,
  }),
  nameNotText: { en: '"name" is not text', zh: "“name”不是文本" },
  name: { en: '"name": {problem}', zh: "“name”：{problem}" },
  notVersion: { en: '"guardlab" is not a version', zh: "“guardlab”不是版本号" },
  courseNotObject: { en: '"course" is not an object', zh: "“course”不是对象" },
  notCourseId: {
    en: '"course.id" is not a course id',
    zh: "“course.id”不是课程标识",
  },
  notCourseCode: {
    en: '"course.code" is not a course code',
    zh: "“course.code”不是课程代码",
  },
  exercisesNotObject: {
    en: '"exercises" is not an object',
    zh: "“exercises”不是对象",
  },
  notExerciseName: (shown: string): Text => ({
    en: `exercise key ${shown} is not an exercise name`,
    zh: `练习键 ${shown} 不是练习名`,
  }),
  exerciseNotObject: (n: string): Text => ({
    en: `exercise ${n} is not an object`,
    zh: `练习 ${n} 不是对象`,
  }),
  answerNotText: (n: string): Text => ({
    en: `the answer to exercise ${n} is not text`,
    zh: `练习 ${n} 的答案不是文本`,
  }),
  passedNotTime: (key: string, n: string): Text => ({
    en: `"${key}" of exercise ${n} is not a time or null`,
    zh: `练习 ${n} 的“${key}”不是时间或 null`,
  }),
  notCount: (key: string, n: string): Text => ({
    en: `"${key}" of exercise ${n} is not a count`,
    zh: `练习 ${n} 的“${key}”不是计数`,
  }),
  revealedNotBool: (n: string): Text => ({
    en: `"revealed" of exercise ${n} is not true or false`,
    zh: `练习 ${n} 的“revealed”不是 true 或 false`,
  }),
  digestNotText: { en: '"digest" is not text', zh: "“digest”不是文本" },
  studentNotObject: {
    en: '"student" is not an object',
    zh: "“student”不是对象",
  },
  inStudent: { en: " in student", zh: "（在 student 中）" },
  notVariant: {
    en: '"student.variant" is not a variant seed (16 hex digits) or null',
    zh: "“student.variant”不是变体种子（16 位十六进制数字），也不是 null",
  },
  notUid: {
    en: '"student.uid" is not a uid or null',
    zh: "“student.uid”不是 uid，也不是 null",
  },
  tooLarge: (max: number): Text => ({
    en: `larger than ${max} bytes`,
    zh: `超过 ${max} 字节`,
  }),
  noHandInAt: (path: string): Text => ({
    en: `no hand-in at ${path}`,
    zh: `${path} 处没有作业文件`,
  }),
  folder: { en: "a folder, not a hand-in", zh: "是目录，不是作业文件" },
  tooManyHandIns: (max: number): Text => ({
    en: `more than ${max} hand-ins: grade them in parts`,
    zh: `作业多于 ${max} 份：请分批评分`,
  }),
  nameFirst: {
    en: "a hand-in says whose work it is: set your name first " +
      '(guardlab config name "YOUR NAME")',
    zh: "作业要写明是谁的：请先设置名字" +
      '（guardlab config name "你的名字"）',
  },
} as const;

/**
 * The fixed lines of an exercise described for a teacher: each reads the
 * same in both languages, English then Chinese, whatever the screen's.
 */
export const DESCRIBE_LINES = {
  setup: same("setup / 预设步骤："),
  invariant: (i: number): Text => same(`invariant ${i} / 不变式 ${i}`),
  premises: same(
    "  premises, each needing the ones before / 前提（依次依赖前面的）：",
  ),
  findings: same(
    "  findings, each needing all premises / 结论（依赖全部前提）：",
  ),
  predicted: same(
    "predicted facts, compared by value / 预测的事实（按值比较）：",
  ),
  notChecked: same(
    "a premise that fails makes what depends on it [--] not checked / " +
      "前提不成立时，依赖它的各项记为 [--] 未检查",
  ),
} as const;

export {
  HAND_IN_FILE_MESSAGES,
  RESULTS_FILE_MESSAGES,
} from "./_file_messages.ts";
