// One spelling per JSON value, to compare two texts by value: whitespace outside strings dropped, every string
// decoded (escapes and raw UTF-8 alike, lone surrogates as WTF-8) and re-escaped the same way. Used where the core
// may rewrite an element's text without changing its value (json_array batches are ASCII, see ascii_json.h).
// Expects valid JSON.
#ifndef SLUICE_TESTS_SUPPORT_CANONICAL_JSON_H
#define SLUICE_TESTS_SUPPORT_CANONICAL_JSON_H

#include <cstdint>
#include <cstdio>
#include <string>
#include <string_view>

#include "scan/json_string.h"

namespace sluice {
namespace test {

inline std::string canonical_json(std::string_view text) {
  std::string out;
  std::string decoded;
  size_t i = 0;
  while (i < text.size()) {
    const char c = text[i];
    if (c == ' ' || c == '\t' || c == '\n' || c == '\r') {
      ++i;
      continue;
    }
    if (c != '"') {
      out.push_back(c);
      ++i;
      continue;
    }
    size_t j = i + 1;
    while (text[j] != '"') j += text[j] == '\\' ? 2 : 1;
    decoded.clear();
    sluice::internal::unescape_json_string(reinterpret_cast<const uint8_t*>(text.data() + i + 1), j - i - 1, decoded);
    out.push_back('"');
    for (const char d : decoded) {
      const auto u = static_cast<unsigned char>(d);
      if (u < 0x20 || d == '"' || d == '\\') {
        char buf[8];
        std::snprintf(buf, sizeof buf, "\\u%04x", u);
        out += buf;
      } else {
        out.push_back(d);
      }
    }
    out.push_back('"');
    i = j + 1;
  }
  return out;
}

// The obvious compaction (what batch_mode::compact_lines must give, byte for byte): the four whitespace bytes
// outside strings dropped, everything else kept.
inline std::string compact_json(std::string_view text) {
  std::string out;
  bool in_string = false;
  bool escaped = false;
  for (const char c : text) {
    if (in_string) {
      out.push_back(c);
      if (escaped) {
        escaped = false;
      } else if (c == '\\') {
        escaped = true;
      } else if (c == '"') {
        in_string = false;
      }
    } else if (c != ' ' && c != '\t' && c != '\n' && c != '\r') {
      out.push_back(c);
      in_string = c == '"';
    }
  }
  return out;
}

inline bool is_ascii(std::string_view text) {
  for (const char c : text)
    if (static_cast<unsigned char>(c) >= 0x80) return false;
  return true;
}

}  // namespace test
}  // namespace sluice

#endif  // SLUICE_TESTS_SUPPORT_CANONICAL_JSON_H
