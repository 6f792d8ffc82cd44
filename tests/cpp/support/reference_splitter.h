// The expected elements of a valid document, computed the slow and obvious way: a recursive-descent walk that
// records every value whose path matches a selector. Independent of the parser under test (no stage 1, no
// automaton, no chunks), so agreement means something.
//
// Selector semantics it encodes (the contract the chunking tests check):
//   - `$` matches the root; `.name`, `['name']`, `["name"]` match a member whose *decoded* key equals the name;
//     `[N]` matches array element N; `[*]` and `.*` match every member of an object and every element of an array.
//   - A value matching several selectors is reported once per selector, in selector order.
//   - Elements are reported in completion order (a nested match before the value that contains it).
//   - The key of an element: the member's raw key (quotes included) or the array index; for a root value, none,
//     except in NDJSON where it is the value's number (0-based).
//   - Without selectors: `$[*]`, or `$` for NDJSON.
#ifndef SLUICE_TESTS_SUPPORT_REFERENCE_SPLITTER_H
#define SLUICE_TESTS_SUPPORT_REFERENCE_SPLITTER_H

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "support/collect.h"

namespace sluice::test {

struct path_segment {
  enum class kind { name, wildcard, index } type;
  std::string name;  // decoded
  uint64_t index = 0;
};

// False if `path` is outside the supported subset.
bool parse_reference_path(std::string_view path, std::vector<path_segment>& segments);

// The decoded bytes of a raw JSON string (quotes included); lone surrogates become their 3-byte (WTF-8) form.
std::string decode_json_string(std::string_view raw);

// Fills `elements` (bytes, path index, key) in completion order. False if the input is not a valid document (or
// NDJSON stream): the splitter checks structure, not every lexical rule; callers feed it validated documents.
// `ends`, if given, receives the offset just past each element's last byte.
bool reference_split(std::string_view input, const std::vector<std::string>& paths, bool ndjson,
                     std::vector<collected_element>& elements, std::vector<size_t>* ends = nullptr);

}  // namespace sluice::test

#endif  // SLUICE_TESTS_SUPPORT_REFERENCE_SPLITTER_H
