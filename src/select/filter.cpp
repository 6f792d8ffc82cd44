#include "select/filter.h"

#include <cstdlib>
#include <cstring>
#if defined(__wasm_simd128__)
#include <wasm_simd128.h>
#elif defined(__SSE2__)
#include <emmintrin.h>
#endif

namespace sluice {
namespace internal {

namespace {

constexpr uint32_t max_filter_stack = 64;  // js/query/filter_program.ts refuses deeper expressions

bool blank(uint8_t c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r'; }

const uint8_t* skip_blanks(const uint8_t* p, const uint8_t* e) {
  while (p < e && blank(*p)) ++p;
  return p;
}

// The first quote or backslash in [p, e), or e: sixteen bytes at a time where SIMD is built in, then eight (a
// string's bytes are most of what a candidate is scanned for).
const uint8_t* next_quote_or_escape(const uint8_t* p, const uint8_t* e) {
#if defined(__wasm_simd128__) || defined(__SSE2__)
  while (e - p >= 16) {
#if defined(__wasm_simd128__)
    const v128_t v = wasm_v128_load(p);
    const uint32_t hit = wasm_i8x16_bitmask(
        wasm_v128_or(wasm_i8x16_eq(v, wasm_i8x16_splat('"')), wasm_i8x16_eq(v, wasm_i8x16_splat('\\'))));
#else
    const __m128i v = _mm_loadu_si128(reinterpret_cast<const __m128i*>(p));
    const uint32_t hit = uint32_t(
        _mm_movemask_epi8(_mm_or_si128(_mm_cmpeq_epi8(v, _mm_set1_epi8('"')), _mm_cmpeq_epi8(v, _mm_set1_epi8('\\')))));
#endif
    if (hit != 0) return p + __builtin_ctz(hit);
    p += 16;
  }
#endif
  constexpr uint64_t ones = 0x0101010101010101ull, highs = 0x8080808080808080ull;
  while (e - p >= 8) {
    uint64_t w;
    std::memcpy(&w, p, 8);
    const uint64_t q = w ^ (ones * '"'), b = w ^ (ones * '\\');
    const uint64_t hit = (((q - ones) & ~q) | ((b - ones) & ~b)) & highs;
    if (hit != 0) return p + __builtin_ctzll(hit) / 8;  // little-endian: the lowest flagged byte is the first
    p += 8;
  }
  while (p < e && *p != '"' && *p != '\\') ++p;
  return p;
}

// Past the string whose opening quote is at p.
const uint8_t* skip_string(const uint8_t* p, const uint8_t* e) {
  for (p = next_quote_or_escape(p + 1, e); p < e; p = next_quote_or_escape(p + 2, e))
    if (*p == '"') return p + 1;
  return e;
}

// Past the (valid) JSON value starting at p.
const uint8_t* skip_value(const uint8_t* p, const uint8_t* e) {
  if (p >= e) return e;
  if (*p == '"') return skip_string(p, e);
  if (*p == '{' || *p == '[') {
    uint32_t depth = 0;
    while (p < e) {
      const uint8_t c = *p;
      if (c == '"') {
        p = skip_string(p, e);
        continue;
      }
      ++p;
      if (c == '{' || c == '[') {
        ++depth;
      } else if ((c == '}' || c == ']') && --depth == 0) {
        return p;
      }
    }
    return e;
  }
  while (p < e && !blank(*p) && *p != ',' && *p != ']' && *p != '}') ++p;
  return p;
}

// The UTF-16 units of a JSON string's text, one at a time (what JS compares, and what JSON.parse gives).
struct units {
  const uint8_t* p;
  const uint8_t* e;
  uint32_t low = 0;  // the second unit of a supplementary character read from UTF-8

  units(const uint8_t* quote, const uint8_t* end) : p(quote + 1), e(end) {}

  static uint32_t hex(const uint8_t* h) {
    uint32_t v = 0;
    for (int k = 0; k < 4; ++k) {
      const uint8_t c = h[k];
      v = v * 16 + (c <= '9' ? c - '0' : (c | 0x20) - 'a' + 10);
    }
    return v;
  }
  // The next unit, or -1 at the closing quote.
  int32_t next() {
    if (low != 0) {
      const uint32_t u = low;
      low = 0;
      return int32_t(u);
    }
    if (p >= e || *p == '"') return -1;
    const uint8_t c = *p;
    if (c == '\\') {
      const uint8_t x = p[1];
      p += 2;
      switch (x) {
        case 'b':
          return '\b';
        case 'f':
          return '\f';
        case 'n':
          return '\n';
        case 'r':
          return '\r';
        case 't':
          return '\t';
        case 'u': {
          const uint32_t u = hex(p);
          p += 4;
          return int32_t(u);
        }
        default:
          return x;  // " \ /
      }
    }
    uint32_t cp;
    if (c < 0x80) {
      cp = c;
      p += 1;
    } else if (c < 0xe0) {
      cp = (uint32_t(c & 0x1f) << 6) | (p[1] & 0x3f);
      p += 2;
    } else if (c < 0xf0) {
      cp = (uint32_t(c & 0x0f) << 12) | (uint32_t(p[1] & 0x3f) << 6) | (p[2] & 0x3f);
      p += 3;
    } else {
      cp = (uint32_t(c & 0x07) << 18) | (uint32_t(p[1] & 0x3f) << 12) | (uint32_t(p[2] & 0x3f) << 6) | (p[3] & 0x3f);
      p += 4;
    }
    if (cp < 0x10000) return int32_t(cp);
    cp -= 0x10000;
    low = 0xdc00 + (cp & 0x3ff);
    return int32_t(0xd800 + (cp >> 10));
  }
};

// UTF-16 units reordered as their code points order (surrogates above U+E000-FFFF), as js/query/compare.ts does.
int32_t scalar_order(int32_t u) {
  if (u >= 0xd800 && u <= 0xdfff) return u + 0x2000;
  return u >= 0xe000 ? u - 0x800 : u;
}

// <0, 0, >0 as the strings (opening quotes at a and b) order by code points.
int compare_strings(const uint8_t* a, const uint8_t* ae, const uint8_t* b, const uint8_t* be) {
  units x(a, ae), y(b, be);
  for (;;) {
    const int32_t u = x.next(), v = y.next();
    if (u != v) {
      if (u < 0) return -1;
      if (v < 0) return 1;
      return scalar_order(u) < scalar_order(v) ? -1 : 1;
    }
    if (u < 0) return 0;
  }
}

// Clinger's fast path: a mantissa below 2^53 scaled by a power of ten below 10^23 is exact in a double, so one
// multiplication or division rounds it correctly. False for other numbers (strtod reads them: in wasm its long
// double arithmetic costs a microsecond a number, more than the rest of a candidate's evaluation).
bool fast_number(const uint8_t* p, const uint8_t* e, double& out) {
  static const double powers[] = {1e0,  1e1,  1e2,  1e3,  1e4,  1e5,  1e6,  1e7,  1e8,  1e9,  1e10, 1e11,
                                  1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22};
  const bool negative = p < e && *p == '-';
  if (negative) ++p;
  uint64_t m = 0;
  int64_t exponent = 0;
  bool point = false;
  for (; p < e; ++p) {
    const uint8_t c = *p;
    if (c >= '0' && c <= '9') {
      if (m > (uint64_t{1} << 53) / 10) return false;
      m = m * 10 + (c - '0');
      if (point) --exponent;
    } else if (c == '.') {
      point = true;
    } else {
      break;
    }
  }
  if (p < e && (*p == 'e' || *p == 'E')) {
    ++p;
    const bool minus = p < e && *p == '-';
    if (p < e && (*p == '-' || *p == '+')) ++p;
    int64_t x = 0;
    for (; p < e && *p >= '0' && *p <= '9'; ++p) {
      if (x > 1000) return false;
      x = x * 10 + (*p - '0');
    }
    exponent += minus ? -x : x;
  }
  if (m > (uint64_t{1} << 53) || exponent < -22 || exponent > 22) return m == 0 ? (out = 0, true) : false;
  const double v = exponent < 0 ? double(m) / powers[-exponent] : double(m) * powers[exponent];
  out = negative ? -v : v;
  return true;
}

double number_at(const uint8_t* p, const uint8_t* e) {
  double fast;
  if (fast_number(p, e, fast)) return fast;
  char buffer[128];
  const size_t n = size_t(e - p);
  if (n < sizeof buffer) {
    std::memcpy(buffer, p, n);
    buffer[n] = 0;
    return std::strtod(buffer, nullptr);
  }
  // A number of 128 bytes or more: rare enough for an allocation.
  std::string copy(reinterpret_cast<const char*>(p), n);
  return std::strtod(copy.c_str(), nullptr);
}

// A value a comparison reads: a JSON value's text [p, e), or Nothing (p == nullptr).
struct value {
  const uint8_t* p = nullptr;
  const uint8_t* e = nullptr;
  const double* number = nullptr;  // a number literal's value, read at compile
};

double number_of(const value& v) { return v.number != nullptr ? *v.number : number_at(v.p, v.e); }

bool equal(value a, value b);

// Deep equality of two objects: as many members (names unique, as JSON.parse keeps them), each of a's also in b.
bool equal_objects(value a, value b) {
  uint32_t na = 0, nb = 0;
  const uint8_t* p = skip_blanks(a.p + 1, a.e);
  while (p < a.e && *p == '"') {
    const uint8_t* key_end = skip_string(p, a.e);
    const uint8_t* v = skip_blanks(skip_blanks(key_end, a.e) + 1, a.e);
    const uint8_t* v_end = skip_value(v, a.e);
    ++na;
    // The member of b with the same name, the last one as JSON.parse keeps it.
    value found;
    const uint8_t* q = skip_blanks(b.p + 1, b.e);
    while (q < b.e && *q == '"') {
      const uint8_t* k_end = skip_string(q, b.e);
      const uint8_t* w = skip_blanks(skip_blanks(k_end, b.e) + 1, b.e);
      const uint8_t* w_end = skip_value(w, b.e);
      if (compare_strings(p, key_end, q, k_end) == 0) found = value{w, w_end};
      q = skip_blanks(w_end, b.e);
      if (q < b.e && *q == ',') q = skip_blanks(q + 1, b.e);
    }
    if (found.p == nullptr || !equal(value{v, v_end}, found)) return false;
    p = skip_blanks(v_end, a.e);
    if (p < a.e && *p == ',') p = skip_blanks(p + 1, a.e);
  }
  const uint8_t* q = skip_blanks(b.p + 1, b.e);
  while (q < b.e && *q == '"') {
    ++nb;
    q = skip_blanks(skip_value(skip_blanks(skip_blanks(skip_string(q, b.e), b.e) + 1, b.e), b.e), b.e);
    if (q < b.e && *q == ',') q = skip_blanks(q + 1, b.e);
  }
  return na == nb;
}

bool equal_arrays(value a, value b) {
  const uint8_t* p = skip_blanks(a.p + 1, a.e);
  const uint8_t* q = skip_blanks(b.p + 1, b.e);
  for (;;) {
    const bool a_done = p >= a.e || *p == ']';
    const bool b_done = q >= b.e || *q == ']';
    if (a_done || b_done) return a_done && b_done;
    const uint8_t* pe = skip_value(p, a.e);
    const uint8_t* qe = skip_value(q, b.e);
    if (!equal(value{p, pe}, value{q, qe})) return false;
    p = skip_blanks(pe, a.e);
    if (p < a.e && *p == ',') p = skip_blanks(p + 1, a.e);
    q = skip_blanks(qe, b.e);
    if (q < b.e && *q == ',') q = skip_blanks(q + 1, b.e);
  }
}

bool is_number(uint8_t c) { return c == '-' || (c >= '0' && c <= '9'); }

bool equal(value a, value b) {
  if (a.p == nullptr || b.p == nullptr) return a.p == b.p;
  const uint8_t x = *a.p, y = *b.p;
  if (is_number(x)) return is_number(y) && number_of(a) == number_of(b);
  if (x != y) return false;
  switch (x) {
    case '"':
      return compare_strings(a.p, a.e, b.p, b.e) == 0;
    case '{':
      return equal_objects(a, b);
    case '[':
      return equal_arrays(a, b);
    default:
      return true;  // true, false, null: the first byte tells
  }
}

bool less(value a, value b) {
  if (a.p == nullptr || b.p == nullptr) return false;
  const uint8_t x = *a.p, y = *b.p;
  if (is_number(x)) return is_number(y) && number_of(a) < number_of(b);
  return x == '"' && y == '"' && compare_strings(a.p, a.e, b.p, b.e) < 0;
}

}  // namespace

bool filter_program::compile(std::string_view text, size_t* error_at) {
  ops.clear();
  operands.clear();
  steps.clear();
  max_stack = 0;
  source.assign(text.data(), text.size());
  const auto* t = reinterpret_cast<const uint8_t*>(text.data());
  const uint8_t* const e = t + text.size();
  const uint8_t* p = t;
  uint32_t depth = 0;
  auto fail = [&](const uint8_t* at) {
    if (error_at) *error_at = size_t(at - t);
    return false;
  };
  auto json_string = [&](const uint8_t* q) -> const uint8_t* {
    if (q >= e || *q != '"') return nullptr;
    const uint8_t* end = skip_string(q, e);
    return end[-1] == '"' && end - q >= 2 ? end : nullptr;
  };
  while (p < e) {
    const uint8_t c = *p++;
    switch (c) {
      case '@': {
        operand o{true, uint32_t(steps.size()), 0, {}};
        while (p < e && *p != ';') {
          path_step s{*p == '.', {}, 0};
          ++p;
          if (s.by_name) {
            const uint8_t* end = json_string(p);
            if (end == nullptr) return fail(p);
            s.name.assign(reinterpret_cast<const char*>(p), size_t(end - p));
            p = end;
          } else if (p[-1] == '#' && p < e && *p >= '0' && *p <= '9') {
            while (p < e && *p >= '0' && *p <= '9') s.index = s.index * 10 + uint64_t(*p++ - '0');
          } else {
            return fail(p - 1);
          }
          steps.push_back(std::move(s));
        }
        if (p >= e) return fail(p);
        ++p;
        o.count = uint32_t(steps.size()) - o.first;
        ops.push_back(op{push, uint32_t(operands.size())});
        operands.push_back(std::move(o));
        ++depth;
        break;
      }
      case 'L': {
        const uint8_t* end;
        if (p < e && *p == '"') {
          end = json_string(p);
        } else if (p < e && is_number(*p)) {
          end = p;
          while (end < e && (is_number(*end) || *end == '.' || *end == 'e' || *end == 'E' || *end == '+')) ++end;
        } else {
          end = nullptr;
          for (const char* word : {"true", "false", "null"}) {
            const size_t n = std::strlen(word);
            if (size_t(e - p) >= n && std::memcmp(p, word, n) == 0) end = p + n;
          }
        }
        if (end == nullptr) return fail(p);
        ops.push_back(op{push, uint32_t(operands.size())});
        operands.push_back(operand{false, 0, 0, std::string(reinterpret_cast<const char*>(p), size_t(end - p)), 0});
        if (is_number(*p)) operands.back().number = number_at(p, end);
        p = end;
        ++depth;
        break;
      }
      case 'E':
        if (ops.empty() || ops.back().code != push || !operands[ops.back().operand].query) return fail(p - 1);
        ops.push_back(op{exists, 0});
        break;
      case '~':
        if (depth < 1) return fail(p - 1);
        ops.push_back(op{not_, 0});
        break;
      case '=':
      case 'n':
      case '<':
      case 'l':
      case '>':
      case 'g':
      case '&':
      case '|': {
        if (depth < 2) return fail(p - 1);
        const op_code code = c == '='   ? eq
                             : c == 'n' ? ne
                             : c == '<' ? lt
                             : c == 'l' ? le
                             : c == '>' ? gt
                             : c == 'g' ? ge
                             : c == '&' ? and_
                                        : or_;
        ops.push_back(op{code, 0});
        --depth;
        break;
      }
      default:
        return fail(p - 1);
    }
    if (depth > max_stack) max_stack = depth;
    if (depth > max_filter_stack) return fail(p);
  }
  if (depth != 1 || ops.back().code == push) return fail(e);
  return true;
}

bool filter_program::accepts(const uint8_t* begin, const uint8_t* end) const noexcept {
  // Each entry: a value (text or Nothing) or, after a comparison or test, a truth value (p == nullptr, e != 0).
  value stack[max_filter_stack];
  bool truth[max_filter_stack];
  uint32_t n = 0;
  for (const op& o : ops) {
    switch (o.code) {
      case push: {
        const operand& x = operands[o.operand];
        if (!x.query) {
          const auto* t = reinterpret_cast<const uint8_t*>(x.text.data());
          stack[n++] = value{t, t + x.text.size(), is_number(*t) ? &x.number : nullptr};
          break;
        }
        // The candidate is one value: its end is `end` (less any blanks), not found by a scan.
        const uint8_t* p = skip_blanks(begin, end);
        const uint8_t* v_end = end;
        while (v_end > p && blank(v_end[-1])) --v_end;
        for (uint32_t k = 0; k < x.count && p != nullptr; ++k) {
          const path_step& s = steps[x.first + k];
          const uint8_t open = s.by_name ? '{' : '[';
          if (p >= v_end || *p != open) {
            p = nullptr;
            break;
          }
          const uint8_t* container_end = v_end;
          const uint8_t* q = skip_blanks(p + 1, container_end);
          const uint8_t* found = nullptr;
          const uint8_t* found_end = nullptr;
          uint64_t index = 0;
          while (q < container_end && *q != '}' && *q != ']') {
            const uint8_t* key = nullptr;
            const uint8_t* key_end = nullptr;
            if (s.by_name) {
              key = q;
              key_end = skip_string(q, container_end);
              q = skip_blanks(skip_blanks(key_end, container_end) + 1, container_end);
            }
            const uint8_t* w_end = skip_value(q, container_end);
            if (s.by_name) {
              const auto* name = reinterpret_cast<const uint8_t*>(s.name.data());
              const size_t size = s.name.size();
              // The same text is the same string; another may be too, written with other escapes.
              // Two first characters that differ and are not escapes: different names (the common case).
              const bool differ = key[1] != name[1] && key[1] != '\\' && name[1] != '\\';
              const bool same = !differ && size_t(key_end - key) == size && std::memcmp(key, name, size) == 0;
              if (same || (!differ && compare_strings(key, key_end, name, name + size) == 0)) {
                found = q;  // the last member of the name, as JSON.parse keeps it
                found_end = w_end;
              }
            } else if (index++ == s.index) {
              found = q;
              found_end = w_end;
              break;
            }
            q = skip_blanks(w_end, container_end);
            if (q < container_end && *q == ',') q = skip_blanks(q + 1, container_end);
          }
          p = found;
          v_end = found_end;
        }
        stack[n++] = p == nullptr ? value{} : value{p, v_end};
        break;
      }
      case exists:
        truth[n - 1] = stack[n - 1].p != nullptr;
        break;
      case not_:
        truth[n - 1] = !truth[n - 1];
        break;
      case and_:
        --n;
        truth[n - 1] = truth[n - 1] && truth[n];
        break;
      case or_:
        --n;
        truth[n - 1] = truth[n - 1] || truth[n];
        break;
      default: {
        --n;
        const value a = stack[n - 1], b = stack[n];
        bool r;
        switch (o.code) {
          case eq:
            r = equal(a, b);
            break;
          case ne:
            r = !equal(a, b);
            break;
          case lt:
            r = less(a, b);
            break;
          case le:
            r = less(a, b) || equal(a, b);
            break;
          case gt:
            r = less(b, a);
            break;
          default:
            r = less(b, a) || equal(a, b);
            break;
        }
        truth[n - 1] = r;
        break;
      }
    }
  }
  return n == 1 && truth[0];
}

}  // namespace internal
}  // namespace sluice
