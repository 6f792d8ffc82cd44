// The JSONPath subset sluice selects elements with (RFC 9535 syntax, linear paths only):
//
//   $                      the root
//   .name  ['name']  ["name"]   an object member (quoted names take JSON-style escapes, \' in single quotes)
//   .*  [*]                every member of an object, every element of an array
//   [N]                    the array element at index N (N >= 0)
//
// No descendant `..`, filters, slices, unions or negative indices: each would need lookahead or buffering that a
// forward-only stream cannot give in bounded memory. The compiled form, and how values are matched: selector_set.h.
#ifndef SLUICE_SELECT_SELECTOR_H
#define SLUICE_SELECT_SELECTOR_H

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace sluice {
namespace internal {

struct step {
  enum kind_t : uint8_t { by_name, by_index, wildcard } kind;
  std::string name;  // UTF-8 (lone surrogates from \u escapes as WTF-8, matching unescape_json_string)
  uint64_t index = 0;
};

struct selector {
  std::vector<step> steps;
};

// Parses `path`. Returns true, or false with *error_at = index of the offending character (path.size() when the
// path ends too early).
bool parse_selector(std::string_view path, selector& out, size_t* error_at);

}  // namespace internal
}  // namespace sluice

#endif  // SLUICE_SELECT_SELECTOR_H
