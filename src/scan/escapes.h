// Which bytes of a block are escaped, that is preceded by an odd run of backslashes (simdjson's carry-propagation
// trick). Shared by the full scan (full_scan.h) and the lean scans of the lazy paths (lean_scan.h): all must agree
// on where every string ends.
#ifndef SLUICE_SCAN_ESCAPES_H
#define SLUICE_SCAN_ESCAPES_H

#include <cstdint>

#include "scan/bits.h"

namespace sluice {
namespace internal {

// `backslash`: the block's backslashes, bits >= len clear; `valid` = mask_below(len). `prev_escaped` carries in
// (1 when the block's first byte is escaped) and out (the bit just past the last valid byte). With len a constant
// 64 the masking folds away.
SLUICE_INLINE uint64_t escaped_bytes(uint64_t backslash, uint64_t& prev_escaped, unsigned len,
                                     uint64_t valid) noexcept {
  if (backslash == 0) {
    const uint64_t escaped = prev_escaped;
    prev_escaped = 0;
    return escaped;
  }
  const uint64_t b = backslash & ~prev_escaped;
  const uint64_t follows_escape = (b << 1) | prev_escaped;
  const uint64_t even_bits = 0x5555555555555555ULL;
  const uint64_t odd_sequence_starts = b & ~even_bits & ~follows_escape;
  uint64_t sequences_starting_on_even_bits;
  const bool overflow = __builtin_add_overflow(odd_sequence_starts, b, &sequences_starting_on_even_bits);
  const uint64_t invert_mask = sequences_starting_on_even_bits << 1;
  const uint64_t all = (even_bits ^ invert_mask) & follows_escape;
  if (len == 64) {
    prev_escaped = overflow ? 1 : 0;
    return all;
  }
  prev_escaped = (all >> len) & 1;
  return all & valid;
}

}  // namespace internal
}  // namespace sluice

#endif  // SLUICE_SCAN_ESCAPES_H
