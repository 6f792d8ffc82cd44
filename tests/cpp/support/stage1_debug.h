// A test hook: stage 1 alone over a buffer, block after block, reporting per 64-byte block what scan_block_full
// computes. The native stage-1 tests (tests/cpp/stage1_test.cpp) and the wasm kernel test module
// (tests/wasm/kernel_test.cpp, loaded by tests/node/kernels.test.ts) both use it; the shipped code does not.
#ifndef SLUICE_TEST_STAGE1_DEBUG_H
#define SLUICE_TEST_STAGE1_DEBUG_H

#include <cstddef>
#include <cstdint>

#include "scan/full_scan.h"

namespace sluice::test {

// 4 x u64 per block: events, in_string, quote, and the error word: error position + 1 (0: none) in the low 32
// bits, the error code in bits 32..62, bit 63 set when the kernel's string-interior test disagrees with its
// classification (never, in a correct kernel). `p` must be readable up to 64 bytes past len.
template <class K>
void stage1_debug(const uint8_t* p, size_t len, uint64_t* out) noexcept {
  internal::scan_full_state s;
  for (size_t off = 0; off < len; off += 64) {
    const unsigned n = len - off < 64 ? unsigned(len - off) : 64;
    const internal::scan_full_events b = internal::scan_block_full<K>(s, p + off, n);
    // The string-interior shortcut of whole blocks (scan_block_full<K, true>) rests on K::string_interior agreeing
    // with K::classify: its verdict, and the rare classes it reports. Checked here (bit 63 of the error word,
    // which the tests compare across kernels).
    uint64_t disagrees = 0;
    if (K::own_string_interior && n == 64) {
      internal::block_classes quick;
      const bool interior = K::string_interior(p + off, quick);
      const internal::block_classes c = K::classify(p + off);
      if (interior != ((c.quote | c.backslash) == 0) ||
          (interior && (quick.control != c.control || quick.newline != c.newline || quick.high != c.high)))
        disagrees = uint64_t{1} << 63;
    }
    *out++ = b.events;
    *out++ = b.in_string;
    *out++ = b.quote;
    *out++ = uint64_t(uint32_t(b.error_at + 1)) | (uint64_t(b.error) << 32) | disagrees;
  }
}

}  // namespace sluice::test

#endif  // SLUICE_TEST_STAGE1_DEBUG_H
