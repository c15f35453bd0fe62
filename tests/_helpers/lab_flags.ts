/**
 * The article's first run, as arguments and as `run`'s flags, written once
 * for the tests: `JOB-001`, topic `river`, 2 copies.
 */

/** The arguments of the article's first run. */
export const ARGS = { job: "JOB-001", topic: "river", copies: 2 } as const;

/** A run's arguments: the article's first, or others. */
export interface RunArgs {
  /** The business key. */
  readonly job: string;
  /** The topic. */
  readonly topic: string;
  /** The copies. */
  readonly copies: number;
}

/**
 * `run`'s flags for `changes` over {@linkcode ARGS}: `--job JOB-001 --topic
 * river --copies 2` unless told otherwise.
 */
export function runFlags(changes: Partial<RunArgs> = {}): string[] {
  const { job, topic, copies } = { ...ARGS, ...changes };
  return ["--job", job, "--topic", topic, "--copies", String(copies)];
}
