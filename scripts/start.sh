#!/usr/bin/env bash
# npm start: the demo (examples/node/demo.mjs), from a fresh clone: installs the toolchain and npm packages when
# they are missing (scripts/setup.sh), builds dist/ when it is missing, then fetches a generated 100 MB document
# from a paced local server with `await res.json()` and with sluice, prints the table, and serves the browser
# example until Ctrl-C. Extra arguments go to the demo (`npm start -- --no-serve`, `npm start -- --help`).
set -euo pipefail
cd "$(dirname "$0")/.."

if ! command -v em++ >/dev/null 2>&1 || [[ ! -d node_modules ]]; then
  bash scripts/setup.sh
fi

if [[ ! -f dist/sluice.simd.wasm || ! -f dist/sluice.scalar.wasm || ! -f dist/index.js ]]; then
  # Debian's emscripten runs its tools with the system node, which finds acorn & co only here.
  export NODE_PATH=/usr/share/nodejs
  echo "start: dist/ is not built: npm run build" >&2
  npm run build
fi

exec node examples/node/demo.mjs "$@"
