#include "sluice/error.h"

namespace sluice {

const char* error_name(error_code code) noexcept {
  switch (code) {
    case error_code::ok:
      return "OK";
    case error_code::expected_value:
      return "EXPECTED_VALUE";
    case error_code::expected_comma_or_bracket:
      return "EXPECTED_COMMA_OR_BRACKET";
    case error_code::expected_comma_or_brace:
      return "EXPECTED_COMMA_OR_BRACE";
    case error_code::expected_key:
      return "EXPECTED_KEY";
    case error_code::expected_colon:
      return "EXPECTED_COLON";
    case error_code::trailing_data:
      return "TRAILING_DATA";
    case error_code::invalid_number:
      return "INVALID_NUMBER";
    case error_code::invalid_literal:
      return "INVALID_LITERAL";
    case error_code::control_character:
      return "CONTROL_CHARACTER";
    case error_code::invalid_escape:
      return "INVALID_ESCAPE";
    case error_code::invalid_unicode_escape:
      return "INVALID_UNICODE_ESCAPE";
    case error_code::invalid_utf8:
      return "INVALID_UTF8";
    case error_code::unexpected_end:
      return "UNEXPECTED_END";
    case error_code::depth_limit:
      return "DEPTH_LIMIT";
    case error_code::element_too_large:
      return "ELEMENT_TOO_LARGE";
    case error_code::out_of_memory:
      return "OUT_OF_MEMORY";
  }
  return "UNKNOWN";
}

}  // namespace sluice
