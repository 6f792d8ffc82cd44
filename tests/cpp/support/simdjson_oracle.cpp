#include "support/simdjson_oracle.h"

#include <algorithm>
#include <cstdlib>

#include "simdjson.h"

namespace sluice::test {

namespace {

bool is_digit(char c) { return c >= '0' && c <= '9'; }

bool is_hex(char c) { return is_digit(c) || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F'); }

bool is_number_char(char c) { return is_digit(c) || c == '-' || c == '+' || c == '.' || c == 'e' || c == 'E'; }

bool is_whitespace_only(std::string_view s) {
  if (s.substr(0, 3) == "\xEF\xBB\xBF") s.remove_prefix(3);
  return std::all_of(s.begin(), s.end(), [](char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r'; });
}

bool maps_by_neutralising(simdjson::error_code error) {
  return error == simdjson::NUMBER_ERROR || error == simdjson::BIGINT_ERROR || error == simdjson::STRING_ERROR ||
         error == simdjson::T_ATOM_ERROR || error == simdjson::F_ATOM_ERROR || error == simdjson::N_ATOM_ERROR;
}

bool is_alnum(char c) { return is_digit(c) || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'); }

// One DOM parser per thread and use, re-allocated only when an input is larger or nests deeper than it allows:
// allocating per call made the oracle, not sluice, the cost of the randomized suites under ASan.
simdjson::dom::parser& parser_for(std::string_view input, size_t nesting, bool stream) {
  thread_local simdjson::dom::parser parsers[2];
  thread_local size_t capacity[2] = {0, 0}, depth[2] = {0, 0};
  const int which = stream ? 1 : 0;
  // simdjson counts a scalar in the innermost container as one more level: +2 keeps its limit out of the way.
  if (input.size() > capacity[which] || nesting + 2 > depth[which]) {
    capacity[which] = std::max<size_t>({input.size(), capacity[which], 1 << 16});
    depth[which] = std::max<size_t>({nesting + 2, depth[which], 4096});
    if (parsers[which].allocate(capacity[which], depth[which]) != simdjson::SUCCESS) std::abort();
  }
  return parsers[which];
}

simdjson::error_code parse_document(std::string_view input, size_t nesting) {
  simdjson::padded_string padded(input.data(), input.size());
  return parser_for(input, nesting, false).parse(padded).error();
}

simdjson::error_code parse_stream(std::string_view input, size_t nesting) {
  simdjson::dom::parser& parser = parser_for(input, nesting, true);
  simdjson::padded_string padded(input.data(), input.size());
  simdjson::dom::document_stream stream;
  // batch_size = the parser's capacity >= the whole input: documents never straddle batches, so none is mistaken
  // for truncated.
  simdjson::error_code error = parser.parse_many(padded, parser.capacity()).get(stream);
  if (error) return error;
  for (auto it = stream.begin(); it != stream.end(); ++it) {
    error = (*it).error();
    if (error) return error;
  }
  // Difference 5: a truncated last document is not an error to parse_many.
  return stream.truncated_bytes() > 0 ? simdjson::INCOMPLETE_ARRAY_OR_OBJECT : simdjson::SUCCESS;
}

simdjson::error_code judge_raw(std::string_view input, bool ndjson, size_t nesting) {
  if (ndjson) return is_whitespace_only(input) ? simdjson::SUCCESS : parse_stream(input, nesting);
  return parse_document(input, nesting);
}

}  // namespace

bool is_json_number(std::string_view t) {
  size_t i = 0, n = t.size();
  if (i < n && t[i] == '-') ++i;
  if (i >= n) return false;
  if (t[i] == '0') {
    ++i;
  } else if (t[i] >= '1' && t[i] <= '9') {
    while (i < n && is_digit(t[i])) ++i;
  } else {
    return false;
  }
  if (i < n && t[i] == '.') {
    size_t start = ++i;
    while (i < n && is_digit(t[i])) ++i;
    if (i == start) return false;
  }
  if (i < n && (t[i] == 'e' || t[i] == 'E')) {
    ++i;
    if (i < n && (t[i] == '+' || t[i] == '-')) ++i;
    size_t start = i;
    while (i < n && is_digit(t[i])) ++i;
    if (i == start) return false;
  }
  return i == n;
}

size_t nesting_of(std::string_view input) {
  size_t depth = 0, deepest = 0;
  bool in_string = false;
  for (size_t i = 0; i < input.size(); ++i) {
    char c = input[i];
    if (in_string) {
      if (c == '\\') {
        ++i;
      } else if (c == '"') {
        in_string = false;
      }
    } else if (c == '"') {
      in_string = true;
    } else if (c == '[' || c == '{') {
      deepest = std::max(deepest, ++depth);
    } else if ((c == ']' || c == '}') && depth > 0) {
      --depth;
    }
  }
  return deepest;
}

std::string neutralise_known_differences(std::string_view input, unsigned which) {
  std::string out;
  out.reserve(input.size());
  bool in_string = false;
  for (size_t i = 0; i < input.size();) {
    char c = input[i];
    if (in_string) {
      if (c == '\\' && i + 5 < input.size() && input[i + 1] == 'u' && is_hex(input[i + 2]) && is_hex(input[i + 3]) &&
          is_hex(input[i + 4]) && is_hex(input[i + 5])) {
        unsigned unit = static_cast<unsigned>(std::strtoul(std::string(input.substr(i + 2, 4)).c_str(), nullptr, 16));
        bool surrogate = unit >= 0xD800 && unit <= 0xDFFF && (which & mapped_lone_surrogate) != 0;
        out += surrogate ? std::string_view("\\u0041") : input.substr(i, 6);
        i += 6;
      } else if (c == '\\') {
        out += input.substr(i, 2);
        i += 2;
      } else {
        in_string = c != '"';
        out += c;
        ++i;
      }
    } else if (c == '-' || is_digit(c)) {
      size_t end = i;
      while (end < input.size() && is_number_char(input[end])) ++end;
      std::string_view token = input.substr(i, end - i);
      if (is_json_number(token) && (which & mapped_number_range) != 0) {
        out += '0';
      } else {
        out += token;
      }
      i = end;
    } else {
      if (c == '"' && !out.empty() && is_alnum(out.back()) && (which & mapped_value_boundary) != 0) out += ' ';
      in_string = c == '"';
      out += c;
      ++i;
    }
  }
  return out;
}

oracle_verdict oracle_judge(std::string_view input, bool ndjson) {
  oracle_verdict verdict;
  verdict.nesting = nesting_of(input);
  simdjson::error_code error = judge_raw(input, ndjson, verdict.nesting);
  if (error) verdict.simdjson_error = simdjson::error_message(error);
  if (maps_by_neutralising(error)) {
    // simdjson reports these from stage 2 only, after its stage 1 found the strings balanced and the UTF-8 valid:
    // the string tracking of the rewrite is then exact.
    const unsigned all = mapped_number_range | mapped_lone_surrogate | mapped_value_boundary;
    simdjson::error_code again = judge_raw(neutralise_known_differences(input, all), ndjson, verdict.nesting);
    if (!again) {
      // Name the difference that was needed: a single one if it suffices alone, else all of them.
      verdict.mapped = all;
      for (unsigned one : {mapped_number_range, mapped_lone_surrogate, mapped_value_boundary}) {
        if (!judge_raw(neutralise_known_differences(input, one), ndjson, verdict.nesting)) {
          verdict.mapped = one;
          break;
        }
      }
    }
    error = again;
  }
  verdict.valid = !error;
  return verdict;
}

}  // namespace sluice::test
