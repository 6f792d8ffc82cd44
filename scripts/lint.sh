#!/usr/bin/env bash
# What `npm run lint` checks (and `npm test` runs after the build): Biome (format and lint rules, import cycles
# included) over the TypeScript and JavaScript, clang-format over the C++, and the type-check of the tests against
# the built declarations (dist/ must be built). `npm run format` rewrites what the two formatters would change.
set -euo pipefail
cd "$(dirname "$0")/.."

mapfile -t cpp < <(git ls-files 'src/*.h' 'src/*.cpp' 'wasm/*.cpp' 'wasm/*.h' 'tests/cpp/*.h' 'tests/cpp/*.cpp' \
  'tests/fuzz/*.h' 'tests/fuzz/*.cpp')

if [[ ${1:-} == --write ]]; then
  npx biome check --write .
  clang-format -i --style=file "${cpp[@]}"
  exit 0
fi

echo "lint: biome"
npx biome check .
echo "lint: clang-format (${#cpp[@]} files)"
clang-format --dry-run --Werror --style=file "${cpp[@]}"
for project in tests/node tests/runtime tests/types; do
  echo "lint: tsc -p ${project}"
  npx tsc --noEmit -p "$project"
done
echo "lint: clean"
