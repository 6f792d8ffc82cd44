// The test-only wasm module of tests/node/kernels.test.ts: stage 1 alone (tests/cpp/support/stage1_debug.h) with
// the build's best kernel and with the scalar one, so the Vitest suite checks that the SIMD128 kernel and the
// scalar kernel agree bit for bit as compiled to wasm, inside one build and across the two builds. Built next to
// each wasm build (build/wasm-*/tests/wasm/kernel_test.wasm), never shipped in dist/.
//
// Plain C exports on a standalone module (no Emscripten glue): JS writes the input at kernel_test_input(n), calls
// kernel_test_stage1(n, scalar) and reads 4 x u64 per 64-byte block at the address it returns.
#include <emscripten/emscripten.h>

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <cstring>

#include "kernels/best_kernel.h"
#include "kernels/scalar/simd.h"
#include "support/stage1_debug.h"

namespace {

uint8_t* input = nullptr;
uint64_t* words = nullptr;

}  // namespace

extern "C" {

// Room for n input bytes (and 64 zero bytes after them: the scan reads whole blocks). Valid until the next call.
EMSCRIPTEN_KEEPALIVE uint8_t* kernel_test_input(size_t n) {
  std::free(input);
  std::free(words);
  input = static_cast<uint8_t*>(std::calloc(n + 64, 1));
  words = static_cast<uint64_t*>(std::calloc((n + 63) / 64 * 4 + 1, sizeof(uint64_t)));
  return input;
}

// The masks of the n bytes at kernel_test_input(n), by the best kernel or (scalar != 0) the scalar one.
EMSCRIPTEN_KEEPALIVE const uint64_t* kernel_test_stage1(size_t n, int scalar) {
  if (scalar != 0) {
    sluice::test::stage1_debug<sluice::scalar::kernel>(input, n, words);
  } else {
    sluice::test::stage1_debug<sluice::internal::best_kernel>(input, n, words);
  }
  return words;
}

// 1 when the best kernel is SIMD128 (the SIMD build), 0 when it is the scalar one.
EMSCRIPTEN_KEEPALIVE int kernel_test_simd() { return std::strcmp(sluice::internal::best_kernel::name, "simd128") == 0; }

}  // extern "C"
