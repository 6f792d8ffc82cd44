// Strict UTF-8 validation (RFC 3629: no overlongs, no surrogates, nothing above U+10FFFF), resumable at any byte so
// a sequence may be split across blocks and chunks. Runs only on blocks holding non-ASCII bytes, one step per
// sequence: ASCII-heavy JSON pays nothing. A sequence that lies inside the block is checked with one table lookup
// and one check of its next three bytes, whatever its length, so text mixing 2-, 3- and 4-byte characters costs
// no mispredicted branch per character; only errors and sequences cut by the block's end go byte by byte. Blocks
// dense in non-ASCII bytes take one vector check instead, where the kernel has one (validate_utf8 below).
#ifndef SLUICE_SCAN_UTF8_H
#define SLUICE_SCAN_UTF8_H

#include <cstdint>

#include "scan/bits.h"

namespace sluice {
namespace internal {

struct utf8_state {
  uint8_t need = 0;   // continuation bytes still expected
  uint8_t lo = 0x80;  // allowed range of the next continuation byte (narrower after E0, ED, F0, F4)
  uint8_t hi = 0xBF;
};

// Per lead byte: the number of continuation bytes (4: not a lead), and the range of the byte after it, which is
// narrower after E0 (overlong), ED (surrogates), F0 (overlong) and F4 (above U+10FFFF).
struct utf8_lead_table {
  uint8_t n[256];
  uint8_t lo[256];
  uint8_t span[256];  // hi - lo
  constexpr utf8_lead_table() : n(), lo(), span() {
    for (int b = 0; b < 256; ++b) {
      n[b] = b < 0xC2 || b > 0xF4 ? 4 : b < 0xE0 ? 1 : b < 0xF0 ? 2 : 3;
      const int l = b == 0xE0 ? 0xA0 : b == 0xF0 ? 0x90 : 0x80;
      const int h = b == 0xED ? 0x9F : b == 0xF4 ? 0x8F : 0xBF;
      lo[b] = uint8_t(l);
      span[b] = uint8_t(h - l);
    }
  }
};
inline constexpr utf8_lead_table utf8_leads{};

// The sequence carried over from the previous block (s.need != 0): checks its remaining bytes, at most three.
// Returns the index of a bad byte, or -1; `*next` is the index just past the carried bytes, or len when the block
// ended first (then `s` still carries the rest).
SLUICE_INLINE int finish_carried(utf8_state& s, const uint8_t* p, unsigned len, unsigned* next) noexcept {
  unsigned need = s.need;
  uint8_t lo = s.lo, hi = s.hi;
  unsigned i = 0;
  while (need != 0) {
    if (i >= len) {
      s.need = uint8_t(need);
      s.lo = lo;
      s.hi = hi;
      *next = len;
      return -1;
    }
    const uint8_t b = p[i];
    if (b < lo || b > hi) {
      s = utf8_state{};
      return int(i);
    }
    --need;
    lo = 0x80;
    hi = 0xBF;
    ++i;
  }
  s = utf8_state{};
  *next = i;
  return -1;
}

// Validates bytes p[0..len) given `high`, the mask of bytes >= 0x80 among them. Returns the index of the first byte
// that cannot appear where it is (a stray continuation, a bad lead, a lead cut short by a non-continuation), or -1.
// The state lives in locals and sequences that end inside the block are checked without a per-byte loop.
SLUICE_INLINE int validate_utf8_block(utf8_state& s, const uint8_t* p, unsigned len, uint64_t high) noexcept {
  unsigned i = 0;
  if (s.need != 0) {
    const int at = finish_carried(s, p, len, &i);
    if (at >= 0 || s.need != 0) return at;
    high &= ~mask_below(i);
  }
  while (high != 0) {
    i = unsigned(trailing_zeroes(high));
    const uint8_t b = p[i];
    const unsigned len_after = utf8_leads.n[b];
    if (len_after < 4 && i + 4 <= 64 && i + len_after < len) {
      // The whole sequence is in the block (and 4 bytes are readable from its lead): the second byte in its
      // range and the others continuation bytes, the bytes past the sequence masked out.
      constexpr uint32_t rest_mask[4] = {0, 0, 0x00C0, 0xC0C0};
      const uint32_t rest = (uint32_t(p[i + 2]) | uint32_t(p[i + 3]) << 8) & rest_mask[len_after];
      if (uint8_t(p[i + 1] - utf8_leads.lo[b]) <= utf8_leads.span[b] && rest == (rest_mask[len_after] & 0x8080)) {
        high &= ~((uint64_t{2} << (i + len_after)) - 1);
        continue;
      }
    }
    // An error, or a sequence cut by the end of the block: byte by byte, to say exactly where.
    if (len_after == 4) return int(i);  // continuation without a lead, overlong C0/C1, or above U+10FFFF
    const unsigned n = len_after;
    const uint8_t lo = utf8_leads.lo[b];
    const uint8_t hi = uint8_t(lo + utf8_leads.span[b]);
    if (i + n >= len) {
      // Cut by the end of the block: check what is here, carry the rest.
      unsigned need = n;
      uint8_t l = lo, h = hi;
      for (unsigned k = i + 1; k < len; ++k) {
        if (p[k] < l || p[k] > h) return int(k);
        --need;
        l = 0x80;
        h = 0xBF;
      }
      s.need = uint8_t(need);
      s.lo = l;
      s.hi = h;
      return -1;
    }
    if (p[i + 1] < lo || p[i + 1] > hi) return int(i + 1);
    if (n >= 2 && (p[i + 2] & 0xC0) != 0x80) return int(i + 2);
    if (n == 3 && (p[i + 3] & 0xC0) != 0x80) return int(i + 3);
    high &= ~((uint64_t{2} << (i + n)) - 1);  // the lead and its continuations (i + n <= 62 here)
  }
  return -1;
}

// The Keiser-Lemire lookup algorithm ("Validating UTF-8 in less than one instruction per byte", 2021; the tables
// are simdjson's utf8_lookup4, Apache-2.0 or MIT) flags every malformed pair of bytes with three 16-entry tables,
// indexed by the high and the low nibble of a byte's predecessor and by the byte's own high nibble: a pattern is
// bad where the three entries share a bit. The third and fourth bytes of long sequences are checked against the
// leads two and three bytes back (`must_23`), which must agree with bit 7 of the tables (a continuation after a
// continuation). A sequence cut by the block's end is not flagged.
struct utf8_lookup_tables {
  uint8_t byte_1_high[16];
  uint8_t byte_1_low[16];
  uint8_t byte_2_high[16];
};

namespace utf8_flags {
constexpr uint8_t too_short = 1 << 0, too_long = 1 << 1, overlong_3 = 1 << 2, too_large = 1 << 3, surrogate = 1 << 4,
                  overlong_2 = 1 << 5, too_large_1000 = 1 << 6, overlong_4 = 1 << 6, two_conts = 1 << 7,
                  carry = too_short | too_long | two_conts;
}  // namespace utf8_flags

inline constexpr utf8_lookup_tables utf8_lookup = [] {
  using namespace utf8_flags;
  constexpr uint8_t large = carry | too_large | too_large_1000;
  return utf8_lookup_tables{
      {too_long, too_long, too_long, too_long, too_long, too_long, too_long, too_long,  // 0___ ASCII
       two_conts, two_conts, two_conts, two_conts,                                      // 10__ continuation
       too_short | overlong_2, too_short, too_short | overlong_3 | surrogate,           // 110_, 1110 leads
       too_short | too_large | too_large_1000 | overlong_4},                            // 1111 lead
      {carry | overlong_3 | overlong_2 | overlong_4, carry | overlong_2, carry, carry, carry | too_large, large, large,
       large, large, large, large, large, large, large | surrogate, large, large},
      {too_short, too_short, too_short, too_short, too_short, too_short, too_short, too_short,
       too_long | overlong_2 | two_conts | overlong_3 | too_large_1000 | overlong_4,  // 1000
       too_long | overlong_2 | two_conts | overlong_3 | too_large,                    // 1001
       too_long | overlong_2 | two_conts | surrogate | too_large,                     // 101_
       too_long | overlong_2 | two_conts | surrogate | too_large, too_short, too_short, too_short,
       too_short}};  // 11__ leads
}();

// The same check a byte at a time, for kernels without a byte shuffle: true when p[0..64) holds a malformed
// pattern, the byte before p[0] taken to be `before`.
SLUICE_INLINE bool utf8_errors_bytewise(const uint8_t* p, uint8_t before) noexcept {
  const utf8_lookup_tables& t = utf8_lookup;
  uint8_t error = 0;
  uint8_t prev3 = 0, prev2 = 0, prev1 = before;
  for (int i = 0; i < 64; ++i) {
    const uint8_t x = p[i];
    const uint8_t special = t.byte_1_high[prev1 >> 4] & t.byte_1_low[prev1 & 0x0F] & t.byte_2_high[x >> 4];
    const uint8_t must_23 = (prev2 >= 0xE0 || prev3 >= 0xF0) ? 0x80 : 0;
    error |= uint8_t(must_23 ^ special);
    prev3 = prev2;
    prev2 = prev1;
    prev1 = x;
  }
  return error != 0;
}

// Out of line, for the cases validate_utf8 below leaves: V8 compiles the scan's loop faster without them.
SLUICE_NOINLINE inline int validate_utf8_sequences(utf8_state& s, const uint8_t* p, unsigned len,
                                                   uint64_t high) noexcept {
  return validate_utf8_block(s, p, len, high);
}

// A full block with many non-ASCII bytes (CJK text is nearly all of them) on a kernel with a vector check
// (K::utf8_errors, the lookup algorithm above): one pass over the block instead of a step per sequence, about
// three times cheaper from some 16 non-ASCII bytes on (SSE2 runs the byte-wise rendering, for the tests). The
// vector check only says whether the block is valid; an invalid one goes through validate_utf8_block, which says
// where, so both paths report the same byte. A sequence cut by the block's end passes the vector check (nothing
// follows it to contradict it) and is carried as validate_utf8_block would carry it; so would an invalid lead in
// the last byte, which is checked here.
template <class K>
SLUICE_NOINLINE int validate_utf8_dense(utf8_state& s, const uint8_t* p, uint64_t high) noexcept {
  constexpr unsigned len = 64;
  unsigned from = 0;
  uint8_t before = 0;  // ASCII: nothing carried
  if (s.need != 0) {
    // The carried continuations are checked here, against the true lead's range; the vector check sees them after
    // a stand-in lead that accepts any continuation bytes, as many as there are.
    constexpr uint8_t stand_in[4] = {0, 0xC2, 0xE1, 0xF1};
    before = stand_in[s.need];
    const int at = finish_carried(s, p, len, &from);  // from <= 3: it always finishes in a full block
    if (at >= 0) return at;
  }
  // The vector check judges a byte by the one after it, so a lead that can never be one (C0, C1, F5..FF) in the
  // last position passes it: the next block would only see a stray continuation, or nothing wrong at all (`"\xC0"`
  // across the edge). The sequence check says where.
  if (K::utf8_errors(p, before) || (p[63] >= 0xC0 && utf8_leads.n[p[63]] == 4))
    return validate_utf8_sequences(s, p, len, high & ~mask_below(from));
  for (unsigned k = from > 61 ? from : 61; k < 64; ++k) {
    const unsigned n = utf8_leads.n[p[k]];
    if (n < 4 && k + n > 63) {
      s.need = uint8_t(k + n - 63);
      s.lo = k == 63 ? utf8_leads.lo[p[k]] : uint8_t(0x80);
      s.hi = k == 63 ? uint8_t(utf8_leads.lo[p[k]] + utf8_leads.span[p[k]]) : uint8_t(0xBF);
      break;
    }
  }
  return -1;
}

// Validates p[0..len) given `high`, the mask of bytes >= 0x80 among them (see validate_utf8_block). What the scan
// inlines is the common block, its sequences all inside it and valid, checked in a loop of its own; anything else
// (a sequence carried in or cut by the block's end, an error) goes out of line from the first sequence the loop
// leaves, and so does a block dense in non-ASCII bytes. The command line tiers the scan's function up at every run,
// and V8's compile grows faster than the function: inlined whole, the scan's function cost 76 % more to compile
// for no faster run (docs/decisions.md).
template <class K>
SLUICE_INLINE int validate_utf8(utf8_state& s, const uint8_t* p, unsigned len, uint64_t high) noexcept {
  if constexpr (K::utf8_blocks) {
    if (len == 64 && count_ones(high) >= 16) return validate_utf8_dense<K>(s, p, high);
  }
  if (s.need == 0) {
    while (high != 0) {
      const unsigned i = unsigned(trailing_zeroes(high));
      const uint8_t b = p[i];
      const unsigned len_after = utf8_leads.n[b];
      if (len_after >= 4 || i + 4 > 64 || i + len_after >= len) break;
      constexpr uint32_t rest_mask[4] = {0, 0, 0x00C0, 0xC0C0};
      const uint32_t rest = (uint32_t(p[i + 2]) | uint32_t(p[i + 3]) << 8) & rest_mask[len_after];
      if (uint8_t(p[i + 1] - utf8_leads.lo[b]) > utf8_leads.span[b] || rest != (rest_mask[len_after] & 0x8080)) break;
      high &= ~((uint64_t{2} << (i + len_after)) - 1);
    }
    if (high == 0) return -1;
  }
  return validate_utf8_sequences(s, p, len, high);
}

}  // namespace internal
}  // namespace sluice

#endif  // SLUICE_SCAN_UTF8_H
