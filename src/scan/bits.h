// Bit helpers shared by the stages. Portable builtins: the same code compiles natively and to wasm.
#ifndef SLUICE_SCAN_BITS_H
#define SLUICE_SCAN_BITS_H

#include <cstdint>

// The hot loop must be one wasm function: V8 does not inline across wasm functions, and a struct returned from
// an outlined call travels through linear memory. Everything the loop calls per block or per event is forced inline.
#define SLUICE_INLINE inline __attribute__((always_inline))
// The general path stays out of the hot loop, so the loop's few registers are not spilled for it.
#define SLUICE_NOINLINE __attribute__((noinline))
// Code run once per parser or on rare paths, compiled for size under clang (the wasm module's budget), out of line
// everywhere.
#if defined(__clang__)
#define SLUICE_SMALL __attribute__((noinline, minsize))
#else
#define SLUICE_SMALL __attribute__((noinline))
#endif

namespace sluice {
namespace internal {

SLUICE_INLINE int trailing_zeroes(uint64_t x) noexcept { return __builtin_ctzll(x); }
SLUICE_INLINE int leading_zeroes(uint64_t x) noexcept { return __builtin_clzll(x); }
SLUICE_INLINE int count_ones(uint64_t x) noexcept { return __builtin_popcountll(x); }
SLUICE_INLINE uint64_t clear_lowest_bit(uint64_t x) noexcept { return x & (x - 1); }

// Bits 0..n-1 set; n in 0..64.
SLUICE_INLINE uint64_t mask_below(unsigned n) noexcept { return n >= 64 ? ~uint64_t{0} : (uint64_t{1} << n) - 1; }

// Bit i of the result is the XOR of bits 0..i of x. Shifts rather than carry-less multiplication: wasm has no
// clmul, and all kernels must agree bit for bit. Six shift/xor pairs per block.
SLUICE_INLINE uint64_t prefix_xor(uint64_t x) noexcept {
  x ^= x << 1;
  x ^= x << 2;
  x ^= x << 4;
  x ^= x << 8;
  x ^= x << 16;
  x ^= x << 32;
  return x;
}

}  // namespace internal
}  // namespace sluice

#endif  // SLUICE_SCAN_BITS_H
