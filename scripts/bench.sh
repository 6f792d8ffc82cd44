#!/usr/bin/env bash
# npm run bench:NAME -> bash scripts/bench.sh NAME [options]: runs bench/NAME/main.mjs after installing the
# benchmark-only peers (bench/package.json, kept out of the root so CI's `npm ci` never installs them) and
# building dist/ when it is missing.
set -euo pipefail
cd "$(dirname "$0")/.."

name="${1:-}"
if [[ -z "$name" || ! -f "bench/$name/main.mjs" ]]; then
  echo "usage: bash scripts/bench.sh NAME [options]   (NAME: one of bench/*/main.mjs, e.g. parse)" >&2
  exit 2
fi
shift

# npm writes node_modules/.package-lock.json on install; an older one means the bench lockfile changed since.
if [[ ! -f bench/node_modules/.package-lock.json || bench/package-lock.json -nt bench/node_modules/.package-lock.json ]]; then
  echo "bench: installing the benchmark peers (npm ci --prefix bench)" >&2
  npm ci --prefix bench --no-audit --no-fund
fi

if [[ ! -f dist/sluice.simd.wasm || ! -f dist/sluice.scalar.wasm || ! -f dist/index.js ]]; then
  if ! command -v em++ >/dev/null 2>&1 || [[ ! -d node_modules ]]; then
    bash scripts/setup.sh
  fi
  # Debian's emscripten runs its tools with the system node, which finds acorn & co only here.
  export NODE_PATH=/usr/share/nodejs
  echo "bench: dist/ is not built: npm run build" >&2
  npm run build
fi

exec node "bench/$name/main.mjs" "$@"
