/**
 * `guardlab script`: read steps (stdin, or a file inside the sandbox), print
 * one JSON line per step as it goes.
 *
 * @module
 */
import { join } from "node:path";
import { linesOf, MAX_LINE_BYTES } from "../lines.ts";
import { openPlainFile } from "../safe_fs.ts";
import {
  ledgerFolder,
  ledgerPaths,
  privateRoot,
  refusalLine,
  scratchFolder,
  trustedFolders,
} from "../sandbox.ts";
import { InvalidStep, ScriptSession } from "../script.ts";
import { renderTimeline, timelineOf } from "../timeline.ts";
import { EXIT } from "./help.ts";
import type { Io } from "./io.ts";
import { asUsage, atMostPositionals, parseCommand } from "./parse.ts";
import { help } from "./commands.ts";
import { styleFor } from "./view.ts";

async function openSteps(file: string | undefined, io: Io) {
  if (file === undefined) return io.stdin();
  return (await openPlainFile(file, trustedFolders(io.base))).readable;
}

/** `guardlab script [--ledger NAME] [--view] [FILE]` */
export async function script(args: string[], io: Io): Promise<number> {
  const { values, positionals } = parseCommand("script", args, {
    ledger: { type: "string" },
    view: { type: "boolean" },
  });
  if (values.help) return help(io, "script");
  atMostPositionals("script", positionals, 1);
  const name = values.ledger;
  let steps: ReadableStream<Uint8Array>;
  try {
    steps = await openSteps(positionals[0], io);
  } catch (error) {
    if (error instanceof Deno.errors.NotCapable) {
      io.err(
        `guardlab: ${
          refusalLine(error)
        }; pipe it instead: guardlab script < FILE`,
      );
      return EXIT.refused;
    }
    if (
      error instanceof Deno.errors.NotFound ||
      error instanceof Deno.errors.IsADirectory
    ) {
      io.err(
        `guardlab: cannot read steps from ${
          JSON.stringify(positionals[0])
        }: not a readable file`,
      );
      return EXIT.failed;
    }
    throw error;
  }
  if (name !== undefined) asUsage("script", () => ledgerPaths("", name));
  const root = privateRoot(io.base)!;
  await using scratch = name === undefined ? scratchFolder(root) : undefined;
  const place = name === undefined
    ? {
      lab: join(scratch!.path, "lab.sqlite"),
      policy: join(scratch!.path, "policy.sqlite"),
    }
    : ledgerFolder(root, name, true)!;
  const session = new ScriptSession({
    lab: place.lab,
    policy: place.policy,
    trusted: trustedFolders(io.base),
  });
  let invalid = 0;
  try {
    for await (const line of linesOf(steps)) {
      if ("text" in line && line.text.trim() === "") continue;
      let output: Record<string, unknown>;
      session.lastAttempt = undefined;
      try {
        if ("tooLong" in line) {
          throw new InvalidStep(
            `line ${line.number} is longer than ${MAX_LINE_BYTES} bytes`,
          );
        }
        output = await session.step(line.text);
      } catch (error) {
        if (!(error instanceof InvalidStep)) throw error;
        invalid++;
        output = { raised: "invalid_step", message: error.message };
      }
      io.out(JSON.stringify(output));
      if (values.view && session.lastAttempt) {
        for (
          const row of renderTimeline(
            timelineOf(session.lastAttempt),
            styleFor(io),
          )
        ) {
          io.err(row);
        }
      }
    }
  } finally {
    session.close();
  }
  return invalid === 0 ? EXIT.ok : EXIT.failed;
}
