// Accept/reject oracle: simdjson 3.9.4's DOM parser (sources from the @nozbe/simdjson npm devDependency), with
// every known difference between simdjson and sluice's contract mapped in one place, oracle_judge(). The
// differences, and why each is mapped rather than fixed on either side:
//
//  1. Numbers outside double range (`1e400`, `-1e400`) and integers past 64 bits (`18446744073709551616`):
//     simdjson fails with NUMBER_ERROR or BIGINT_ERROR because it materialises numbers; RFC 8259 puts no limit on
//     them and sluice, which never converts numbers, accepts them (JSON.parse gives Infinity or a rounded value).
//     Mapped: when simdjson fails with either code, every number token that our own small matcher finds
//     grammatical is replaced by `0` and the document is judged again; ungrammatical tokens stay, so simdjson
//     still rejects those.
//  2. Lone or reversed surrogate escapes (`"\uD800"`, `"\uDC00\uD800"`): simdjson fails with STRING_ERROR because it
//     transcodes to UTF-8; the escapes are grammatical JSON, sluice (like JSON.parse) accepts them. Mapped: on
//     STRING_ERROR, \u escapes of surrogates are rewritten to `\u0041` and the document judged again; other string
//     errors (`\x`, short \u escapes) survive the rewrite and still reject.
//  3. Depth: simdjson counts a scalar inside the innermost container as one more level and its default limit is
//     1024. The oracle parses with a limit far above any test input and reports `nesting` (most containers open
//     at once, our own count) so that callers apply sluice's rule: DEPTH_LIMIT iff nesting > max_depth.
//  4. A leading UTF-8 BOM: simdjson 3.9.4 skips it (DOM and parse_many), as sluice does. Nothing to map; the
//     oracle's self-test asserts it stays so.
//  5. NDJSON: simdjson's parse_many() drops a truncated last document silently (truncated_bytes() > 0) and reports
//     an empty input as truncated; sluice rejects the first and accepts the second (zero values). Mapped: a stream
//     is valid iff every document parses and nothing is truncated, or it holds only whitespace (after a BOM).
//  6. NDJSON: simdjson ends a number or literal only at whitespace or one of `,:[]{}`, so `1"a"` and `true"a"`
//     fail with NUMBER_ERROR / T_ATOM_ERROR although `1[2]` passes. A quote cannot continue a number or literal,
//     so the boundary is unambiguous and sluice accepts both values. Mapped: on NUMBER_ERROR or *_ATOM_ERROR, a
//     space goes between such a token and a quote that follows it outside strings (harmless elsewhere: inside one
//     document `1 "a"` is still an error), and the input is judged again.
//  7. Empty or whitespace-only single documents: simdjson says EMPTY, sluice UNEXPECTED_END: both reject.
#ifndef SLUICE_TESTS_SUPPORT_SIMDJSON_ORACLE_H
#define SLUICE_TESTS_SUPPORT_SIMDJSON_ORACLE_H

#include <cstddef>
#include <string>
#include <string_view>

namespace sluice::test {

// Which documented differences (above) had to be mapped to reach a `valid` verdict: one flag if it sufficed alone.
enum oracle_mapping : unsigned {
  mapped_none = 0,
  mapped_number_range = 1,    // difference 1
  mapped_lone_surrogate = 2,  // difference 2
  mapped_value_boundary = 4,  // difference 6
};

struct oracle_verdict {
  bool valid = false;          // RFC 8259 (one value, or an NDJSON stream), ignoring depth
  size_t nesting = 0;          // most containers open at once (counted on the raw bytes, strings skipped)
  std::string simdjson_error;  // simdjson's first error before mapping ("" if none)
  unsigned mapped = mapped_none;
};

oracle_verdict oracle_judge(std::string_view input, bool ndjson = false);

// Most containers open at once in `input`, outside strings. Exact for valid documents; for any input, the nesting
// a left-to-right reader has reached at each byte, which is what a depth limit fires on.
size_t nesting_of(std::string_view input);

// The text with grammatical number tokens replaced by 0, surrogate \u escapes by \u0041, and a space before a
// quote that follows a number or literal (differences 1, 2, 6). Exposed for the oracle's own tests.
std::string neutralise_known_differences(std::string_view input, unsigned which);

// RFC 8259 number grammar: -?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?
bool is_json_number(std::string_view token);

}  // namespace sluice::test

#endif  // SLUICE_TESTS_SUPPORT_SIMDJSON_ORACLE_H
