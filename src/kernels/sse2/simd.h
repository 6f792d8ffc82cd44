// SSE2 kernel (the x86-64 baseline): the SIMD algorithm of the wasm SIMD128 kernel, run natively so CTest, the
// sanitizers and the fuzzer exercise the same code paths. SSE2 has no byte shuffle, so classes are compares;
// the rare classes (backslash, control, non-ASCII) are first tested for the whole block with one movemask.
#ifndef SLUICE_KERNELS_SSE2_SIMD_H
#define SLUICE_KERNELS_SSE2_SIMD_H

#include <emmintrin.h>

#include <cstdint>

#include "scan/bits.h"
#include "scan/block_classes.h"
#include "scan/utf8.h"

namespace sluice {
namespace sse2 {

struct kernel {
  static constexpr const char* name = "sse2";
  // string_interior() is vector code of its own: the kernel tests check it against classify()
  // (tests/cpp/support/stage1_debug.h).
  static constexpr bool own_string_interior = true;
  // SSE2 has no byte shuffle for the lookup tables: the byte-wise rendering of SIMD128's vector check, so that
  // natively the tests and the fuzzer run the block-level UTF-8 logic the SIMD128 build runs (and check it
  // against the scalar kernel, which validates a sequence at a time).
  static constexpr bool utf8_blocks = true;
  SLUICE_INLINE static bool utf8_errors(const uint8_t* p, uint8_t before) noexcept {
    return internal::utf8_errors_bytewise(p, before);
  }

  SLUICE_INLINE static __m128i eq(__m128i x, char c) noexcept { return _mm_cmpeq_epi8(x, _mm_set1_epi8(c)); }
  // Unsigned x < 0x20  <=>  min(x, 0x1F) == x.
  SLUICE_INLINE static __m128i control(__m128i x) noexcept {
    return _mm_cmpeq_epi8(_mm_min_epu8(x, _mm_set1_epi8(0x1F)), x);
  }
  SLUICE_INLINE static uint64_t bits(__m128i a, __m128i b, __m128i c, __m128i d) noexcept {
    return uint64_t(uint32_t(_mm_movemask_epi8(a))) | (uint64_t(uint32_t(_mm_movemask_epi8(b))) << 16) |
           (uint64_t(uint32_t(_mm_movemask_epi8(c))) << 32) | (uint64_t(uint32_t(_mm_movemask_epi8(d))) << 48);
  }

  SLUICE_INLINE static bool any(const __m128i* m) noexcept {
    return _mm_movemask_epi8(_mm_or_si128(_mm_or_si128(m[0], m[1]), _mm_or_si128(m[2], m[3]))) != 0;
  }
  // control, newline and high from the loaded block `v` and its control compares `ctrl`.
  SLUICE_INLINE static void rare_classes(const __m128i* v, const __m128i* ctrl, internal::block_classes& r) noexcept {
    r.control = 0;
    r.newline = 0;
    if (any(ctrl)) {
      r.control = bits(ctrl[0], ctrl[1], ctrl[2], ctrl[3]);
      r.newline = bits(eq(v[0], '\n'), eq(v[1], '\n'), eq(v[2], '\n'), eq(v[3], '\n'));
    }
    r.high = any(v) ? bits(v[0], v[1], v[2], v[3]) : 0;
  }

  SLUICE_INLINE static internal::block_classes classify(const uint8_t* p) noexcept {
    __m128i v[4];
    __m128i quote[4], op[4], nonscalar[4], backslash[4], ctrl[4];
    for (int i = 0; i < 4; ++i) {
      const __m128i x = _mm_loadu_si128(reinterpret_cast<const __m128i*>(p + 16 * i));
      v[i] = x;
      // '[' | 0x20 == '{' and ']' | 0x20 == '}': two compares cover four brackets.
      const __m128i lower = _mm_or_si128(x, _mm_set1_epi8(0x20));
      op[i] = _mm_or_si128(_mm_or_si128(eq(lower, '{'), eq(lower, '}')), _mm_or_si128(eq(x, ':'), eq(x, ',')));
      quote[i] = eq(x, '"');
      const __m128i ws = _mm_or_si128(_mm_or_si128(eq(x, ' '), eq(x, '\t')), _mm_or_si128(eq(x, '\n'), eq(x, '\r')));
      nonscalar[i] = _mm_or_si128(_mm_or_si128(op[i], quote[i]), ws);
      backslash[i] = eq(x, '\\');
      ctrl[i] = control(x);
    }
    internal::block_classes r;
    r.quote = bits(quote[0], quote[1], quote[2], quote[3]);
    r.op = bits(op[0], op[1], op[2], op[3]);
    r.nonscalar = bits(nonscalar[0], nonscalar[1], nonscalar[2], nonscalar[3]);
    r.backslash = any(backslash) ? bits(backslash[0], backslash[1], backslash[2], backslash[3]) : 0;
    rare_classes(v, ctrl, r);
    return r;
  }

  // A block inside a string: true when it holds no quote and no backslash; then `r` gets the rare classes only.
  SLUICE_INLINE static bool string_interior(const uint8_t* p, internal::block_classes& r) noexcept {
    __m128i v[4], stop[4], ctrl[4];
    for (int i = 0; i < 4; ++i) {
      const __m128i x = _mm_loadu_si128(reinterpret_cast<const __m128i*>(p + 16 * i));
      v[i] = x;
      stop[i] = _mm_or_si128(eq(x, '"'), eq(x, '\\'));
      ctrl[i] = control(x);
    }
    if (any(stop)) return false;
    r = internal::block_classes{};
    rare_classes(v, ctrl, r);
    return true;
  }

  // Strings and bracket candidates only (the skeleton pass).
  SLUICE_INLINE static internal::skeleton_classes skeleton(const uint8_t* p) noexcept {
    __m128i quote[4], backslash[4], bracket[4];
    for (int i = 0; i < 4; ++i) {
      const __m128i x = _mm_loadu_si128(reinterpret_cast<const __m128i*>(p + 16 * i));
      quote[i] = eq(x, '"');
      backslash[i] = eq(x, '\\');
      bracket[i] = eq(_mm_or_si128(x, _mm_set1_epi8(0x26)), 0x7F);
    }
    internal::skeleton_classes r;
    r.quote = bits(quote[0], quote[1], quote[2], quote[3]);
    r.bracket = bits(bracket[0], bracket[1], bracket[2], bracket[3]);
    r.backslash = any(backslash) ? bits(backslash[0], backslash[1], backslash[2], backslash[3]) : 0;
    return r;
  }

  // Compaction (stream/compact.h): quotes, backslashes and whitespace candidates (signed x < 0x21).
  SLUICE_INLINE static internal::compact_classes compact_classes(const uint8_t* p) noexcept {
    __m128i quote[4], backslash[4], space[4];
    for (int i = 0; i < 4; ++i) {
      const __m128i x = _mm_loadu_si128(reinterpret_cast<const __m128i*>(p + 16 * i));
      quote[i] = eq(x, '"');
      backslash[i] = eq(x, '\\');
      space[i] = _mm_cmplt_epi8(x, _mm_set1_epi8(0x21));
    }
    internal::compact_classes r;
    r.quote = bits(quote[0], quote[1], quote[2], quote[3]);
    r.space = bits(space[0], space[1], space[2], space[3]);
    r.backslash = any(backslash) ? bits(backslash[0], backslash[1], backslash[2], backslash[3]) : 0;
    return r;
  }
  // No byte shuffle in SSE2: compact.h compresses a byte at a time.
  static constexpr bool byte_shuffle = false;

  // Bytes '0'..'9' (number validation; computed only for blocks holding number tokens).
  SLUICE_INLINE static uint64_t digits(const uint8_t* p) noexcept {
    __m128i d[4];
    for (int i = 0; i < 4; ++i) {
      const __m128i x = _mm_loadu_si128(reinterpret_cast<const __m128i*>(p + 16 * i));
      // Unsigned x - '0' <= 9: saturating subtraction of 9 leaves 0 exactly inside the range.
      d[i] = _mm_cmpeq_epi8(_mm_subs_epu8(_mm_sub_epi8(x, _mm_set1_epi8('0')), _mm_set1_epi8(9)), _mm_setzero_si128());
    }
    return bits(d[0], d[1], d[2], d[3]);
  }
};

}  // namespace sse2
}  // namespace sluice

#endif  // SLUICE_KERNELS_SSE2_SIMD_H
