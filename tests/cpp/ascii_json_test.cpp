// write_ascii_json (stream/ascii_json.h) against a byte-at-a-time model: non-ASCII characters of every length at
// every offset of its 16-byte steps, ASCII runs of every length, and that it writes nothing past its output (it
// copies 16 bytes ahead of what it knows to be ASCII).
// This is the portable path (native builds and the wasm scalar build); the wasm SIMD build's path is checked
// through value mode by tests/node/value_batches.test.ts.
#include <gtest/gtest.h>

#include <cstdint>
#include <cstdio>
#include <string>
#include <vector>

#include "stream/ascii_json.h"
#include "support/rng.h"

namespace sluice::test {
namespace {

using internal::ascii_json_max_growth;
using internal::write_ascii_json;

// One code point at a time: what the fast path must reproduce.
std::string model(const std::string& utf8) {
  std::string out;
  char escape[8];
  const auto unit = [&](uint32_t u) {
    std::snprintf(escape, sizeof escape, "\\u%04x", unsigned(u));
    out += escape;
  };
  for (size_t i = 0; i < utf8.size();) {
    const uint8_t c = uint8_t(utf8[i]);
    const size_t n = c < 0x80 ? 1 : c < 0xE0 ? 2 : c < 0xF0 ? 3 : 4;
    uint32_t cp = n == 1 ? c : n == 2 ? c & 0x1F : n == 3 ? c & 0x0F : c & 0x07;
    for (size_t k = 1; k < n; ++k) cp = (cp << 6) | (uint8_t(utf8[i + k]) & 0x3F);
    i += n;
    if (cp < 0x80) {
      out += char(cp);
    } else if (cp < 0x10000) {
      unit(cp);
    } else {
      unit(0xD800 | ((cp - 0x10000) >> 10));
      unit(0xDC00 | ((cp - 0x10000) & 0x3FF));
    }
  }
  return out;
}

constexpr uint8_t canary = 0xA5;

// Runs write_ascii_json into a buffer followed by canaries just past the expected output.
std::string run(const std::string& utf8) {
  const size_t expected = model(utf8).size();
  EXPECT_LE(expected, utf8.size() * ascii_json_max_growth);
  std::vector<uint8_t> buffer(expected + 64, canary);
  const uint8_t* end = write_ascii_json(buffer.data(), reinterpret_cast<const uint8_t*>(utf8.data()), utf8.size());
  for (size_t i = expected; i < buffer.size(); ++i) {
    EXPECT_EQ(buffer[i], canary) << "wrote past its output at +" << (i - expected);
  }
  return std::string(reinterpret_cast<const char*>(buffer.data()), size_t(end - buffer.data()));
}

const char* const non_ascii[] = {"\xC3\xA9", "\xE4\xB8\xAD", "\xF0\x9F\x98\x80",
                                 "\xC2\x80", "\xEF\xBF\xBF", "\xF4\x8F\xBF\xBF"};

TEST(AsciiJson, AsciiRunsOfEveryLength) {
  for (size_t n = 0; n <= 80; ++n) {
    std::string text;
    for (size_t i = 0; i < n; ++i) text += char('a' + i % 26);
    EXPECT_EQ(run(text), text) << n;
  }
}

TEST(AsciiJson, OneCharacterAtEveryOffset) {
  for (const char* ch : non_ascii) {
    for (size_t before = 0; before <= 40; ++before) {
      for (size_t after : {0, 1, 7, 15, 16, 17, 33}) {
        const std::string text = std::string(before, 'x') + ch + std::string(after, 'y');
        EXPECT_EQ(run(text), model(text)) << "before " << before << ", after " << after;
      }
    }
  }
}

TEST(AsciiJson, DenseAndMixedText) {
  std::string dense;
  for (int i = 0; i < 20; ++i) dense += non_ascii[i % 6];
  EXPECT_EQ(run(dense), model(dense));
  rng r(17);
  for (int doc = 0; doc < 2000; ++doc) {
    std::string text;
    const size_t pieces = r.below(40);
    for (size_t p = 0; p < pieces; ++p) {
      if (r.chance(1, 3)) {
        text += non_ascii[r.below(6)];
      } else {
        text += std::string(r.below(24), char(0x20 + r.below(0x5F)));
      }
    }
    ASSERT_EQ(run(text), model(text)) << "doc " << doc;
  }
}

}  // namespace
}  // namespace sluice::test
