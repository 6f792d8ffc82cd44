// Numbers and literals as the walks validate them: from the block's stage-1 masks when the token ends inside the
// block (a digit run is one count-trailing-zeroes, a literal one 4-byte compare), with the token DFA when it runs
// into the next block. Same verdicts as the DFA; on false the general path runs the DFA to find the error's
// position, or waits for the next chunk.
#ifndef SLUICE_WALK_SCALAR_TOKEN_H
#define SLUICE_WALK_SCALAR_TOKEN_H

#include <cstdint>

#include "scan/bits.h"
#include "walk/token_dfa.h"

namespace sluice {
namespace internal {

// The block a walk is in, and the window around it (a token may run past the block).
struct walk_block {
  const uint8_t* window;
  unsigned n;       // the window's length
  unsigned off;     // the block's index in the window
  unsigned len;     // its length
  uint64_t scalar;  // its scalar-token bytes (stage 1)
  uint64_t quote;   // its unescaped quotes
  uint64_t digits;  // its digits, computed on first use
  bool have_digits;
};

// Validates the number p[i..e) of one block (e < 64, p[e] a delimiter) with the block's digit mask.
SLUICE_INLINE bool number_in_block(const uint8_t* p, uint64_t digits, unsigned i, unsigned e) noexcept {
  const auto is_digit = [&](unsigned k) { return ((digits >> k) & 1) != 0; };
  const auto skip_digits = [&](unsigned k) { return k + unsigned(trailing_zeroes(~digits >> k)); };
  if (p[i] == '-') ++i;
  if (i == e) return false;
  if (p[i] == '0') {
    ++i;
  } else {
    if (!is_digit(i)) return false;
    i = skip_digits(i);
  }
  if (i == e) return true;
  if (p[i] == '.') {
    ++i;
    if (i == e || !is_digit(i)) return false;
    i = skip_digits(i);
    if (i == e) return true;
  }
  if ((p[i] | 0x20) == 'e') {
    ++i;
    if (i < e && (p[i] == '+' || p[i] == '-')) ++i;
    if (i == e || !is_digit(i)) return false;
    i = skip_digits(i);
  }
  return i == e;
}

// Byte loads and one compare instead of std::memcmp, which clang leaves as a call in wasm even for a constant
// length.
inline uint32_t bytes4(const uint8_t* p) noexcept {
  return uint32_t(p[0]) | uint32_t(p[1]) << 8 | uint32_t(p[2]) << 16 | uint32_t(p[3]) << 24;
}
inline constexpr uint32_t bytes4(const char (&s)[5]) noexcept {
  return uint32_t(uint8_t(s[0])) | uint32_t(uint8_t(s[1])) << 8 | uint32_t(uint8_t(s[2])) << 16 |
         uint32_t(uint8_t(s[3])) << 24;
}

// A literal of n bytes starting with c ('t', 'n' or 'f') at p: true, null or false exactly.
SLUICE_INLINE bool literal_token(const uint8_t* p, uint8_t c, unsigned n) noexcept {
  if (c == 'f') return n == 5 && bytes4(p) == bytes4("fals") && p[4] == 'e';
  return n == 4 && bytes4(p) == (c == 't' ? bytes4("true") : bytes4("null"));
}

// A number or literal starting with byte c at block index bi: true if it is valid and ends in the window (then
// *end is the window index of its delimiter).
template <class K>
SLUICE_INLINE bool scalar_token(walk_block& b, unsigned bi, uint8_t c, unsigned* end) noexcept {
  const uint8_t* w = b.window;
  const unsigned i = b.off + bi;
  const uint64_t delimiters = ~b.scalar & ~mask_below(bi + 1);
  const unsigned end_bi = delimiters != 0 ? unsigned(trailing_zeroes(delimiters)) : 64;
  if (end_bi >= b.len) {
    // It runs into the next block: the DFA finds its end, if the window holds it.
    uint8_t state = token_dfa.next[t_start][c];
    if (state <= t_done) return false;
    const unsigned e = token_run(state, w, i + 1, b.n);
    *end = e;
    return e < b.n && token_dfa.next[state][w[e]] == t_done;
  }
  *end = b.off + end_bi;
  if (c == 't' || c == 'n' || c == 'f') return literal_token(w + i, c, end_bi - bi);
  if (!b.have_digits) {
    b.digits = K::digits(w + b.off);
    b.have_digits = true;
  }
  return number_in_block(w + b.off, b.digits, bi, end_bi);
}

}  // namespace internal
}  // namespace sluice

#endif  // SLUICE_WALK_SCALAR_TOKEN_H
