// An obviously-correct model of stage 1 (src/internal/stage1.h): it walks the stream one byte at a time with an
// explicit state (inside a string? is this byte escaped? how many \u hex digits are still due? how many UTF-8
// continuation bytes?) and reports, for each piece of 1..64 bytes it is given, the masks `scan_block_full` reports for
// the same piece. No word tricks, no kernel: agreement with the kernels means something.
//
// The contract it encodes, byte by byte:
//   - A byte is escaped when an odd run of backslashes ends right before it. Escapes are tracked everywhere, as in
//     the kernels; outside strings a backslash is already a syntax error (it cannot start or continue a token).
//   - An unescaped '"' opens a string outside one and closes it inside one. in_string covers the opening quote and
//     the contents, not the closing quote.
//   - events: `{ } [ ] : ,` outside strings, opening quotes, and the first byte of each scalar token. A scalar
//     byte is any byte outside strings that is not whitespace (space, tab, LF, CR), a structural char or a '"'
//     (even an escaped one: the class is the byte's, not the context's).
//   - String-content errors: a byte below 0x20 inside a string (CONTROL_CHARACTER); an escaped byte that is not one
//     of " \ / b f n r t u (INVALID_ESCAPE); any of the four bytes after an escaped 'u' that is not a hex digit
//     (INVALID_UNICODE_ESCAPE; these bytes are not escaped themselves, so a '\' among them starts a new escape);
//     a byte that strict UTF-8 (RFC 3629) forbids where it stands (INVALID_UTF8), counted only inside strings or
//     on a quote (a closing quote that cuts a sequence short). The first error of a piece wins; on a tie, the
//     order is INVALID_UTF8, INVALID_ESCAPE, INVALID_UNICODE_ESCAPE, CONTROL_CHARACTER.
//   - A UTF-8 error outside strings is not a string-content error (stage 2 rejects the byte as a token byte, at
//     or before it); the model reports its index separately, because what a scanner reports for the rest of that
//     stream is left free (any later error is preceded by a syntax error).
#ifndef SLUICE_TESTS_SUPPORT_STAGE1_REFERENCE_H
#define SLUICE_TESTS_SUPPORT_STAGE1_REFERENCE_H

#include <cstdint>

#include "sluice/error.h"

namespace sluice::test {

struct stage1_reference_piece {
  uint64_t events = 0;
  uint64_t quote = 0;
  uint64_t scalar = 0;
  uint64_t newline = 0;
  uint64_t in_string = 0;
  int error_at = -1;  // first string-content error in the piece
  error_code error = error_code::ok;
  int utf8_outside_at = -1;  // first UTF-8 error outside strings in the piece
};

class stage1_reference {
 public:
  // The next `len` bytes of the stream (1..64).
  stage1_reference_piece scan(const uint8_t* p, unsigned len) {
    stage1_reference_piece r;
    for (unsigned i = 0; i < len; ++i) step(p[i], i, r);
    return r;
  }

  bool in_string() const { return in_string_; }

 private:
  static bool is_structural(uint8_t b) { return b == '{' || b == '}' || b == '[' || b == ']' || b == ':' || b == ','; }
  static bool is_whitespace(uint8_t b) { return b == ' ' || b == '\t' || b == '\n' || b == '\r'; }
  static bool is_hex(uint8_t b) { return (b >= '0' && b <= '9') || (b >= 'a' && b <= 'f') || (b >= 'A' && b <= 'F'); }
  static bool is_escape_char(uint8_t b) {
    return b == '"' || b == '\\' || b == '/' || b == 'b' || b == 'f' || b == 'n' || b == 'r' || b == 't' || b == 'u';
  }

  // Unicode Table 3-7 (well-formed UTF-8 byte sequences). Returns false if `b` cannot stand here; the state then
  // restarts at `b` as if a new sequence began there.
  bool utf8_step(uint8_t b) {
    if (utf8_left_ > 0) {
      if (b >= utf8_lo_ && b <= utf8_hi_) {
        --utf8_left_;
        utf8_lo_ = 0x80;
        utf8_hi_ = 0xBF;
        return true;
      }
      utf8_left_ = 0;
      utf8_lo_ = 0x80;
      utf8_hi_ = 0xBF;
      utf8_step(b);  // resynchronise; only the first error of a stream is ever compared
      return false;
    }
    if (b <= 0x7F) return true;
    utf8_lo_ = 0x80;
    utf8_hi_ = 0xBF;
    if (b >= 0xC2 && b <= 0xDF) {
      utf8_left_ = 1;
    } else if (b == 0xE0) {
      utf8_left_ = 2;
      utf8_lo_ = 0xA0;
    } else if ((b >= 0xE1 && b <= 0xEC) || b == 0xEE || b == 0xEF) {
      utf8_left_ = 2;
    } else if (b == 0xED) {
      utf8_left_ = 2;
      utf8_hi_ = 0x9F;
    } else if (b == 0xF0) {
      utf8_left_ = 3;
      utf8_lo_ = 0x90;
    } else if (b >= 0xF1 && b <= 0xF3) {
      utf8_left_ = 3;
    } else if (b == 0xF4) {
      utf8_left_ = 3;
      utf8_hi_ = 0x8F;
    } else {
      return false;  // 80..BF without a lead, C0, C1, F5..FF
    }
    return true;
  }

  void step(uint8_t b, unsigned i, stage1_reference_piece& r) {
    const uint64_t bit = uint64_t{1} << i;

    const bool escaped = escape_next_;
    escape_next_ = b == '\\' && !escaped;

    const bool hex_position = hex_left_ > 0;
    if (hex_position) --hex_left_;
    if (escaped && b == 'u') hex_left_ = 4;

    const bool quote = b == '"' && !escaped;
    bool inside = in_string_;
    if (quote) {
      in_string_ = !in_string_;
      inside = in_string_;  // the opening quote is inside, the closing one is not
    }

    if (quote) r.quote |= bit;
    if (inside) r.in_string |= bit;
    if (b == '\n') r.newline |= bit;

    const bool scalar = !inside && !is_whitespace(b) && !is_structural(b) && b != '"';
    if (scalar) r.scalar |= bit;
    if ((!inside && is_structural(b)) || (quote && inside) || (scalar && !prev_scalar_)) r.events |= bit;
    prev_scalar_ = scalar;

    const bool utf8_ok = utf8_step(b);
    error_code e = error_code::ok;
    if (!utf8_ok && (inside || quote)) {
      e = error_code::invalid_utf8;
    } else if (escaped && !is_escape_char(b)) {
      e = error_code::invalid_escape;
    } else if (hex_position && !is_hex(b)) {
      e = error_code::invalid_unicode_escape;
    } else if (inside && b < 0x20) {
      e = error_code::control_character;
    }
    if (e != error_code::ok && r.error_at < 0) {
      r.error_at = int(i);
      r.error = e;
    }
    if (!utf8_ok && !(inside || quote) && r.utf8_outside_at < 0) r.utf8_outside_at = int(i);
  }

  bool in_string_ = false;
  bool escape_next_ = false;  // the last byte was a backslash that was not itself escaped
  bool prev_scalar_ = false;
  int hex_left_ = 0;        // bytes still due as hex digits of a \u escape
  int utf8_left_ = 0;       // continuation bytes still due
  uint8_t utf8_lo_ = 0x80;  // allowed range of the next continuation byte
  uint8_t utf8_hi_ = 0xBF;
};

}  // namespace sluice::test

#endif  // SLUICE_TESTS_SUPPORT_STAGE1_REFERENCE_H
