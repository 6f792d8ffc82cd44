// Seeded random JSON for differential and chunking tests: valid documents that hit every corner of the grammar
// and of the block scanner, and mutations of them that are (mostly) invalid.
#ifndef SLUICE_TESTS_SUPPORT_RANDOM_JSON_H
#define SLUICE_TESTS_SUPPORT_RANDOM_JSON_H

#include <cstddef>
#include <string>
#include <string_view>

#include "support/rng.h"

namespace sluice::test {

enum class root_kind { any, array, object, scalar };

struct json_shape {
  root_kind root = root_kind::any;
  // Deepest nesting of containers (the root container counts as 1). Some documents go this deep on purpose.
  size_t max_nesting = 40;
  // Soft size budget: containers stop growing once the document has this many bytes.
  size_t max_bytes = 2048;
  // The root container (if the root is one) takes members until the budget is spent: large documents with many
  // elements, rather than the small trees random shapes mostly give.
  bool fill = false;
  // Member names drawn from this list (plus random ones, escaped spellings of them, `__proto__` and duplicates)
  // so that name selectors find something. Empty: random names only.
  std::string_view common_keys = "a,b,c";
};

// One valid RFC 8259 document (possibly with a leading BOM, never with trailing garbage). Covers: deep nesting,
// empty containers, every escape, \u escapes in both cases incl. astral pairs and lone or reversed surrogates, raw
// 2/3/4-byte UTF-8, numbers of every grammatical shape (incl. ones outside double range), all four whitespace
// bytes, strings longer than a 64-byte block, runs of 0..N backslashes before quotes.
std::string random_json(rng& random, const json_shape& shape = {});

// A valid NDJSON stream of `count` values: newline-separated, or just concatenated (with whitespace only where a
// number or literal would otherwise run into the next value).
std::string random_ndjson(rng& random, size_t count, const json_shape& shape = {});

// 1..3 random edits of `doc` chosen to break it: delete, insert or replace a byte with an interesting one (quotes,
// backslash, brackets, controls, 0x80-0xFF), insert malformed UTF-8 (overlongs, surrogates ED A0 80, code points
// above U+10FFFF, truncated or lone continuation bytes), truncate, duplicate or drop a slice. The result is
// usually invalid; callers judge it with the oracle, never assume.
std::string mutate_json(rng& random, std::string_view doc);

// One valid number with the grammar's optional parts chosen at random (sign, zero or multi-digit integer,
// fraction, exponent with either case and sign), sometimes with hundreds of digits or a huge exponent.
std::string random_number(rng& random);

}  // namespace sluice::test

#endif  // SLUICE_TESTS_SUPPORT_RANDOM_JSON_H
