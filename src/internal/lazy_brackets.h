// Which structural bytes of a block are brackets, for the skeleton pass (lazy_skeleton.h), which records where
// containers open and close and has nothing to do at a comma or a colon. Visiting those anyway was most of its
// work: twitter.json has 25,700 commas and colons outside strings against 4,600 brackets, canada.json 111,000
// commas against 112,000 brackets.
//
// Of the six structural bytes, the four brackets are the ones with bit 6 set ('[' 0x5B, ']' 0x5D, '{' 0x7B,
// '}' 0x7D; ':' is 0x3A, ',' 0x2C): one shift and one movemask per 16 bytes, masked by the structural mask the
// scan already has. Without SIMD the mask stays the structural one and the caller tells the bytes apart itself,
// so every kernel gives the same skeleton.
#ifndef SLUICE_INTERNAL_LAZY_BRACKETS_H
#define SLUICE_INTERNAL_LAZY_BRACKETS_H

#include <cstdint>

#include "internal/bits.h"

#if defined(__wasm_simd128__)
#include <wasm_simd128.h>

#include "kernels/simd128/simd.h"
#elif defined(__SSE2__)
#include <emmintrin.h>

#include "kernels/sse2/simd.h"
#endif

namespace sluice {
namespace internal {

// A superset of the brackets among `structural` (bits of p[0..64)): the structural mask itself.
template <class K>
struct bracket_bits {
  SLUICE_INLINE static uint64_t of(const uint8_t*, uint64_t structural) noexcept { return structural; }
};

#if defined(__wasm_simd128__)
// Exactly the brackets: bit 6 of each byte, shifted into the sign bit that i8x16.bitmask collects.
template <>
struct bracket_bits<simd128::kernel> {
  SLUICE_INLINE static uint64_t of(const uint8_t* p, uint64_t structural) noexcept {
    uint64_t m = 0;
    for (int i = 0; i < 4; ++i) {
      const v128_t x = wasm_i8x16_shl(wasm_v128_load(p + 16 * i), 1);
      m |= uint64_t(uint16_t(wasm_i8x16_bitmask(x))) << (16 * i);
    }
    return m & structural;
  }
};
#elif defined(__SSE2__)
// Exactly the brackets: x + x moves bit 6 of each byte into the sign bit that movemask collects.
template <>
struct bracket_bits<sse2::kernel> {
  SLUICE_INLINE static uint64_t of(const uint8_t* p, uint64_t structural) noexcept {
    uint64_t m = 0;
    for (int i = 0; i < 4; ++i) {
      const __m128i x = _mm_loadu_si128(reinterpret_cast<const __m128i*>(p + 16 * i));
      m |= uint64_t(uint32_t(_mm_movemask_epi8(_mm_add_epi8(x, x)))) << (16 * i);
    }
    return m & structural;
  }
};
#endif

}  // namespace internal
}  // namespace sluice

#endif  // SLUICE_INTERNAL_LAZY_BRACKETS_H
