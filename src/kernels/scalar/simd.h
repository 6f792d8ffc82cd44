// Scalar kernel: the reference every SIMD kernel must match bit for bit, and the kernel of the wasm scalar build
// (engines without SIMD128). No vector instructions: eight bytes at a time in 64-bit words (SWAR), each class an
// exact per-byte compare whose result is the top bit of the byte, gathered into one bit per byte by a multiply.
// The stage-1 tests check every class against its per-byte definition.
#ifndef SLUICE_KERNELS_SCALAR_SIMD_H
#define SLUICE_KERNELS_SCALAR_SIMD_H

#include <cstdint>
#include <cstring>

#include "scan/bits.h"
#include "scan/block_classes.h"

// The word loops stay loops: unrolled, they made the scalar wasm module 24 % bigger for 14 % less scan time.
#if defined(__clang__)
#define SLUICE_WORD_LOOP _Pragma("clang loop unroll(disable)")
#else
#define SLUICE_WORD_LOOP
#endif

// Where another kernel is the best one (SIMD128, SSE2), this one only serves kernel_kind::scalar (the tests'
// comparisons): one outlined copy of each function, not one inlined into every scanner, keeps the module small.
#if defined(__wasm_simd128__) || defined(__SSE2__)
#define SLUICE_SCALAR_KERNEL_FN SLUICE_NOINLINE
#else
#define SLUICE_SCALAR_KERNEL_FN SLUICE_INLINE
#endif

namespace sluice {
namespace scalar {

namespace swar {

constexpr uint64_t ones = 0x0101010101010101ULL;
constexpr uint64_t tops = 0x8080808080808080ULL;
constexpr uint64_t lows = 0x7F7F7F7F7F7F7F7FULL;

SLUICE_INLINE uint64_t load(const uint8_t* p) noexcept {
  uint64_t w;
  std::memcpy(&w, p, 8);
  return w;
}
// 0x80 in each byte of w equal to c, 0 in the others. Exact: no carry crosses a byte ((b & 0x7F) + 0x7F <= 0xFE).
SLUICE_INLINE uint64_t eq(uint64_t w, uint8_t c) noexcept {
  const uint64_t t = w ^ (ones * c);
  return ~(((t & lows) + lows) | t) & tops;
}
// 0x80 in each byte of w below k (1 <= k <= 0x80), 0 in the others. Exact, as eq().
SLUICE_INLINE uint64_t below(uint64_t w, uint8_t k) noexcept {
  return ~(((w & lows) + ones * uint8_t(0x80 - k)) | w) & tops;
}
// One bit per byte of a word of eq()/below() results: bit i is byte i's top bit (little-endian loads). The
// multiply moves byte i's bit to bit 56 + i and nothing carries into those eight bits.
SLUICE_INLINE uint64_t gather(uint64_t m) noexcept { return ((m >> 7) * 0x0102040810204080ULL) >> 56; }

static_assert(__BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__, "byte i of a loaded word must be its bits 8i..8i+7");

}  // namespace swar

struct kernel {
  static constexpr const char* name = "scalar";
  // string_interior() tests quote and backslash first: stage1_debug checks it against classify() for the tests.
  static constexpr bool own_string_interior = true;
  static constexpr bool utf8_blocks = false;  // UTF-8 is validated a sequence at a time (utf8.h)

  // control, newline and high of the 8 words of a block whose below-0x20 and non-ASCII bytes are `ctrl` and
  // `high` (top bits); the three masks of r must be 0 on entry.
  SLUICE_SCALAR_KERNEL_FN static void rare_classes(const uint64_t* w, const uint64_t* ctrl, const uint64_t* high,
                                                   uint64_t any_ctrl, uint64_t any_high,
                                                   internal::block_classes& r) noexcept {
    SLUICE_WORD_LOOP
    for (int k = 0; k < 8; ++k) {
      if (any_ctrl != 0) {
        r.control |= swar::gather(ctrl[k]) << (8 * k);
        r.newline |= swar::gather(swar::eq(w[k], '\n')) << (8 * k);
      }
      if (any_high != 0) r.high |= swar::gather(high[k]) << (8 * k);
    }
  }

  SLUICE_SCALAR_KERNEL_FN static internal::block_classes classify(const uint8_t* p) noexcept {
    uint64_t w[8], ctrl[8], high[8], backslash[8];
    uint64_t any_ctrl = 0, any_high = 0, any_backslash = 0;
    internal::block_classes r{};
    SLUICE_WORD_LOOP
    for (int k = 0; k < 8; ++k) {
      const uint64_t x = swar::load(p + 8 * k);
      w[k] = x;
      ctrl[k] = swar::below(x, 0x20);
      high[k] = x & swar::tops;
      any_ctrl |= ctrl[k];
      any_high |= high[k];
      // '[' | 0x20 == '{' and ']' | 0x20 == '}': two compares cover four brackets (':' and ',' would also match
      // two control bytes that way, so they are compared as they are).
      const uint64_t lower = x | (swar::ones * 0x20);
      const uint64_t op = swar::eq(lower, '{') | swar::eq(lower, '}') | swar::eq(x, ':') | swar::eq(x, ',');
      const uint64_t quote = swar::eq(x, '"');
      backslash[k] = swar::eq(x, '\\');
      any_backslash |= backslash[k];
      r.quote |= swar::gather(quote) << (8 * k);
      r.op |= swar::gather(op) << (8 * k);
      r.nonscalar |= swar::gather(op | quote | swar::eq(x, ' ')) << (8 * k);
    }
    if (any_backslash != 0) {
      SLUICE_WORD_LOOP
      for (int k = 0; k < 8; ++k) r.backslash |= swar::gather(backslash[k]) << (8 * k);
    }
    // Tab, line feed and carriage return are whitespace too: control bytes, so absent from most blocks.
    if (any_ctrl != 0) {
      uint64_t ws = 0;
      SLUICE_WORD_LOOP
      for (int k = 0; k < 8; ++k) {
        ws |= swar::gather(swar::eq(w[k], '\t') | swar::eq(w[k], '\n') | swar::eq(w[k], '\r')) << (8 * k);
      }
      r.nonscalar |= ws;
    }
    rare_classes(w, ctrl, high, any_ctrl, any_high, r);
    return r;
  }

  // A block inside a string: true when it holds no quote and no backslash; then `r` gets the rare classes only.
  SLUICE_SCALAR_KERNEL_FN static bool string_interior(const uint8_t* p, internal::block_classes& r) noexcept {
    uint64_t w[8], ctrl[8], high[8];
    uint64_t stop = 0, any_ctrl = 0, any_high = 0;
    SLUICE_WORD_LOOP
    for (int k = 0; k < 8; ++k) {
      const uint64_t x = swar::load(p + 8 * k);
      w[k] = x;
      stop |= swar::eq(x, '"') | swar::eq(x, '\\');
      ctrl[k] = swar::below(x, 0x20);
      high[k] = x & swar::tops;
      any_ctrl |= ctrl[k];
      any_high |= high[k];
    }
    if (stop != 0) return false;
    r = internal::block_classes{};
    rare_classes(w, ctrl, high, any_ctrl, any_high, r);
    return true;
  }

  SLUICE_SCALAR_KERNEL_FN static internal::skeleton_classes skeleton(const uint8_t* p) noexcept {
    internal::skeleton_classes r{};
    SLUICE_WORD_LOOP
    for (int k = 0; k < 8; ++k) {
      const uint64_t x = swar::load(p + 8 * k);
      r.quote |= swar::gather(swar::eq(x, '"')) << (8 * k);
      r.backslash |= swar::gather(swar::eq(x, '\\')) << (8 * k);
      r.bracket |= swar::gather(swar::eq(x | (swar::ones * 0x26), 0x7F)) << (8 * k);
    }
    return r;
  }

  // Compaction (stream/compact.h): quotes, backslashes and whitespace candidates (below 0x21, or from 0x80 up).
  SLUICE_SCALAR_KERNEL_FN static internal::compact_classes compact_classes(const uint8_t* p) noexcept {
    internal::compact_classes r{};
    SLUICE_WORD_LOOP
    for (int k = 0; k < 8; ++k) {
      const uint64_t x = swar::load(p + 8 * k);
      r.quote |= swar::gather(swar::eq(x, '"')) << (8 * k);
      r.backslash |= swar::gather(swar::eq(x, '\\')) << (8 * k);
      r.space |= swar::gather(swar::below(x, 0x21) | (x & swar::tops)) << (8 * k);
    }
    return r;
  }
  static constexpr bool byte_shuffle = false;  // compact.h compresses a byte at a time

  // Bytes '0'..'9': x ^ 0x30 maps exactly them to 0..9.
  SLUICE_SCALAR_KERNEL_FN static uint64_t digits(const uint8_t* p) noexcept {
    uint64_t r = 0;
    SLUICE_WORD_LOOP
    for (int k = 0; k < 8; ++k)
      r |= swar::gather(swar::below(swar::load(p + 8 * k) ^ (swar::ones * 0x30), 10)) << (8 * k);
    return r;
  }
};

}  // namespace scalar
}  // namespace sluice

#endif  // SLUICE_KERNELS_SCALAR_SIMD_H
