// Strict UTF-8 validation (RFC 3629: no overlongs, no surrogates, nothing above U+10FFFF), resumable at any byte so
// a sequence may be split across blocks and chunks. Runs only on blocks holding non-ASCII bytes, one branchy step per
// sequence: ASCII-heavy JSON pays nothing, text-heavy JSON pays about a nanosecond per multi-byte character.
#ifndef SLUICE_INTERNAL_UTF8_H
#define SLUICE_INTERNAL_UTF8_H

#include <cstdint>

#include "internal/bits.h"

namespace sluice {
namespace internal {

struct utf8_state {
  uint8_t need = 0;   // continuation bytes still expected
  uint8_t lo = 0x80;  // allowed range of the next continuation byte (narrower after E0, ED, F0, F4)
  uint8_t hi = 0xBF;
};

// Validates bytes p[0..len) given `high`, the mask of bytes >= 0x80 among them. Returns the index of the first byte
// that cannot appear where it is (a stray continuation, a bad lead, a lead cut short by a non-continuation), or -1.
SLUICE_INLINE int validate_utf8_block(utf8_state& s, const uint8_t* p, unsigned len, uint64_t high) noexcept {
  unsigned i = 0;
  uint64_t rest = high;
  for (;;) {
    while (s.need != 0) {
      if (i >= len) return -1;
      const uint8_t b = p[i];
      if (b < s.lo || b > s.hi) {
        s = utf8_state{};
        return int(i);
      }
      --s.need;
      s.lo = 0x80;
      s.hi = 0xBF;
      ++i;
    }
    rest &= ~mask_below(i);
    if (rest == 0) return -1;
    i = unsigned(trailing_zeroes(rest));
    const uint8_t b = p[i];
    if (b < 0xC2 || b > 0xF4) return int(i);  // continuation without a lead, overlong C0/C1, or above U+10FFFF
    if (b < 0xE0) {
      s.need = 1;
    } else if (b < 0xF0) {
      s.need = 2;
      if (b == 0xE0) s.lo = 0xA0;  // overlong
      if (b == 0xED) s.hi = 0x9F;  // U+D800..U+DFFF
    } else {
      s.need = 3;
      if (b == 0xF0) s.lo = 0x90;  // overlong
      if (b == 0xF4) s.hi = 0x8F;  // above U+10FFFF
    }
    ++i;
  }
}

}  // namespace internal
}  // namespace sluice

#endif  // SLUICE_INTERNAL_UTF8_H
