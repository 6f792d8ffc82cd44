// WebAssembly SIMD128 kernel: the hot path of the wasm SIMD build. Structural bytes are classified with one table
// lookup (i8x16.swizzle on the low nibble, simdjson's trick) instead of six compares, whitespace with one signed
// compare corrected in the rare blocks that need it; the rare classes (backslash, control, non-ASCII) are first
// tested for the whole block with one any_true.
#ifndef SLUICE_KERNELS_SIMD128_SIMD_H
#define SLUICE_KERNELS_SIMD128_SIMD_H

#include <wasm_simd128.h>

#include <cstdint>

#include "kernels/compress_table.h"
#include "scan/bits.h"
#include "scan/block_classes.h"
#include "scan/utf8.h"

namespace sluice {
namespace simd128 {

struct kernel {
  static constexpr const char* name = "simd128";
  // string_interior() is vector code of its own: the kernel tests check it against classify()
  // (tests/cpp/support/stage1_debug.h).
  static constexpr bool own_string_interior = true;
  static constexpr bool utf8_blocks = true;  // utf8_errors() below

  SLUICE_INLINE static v128_t eq(v128_t x, uint8_t c) noexcept { return wasm_i8x16_eq(x, wasm_u8x16_splat(c)); }
  // Halves joined as 32-bit words, one widening: two instructions fewer than four widened shifts (V8 widens with
  // a move each).
  SLUICE_INLINE static uint64_t bits(v128_t a, v128_t b, v128_t c, v128_t d) noexcept {
    const uint32_t lo = uint32_t(wasm_i8x16_bitmask(a)) | (uint32_t(wasm_i8x16_bitmask(b)) << 16);
    const uint32_t hi = uint32_t(wasm_i8x16_bitmask(c)) | (uint32_t(wasm_i8x16_bitmask(d)) << 16);
    return uint64_t(lo) | (uint64_t(hi) << 32);
  }
  // Of compare results (bytes 0 or 0xFF): the bitmask is one instruction and the branch tests it, where V8 turns
  // any_true into a test, a setcc and the branch's own test.
  SLUICE_INLINE static bool any(const v128_t* m) noexcept {
    return wasm_i8x16_bitmask(wasm_v128_or(wasm_v128_or(m[0], m[1]), wasm_v128_or(m[2], m[3]))) != 0;
  }

  // control, newline and high from the loaded block `v` and its signed `x < 0x20` compares `low` (control and
  // non-ASCII bytes), told apart only in blocks that hold either; r's three masks must be 0 on entry.
  SLUICE_INLINE static void rare_classes(const v128_t* v, const v128_t* low, internal::block_classes& r) noexcept {
    if (!any(low)) return;
    r.high = bits(v[0], v[1], v[2], v[3]);
    r.control = bits(low[0], low[1], low[2], low[3]) & ~r.high;
    if (r.control != 0) r.newline = bits(eq(v[0], '\n'), eq(v[1], '\n'), eq(v[2], '\n'), eq(v[3], '\n'));
  }

  SLUICE_INLINE static internal::block_classes classify(const uint8_t* p) noexcept {
    // table[x & 15] == (x | 0x20) for : , [ ] { } -- and for two control bytes (0x0C, 0x1A), removed below.
    const v128_t op_table = wasm_u8x16_make(0, 0, 0, 0, 0, 0, 0, 0, 0, 0, ':', '{', ',', '}', 0, 0);
    v128_t v[4], quote[4], op[4], nonscalar[4], backslash[4], low[4];
    for (int i = 0; i < 4; ++i) {
      const v128_t x = wasm_v128_load(p + 16 * i);
      v[i] = x;
      const v128_t nibble = wasm_v128_and(x, wasm_u8x16_splat(0x0F));
      // x <= 0x20, signed: the four whitespace bytes, but also the other control bytes and every non-ASCII one;
      // both are removed below, in the blocks that hold any (one compare here instead of a table lookup).
      const v128_t ws = wasm_i8x16_lt(x, wasm_i8x16_splat(0x21));
      op[i] = wasm_i8x16_eq(wasm_i8x16_swizzle(op_table, nibble), wasm_v128_or(x, wasm_u8x16_splat(0x20)));
      quote[i] = eq(x, '"');
      nonscalar[i] = wasm_v128_or(wasm_v128_or(op[i], quote[i]), ws);
      backslash[i] = eq(x, '\\');
      // Signed x < 0x20: the control bytes and the non-ASCII ones (negative), in one compare (V8 lowers unsigned
      // compares to three instructions); the two are told apart below, only in blocks that hold either.
      low[i] = wasm_i8x16_lt(x, wasm_i8x16_splat(0x20));
    }
    internal::block_classes r;
    r.control = 0;
    r.newline = 0;
    r.high = 0;
    rare_classes(v, low, r);
    uint64_t not_ws = r.high;  // bytes the one-compare whitespace test above took for whitespace wrongly
    if (r.control != 0) {
      v128_t tab_cr[4];
      for (int i = 0; i < 4; ++i) tab_cr[i] = wasm_v128_or(eq(v[i], '\t'), eq(v[i], '\r'));
      not_ws |= r.control & ~(r.newline | bits(tab_cr[0], tab_cr[1], tab_cr[2], tab_cr[3]));
    }
    r.quote = bits(quote[0], quote[1], quote[2], quote[3]);
    const uint64_t op_raw = bits(op[0], op[1], op[2], op[3]);
    const uint64_t false_op = op_raw & r.control;  // 0x0C, 0x1A: never whitespace, quote or a real op
    r.op = op_raw & ~false_op;
    r.nonscalar = bits(nonscalar[0], nonscalar[1], nonscalar[2], nonscalar[3]) & ~(false_op | not_ws);
    r.backslash = any(backslash) ? bits(backslash[0], backslash[1], backslash[2], backslash[3]) : 0;
    return r;
  }

  // A block inside a string: true when it holds no quote and no backslash (nothing ends the string, nothing is
  // escaped); then `r` gets the rare classes (control, newline, non-ASCII) and every other mask is 0. Four
  // operations per 16 bytes, against classify()'s dozen: long strings skip most of the classification.
  SLUICE_INLINE static bool string_interior(const uint8_t* p, internal::block_classes& r) noexcept {
    v128_t v[4], low[4];
    // min(x ^ '"', x ^ '\\') is 0 exactly at quotes and backslashes. (An OR of two compares ends up, through
    // LLVM's boolean-vector combines, as byte shifts V8 expands to seven instructions.)
    v128_t nonzero = wasm_u8x16_splat(0xFF);
    for (int i = 0; i < 4; ++i) {
      const v128_t x = wasm_v128_load(p + 16 * i);
      v[i] = x;
      nonzero = wasm_u8x16_min(
          nonzero, wasm_u8x16_min(wasm_v128_xor(x, wasm_u8x16_splat('"')), wasm_v128_xor(x, wasm_u8x16_splat('\\'))));
      low[i] = wasm_i8x16_lt(x, wasm_i8x16_splat(0x20));
    }
    // A zero byte found by bitmask, as in any(): fewer instructions than V8 makes of all_true.
    if (wasm_i8x16_bitmask(wasm_i8x16_eq(nonzero, wasm_i8x16_splat(0))) != 0) return false;
    r = internal::block_classes{};
    rare_classes(v, low, r);
    return true;
  }

  // Strings and bracket candidates only: three compares per 16 bytes, no table lookup (the skeleton pass).
  SLUICE_INLINE static internal::skeleton_classes skeleton(const uint8_t* p) noexcept {
    v128_t quote[4], backslash[4], bracket[4];
    for (int i = 0; i < 4; ++i) {
      const v128_t x = wasm_v128_load(p + 16 * i);
      quote[i] = eq(x, '"');
      backslash[i] = eq(x, '\\');
      bracket[i] = eq(wasm_v128_or(x, wasm_u8x16_splat(0x26)), 0x7F);
    }
    internal::skeleton_classes r;
    r.quote = bits(quote[0], quote[1], quote[2], quote[3]);
    r.bracket = bits(bracket[0], bracket[1], bracket[2], bracket[3]);
    r.backslash = any(backslash) ? bits(backslash[0], backslash[1], backslash[2], backslash[3]) : 0;
    return r;
  }

  // True when the block p[0..64) holds malformed UTF-8, taking the byte before p[0] to be `before`: the
  // Keiser-Lemire lookup algorithm (utf8.h has its tables and a byte-wise rendering), 16 bytes at a time.
  SLUICE_INLINE static bool utf8_errors(const uint8_t* p, uint8_t before) noexcept {
    const internal::utf8_lookup_tables& t = internal::utf8_lookup;
    const v128_t byte_1_high = wasm_v128_load(t.byte_1_high);
    const v128_t byte_1_low = wasm_v128_load(t.byte_1_low);
    const v128_t byte_2_high = wasm_v128_load(t.byte_2_high);
    v128_t prev = wasm_u8x16_replace_lane(wasm_u8x16_splat(0), 15, before);
    v128_t error = wasm_i8x16_splat(0);
    for (int i = 0; i < 4; ++i) {
      const v128_t x = wasm_v128_load(p + 16 * i);
      const v128_t prev1 = wasm_i8x16_shuffle(prev, x, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30);
      const v128_t prev2 = wasm_i8x16_shuffle(prev, x, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29);
      const v128_t prev3 = wasm_i8x16_shuffle(prev, x, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28);
      const v128_t special =
          wasm_v128_and(wasm_v128_and(wasm_i8x16_swizzle(byte_1_high, wasm_u8x16_shr(prev1, 4)),
                                      wasm_i8x16_swizzle(byte_1_low, wasm_v128_and(prev1, wasm_u8x16_splat(0x0F)))),
                        wasm_i8x16_swizzle(byte_2_high, wasm_u8x16_shr(x, 4)));
      // 0x80 where a lead two or three bytes back wants a third or fourth byte (saturating: only leads from
      // E0 and from F0 reach 0x80).
      const v128_t third = wasm_u8x16_sub_sat(prev2, wasm_u8x16_splat(0xE0 - 0x80));
      const v128_t fourth = wasm_u8x16_sub_sat(prev3, wasm_u8x16_splat(0xF0 - 0x80));
      const v128_t must_23 = wasm_v128_and(wasm_v128_or(third, fourth), wasm_u8x16_splat(0x80));
      error = wasm_v128_or(error, wasm_v128_xor(must_23, special));
      prev = x;
    }
    return wasm_v128_any_true(error);
  }

  // Compaction (stream/compact.h): quotes, backslashes and whitespace candidates, three compares per 16 bytes.
  SLUICE_INLINE static internal::compact_classes compact_classes(const uint8_t* p) noexcept {
    v128_t quote[4], backslash[4], space[4];
    for (int i = 0; i < 4; ++i) {
      const v128_t x = wasm_v128_load(p + 16 * i);
      quote[i] = eq(x, '"');
      backslash[i] = eq(x, '\\');
      space[i] = wasm_i8x16_lt(x, wasm_i8x16_splat(0x21));
    }
    internal::compact_classes r;
    r.quote = bits(quote[0], quote[1], quote[2], quote[3]);
    r.space = bits(space[0], space[1], space[2], space[3]);
    r.backslash = any(backslash) ? bits(backslash[0], backslash[1], backslash[2], backslash[3]) : 0;
    return r;
  }

  // Writes the bytes of p[0..64) whose bit is set in `keep`, in order, at `out`; returns the end. A byte shuffle
  // per 16 bytes packs each half's kept bytes (compress_table), two 8-byte stores put them end to end: the same
  // work whatever the mask. Writes up to 64 bytes at `out`.
  static constexpr bool byte_shuffle = true;
  SLUICE_INLINE static uint8_t* compress(const uint8_t* p, uint64_t keep, uint8_t* out) noexcept {
    const internal::compress_table& t = internal::compress_indices;
    for (int i = 0; i < 4; ++i) {
      const unsigned lo = unsigned(keep >> (16 * i)) & 0xFF;
      const unsigned hi = unsigned(keep >> (16 * i + 8)) & 0xFF;
      const v128_t index = wasm_i64x2_make(int64_t(t.index[lo]), int64_t(t.index[hi] | 0x0808080808080808ULL));
      const v128_t packed = wasm_i8x16_swizzle(wasm_v128_load(p + 16 * i), index);
      wasm_v128_store64_lane(out, packed, 0);
      out += t.count[lo];
      wasm_v128_store64_lane(out, packed, 1);
      out += t.count[hi];
    }
    return out;
  }

  // Bytes '0'..'9' (number validation; computed only for blocks holding number tokens).
  SLUICE_INLINE static uint64_t digits(const uint8_t* p) noexcept {
    v128_t d[4];
    for (int i = 0; i < 4; ++i) {
      const v128_t x = wasm_v128_load(p + 16 * i);
      // '0'..'9' + 0x50 wraps to -128..-119: one signed compare (V8 lowers unsigned ones to three instructions).
      d[i] = wasm_i8x16_lt(wasm_i8x16_add(x, wasm_u8x16_splat(0x50)), wasm_i8x16_splat(-118));
    }
    return bits(d[0], d[1], d[2], d[3]);
  }
};

}  // namespace simd128
}  // namespace sluice

#endif  // SLUICE_KERNELS_SIMD128_SIMD_H
