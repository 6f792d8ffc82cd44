#!/usr/bin/env bash
# What `npm test` runs: setup, the wasm + TypeScript build, the lint (Biome, clang-format, the type-check of the
# tests and of the shipped .d.ts), the native suites (release, then ASan+UBSan), a short libFuzzer run, the Vitest
# suites on both wasm builds, every runtime of the support matrix, and the consumer matrix (tests/consumers: the
# packed package installed, built and checked in a fresh project per tool).
set -euo pipefail
cd "$(dirname "$0")/.."

# Debian's emscripten runs its tools with the system node, which finds acorn & co only here.
export NODE_PATH=/usr/share/nodejs

script_start=$SECONDS
stage_start=$SECONDS
stage() {
  local now=$SECONDS
  if [[ -n ${stage_name:-} ]]; then
    echo "== ${stage_name}: done in $((now - stage_start)) s"
  fi
  stage_name=$1
  stage_start=$now
  echo
  echo "== ${stage_name} ($(date +%T), $((now - script_start)) s since start)"
}

stage "setup"
bash scripts/setup.sh

stage "build (wasm + TypeScript)"
npm run build

stage "lint (Biome, clang-format, type-check of the tests)"
bash scripts/lint.sh

for preset in native-release native-debug; do
  stage "native: ${preset}"
  cmake --preset "$preset"
  cmake --build --preset "$preset" -j2
  ctest --preset "$preset"
done

stage "fuzz: ${SLUICE_FUZZ_SECONDS:-60} s per target"
cmake --preset fuzz
cmake --build --preset fuzz -j2
# A fixed seed (SLUICE_FUZZ_SEED to change it) so that a failure here is one anybody can replay; longer and other
# runs explore further (tests/fuzz/README.md), and what they find becomes a seed.
for target in fuzz_push_parser fuzz_lazy_index; do
  mkdir -p "build/fuzz/corpus-${target}"
  "build/fuzz/${target}" -seed="${SLUICE_FUZZ_SEED:-1}" -max_total_time="${SLUICE_FUZZ_SECONDS:-60}" \
    -rss_limit_mb=2048 "build/fuzz/corpus-${target}" tests/fuzz/seeds
done

stage "vitest (simd + scalar)"
npx vitest run

stage "runtimes: Deno, Bun, Chromium, Firefox, WebKit, workerd, package, examples"
bash scripts/test-runtimes.sh

stage "consumers: the packed package in a fresh project per tool (tests/consumers)"
npm run test:consumers

stage "all passed"
