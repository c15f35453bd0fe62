#!/usr/bin/env bash
# Check a guardlab build the way a teacher would before handing it out:
#   scripts/check-binary.sh dist/guardlab
#   scripts/check-binary.sh deno task -q --config "$PWD/deno.json" guardlab
#   scripts/check-binary.sh --engineer dist/guardlab-engineer
#   scripts/check-binary.sh --engineer deno task -q --config "$PWD/deno.json" guardlab-engineer
# The arguments are the command that starts guardlab. It must pass `verify`
# and `sandbox`, refuse planted links with exit 4 while touching nothing
# outside the temp folder, show a ledger without changing a byte, answer an
# MCP round trip (initialize, tools/list, tools/call) on stdin and stdout,
# and run `accept --example` in process. The student binary (temp folder
# only) must refuse to start a server in one line naming the grant; the
# engineers' binary (--engineer: also run, loopback net, the child's env)
# must pass the same MCP round trip through `guardlab proxy` and find every
# verdict of `accept` against its own `mcp` safe.
# Exit 0 when every check passed; each check prints one line.
set -u
here="$(cd "$(dirname "$0")/.." && pwd)"
engineer=0
if [ "${1:-}" = "--engineer" ]; then engineer=1; shift; fi
[ "$#" -ge 1 ] || { echo "usage: $0 [--engineer] GUARDLAB-COMMAND..." >&2; exit 2; }
guardlab=("$@")
case "$(uname -s)" in MINGW* | MSYS* | CYGWIN*) tmp='C:\Windows\Temp'; windows=1 ;; *) tmp=/tmp; windows=0 ;; esac
failed=0
pass() { echo "ok    $1"; }
fail() { echo "FAIL  $1"; failed=1; }
skip() { echo "skip  $1"; }

# Work from an empty folder; "outside" stands for a user's files beyond the grant.
work="$(mktemp -d "$here/.check-XXXXXX")"
outside="$work/outside"
mkdir -p "$outside/project"
echo keep >"$outside/project/lab.sqlite"
tag="chk$$"
sandbox_dir=""
cleanup() {
  [ -n "$sandbox_dir" ] && rm -rf "$sandbox_dir"
  rm -rf "$work"
}
trap cleanup EXIT
cd "$work" || exit 1

# Names, link targets and file contents below a folder (portable: GNU and BSD).
fingerprint() {
  (cd "$1" && find . -print | LC_ALL=C sort &&
    find . -type l -print | LC_ALL=C sort | while read -r f; do echo "$f -> $(readlink "$f")"; done &&
    find . -type f -print | LC_ALL=C sort | while read -r f; do echo "$f $(cksum <"$f")"; done)
}
refused() { # label, then the guardlab arguments; must exit 4 with one line on stderr
  local label="$1"; shift
  "${guardlab[@]}" "$@" >"$work/out" 2>"$work/err" </dev/null
  local rc=$?
  if [ "$rc" -eq 4 ] && [ "$(wc -l <"$work/err")" -eq 1 ] && [ ! -s "$work/out" ]; then pass "$label: exit 4, one line"
  else fail "$label: exit $rc, stderr: $(head -c 300 "$work/err")"; fi
}

uid="$(id -u 2>/dev/null || echo x)"
root="$tmp/guardlab-$uid"
[ "$windows" = 1 ] && root="$tmp\\guardlab"
before="$(fingerprint "$outside")"

# 1. A link planted where the private folder belongs (only while it is absent).
if [ "$windows" = 1 ]; then skip "root link: Windows links need extra rights"
elif [ -e "$root" ] || [ -L "$root" ]; then skip "root link: $root already exists"
else
  ln -s "$outside" "$root"
  refused "root link, reset" reset --ledger project
  refused "root link, run" run --ledger project --job JOB-001 --topic river --copies 2
  rm "$root"
fi

# 2. The lab behaves as the article says, and the grant is the narrow one.
"${guardlab[@]}" verify >"$work/out" 2>"$work/err"
rc=$?
if [ "$rc" -eq 0 ] && tail -n1 "$work/out" | grep -q '^all [0-9]* checks of the [0-9]* scenarios match'; then pass "verify: $(tail -n1 "$work/out")"
else fail "verify: exit $rc: $(tail -n2 "$work/out" "$work/err" | head -c 300)"; fi
"${guardlab[@]}" sandbox >"$work/out" 2>"$work/err"
rc=$?
if [ "$engineer" = 1 ]; then
  # Wider by design (run, loopback net, the child's env); files stay in the temp folder.
  outside_lines="$(grep -E '^(read|write) (/|C:\\) ' "$work/out")"
  if grep -q '^private folder: ' "$work/out" && [ "$(printf '%s\n' "$outside_lines" | grep -c .)" -eq 2 ] &&
    ! printf '%s\n' "$outside_lines" | grep -q ' granted '; then
    pass "sandbox: the engineers' grant, no file outside the temp folder, safe private folder"
  else fail "sandbox (engineer): exit $rc: $(cat "$work/out" "$work/err" | head -c 400)"; fi
elif [ "$rc" -eq 0 ] && grep -q '^narrow: ' "$work/out" && grep -q '^private folder: ' "$work/out"; then pass "sandbox: narrow grant, safe private folder"
else fail "sandbox: exit $rc: $(cat "$work/out" "$work/err" | head -c 400)"; fi

# 3. Links planted below the private folder and beside a --ledger-file.
if [ "$windows" = 1 ]; then skip "planted links: Windows links need extra rights"
else
  # Commands that keep nothing no longer make the private folder; make it as guardlab would.
  [ -d "$root" ] || mkdir -m 700 "$root"
  ln -s "$outside" "$root/$tag"
  refused "ledger folder link" run --ledger "$tag" --job JOB-001 --topic river --copies 2
  rm "$root/$tag"
  sandbox_dir="$(mktemp -d "$tmp/guardlab-check-XXXXXX")"
  chmod 700 "$sandbox_dir"
  ln -s "$outside/project/lab.sqlite" "$sandbox_dir/link.sqlite"
  refused "--ledger-file link to a file outside" run --ledger-file "$sandbox_dir/link.sqlite" --job JOB-001 --topic river --copies 2
  refused "--ledger-file link, view" ledger --ledger-file "$sandbox_dir/link.sqlite"
  ln -s "$outside/new.sqlite" "$sandbox_dir/dangling.sqlite"
  refused "--ledger-file dangling link" run --ledger-file "$sandbox_dir/dangling.sqlite" --job JOB-001 --topic river --copies 2
  ln -s /etc/hostname "$tmp/$tag-steps" 2>/dev/null && {
    refused "script FILE link" script "$tmp/$tag-steps"
    rm -f "$tmp/$tag-steps"
  }
fi
after="$(fingerprint "$outside")"
if [ "$before" = "$after" ]; then pass "nothing outside the temp folder changed"; else fail "files outside the temp folder changed"; fi

# 4. A read-only view leaves a ledger written by the reference byte-identical.
[ -n "$sandbox_dir" ] || { sandbox_dir="$(mktemp -d "$tmp/guardlab-check-XXXXXX")"; chmod 700 "$sandbox_dir"; }
cp "$here/fixtures/reference-ledger.sqlite" "$sandbox_dir/ref.sqlite"
sum_before="$(cksum <"$sandbox_dir/ref.sqlite")"
"${guardlab[@]}" ledger --ledger-file "$sandbox_dir/ref.sqlite" >/dev/null 2>"$work/err"
rc=$?
"${guardlab[@]}" reconcile --ledger-file "$sandbox_dir/ref.sqlite" >/dev/null 2>>"$work/err"
rc2=$?
if [ "$rc" -eq 0 ] && [ "$rc2" -eq 3 ] && [ "$sum_before" = "$(cksum <"$sandbox_dir/ref.sqlite")" ] && [ "$(ls "$sandbox_dir" | grep -c ref)" -eq 1 ]; then
  pass "ledger and reconcile only read: same bytes, no -wal/-shm/-journal"
else fail "read-only view: exits $rc/$rc2, $(head -c 300 "$work/err")"; fi

# 5. An MCP round trip on stdin/stdout: initialize, tools/list, one tools/call,
#    answered in full after the client closes its end (scratch ledger, no grant beyond temp).
mcp_in='{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"check-binary","version":"1"}}}
{"jsonrpc":"2.0","method":"notifications/initialized"}
{"jsonrpc":"2.0","id":2,"method":"tools/list"}
{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"create_draft","arguments":{"job":"JOB-001","topic":"river","copies":2}}}'
printf '%s\n' "$mcp_in" | "${guardlab[@]}" mcp >"$work/out" 2>"$work/err"
rc=$?
if [ "$rc" -eq 0 ] && [ "$(wc -l <"$work/out")" -eq 3 ] &&
  grep -q '"serverInfo":{"name":"guardlab"' "$work/out" &&
  grep -q '"name":"create_draft"' "$work/out" &&
  grep -q '"structuredContent":{"call":1,"session":1,"status":"accepted"' "$work/out"; then
  pass "mcp: initialize, tools/list, tools/call create_draft accepted"
else fail "mcp round trip: exit $rc: $(head -c 300 "$work/out") $(head -c 300 "$work/err")"; fi

# 6. The acceptance test against an example server built in, run in process (any grant).
"${guardlab[@]}" accept --example idempotent >"$work/out" 2>"$work/err"
rc=$?
if [ "$rc" -eq 0 ] && grep -q '^cases run: 10; safe 10, unsafe 0' "$work/out"; then pass "accept --example idempotent: 10 cases, all safe"
else fail "accept --example: exit $rc: $(tail -n3 "$work/out" "$work/err" | head -c 300)"; fi
"${guardlab[@]}" accept --example duplicates-on-retry >/dev/null 2>&1
rc=$?
if [ "$rc" -eq 5 ]; then pass "accept --example duplicates-on-retry: exit 5 (unsafe)"; else fail "accept --example duplicates-on-retry: exit $rc, not 5"; fi

# 7. Starting a server: refused in one line under the student grant; under the
#    engineers' grant, the MCP round trip through the proxy and accept against mcp.
oracle="$sandbox_dir/guardlab-mcp.json"
cp "$here/tests/accept/oracles/guardlab-mcp.json" "$oracle"
if [ "$engineer" = 0 ]; then
  "${guardlab[@]}" accept --oracle "$oracle" -- "${guardlab[@]}" mcp >"$work/out" 2>"$work/err" </dev/null
  rc=$?
  if [ "$rc" -eq 4 ] && [ "$(wc -l <"$work/err")" -eq 1 ] && grep -q 'guardlab-engineer' "$work/err"; then pass "accept -- COMMAND under the student grant: exit 4, one line naming the engineer grant"
  else fail "accept under the student grant: exit $rc: $(head -c 300 "$work/err")"; fi
else
  printf '%s\n' "$mcp_in" | "${guardlab[@]}" proxy --record "$sandbox_dir/record.jsonl" -- "${guardlab[@]}" mcp >"$work/out" 2>"$work/err"
  rc=$?
  if [ "$rc" -eq 0 ] && [ "$(wc -l <"$work/out")" -eq 3 ] &&
    grep -q '"structuredContent":{"call":1,"session":1,"status":"accepted"' "$work/out" &&
    [ "$(grep -c '"kind":"msg"' "$sandbox_dir/record.jsonl")" -ge 7 ]; then
    pass "proxy: the MCP round trip through guardlab proxy, recorded"
  else fail "proxy round trip: exit $rc: $(head -c 300 "$work/out") $(head -c 300 "$work/err")"; fi
  # One ledger file: the second process and the restart of two-processes and
  # crash-after-commit open the same one.
  "${guardlab[@]}" accept --oracle "$oracle" -- "${guardlab[@]}" mcp --ledger-file "$sandbox_dir/accept.sqlite" >"$work/out" 2>"$work/err" </dev/null
  rc=$?
  if [ "$rc" -eq 0 ] && grep -q '^cases run: 10; safe 10, unsafe 0' "$work/out"; then pass "accept against its own mcp: 10 cases, all safe"
  else fail "accept against mcp: exit $rc: $(tail -n3 "$work/out" "$work/err" | head -c 300)"; fi
fi

if [ "$failed" = 0 ]; then echo "all checks passed"; else echo "some checks FAILED"; fi
exit "$failed"
