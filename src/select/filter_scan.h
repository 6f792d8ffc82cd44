// The filter's reading of a candidate's raw JSON text: skipping blanks, strings, scalars and containers (SIMD where
// built in), and a string's UTF-16 units. Included by filter.cpp alone, so each function stays inlinable there.
#ifndef SLUICE_SELECT_FILTER_SCAN_H
#define SLUICE_SELECT_FILTER_SCAN_H

#include "select/decimal.h"

#include <cstdint>
#include <cstring>
#if defined(__wasm_simd128__)
#include <wasm_simd128.h>
#elif defined(__SSE2__)
#include <emmintrin.h>
#endif

namespace sluice {
namespace internal {

// Internal linkage, as in filter.cpp: the optimiser may inline or specialise each function freely.
namespace {

// Outside strings, valid JSON holds no byte at or below the space but the four blanks.
bool blank(uint8_t c) { return c <= ' '; }

inline const uint8_t* skip_blanks(const uint8_t* p, const uint8_t* e) {
  while (p < e && blank(*p)) ++p;
  return p;
}

#if defined(__wasm_simd128__) || defined(__SSE2__)
// One bit per quote or backslash among the sixteen bytes at p.
inline uint32_t quotes_or_escapes(const uint8_t* p) {
#if defined(__wasm_simd128__)
  const v128_t v = wasm_v128_load(p);
  return wasm_i8x16_bitmask(
      wasm_v128_or(wasm_i8x16_eq(v, wasm_i8x16_splat('"')), wasm_i8x16_eq(v, wasm_i8x16_splat('\\'))));
#else
  const __m128i v = _mm_loadu_si128(reinterpret_cast<const __m128i*>(p));
  return uint32_t(
      _mm_movemask_epi8(_mm_or_si128(_mm_cmpeq_epi8(v, _mm_set1_epi8('"')), _mm_cmpeq_epi8(v, _mm_set1_epi8('\\')))));
#endif
}
#endif

// Past the string whose opening quote is at p: sixteen bytes at a time where SIMD is built in, an escape taken from
// the same bits rather than by a new load; else eight (a string's bytes are most of what a candidate is scanned for).
__attribute__((noinline)) const uint8_t* skip_string(const uint8_t* p, const uint8_t* e) {
  ++p;
#if defined(__wasm_simd128__) || defined(__SSE2__)
  while (e - p >= 16) {
    uint32_t hit = quotes_or_escapes(p);
    uint32_t step = 16;
    while (hit != 0) {
      const uint32_t k = uint32_t(__builtin_ctz(hit));
      if (p[k] == '"') return p + k + 1;
      if (k == 15) {  // the escaped byte begins the next block
        step = 17;
        break;
      }
      hit &= ~(3u << k);  // the backslash and the byte it escapes
    }
    p += step;
  }
#else
  constexpr uint64_t ones = 0x0101010101010101ull, highs = 0x8080808080808080ull;
  while (e - p >= 8) {
    uint64_t w;
    std::memcpy(&w, p, 8);
    const uint64_t q = w ^ (ones * '"'), b = w ^ (ones * '\\');
    const uint64_t hit = (((q - ones) & ~q) | ((b - ones) & ~b)) & highs;
    if (hit == 0) {
      p += 8;
      continue;
    }
    p += __builtin_ctzll(hit) / 8;  // little-endian: the lowest flagged byte is the first
    if (*p == '"') return p + 1;
    p += 2;
  }
#endif
  while (p < e) {
    if (*p == '"') return p + 1;
    p += *p == '\\' ? 2 : 1;
  }
  return e;
}

// The first byte of [p, e) that ends a number, true, false or null (a blank, `,`, `]` or `}`), or e. Sixteen bytes
// at a time where SIMD is built in: a scalar is most often shorter.
inline const uint8_t* skip_scalar(const uint8_t* p, const uint8_t* e) {
#if defined(__wasm_simd128__) || defined(__SSE2__)
  while (e - p >= 16) {
#if defined(__wasm_simd128__)
    const v128_t v = wasm_v128_load(p);
    const uint32_t hit = wasm_i8x16_bitmask(
        wasm_v128_or(wasm_v128_or(wasm_i8x16_eq(v, wasm_i8x16_splat(',')), wasm_i8x16_eq(v, wasm_i8x16_splat('}'))),
                     wasm_v128_or(wasm_i8x16_eq(v, wasm_i8x16_splat(']')), wasm_u8x16_le(v, wasm_i8x16_splat(' ')))));
#else
    const __m128i v = _mm_loadu_si128(reinterpret_cast<const __m128i*>(p));
    const __m128i space = _mm_set1_epi8(' ');
    const uint32_t hit = uint32_t(_mm_movemask_epi8(_mm_or_si128(
        _mm_or_si128(_mm_cmpeq_epi8(v, _mm_set1_epi8(',')), _mm_cmpeq_epi8(v, _mm_set1_epi8('}'))),
        _mm_or_si128(_mm_cmpeq_epi8(v, _mm_set1_epi8(']')), _mm_cmpeq_epi8(_mm_max_epu8(v, space), space)))));
#endif
    if (hit != 0) return p + __builtin_ctz(hit);
    p += 16;
  }
#endif
  while (p < e && !blank(*p) && *p != ',' && *p != ']' && *p != '}') ++p;
  return p;
}

// Past the (valid) array or object whose first byte is at p.
__attribute__((noinline)) const uint8_t* skip_container(const uint8_t* p, const uint8_t* e) {
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

// Past the (valid) JSON value starting at p: true, false and null by their length.
inline const uint8_t* skip_value(const uint8_t* p, const uint8_t* e) {
  if (p >= e) return e;
  switch (*p) {
    case '"':
      return skip_string(p, e);
    case '{':
    case '[':
      return skip_container(p, e);
    case 't':
    case 'n':
      return e - p > 4 ? p + 4 : e;
    case 'f':
      return e - p > 5 ? p + 5 : e;
    default:
      return skip_scalar(p, e);
  }
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
  SLUICE_SMALL int32_t next() {
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

}  // namespace

}  // namespace internal
}  // namespace sluice

#endif  // SLUICE_SELECT_FILTER_SCAN_H
