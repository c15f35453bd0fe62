/**
 * A temporary folder of the test's own, under the system's temp folder with
 * a name nobody can predict, removed with all it holds when the test lets
 * go of it (`await using` or `using`): no `try`/`finally` around each test.
 */

/** A temporary folder: its path, removed when disposed. */
export interface TempDir extends AsyncDisposable, Disposable {
  /** Where it is. */
  readonly path: string;
}

function removing(path: string): TempDir {
  return {
    path,
    [Symbol.asyncDispose]: () => Deno.remove(path, { recursive: true }),
    [Symbol.dispose]: () => Deno.removeSync(path, { recursive: true }),
  };
}

/** The mode a new temporary folder has (`mkdtemp`'s): its owner's alone. */
const PRIVATE = 0o700;

/**
 * A new temporary folder named `prefix` and random characters, its owner's
 * alone unless `mode` says otherwise (0o1777: a shared `/tmp` of its own).
 */
export async function tempDir(
  prefix = "guardlab-test-",
  mode = PRIVATE,
): Promise<TempDir> {
  const path = await Deno.makeTempDir({ prefix });
  if (mode !== PRIVATE) await Deno.chmod(path, mode);
  return removing(path);
}

/** {@linkcode tempDir}, made at once (for a test that runs without awaiting). */
export function tempDirSync(
  prefix = "guardlab-test-",
  mode = PRIVATE,
): TempDir {
  const path = Deno.makeTempDirSync({ prefix });
  if (mode !== PRIVATE) Deno.chmodSync(path, mode);
  return removing(path);
}
