// Rewrites validated UTF-8 JSON text as pure ASCII: every non-ASCII character (they only occur inside strings)
// becomes a \uXXXX escape, astral ones a surrogate pair. JSON.parse gives exactly the same values, but the text is
// one byte per character: TextDecoder takes its ASCII fast path and yields a one-byte string, which V8 parses
// faster than the two-byte string any non-ASCII character forces. On text with some non-ASCII (the articles
// dataset) decoding becomes almost free and decode + JSON.parse about a third faster. SpiderMonkey materialises
// both forms alike, JavaScriptCore the ASCII one as fast or faster: one form serves every engine. (Re-measured in
// Firefox 153 for issue 17, 10 MB of articles: the ceiling's batches took the same CPU time in either form, and value
// mode with unescaped UTF-8 batches was no faster, in interleaved fresh pages; Chromium lost a third with them.)
//
// Cost: a copy, sixteen ASCII bytes per step (one vector in the SIMD build, two 64-bit words elsewhere); 6 output
// bytes per 2- or 3-byte character, 12 per 4-byte one (at most three times the input).
#ifndef SLUICE_STREAM_ASCII_JSON_H
#define SLUICE_STREAM_ASCII_JSON_H

#include <cstddef>
#include <cstdint>
#include <cstring>

#include "scan/bits.h"
#if defined(__wasm_simd128__)
#include <wasm_simd128.h>
#endif

namespace sluice {
namespace internal {

constexpr size_t ascii_json_max_growth = 3;

static_assert(__BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__, "the ASCII run search reads byte i as bits 8i..8i+7");

inline uint8_t* write_u_escape(uint8_t* out, uint32_t unit) noexcept {
  static const char hex[] = "0123456789abcdef";
  out[0] = '\\';
  out[1] = 'u';
  out[2] = uint8_t(hex[(unit >> 12) & 15]);
  out[3] = uint8_t(hex[(unit >> 8) & 15]);
  out[4] = uint8_t(hex[(unit >> 4) & 15]);
  out[5] = uint8_t(hex[unit & 15]);
  return out + 6;
}

// Writes p[0..n) (valid UTF-8) to out as ASCII; returns the end of the output (at most n * ascii_json_max_growth
// bytes on). Nothing is written past that end: 16 bytes are copied ahead only while 16 input bytes remain, and
// every input byte yields at least one output byte.
inline uint8_t* write_ascii_json(uint8_t* out, const uint8_t* p, size_t n) noexcept {
  size_t i = 0;
  while (i < n) {
    // 16 bytes copied as they are, then out and p advance over their ASCII prefix only: one step per ASCII run and
    // one per non-ASCII character, however the two interleave. (Eight bytes per step, then one at a time up to each
    // non-ASCII byte, took 1.4 to 1.8 times as long on the articles dataset in Chromium, Firefox and WebKit.)
    if (i + 16 <= n) {
#if defined(__wasm_simd128__)
      const v128_t v = wasm_v128_load(p + i);
      wasm_v128_store(out, v);
      const uint32_t high = wasm_i8x16_bitmask(v);  // bit k: byte k is not ASCII
      if (high == 0) {
        out += 16;
        i += 16;
        continue;
      }
      const size_t ascii = size_t(__builtin_ctz(high));
#else
      constexpr uint64_t high_bits = 0x8080808080808080ULL;
      uint64_t a, b;
      std::memcpy(&a, p + i, 8);
      std::memcpy(&b, p + i + 8, 8);
      std::memcpy(out, &a, 8);
      std::memcpy(out + 8, &b, 8);
      a &= high_bits;
      b &= high_bits;
      if ((a | b) == 0) {
        out += 16;
        i += 16;
        continue;
      }
      // Little-endian: byte k of a word is its bits 8k..8k+7.
      const size_t ascii = a != 0 ? size_t(trailing_zeroes(a) >> 3) : 8 + size_t(trailing_zeroes(b) >> 3);
#endif
      out += ascii;
      i += ascii;
    }
    const uint8_t c = p[i];
    if (c < 0x80) {  // the last 15 bytes, one at a time
      *out++ = c;
      ++i;
      continue;
    }
    uint32_t cp;
    if (c < 0xE0) {
      cp = (uint32_t(c & 0x1F) << 6) | (p[i + 1] & 0x3F);
      i += 2;
    } else if (c < 0xF0) {
      cp = (uint32_t(c & 0x0F) << 12) | (uint32_t(p[i + 1] & 0x3F) << 6) | (p[i + 2] & 0x3F);
      i += 3;
    } else {
      cp = (uint32_t(c & 0x07) << 18) | (uint32_t(p[i + 1] & 0x3F) << 12) | (uint32_t(p[i + 2] & 0x3F) << 6) |
           (p[i + 3] & 0x3F);
      i += 4;
    }
    if (cp < 0x10000) {
      out = write_u_escape(out, cp);
    } else {
      cp -= 0x10000;
      out = write_u_escape(out, 0xD800 | (cp >> 10));
      out = write_u_escape(out, 0xDC00 | (cp & 0x3FF));
    }
  }
  return out;
}

}  // namespace internal
}  // namespace sluice

#endif  // SLUICE_STREAM_ASCII_JSON_H
