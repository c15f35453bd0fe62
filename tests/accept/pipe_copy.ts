/**
 * The floor of any proxy written in Deno, for `scripts/proxy_bench.ts`: a
 * process that starts the server and only copies bytes both ways (pipeTo),
 * reading nothing, recording nothing. What it adds to a round trip is the
 * cost of one more process on the path, which `guardlab proxy` pays too.
 *
 *   deno run --allow-run pipe_copy.ts COMMAND ARGS…
 */
const [command, ...args] = Deno.args;
const child = new Deno.Command(command, {
  args,
  stdin: "piped",
  stdout: "piped",
  stderr: "inherit",
}).spawn();
await Promise.race([
  Deno.stdin.readable.pipeTo(child.stdin),
  child.stdout.pipeTo(Deno.stdout.writable),
]).catch(() => {});
