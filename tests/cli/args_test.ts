/**
 * `lib/cli/_args.ts` reads a command line as `node:util`'s `parseArgs`
 * does (strict, with positionals, as `parseFor` uses it; and loose, as
 * `flagAsked` does): the same values, arguments and flags in order, and in
 * strict mode the same refusals naming the same flag, on command lines made
 * to find the edges (grouped short flags, `=`, `--`, a dash alone, values
 * that look like flags, `__proto__`).
 */
import assert from "node:assert/strict";
import { parseArgs } from "node:util";
import { ArgsError, type ArgSpec, readArgs } from "../../lib/cli/_args.ts";

const SPECS: Record<string, ArgSpec> = {
  ledger: { type: "string" },
  job: { type: "string" },
  json: { type: "boolean" },
  help: { type: "boolean", short: "h" },
  file: { type: "string", short: "f" },
  view: { type: "boolean", short: "v" },
  header: { type: "string", multiple: true },
};

const WORDS = [
  "--ledger",
  "x",
  "--job=JOB-1",
  "--job",
  "--json",
  "--json=1",
  "-h",
  "-hv",
  "-vh",
  "-hf",
  "-fFILE",
  "-vfFILE",
  "-f",
  "-x",
  "-hx",
  "-",
  "--",
  "---",
  "--=x",
  "--nope",
  "--nope=2",
  "--__proto__",
  "--constructor",
  "-1",
  "a",
  "--lang",
  "zh",
  "--ledger=",
  "--header",
  "--header=a: b",
];

/** Every line of up to three words from WORDS (and some longer ones). */
function lines(): string[][] {
  const out: string[][] = [[]];
  for (const a of WORDS) {
    out.push([a]);
    for (const b of WORDS) {
      out.push([a, b]);
      for (const c of ["x", "--json", "-h", "--", "--job"]) out.push([a, b, c]);
    }
  }
  out.push(["run", "--job", "JOB-1", "--json", "--", "--job", "-h"]);
  return out;
}

/** What node's parseArgs made of `args`, in the form readArgs answers. */
function nodeRead(args: string[], strict: boolean, specs = SPECS) {
  try {
    const { values, positionals, tokens } = parseArgs({
      args,
      options: specs,
      strict,
      allowPositionals: true,
      tokens: true,
    });
    const flags = tokens.filter((t) => t.kind === "option").map((t) =>
      t.value === undefined
        ? { name: t.name }
        : { name: t.name, value: t.value }
    );
    return { values: { ...values }, positionals, flags };
  } catch (error) {
    const code = (error as { code?: string }).code;
    const quoted = /'([^']*)'/.exec((error as Error).message)?.[1] ?? "";
    return {
      error: code === "ERR_PARSE_ARGS_UNKNOWN_OPTION" ? "unknown" : "value",
      flag: quoted.replace(/ <value>$/, ""),
    };
  }
}

function ourRead(args: string[], strict: boolean, specs = SPECS) {
  try {
    const { values, positionals, flags } = readArgs(args, specs, strict);
    return { values: { ...values }, positionals, flags };
  } catch (error) {
    if (!(error instanceof ArgsError)) throw error;
    return { error: error.kind, flag: error.flag };
  }
}

Deno.test("args: strict, as parseArgs reads a command's flags", () => {
  for (const args of lines()) {
    assert.deepEqual(ourRead(args, true), nodeRead(args, true), args.join(" "));
  }
});

Deno.test("args: loose, as parseArgs reads --lang before any command", () => {
  const lang = { lang: { type: "string" } } as const;
  for (const args of lines()) {
    assert.deepEqual(
      ourRead(args, false, lang),
      nodeRead(args, false, lang),
      args.join(" "),
    );
  }
});
