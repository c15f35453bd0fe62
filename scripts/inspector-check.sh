#!/usr/bin/env bash
# `guardlab mcp` against the MCP Inspector's CLI (a client someone else wrote):
# tools/list, then one tools/call, through the Inspector's own config-file
# format (the same as Claude Desktop's). Run with `deno task inspector`.
# Not part of `deno task test`: the Inspector is about 160 MB through npx and
# needs the npm registry on its first run. Version 0.17.2 is the one that runs
# on Node 20 here (npm warns that it asks for Node >= 22.7.5, and it works);
# 2.x needs Node >= 22.19.
set -u
here="$(cd "$(dirname "$0")/.." && pwd)"
inspector="@modelcontextprotocol/inspector@0.17.2"
ledger="t-inspector-$$"
work="$(mktemp -d /tmp/guardlab-inspector-XXXXXX)"
chmod 700 "$work"
cleanup() {
  deno run -q --lock="$here/deno.lock" --frozen --no-prompt --config "$here/deno.json" \
    -P=guardlab "$here/main.ts" reset --ledger "$ledger" >/dev/null 2>&1
  rm -rf "$work"
}
trap cleanup EXIT
cat >"$work/mcp.json" <<JSON
{
  "mcpServers": {
    "guardlab": {
      "command": "deno",
      "args": ["run", "-q", "--lock=$here/deno.lock", "--frozen", "--no-prompt",
        "--config", "$here/deno.json", "-P=guardlab", "$here/main.ts",
        "mcp", "--ledger", "$ledger"]
    }
  }
}
JSON
cd "$work" || exit 1
failed=0
run() { npx -y "$inspector" --cli --config "$work/mcp.json" --server guardlab "$@" 2>"$work/err"; }

run --method tools/list >"$work/list.json"
if grep -q '"name": "create_draft"' "$work/list.json" && grep -q '"idempotentHint": true' "$work/list.json"; then
  echo "ok    inspector tools/list: create_draft, ledger, reconcile, compensate"
else echo "FAIL  inspector tools/list: $(head -c 400 "$work/list.json" "$work/err")"; failed=1; fi

run --method tools/call --tool-name create_draft --tool-arg job=JOB-001 topic=river copies=2 >"$work/call.json"
if grep -q '"status": "accepted"' "$work/call.json" && grep -q '"effect_committed"' "$work/call.json"; then
  echo "ok    inspector tools/call create_draft: accepted, committed"
else echo "FAIL  inspector tools/call: $(head -c 400 "$work/call.json" "$work/err")"; failed=1; fi

run --method tools/call --tool-name create_draft --tool-arg job=JOB-001 topic=river copies=9 >"$work/refused.json"
if grep -q '"isError": true' "$work/refused.json" && grep -q '"rule": "batch_limit"' "$work/refused.json"; then
  echo "ok    inspector tools/call over the limit: isError, rule batch_limit"
else echo "FAIL  inspector refusal: $(head -c 400 "$work/refused.json" "$work/err")"; failed=1; fi

if [ "$failed" = 0 ]; then echo "all inspector checks passed"; else echo "some inspector checks FAILED"; fi
exit "$failed"
