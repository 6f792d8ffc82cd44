// The full scan of stage 1, one of the scan family (the others, structure only, in lean_scan.h): classifies one
// block of up to 64 bytes with a kernel's masks and validates its strings, carrying a few bits of state to the next
// block, so that chunk boundaries are invisible: a string, an escape run, a \uXXXX escape or a UTF-8 sequence may
// be split anywhere. O(1) word operations per block, plus one step per multi-byte UTF-8 sequence (on SIMD128, one
// vector check for a block dense in them: utf8.h).
//
//   scan_full_state                 the carry from block to block
//   scan_block_full<K, Whole>()     one block: its events and its first string-content error
//   scan_interior_full<K>()         the same for a whole block inside a string with no quote and no backslash
//
// Output per block: the `events` stage 2 visits (structural chars outside strings, the opening quote of each string,
// the first byte of each scalar token), the unescaped quotes (stage 2 looks up a string's end only when it needs it:
// a selected string, a key a selector compares) and the first string-content error, if any.
#ifndef SLUICE_SCAN_FULL_SCAN_H
#define SLUICE_SCAN_FULL_SCAN_H

#include <cstdint>
#include <initializer_list>

#include "scan/bits.h"
#include "scan/block_classes.h"
#include "scan/escapes.h"
#include "scan/utf8.h"
#include "sluice/error.h"

namespace sluice {
namespace internal {

// What may follow a backslash (1; 2 for 'u'), and the hex digits of \uXXXX.
struct escape_table {
  uint8_t kind[256];
  bool hex[256];
  constexpr escape_table() : kind(), hex() {
    for (const char c : {'"', '\\', '/', 'b', 'f', 'n', 'r', 't'}) kind[uint8_t(c)] = 1;
    kind[uint8_t('u')] = 2;
    for (int b = 0; b < 256; ++b) hex[b] = (b >= '0' && b <= '9') || (b >= 'a' && b <= 'f') || (b >= 'A' && b <= 'F');
  }
};
inline constexpr escape_table escape_bytes{};

struct scan_full_state {
  uint64_t prev_in_string = 0;  // all ones when the last byte scanned was inside a string
  uint64_t prev_escaped = 0;    // 1 when the next byte is escaped by an odd backslash run
  uint64_t prev_scalar = 0;     // 1 when the last byte scanned belongs to a scalar token
  uint64_t hex_pending = 0;     // bits 0..3: bytes of the next block that must be hex digits of a \u escape
  utf8_state utf8;
};

struct scan_full_events {
  uint64_t events;
  uint64_t quote;   // unescaped quotes: the opening and closing quote of each string
  uint64_t scalar;  // bytes of number and literal tokens (a token's end is its first byte not in here)
  uint64_t newline;
  uint64_t in_string;  // bytes inside strings (opening quote included, closing quote excluded)
  int error_at;        // index of the first string-content error, -1 if none
  error_code error;    // its kind
};

// String-content errors of a block: the lowest wins, ties broken by the most specific message.
SLUICE_INLINE void first_string_error(scan_full_events& r, uint64_t bad_control, uint64_t bad_escape, uint64_t bad_hex,
                                      uint64_t bad_utf8) noexcept {
  const uint64_t bad = bad_control | bad_escape | bad_hex | bad_utf8;
  if (bad == 0) return;
  const int at = trailing_zeroes(bad);
  const uint64_t bit = uint64_t{1} << at;
  r.error_at = at;
  r.error = (bad_utf8 & bit)     ? error_code::invalid_utf8
            : (bad_escape & bit) ? error_code::invalid_escape
            : (bad_hex & bit)    ? error_code::invalid_unicode_escape
                                 : error_code::control_character;
}

// A whole block that continues a string, with no quote and no backslash (K::string_interior): no event, no quote,
// no scalar byte, the state unchanged; only control bytes and UTF-8 remain to check. What scan_block_full computes
// for such a block, without the classification and mask arithmetic.
template <class K>
SLUICE_INLINE scan_full_events scan_interior_full(scan_full_state& s, const uint8_t* p,
                                                  const block_classes& c) noexcept {
  scan_full_events r;
  r.events = 0;
  r.quote = 0;
  r.scalar = 0;
  r.newline = c.newline;
  r.in_string = ~uint64_t{0};
  r.error_at = -1;
  r.error = error_code::ok;
  s.prev_scalar = 0;
  uint64_t bad_utf8 = 0;
  if ((c.high | s.utf8.need) != 0) {
    const int at = validate_utf8<K>(s.utf8, p, 64, c.high);
    if (at >= 0) bad_utf8 = uint64_t{1} << at;
  }
  first_string_error(r, c.control, 0, 0, bad_utf8);
  return r;
}

// Bytes at index >= len are ignored (the caller's buffer must still be readable up to 64 bytes). `Whole` blocks
// (len == 64, all but a window's last) let the compiler drop the masking, and take the string-interior shortcut.
template <class K, bool Whole = false>
SLUICE_INLINE scan_full_events scan_block_full(scan_full_state& s, const uint8_t* p, unsigned len) noexcept {
  if (Whole) {
    len = 64;
    if (s.prev_in_string != 0 && (s.prev_escaped | s.hex_pending) == 0) {
      block_classes interior;
      if (K::string_interior(p, interior)) return scan_interior_full<K>(s, p, interior);
    }
  }
  const uint64_t valid = mask_below(len);
  block_classes c = K::classify(p);
  c.quote &= valid;
  c.op &= valid;
  c.backslash &= valid;
  c.control &= valid;
  c.newline &= valid;
  c.high &= valid;

  const uint64_t escaped = escaped_bytes(c.backslash, s.prev_escaped, len, valid);

  const uint64_t quote = c.quote & ~escaped;
  const uint64_t in_string = prefix_xor(quote) ^ s.prev_in_string;
  s.prev_in_string = uint64_t{0} - ((in_string >> (len - 1)) & 1);

  const uint64_t scalar = ~(c.nonscalar | in_string) & valid;
  const uint64_t scalar_starts = scalar & ~((scalar << 1) | s.prev_scalar);
  s.prev_scalar = (scalar >> (len - 1)) & 1;

  scan_full_events r;
  r.events = (c.op & ~in_string) | (quote & in_string) | scalar_starts;
  r.quote = quote;
  r.scalar = scalar;
  r.newline = c.newline;
  r.in_string = in_string & valid;
  r.error_at = -1;
  r.error = error_code::ok;

  // String-content errors, each a mask; the lowest bit wins, ties broken by the order below (the most specific
  // message first).
  const uint64_t bad_control = c.control & in_string;
  uint64_t bad_escape = 0;
  uint64_t bad_hex = 0;
  if ((escaped | s.hex_pending) != 0) {
    // A block holds a few escapes at most: check each escaped byte, and the four hex digits of each \u, one by one.
    uint64_t need_hex = s.hex_pending;  // positions that must be hex digits (may lie beyond len)
    uint64_t spill = 0;                 // the same for positions 64.. (bit k = position 64 + k)
    for (uint64_t e = escaped; e != 0; e = clear_lowest_bit(e)) {
      const unsigned k = unsigned(trailing_zeroes(e));
      const uint8_t b = escape_bytes.kind[p[k]];
      if (b == 0) {
        bad_escape |= uint64_t{1} << k;
      } else if (b == 2) {
        // Positions k+1..k+4: those below 64 here (bits past 63 drop), the others spilled (k >= 60).
        need_hex |= uint64_t{0x1E} << k;
        if (k >= 60) spill |= uint64_t{0x1E} >> (64 - k);
      }
    }
    for (uint64_t h = need_hex & valid; h != 0; h = clear_lowest_bit(h)) {
      const unsigned k = unsigned(trailing_zeroes(h));
      if (!escape_bytes.hex[p[k]]) bad_hex |= uint64_t{1} << k;
    }
    s.hex_pending = len == 64 ? spill : ((need_hex >> len) | (spill << (64 - len))) & 0xF;
  }
  uint64_t bad_utf8 = 0;
  if ((c.high | s.utf8.need) != 0) {
    const int at = validate_utf8<K>(s.utf8, p, len, c.high);
    // Outside strings a non-ASCII byte is already a syntax error at or before this position (stage 2 sees it as
    // a scalar byte), so only bytes inside strings, and a closing quote that cuts a sequence short, count here.
    if (at >= 0) bad_utf8 = (uint64_t{1} << at) & (in_string | quote);
  }
  first_string_error(r, bad_control, bad_escape, bad_hex, bad_utf8);
  return r;
}

}  // namespace internal
}  // namespace sluice

#endif  // SLUICE_SCAN_FULL_SCAN_H
