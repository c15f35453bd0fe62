/**
 * The classmate's swap loop, run as a second user by `two_users_test.ts`:
 * `renameat2(A, B, RENAME_EXCHANGE)` through libc, as fast as it goes, for
 * the given milliseconds, then the names are left as they were found. Needs
 * `--allow-ffi` (granted to this process only). Prints
 * `{"swaps": N, "refused": M, "errno": E}` (E: the last error number).
 *
 *   deno run --allow-ffi attacker_swap.ts A B MILLISECONDS
 */
const [first, second, millis] = Deno.args;
const LIBC = "/lib/x86_64-linux-gnu/libc.so.6";
const AT_FDCWD = -100;
const RENAME_EXCHANGE = 2;

const libc = Deno.dlopen(LIBC, {
  renameat2: {
    parameters: ["i32", "buffer", "i32", "buffer", "u32"],
    result: "i32",
  },
  __errno_location: { parameters: [], result: "pointer" },
});

const cString = (s: string) => new TextEncoder().encode(s + "\0");
const a = cString(first);
const b = cString(second);
const swap = () =>
  libc.symbols.renameat2(AT_FDCWD, a, AT_FDCWD, b, RENAME_EXCHANGE);
const errno = () => {
  const at = libc.symbols.__errno_location();
  return at === null ? -1 : new Deno.UnsafePointerView(at).getInt32();
};

let swaps = 0;
let refused = 0;
let lastErrno = 0;
const end = Date.now() + Number(millis);
while (Date.now() < end) {
  for (let i = 0; i < 500; i++) {
    if (swap() === 0) swaps++;
    else {
      refused++;
      lastErrno = errno();
    }
  }
}
// An odd number of swaps: one more puts the names back.
if (swaps % 2 === 1 && swap() === 0) swaps++;
console.log(JSON.stringify({ swaps, refused, errno: lastErrno }));
libc.close();
