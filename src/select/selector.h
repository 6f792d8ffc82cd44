// The JSONPath subset sluice selects elements with (RFC 9535 syntax), one segment after another:
//
//   $                      the root
//   .name  ['name']  ["name"]   an object member (quoted names take JSON-style escapes, \' in single quotes)
//   .*  [*]                every member of an object, every element of an array
//   [N]                    the array element at index N (N >= 0)
//   [start:end:step]       array elements start <= i < end, every step-th (each part optional, none negative;
//                          step 0 selects nothing)
//   ..name  ..*  ..[...]   a descendant segment: the step above applied to the value and to every value under it
//   [?program]             last, and with no descendant segment: the children that pass a filter (select/filter.h)
//
// Every form decides about a value from its key or index and the path above it, so a forward-only stream selects
// with it in bounded memory. Negative indices and slice bounds, filters and unions stay out: the first two need
// the array's length, filters the value itself; unions are split into several selectors by the JS layer. The
// compiled form, and how values are matched: selector_set.h.
#ifndef SLUICE_SELECT_SELECTOR_H
#define SLUICE_SELECT_SELECTOR_H

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "select/filter.h"

namespace sluice {
namespace internal {

// A slice's end when omitted: past any index.
constexpr uint64_t slice_unbounded = ~uint64_t{0};

struct step {
  enum kind_t : uint8_t { by_name, by_index, wildcard, slice } kind;
  bool descendant = false;         // written with `..`: applies to the value and every value under it
  std::string name;                // UTF-8 (lone surrogates from \u escapes as WTF-8, matching unescape_json_string)
  uint64_t index = 0;              // by_index: N; slice: start
  uint64_t end = slice_unbounded;  // slice only
  uint64_t stride = 1;             // slice only: its step (0 selects nothing)
};

struct selector {
  std::vector<step> steps;
  // `[?program]` as the last step: its step is a wildcard, and a child it selects is kept only if it passes.
  filter_program filter;
  bool has_descendant() const noexcept {
    for (const step& s : steps)
      if (s.descendant) return true;
    return false;
  }
};

// Parses `path`. Returns true, or false with *error_at = index of the offending character (path.size() when the
// path ends too early).
bool parse_selector(std::string_view path, selector& out, size_t* error_at);

}  // namespace internal
}  // namespace sluice

#endif  // SLUICE_SELECT_SELECTOR_H
