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

void unescape_json_string(const uint8_t* p, size_t n, std::string& out) {
  size_t i = 0;
  while (i < n) {
    const uint8_t c = p[i];
    if (c != '\\') {
      const uint8_t* next = static_cast<const uint8_t*>(std::memchr(p + i, '\\', n - i));
      const size_t end = next ? size_t(next - p) : n;
      out.append(reinterpret_cast<const char*>(p + i), end - i);
      i = end;
      continue;
    }
    const uint8_t e = p[i + 1];
    switch (e) {
      case 'b':
        out.push_back('\b');
        break;
      case 'f':
        out.push_back('\f');
        break;
      case 'n':
        out.push_back('\n');
        break;
      case 'r':
        out.push_back('\r');
        break;
      case 't':
        out.push_back('\t');
        break;
      case 'u': {
        const std::string_view view(reinterpret_cast<const char*>(p), n);
        long cp = read_hex4(view, i + 2);
        size_t used = 6;
        if (cp >= 0xD800 && cp <= 0xDBFF && i + 12 <= n && p[i + 6] == '\\' && p[i + 7] == 'u') {
          const long lo = read_hex4(view, i + 8);
          if (lo >= 0xDC00 && lo <= 0xDFFF) {
            cp = 0x10000 + ((cp - 0xD800) << 10) + (lo - 0xDC00);
            used = 12;
          }
        }
        append_utf8(uint32_t(cp), out);
        i += used;
        continue;
      }
      default:
        out.push_back(char(e));
        break;  // " \ /
    }
    i += 2;
  }
}

}  // namespace internal
}  // namespace sluice
