// Scalar kernel: the reference every SIMD kernel must match bit for bit, and the kernel of the wasm scalar build
// (engines without SIMD128). One table lookup per byte gives all classes at once.
#ifndef SLUICE_KERNELS_SCALAR_SIMD_H
#define SLUICE_KERNELS_SCALAR_SIMD_H

#include <cstdint>

#include "scan/bits.h"
#include "scan/block_classes.h"

namespace sluice {
namespace scalar {

// Bits of the per-byte class table.
enum : uint8_t {
  c_quote = 1,
  c_backslash = 2,
  c_op = 4,
  c_nonscalar = 8,
  c_control = 16,
  c_high = 32,
  c_newline = 64,
};

struct class_table {
  uint8_t v[256];
  constexpr class_table() : v() {
    for (int b = 0; b < 256; ++b) {
      uint8_t c = 0;
      if (b == '"') c |= c_quote | c_nonscalar;
      if (b == '\\') c |= c_backslash;
      if (b == '{' || b == '}' || b == '[' || b == ']' || b == ':' || b == ',') c |= c_op | c_nonscalar;
      if (b == ' ' || b == '\t' || b == '\n' || b == '\r') c |= c_nonscalar;
      if (b < 0x20) c |= c_control;
      if (b == '\n') c |= c_newline;
      if (b >= 0x80) c |= c_high;
      v[b] = c;
    }
  }
};

inline constexpr class_table classes{};

struct kernel {
  static constexpr const char* name = "scalar";
  // The reference the other kernels are compared with: stage1_debug does not check its string_interior() (a
  // one-pass test, then classify()); the native stage-1 tests run it against the per-byte model.
  static constexpr bool own_string_interior = false;
  static constexpr bool utf8_blocks = false;  // UTF-8 is validated a sequence at a time (utf8.h)

  SLUICE_INLINE static internal::block_classes classify(const uint8_t* p) noexcept {
    internal::block_classes r{};
    for (int i = 0; i < 64; ++i) {
      const uint64_t c = classes.v[p[i]];
      const uint64_t bit = uint64_t{1} << i;
      r.quote |= (c & c_quote) ? bit : 0;
      r.op |= (c & c_op) ? bit : 0;
      r.nonscalar |= (c & c_nonscalar) ? bit : 0;
      r.backslash |= (c & c_backslash) ? bit : 0;
      r.control |= (c & c_control) ? bit : 0;
      r.newline |= (c & c_newline) ? bit : 0;
      r.high |= (c & c_high) ? bit : 0;
    }
    return r;
  }

  // A block inside a string: true when it holds no quote and no backslash; then the caller reads only the rare
  // classes of `r` (control, newline, high), built only when the block holds any.
  SLUICE_INLINE static bool string_interior(const uint8_t* p, internal::block_classes& r) noexcept {
    unsigned seen = 0;
    for (int i = 0; i < 64; ++i) seen |= classes.v[p[i]];
    if ((seen & (c_quote | c_backslash)) != 0) return false;
    r = (seen & (c_control | c_high)) != 0 ? classify(p) : internal::block_classes{};
    return true;
  }

  SLUICE_INLINE static internal::skeleton_classes skeleton(const uint8_t* p) noexcept {
    internal::skeleton_classes r{};
    for (int i = 0; i < 64; ++i) {
      const uint64_t bit = uint64_t{1} << i;
      r.quote |= p[i] == '"' ? bit : 0;
      r.backslash |= p[i] == '\\' ? bit : 0;
      r.bracket |= (p[i] | 0x26) == 0x7F ? bit : 0;
    }
    return r;
  }

  SLUICE_INLINE static internal::compact_classes compact_classes(const uint8_t* p) noexcept {
    internal::compact_classes r{};
    for (int i = 0; i < 64; ++i) {
      const uint64_t bit = uint64_t{1} << i;
      r.quote |= p[i] == '"' ? bit : 0;
      r.backslash |= p[i] == '\\' ? bit : 0;
      r.space |= int8_t(p[i]) < 0x21 ? bit : 0;
    }
    return r;
  }
  static constexpr bool byte_shuffle = false;  // compact.h compresses a byte at a time

  SLUICE_INLINE static uint64_t digits(const uint8_t* p) noexcept {
    uint64_t r = 0;
    for (int i = 0; i < 64; ++i) r |= uint64_t(unsigned(p[i] - '0') <= 9) << i;
    return r;
  }
};

}  // namespace scalar
}  // namespace sluice

#endif  // SLUICE_KERNELS_SCALAR_SIMD_H
