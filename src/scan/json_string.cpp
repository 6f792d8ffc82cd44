#include "scan/json_string.h"

#include <cstring>

namespace sluice {
namespace internal {
namespace {

int hex_value(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

}  // namespace

void append_utf8(uint32_t cp, std::string& out) {
  if (cp < 0x80) {
    out.push_back(char(cp));
  } else if (cp < 0x800) {
    out.push_back(char(0xC0 | (cp >> 6)));
    out.push_back(char(0x80 | (cp & 0x3F)));
  } else if (cp < 0x10000) {
    out.push_back(char(0xE0 | (cp >> 12)));
    out.push_back(char(0x80 | ((cp >> 6) & 0x3F)));
    out.push_back(char(0x80 | (cp & 0x3F)));
  } else {
    out.push_back(char(0xF0 | (cp >> 18)));
    out.push_back(char(0x80 | ((cp >> 12) & 0x3F)));
    out.push_back(char(0x80 | ((cp >> 6) & 0x3F)));
    out.push_back(char(0x80 | (cp & 0x3F)));
  }
}

long read_hex4(std::string_view p, size_t i) {
  if (i + 4 > p.size()) return -1;
  long v = 0;
  for (size_t k = 0; k < 4; ++k) {
    const int h = hex_value(p[i + k]);
    if (h < 0) return -1;
    v = v * 16 + h;
  }
  return v;
}

size_t decode_escape(std::string_view text, size_t i, std::string& out, char quote) {
  if (i + 1 >= text.size()) return 0;
  const char e = text[i + 1];
  switch (e) {
    case '"':
    case '\\':
    case '/':
      out.push_back(e);
      return 2;
    case 'b':
      out.push_back('\b');
      return 2;
    case 'f':
      out.push_back('\f');
      return 2;
    case 'n':
      out.push_back('\n');
      return 2;
    case 'r':
      out.push_back('\r');
      return 2;
    case 't':
      out.push_back('\t');
      return 2;
    case 'u': {
      long cp = read_hex4(text, i + 2);
      if (cp < 0) return 0;
      size_t used = 6;
      if (cp >= 0xD800 && cp <= 0xDBFF && i + 12 <= text.size() && text[i + 6] == '\\' && text[i + 7] == 'u') {
        const long lo = read_hex4(text, i + 8);
        if (lo >= 0xDC00 && lo <= 0xDFFF) {
          cp = 0x10000 + ((cp - 0xD800) << 10) + (lo - 0xDC00);
          used = 12;
        }
      }
      append_utf8(uint32_t(cp), out);
      return used;
    }
    default:
      if (e != quote) return 0;
      out.push_back(e);
      return 2;
  }
}

void unescape_json_string(const uint8_t* p, size_t n, std::string& out) {
  const std::string_view text(reinterpret_cast<const char*>(p), n);
  size_t i = 0;
  while (i < n) {
    const uint8_t* next = static_cast<const uint8_t*>(std::memchr(p + i, '\\', n - i));
    const size_t end = next ? size_t(next - p) : n;
    out.append(text.data() + i, end - i);
    if (end == n) return;
    // Validated input: every escape decodes.
    i = end + decode_escape(text, end, out);
  }
}

}  // namespace internal
}  // namespace sluice
