// Error codes of the push parser. Every value is documented with an input that produces it; the numbering is
// part of the wasm binding contract (HACKING.md) and of the JS `code` strings (js/errors.ts).
#ifndef SLUICE_ERROR_H
#define SLUICE_ERROR_H

#include <cstdint>

namespace sluice {

enum class error_code : uint8_t {
  ok = 0,
  expected_value = 1,             // `[1,]`, `{"a":}`, `]`, `[.5]`, `[True]`
  expected_comma_or_bracket = 2,  // `[1 2]`, `[1}`
  expected_comma_or_brace = 3,    // `{"a":1 "b":2}`, `{"a":1]`
  expected_key = 4,               // `{,}`, `{1:2}`, `{"a":1,}`
  expected_colon = 5,             // `{"a" 1}`, `{"a",1}`
  trailing_data = 6,              // `[] []`, `1 2`, `{}x`
  invalid_number = 7,             // `[01]`, `[1.]`, `[-]`, `[1e]`, `[1.5x]`
  invalid_literal = 8,            // `[tru]`, `[nulll]`, `[fals]`
  control_character = 9,          // a raw byte below 0x20 inside a string: `["a<TAB>b"]`
  invalid_escape = 10,            // `["\x"]`, `["\'"]`
  invalid_unicode_escape = 11,    // `["\u12G4"]`, `["\u12"]`
  invalid_utf8 = 12,              // bytes C0 AF, ED A0 80 (a surrogate), F4 90 80 80, a truncated sequence
  unexpected_end = 13,            // `[1,2` then end of input; an empty input
  depth_limit = 14,               // nesting deeper than parser_options::max_depth
  element_too_large = 15,         // a selected element (or a key a selector compares) over max_element_bytes
  out_of_memory = 16,             // the heap could not grow (wasm: the 4 GiB address space, or the engine's limit)
};

constexpr int error_code_count = 17;

// Stable upper-case names, identical to the JS `code` property.
const char* error_name(error_code code) noexcept;

// True for the limit errors (JS: JsonLimitError), false for syntax errors.
constexpr bool is_limit_error(error_code code) noexcept {
  return code == error_code::depth_limit || code == error_code::element_too_large || code == error_code::out_of_memory;
}

// Where and what. `offset` is absolute in the stream (bytes since the first byte ever fed, the BOM included),
// `line` and `column` are 1-based, `column` counts bytes since the last '\n'. `byte` is the offending byte, or
// -1 when the input ended.
struct parse_error {
  error_code code = error_code::ok;
  uint64_t offset = 0;
  uint64_t line = 1;
  uint64_t column = 1;
  int byte = -1;
};

}  // namespace sluice

#endif  // SLUICE_ERROR_H
