// A table-driven DFA for the scalar tokens: numbers (RFC 8259 grammar) and the literals true, false, null.
// One lookup per byte, resumable at any byte, so a token may be split across blocks and chunks without keeping its
// bytes. Digit runs, the bulk of number bytes, skip the table.
#ifndef SLUICE_WALK_TOKEN_DFA_H
#define SLUICE_WALK_TOKEN_DFA_H

#include <cstdint>

#include "scan/bits.h"

namespace sluice {
namespace internal {

enum token_state : uint8_t {
  t_error = 0,  // the byte cannot continue the token
  t_done,       // the byte ends an accepted token (whitespace, a structural char or a quote)
  t_start,
  n_minus,  // -
  n_zero,   // 0 or -0          (accepting)
  n_int,    // [1-9][0-9]*      (accepting)
  n_dot,    // 1.
  n_frac,   // 1.5              (accepting)
  n_e,      // 1e
  n_esign,  // 1e+
  n_exp,    // 1e5              (accepting)
  l_t,
  l_tr,
  l_tru,
  l_true,  // l_true, l_false, l_null accepting
  l_f,
  l_fa,
  l_fal,
  l_fals,
  l_false,
  l_n,
  l_nu,
  l_nul,
  l_null,
  token_state_count
};

constexpr bool token_accepting(uint8_t s) {
  return s == n_zero || s == n_int || s == n_frac || s == n_exp || s == l_true || s == l_false || s == l_null;
}
constexpr bool token_is_number(uint8_t s) { return s >= n_minus && s <= n_exp; }

struct token_table {
  uint8_t next[token_state_count][256];

  constexpr token_table() : next() {
    for (int s = 0; s < token_state_count; ++s) {
      for (int b = 0; b < 256; ++b) {
        const bool digit = b >= '0' && b <= '9';
        const bool delimiter = b == ' ' || b == '\t' || b == '\n' || b == '\r' || b == ',' || b == ']' || b == '}' ||
                               b == ':' || b == '[' || b == '{' || b == '"';
        uint8_t n = t_error;
        if (delimiter && token_accepting(uint8_t(s))) n = t_done;
        switch (s) {
          case t_start:
            if (b == '-') n = n_minus;
            if (b == '0') n = n_zero;
            if (digit && b != '0') n = n_int;
            if (b == 't') n = l_t;
            if (b == 'f') n = l_f;
            if (b == 'n') n = l_n;
            break;
          case n_minus:
            if (b == '0') n = n_zero;
            if (digit && b != '0') n = n_int;
            break;
          case n_zero:
          case n_int:
            if (s == n_int && digit) n = n_int;
            if (b == '.') n = n_dot;
            if (b == 'e' || b == 'E') n = n_e;
            break;
          case n_dot:
          case n_frac:
            if (digit) n = n_frac;
            if (s == n_frac && (b == 'e' || b == 'E')) n = n_e;
            break;
          case n_e:
            if (b == '+' || b == '-') n = n_esign;
            if (digit) n = n_exp;
            break;
          case n_esign:
          case n_exp:
            if (digit) n = n_exp;
            break;
          case l_t:
            if (b == 'r') n = l_tr;
            break;
          case l_tr:
            if (b == 'u') n = l_tru;
            break;
          case l_tru:
            if (b == 'e') n = l_true;
            break;
          case l_f:
            if (b == 'a') n = l_fa;
            break;
          case l_fa:
            if (b == 'l') n = l_fal;
            break;
          case l_fal:
            if (b == 's') n = l_fals;
            break;
          case l_fals:
            if (b == 'e') n = l_false;
            break;
          case l_n:
            if (b == 'u') n = l_nu;
            break;
          case l_nu:
            if (b == 'l') n = l_nul;
            break;
          case l_nul:
            if (b == 'l') n = l_null;
            break;
          default:
            break;
        }
        next[s][b] = n;
      }
    }
  }
};

inline constexpr token_table token_dfa{};

// Runs the DFA from state `s` over p[i..len). Returns the index of the first byte that ends (t_done) or breaks
// (t_error) the token, with `s` left at the last state before it; returns len when the input ran out first.
SLUICE_INLINE unsigned token_run(uint8_t& s, const uint8_t* p, unsigned i, unsigned len) noexcept {
  while (i < len) {
    if (s == n_int || s == n_frac || s == n_exp) {
      while (i < len && unsigned(p[i] - '0') <= 9) ++i;
      if (i == len) return i;
    }
    const uint8_t n = token_dfa.next[s][p[i]];
    if (n <= t_done) return i;
    s = n;
    ++i;
  }
  return i;
}

// Validates a whole token whose extent stage 1 already knows (p[0..n) are non-delimiter bytes and p[n] is a
// delimiter), without the DFA's per-byte state chain. Same verdicts and error positions as the DFA: returns -1 when
// valid, else the index of the first byte that cannot continue the token (n: the token stopped too early).
inline int check_number(const uint8_t* p, unsigned n) noexcept {
  const auto digit = [](uint8_t b) { return unsigned(b - '0') <= 9; };
  unsigned i = 0;
  if (p[0] == '-') i = 1;
  if (i == n) return int(i);
  if (p[i] == '0') {
    ++i;
  } else if (digit(p[i])) {
    ++i;
    while (i < n && digit(p[i])) ++i;
  } else {
    return int(i);
  }
  if (i == n) return -1;
  if (p[i] == '.') {
    ++i;
    if (i == n || !digit(p[i])) return int(i);
    while (i < n && digit(p[i])) ++i;
    if (i == n) return -1;
  }
  if (p[i] == 'e' || p[i] == 'E') {
    ++i;
    if (i < n && (p[i] == '+' || p[i] == '-')) ++i;
    if (i == n || !digit(p[i])) return int(i);
    while (i < n && digit(p[i])) ++i;
    if (i == n) return -1;
  }
  return int(i);
}

inline int check_literal(const uint8_t* p, unsigned n, const char* word, unsigned word_n) noexcept {
  const unsigned common = n < word_n ? n : word_n;
  for (unsigned i = 0; i < common; ++i)
    if (p[i] != uint8_t(word[i])) return int(i);
  return n == word_n ? -1 : int(common);
}

}  // namespace internal
}  // namespace sluice

#endif  // SLUICE_WALK_TOKEN_DFA_H
