import assert from "node:assert/strict";
import { fileURLToPath } from "node:url";
import config from "../deno.json" with { type: "json" };

const read = (path: string) =>
  Deno.readTextFileSync(fileURLToPath(new URL(path, import.meta.url)));

Deno.test("project: the pinned Deno version is the one the README tells people to run", () => {
  const pinned = read("../.ci/deno-version").trim();
  assert.match(pinned, /^\d+\.\d+\.\d+$/);
  const readme = read("../README.md");
  const named = [...readme.matchAll(/deno@(\d+\.\d+\.\d+)/g)].map((m) => m[1]);
  assert.ok(named.length >= 2);
  for (const version of named) assert.equal(version, pinned);
});

Deno.test("project: no task grants everything", () => {
  const text = read("../deno.json");
  assert.doesNotMatch(text, /(^|[\s"])(-A|--allow-all)\b/);
  for (const [name, task] of Object.entries(config.tasks)) {
    if (typeof task !== "string" || name === "test" || name === "bench") {
      continue;
    }
    assert.doesNotMatch(
      task,
      /--allow-(net|env|run|sys|ffi|import|read|write)\b/,
      name,
    );
    assert.match(task, /--no-prompt -P=guardlab(-windows)?\b/, name);
  }
});
