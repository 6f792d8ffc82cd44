#!/usr/bin/env bash
# What `npm test` runs, as named parts that also run alone (`npm run test:<part>`, table in tests/README.md):
#   (no argument)  everything, in this order: setup, the wasm + TypeScript build, then every part below
#   lint           Biome, clang-format, the type-check of the tests and of the shipped .d.ts (`npm run lint`)
#   native         the GoogleTest suites under CTest: release, then ASan+UBSan
#   fuzz           a short libFuzzer run per target (SLUICE_FUZZ_SECONDS, default 60; SLUICE_FUZZ_SEED, default 1)
#   js             the Vitest suites on the SIMD build, but the long ones (the quick loop: `npm run test:js`)
#   js-scalar      the same suites on the scalar build
#   js-slow        the long Vitest suites (vitest.config.ts, SLOW_SUITES) on both builds
#   runtimes       Deno, Bun, Chromium, Firefox, WebKit, workerd, the packed package, the examples
#   consumers      the packed package installed, built and checked in a fresh project per tool (tests/consumers)
# package.json's test:js, test:js:scalar, test:js:slow, test:runtimes and test:consumers are the commands of these
# parts themselves (so that `npm run test:js -- tests/node/api.test.ts` narrows it); test:native and test:fuzz call
# this script. Every part but native and fuzz tests dist/ as built: run `npm run build` first (HACKING.md says what
# needs which build).
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

part_lint() {
  stage "lint (Biome, clang-format, type-check of the tests)"
  bash scripts/lint.sh
}

part_native() {
  for preset in native-release native-debug; do
    stage "native: ${preset}"
    cmake --preset "$preset"
    cmake --build --preset "$preset" -j2
    ctest --preset "$preset"
  done
}

part_fuzz() {
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
}

part_js() {
  stage "vitest: simd"
  npx vitest run --project simd
}

part_js-scalar() {
  stage "vitest: scalar"
  npx vitest run --project scalar
}

part_js-slow() {
  stage "vitest: the long suites, simd + scalar"
  npx vitest run --project slow-simd --project slow-scalar
}

part_runtimes() {
  stage "runtimes: Deno, Bun, Chromium, Firefox, WebKit, workerd, package, examples"
  bash scripts/test-runtimes.sh
}

part_consumers() {
  stage "consumers: the packed package in a fresh project per tool (tests/consumers)"
  node tests/consumers/run.mjs
}

parts=(lint native fuzz js js-scalar js-slow runtimes consumers)
if (($# == 0)); then
  stage "setup"
  bash scripts/setup.sh
  stage "build (wasm + TypeScript)"
  npm run build
  set -- "${parts[@]}"
fi
for part in "$@"; do
  if [[ " ${parts[*]} " != *" ${part} "* ]]; then
    echo "test.sh: no part named '${part}'; the parts: ${parts[*]}" >&2
    exit 2
  fi
done
for part in "$@"; do
  "part_${part}"
done
stage "all passed"
