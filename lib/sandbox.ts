/**
 * Where guardlab may read and write: one folder, granted in `deno.json`'s
 * permission sets (`guardlab` for Linux and macOS, `guardlab-windows`), and
 * nothing else. The code derives its root from that same grant.
 *
 * @module
 */
import { join } from "node:path";
import config from "../deno.json" with { type: "json" };

const grant = Deno.build.os === "windows"
  ? config.permissions["guardlab-windows"]
  : config.permissions.guardlab;

/** The only folder the compiled binary may touch (`/tmp`, or `C:\Windows\Temp`). */
export const SANDBOX_ROOT: string = grant.write[0];

/** Named ledgers live below this folder. */
export const LEDGER_HOME: string = join(SANDBOX_ROOT, "guardlab");

/** What a ledger name must look like: it becomes a folder name, so no separators, no dots. */
export const LEDGER_NAME = /^[a-z0-9][a-z0-9-]{0,31}$/;

/** The files of one named ledger. */
export interface LedgerPaths {
  /** The ledger's folder. */
  dir: string;
  /** The timing lab's ledger file. */
  lab: string;
  /** The policy lab's database file. */
  policy: string;
}

/** A ledger name that does not match {@linkcode LEDGER_NAME}. */
export class BadLedgerName extends Error {
  /** Build the refusal for `name`. */
  constructor(name: string) {
    super(
      `bad ledger name ${
        JSON.stringify(name)
      }: use 1-32 of a-z, 0-9 and '-', starting with a letter or digit`,
    );
    this.name = "BadLedgerName";
  }
}

/** The paths of ledger `name`; throws {@linkcode BadLedgerName} before any file is touched. */
export function ledgerPaths(name: string): LedgerPaths {
  if (!LEDGER_NAME.test(name)) throw new BadLedgerName(name);
  const dir = join(LEDGER_HOME, name);
  return {
    dir,
    lab: join(dir, "lab.sqlite"),
    policy: join(dir, "policy.sqlite"),
  };
}

/** Create the folder of ledger `name` if needed and return its paths. */
export async function ensureLedger(name: string): Promise<LedgerPaths> {
  const paths = ledgerPaths(name);
  await Deno.mkdir(paths.dir, { recursive: true });
  return paths;
}

/** A fresh folder inside the sandbox, removed when disposed. */
export async function scratchFolder(
  prefix = "guardlab-",
): Promise<{ path: string } & AsyncDisposable> {
  const path = await Deno.makeTempDir({ dir: SANDBOX_ROOT, prefix });
  return {
    path,
    async [Symbol.asyncDispose]() {
      await Deno.remove(path, { recursive: true }).catch(() => {});
    },
  };
}

/** Remove ledger `name`'s folder and nothing else; returns whether it existed. */
export async function removeLedger(name: string): Promise<boolean> {
  const { dir } = ledgerPaths(name);
  try {
    await Deno.remove(dir, { recursive: true });
    return true;
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) return false;
    throw error;
  }
}

/** One line explaining a sandbox refusal, naming what was refused. */
export function refusalLine(error: Error): string {
  const what = error.message.replace(/, run again with.*$/s, "").replace(
    /^Requires /,
    "",
  );
  return `refused by the sandbox: ${what} (guardlab may only read and write under ${SANDBOX_ROOT})`;
}
