#!/usr/bin/env bash
# The runtime suites (issue 4): the runtime-neutral suites (tests/runtime/all.ts) under Deno and Bun on both wasm
# builds, then through Vitest in Node: the browser suites in Chromium, Firefox and WebKit (tests/browser), workerd
# (tests/edge), the packed package (tests/package) and the examples' smoke runs. Needs dist/ built and the browsers
# installed (scripts/setup.sh).
# Every suite runs even when an earlier one failed; the script exits non-zero if any did, naming them.
set -uo pipefail
cd "$(dirname "$0")/.."

if [[ ! -f dist/index.js || ! -f dist/sluice.simd.wasm || ! -f dist/sluice.scalar.wasm ]]; then
  echo "test-runtimes: dist/ is not built: run npm run build first" >&2
  exit 1
fi

# Deno checks for a newer release on start; nothing here may reach outside the machine.
export DENO_NO_UPDATE_CHECK=1
export DENO_NO_PROMPT=1

started=$SECONDS
failed=()
passed=0
suite() {
  local name=$1
  shift
  echo
  echo "== runtimes: ${name} ($((SECONDS - started)) s since start)"
  if "$@"; then
    passed=$((passed + 1))
  else
    echo "== runtimes: ${name}: FAILED" >&2
    failed+=("$name")
  fi
}

# better-sqlite3 compiles its native addon (about 2 minutes on 2 cores): start it now, in the background, so it
# overlaps the suites that do not need it. Only the examples' smoke runs wait for it.
sqlite_dir=examples/node-sqlite
sqlite_log=$(mktemp)
sqlite_pid=
if [[ ! -d $sqlite_dir/node_modules/better-sqlite3 || $sqlite_dir/package-lock.json -nt $sqlite_dir/node_modules ]]; then
  echo "test-runtimes: npm ci in $sqlite_dir (in the background; log: $sqlite_log)"
  (cd "$sqlite_dir" && npm ci --no-audit --no-fund && touch node_modules) >"$sqlite_log" 2>&1 &
  sqlite_pid=$!
fi

suite "types (tests/runtime)" npx tsc -p tests/runtime
for build in simd scalar; do
  suite "deno test ($build)" env SLUICE_BUILD=$build npx deno test --allow-read --allow-env --allow-net=127.0.0.1 tests/deno/
  suite "bun test ($build)" env SLUICE_BUILD=$build npx bun test ./tests/bun/
done
for project in browser edge package; do
  suite "vitest: $project" npx vitest run --config tests/runtime/vitest.config.ts --project "$project"
done

if [[ -n $sqlite_pid ]]; then
  echo
  echo "== runtimes: waiting for npm ci in $sqlite_dir ($((SECONDS - started)) s since start)"
  if ! wait "$sqlite_pid"; then
    cat "$sqlite_log" >&2
    failed+=("npm ci in $sqlite_dir")
  fi
fi
rm -f "$sqlite_log"
suite "vitest: examples" npx vitest run --config tests/runtime/vitest.config.ts --project examples

echo
if ((${#failed[@]} > 0)); then
  echo "== runtimes: ${#failed[@]} of $((passed + ${#failed[@]})) suites FAILED in $((SECONDS - started)) s: ${failed[*]}" >&2
  exit 1
fi
echo "== runtimes: all ${passed} suites green in $((SECONDS - started)) s"
