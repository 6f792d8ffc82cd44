// The lean scans of stage 1, the structure-only members of the scan family (the full scan: full_scan.h), for the
// lazy document: strings (quotes, escapes, the in-string mask), structural characters outside strings and scalar
// token bytes, from a kernel's masks. They leave out what scan_block_full() adds for validation: control
// characters, escapes and UTF-8. Those checks are what a non-ASCII-heavy text spends most of its stage-1 time on
// (twitter.json scans about 4x slower than its escaped ASCII twin), and the lazy paths validate what they read
// instead (see lazy_index.h).
//
//   scan_lean_state           the carry from block to block
//   scan_block_lean<K>()      one block: strings, structurals, scalar tokens, events
//   scan_strings_lean()       strings alone, from masks the caller has (the skeleton pass: K::skeleton)
//
// The escape logic is scan_block_full()'s (escapes.h), and so is the in-string mask: all agree on where every
// string is.
#ifndef SLUICE_SCAN_LEAN_SCAN_H
#define SLUICE_SCAN_LEAN_SCAN_H

#include <cstdint>

#include "scan/bits.h"
#include "scan/block_classes.h"
#include "scan/escapes.h"

namespace sluice {
namespace internal {

// The carry from one block to the next. A fresh state is right at any byte outside strings and scalar tokens.
struct scan_lean_state {
  uint64_t prev_in_string = 0;  // all ones when the last byte scanned was inside a string
  uint64_t prev_escaped = 0;    // 1 when the next byte is escaped by an odd backslash run
  uint64_t prev_scalar = 0;     // 1 when the last byte scanned belongs to a scalar token
};

struct scan_lean_events {
  uint64_t quote;       // unescaped quotes: the opening and the closing quote of each string
  uint64_t in_string;   // bytes inside strings, opening quote included, closing quote excluded
  uint64_t structural;  // { } [ ] : , outside strings
  uint64_t scalar;      // bytes of number and literal tokens (a token ends at its first byte not in here)
  uint64_t events;      // structural | opening quotes | first bytes of scalar tokens: where values and keys start
};

// Where the strings of a block are, from its raw quote and backslash masks (bits >= len ignored), carrying the
// state to the next block. Sets *quote to the unescaped quotes and returns the in-string mask (opening quote
// included, closing quote excluded; bits >= len unspecified). Shared by scan_block_lean() and the skeleton pass.
SLUICE_INLINE uint64_t scan_strings_lean(scan_lean_state& s, uint64_t raw_quote, uint64_t backslash, unsigned len,
                                         uint64_t valid, uint64_t* quote) noexcept {
  const uint64_t escaped = escaped_bytes(backslash & valid, s.prev_escaped, len, valid);
  *quote = raw_quote & valid & ~escaped;
  const uint64_t in_string = prefix_xor(*quote) ^ s.prev_in_string;
  s.prev_in_string = uint64_t{0} - ((in_string >> (len - 1)) & 1);
  return in_string;
}

// Bytes at index >= len are ignored; the buffer must be readable up to p + 64.
template <class K>
SLUICE_INLINE scan_lean_events scan_block_lean(scan_lean_state& s, const uint8_t* p, unsigned len) noexcept {
  const uint64_t valid = mask_below(len);
  const block_classes c = K::classify(p);
  scan_lean_events r;
  const uint64_t in_string = scan_strings_lean(s, c.quote, c.backslash, len, valid, &r.quote);
  r.in_string = in_string & valid;
  r.structural = c.op & valid & ~in_string;
  r.scalar = ~(c.nonscalar | in_string) & valid;
  const uint64_t scalar_starts = r.scalar & ~((r.scalar << 1) | s.prev_scalar);
  s.prev_scalar = (r.scalar >> (len - 1)) & 1;
  r.events = r.structural | (r.quote & in_string) | scalar_starts;
  return r;
}

// `{` and `[` become 0x7B, `}` and `]` 0x7D; `,` and `:` stay themselves. One compare tells brackets apart.
SLUICE_INLINE bool is_open_bracket(uint8_t c) noexcept { return (c | 0x20) == '{'; }
SLUICE_INLINE bool is_close_bracket(uint8_t c) noexcept { return (c | 0x20) == '}'; }
SLUICE_INLINE bool is_json_space(uint8_t c) noexcept { return c == ' ' || c == '\t' || c == '\n' || c == '\r'; }

}  // namespace internal
}  // namespace sluice

#endif  // SLUICE_SCAN_LEAN_SCAN_H
