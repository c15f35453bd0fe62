/**
 * The repository's root folder, defined once for the tests: as a path
 * ending in a separator (`join(ROOT, "lib")`, a child's `cwd`) and as a
 * `file:` URL ending in `/` (`new URL("docs/", ROOT_URL)`).
 */
import { fileURLToPath } from "node:url";

/** The root folder as a `file:` URL, ending in `/`. */
export const ROOT_URL: URL = new URL("../../", import.meta.url);

/** The root folder as a path, ending in a separator. */
export const ROOT: string = fileURLToPath(ROOT_URL);
