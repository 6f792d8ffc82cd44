// A filter selector `[?...]` in the last step of a selector, in the compact postfix form the JS layer lowers RFC
// 9535's expression to (js/query/filter_program.ts writes it):
//
//   @<steps>;   a singular relative query: steps `."name"` (a JSON string) or `#N` (N >= 0), `;` ends it
//   L<json>     a literal: a JSON number, string, true, false or null
//   E           exists: the query just pushed selects a node
//   = n < l > g comparisons ==, !=, <, <=, >, >= of the two operands pushed last
//   & | ~       and, or, not of the truth values pushed last
//
// The candidate is a child the step's container holds (as `*` selects it), evaluated once its last byte is in the
// window: the queries are found in its raw bytes (already validated by the walk), then compared as RFC 9535
// §2.3.5.2.2 says: Nothing equals only Nothing, numbers by value (doubles, as JSON.parse reads them), strings by
// their code points after unescaping, arrays and objects deeply, anything else of two types unequal and unordered.
#ifndef SLUICE_SELECT_FILTER_H
#define SLUICE_SELECT_FILTER_H

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace sluice {
namespace internal {

// An object candidate's members as the walk met them: the offsets of their keys' opening quotes from its first
// byte, in order. keys is null when they are not known (the candidate's bytes are scanned).
struct member_list {
  const uint32_t* keys = nullptr;
  uint32_t count = 0;
};

struct filter_program {
  enum op_code : uint8_t { query, literal, exists, eq, ne, lt, le, gt, ge, and_, or_, not_ };
  // One instruction: a query or a literal pushes its value (its text is source[begin, end): the steps after `@`,
  // or the literal's JSON), the others combine the values pushed last.
  struct op {
    op_code code;
    uint32_t begin;
    uint32_t end;
    double number;  // a number literal's value, read at compile
  };
  std::vector<op> ops;
  std::string source;  // the text compiled (a saved parser keeps it)

  bool empty() const noexcept { return ops.empty(); }
  // Compiles the program text; false with *error_at (an offset in `text`) when it is not one.
  bool compile(std::string_view text, size_t* error_at);
  // Whether the candidate, the JSON value in [begin, end), passes.
  bool accepts(const uint8_t* begin, const uint8_t* end, member_list members = {}) const noexcept;
};

}  // namespace internal
}  // namespace sluice

#endif  // SLUICE_SELECT_FILTER_H
