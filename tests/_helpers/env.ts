/**
 * Whether this test process can read the environment: granted
 * (`--allow-env`, as `deno task test` runs) or ignored (`--ignore-env`, as
 * the students' grant does: every read answers "not set"). Denied, as
 * under the plain `deno test --allow-read --allow-write`, a read throws.
 * agents-core reads `process.env` as it loads, so a test that runs it in
 * process needs one of the two.
 */
export const ENV_READABLE: boolean = (() => {
  try {
    Deno.env.get("HOME");
    return true;
  } catch {
    return false;
  }
})();

/** Appended to the name of a test that runs agents-core in process, so the reason shows when it is ignored. */
export const NEEDS_ENV: string = ENV_READABLE
  ? ""
  : " [ignored: agents-core, run in process, reads the environment as it loads, which needs --allow-env or --ignore-env (the students' grant ignores it); run `deno task test`]";
