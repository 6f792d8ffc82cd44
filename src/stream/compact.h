// Compaction: a JSON value's text with its insignificant whitespace removed and every other byte kept, in order:
// numbers keep their spelling, strings their escapes, objects their member order. `sluice select` writes each
// element this way, one per line. The value must be valid JSON (an element the parser has validated), so that
// outside its strings only whitespace is below 0x21 or above 0x7F.
//
// One pass over 64-byte blocks, simdjson's minifier in shape: the kernel classifies quotes, backslashes and
// whitespace candidates; escaped quotes drop out with the escape carry (escapes.h) and strings are found with a
// prefix XOR, both as in stage 1; a block with no whitespace outside strings is copied whole, any other is
// compressed (a byte shuffle per 16 bytes where the kernel has one). O(1) word operations per block.
#ifndef SLUICE_STREAM_COMPACT_H
#define SLUICE_STREAM_COMPACT_H

#include <cstddef>
#include <cstdint>
#include <cstring>

#include "scan/bits.h"
#include "scan/block_classes.h"
#include "scan/escapes.h"

namespace sluice {
namespace internal {

// Bytes compact_value() may write past the end of its output.
constexpr size_t compact_overshoot = 64;

// Packs the bytes of p[0..64) selected by `keep` at out, one byte at a time (kernels without a byte shuffle).
SLUICE_INLINE uint8_t* compress_bytewise(const uint8_t* p, uint64_t keep, uint8_t* out) noexcept {
  for (unsigned i = 0; i < 64; ++i) {
    *out = p[i];
    out += (keep >> i) & 1;
  }
  return out;
}

// One block of len bytes (1..64; 64 readable at p). State carried between blocks: whether the previous byte was
// inside a string (all ones) and whether the next byte is escaped.
template <class K>
SLUICE_INLINE uint8_t* compact_block(const uint8_t* p, unsigned len, uint8_t* out, uint64_t& prev_in_string,
                                     uint64_t& prev_escaped) noexcept {
  const uint64_t valid = mask_below(len);
  const internal::compact_classes c = K::compact_classes(p);
  const uint64_t escaped = escaped_bytes(c.backslash & valid, prev_escaped, len, valid);
  const uint64_t quote = c.quote & ~escaped & valid;
  const uint64_t in_string = prefix_xor(quote) ^ prev_in_string;
  prev_in_string = uint64_t{0} - ((in_string >> (len - 1)) & 1);
  const uint64_t remove = c.space & ~in_string & valid;
  if (remove == 0) {
    std::memcpy(out, p, 64);
    return out + len;
  }
  if constexpr (K::byte_shuffle) {
    return K::compress(p, valid & ~remove, out);
  } else {
    return compress_bytewise(p, valid & ~remove, out);
  }
}

// Writes the compacted text of the JSON value in[0..n) at out and returns its end. `out` must have room for n +
// compact_overshoot bytes (whole blocks are stored), apart from the input. Out of line: a tight input never needs it,
// and V8 then never compiles it with write_lines (with the batch modes out of line, batches.cpp: 15 M fewer
// TurboFan instructions a run of `sluice select`; +0.85 % to scan a pretty-printed input).
template <class K>
SLUICE_NOINLINE uint8_t* compact_value(const uint8_t* in, size_t n, uint8_t* out) noexcept {
  // A string, number or literal holds no insignificant whitespace: the element starts and ends with its token.
  if (n == 0 || (in[0] != '{' && in[0] != '[')) {
    std::memmove(out, in, n);
    return out + n;
  }
  uint64_t prev_in_string = 0;
  uint64_t prev_escaped = 0;
  size_t i = 0;
  for (; i + 64 <= n; i += 64) out = compact_block<K>(in + i, 64, out, prev_in_string, prev_escaped);
  if (i < n) {
    // The last partial block, from a copy: nothing past in + n is assumed readable.
    uint8_t tail[64] = {};
    std::memcpy(tail, in + i, n - i);
    out = compact_block<K>(tail, unsigned(n - i), out, prev_in_string, prev_escaped);
  }
  return out;
}

}  // namespace internal
}  // namespace sluice

#endif  // SLUICE_STREAM_COMPACT_H
