// Stage 1 against its byte-at-a-time model (support/stage1_reference.h), per kernel: the kernel's class masks
// against a per-byte definition, then scan_block_full's outputs against the model on random streams fed as whole
// blocks, as random partial blocks (the carries: an escape at the last byte, \u digits, UTF-8 sequences and
// strings spanning pieces) and one byte at a time. The SSE2 and scalar kernels must also agree with each other bit
// for bit. Soak: SLUICE_STAGE1_STREAMS=...
#include <gtest/gtest.h>

#include <algorithm>
#include <cstring>
#include <string>
#include <vector>

#include "kernels/best_kernel.h"
#include "kernels/scalar/simd.h"
#include "scan/full_scan.h"
#include "support/collect.h"
#include "support/random_json.h"
#include "support/rng.h"
#include "support/stage1_debug.h"
#include "support/stage1_reference.h"
#if defined(__SSE2__)
#include "kernels/sse2/simd.h"
#endif

namespace sluice::test {
namespace {

using internal::block_classes;
using internal::scan_full_events;
using internal::scan_full_state;

// MARK: random input

// One token of a stream that stresses the scanner: every byte class, backslash runs of every length (some longer
// than a block), \u escapes cut short, and UTF-8 of every lead class, valid or not.
void append_wild_token(rng& random, std::string& s) {
  static const char* const kStructural[] = {"{", "}", "[", "]", ":", ","};
  static const char* const kSpace[] = {" ", "\t", "\n", "\r", "\r\n", "  "};
  static const char* const kScalar[] = {"0", "-1.5e+3", "12", "true", "fals", "null", "x", "u",
                                        "b", "nul",     "E",  "aF",   "0x1F", "+",    ".", "Q"};
  static const char* const kValidUtf8[] = {
      "\xC2\x80",     "\xDF\xBF",     "\xC3\xA9",         "\xE0\xA0\x80",     "\xE2\x82\xAC",     "\xED\x9F\xBF",
      "\xEE\x80\x80", "\xEF\xBF\xBF", "\xF0\x90\x80\x80", "\xF0\x9F\x98\x80", "\xF3\xBF\xBF\xBF", "\xF4\x8F\xBF\xBF",
  };
  static const char* const kBadUtf8[] = {
      "\x80",
      "\xBF",
      "\xC0\xAF",
      "\xC1\xBF",
      "\xC2",
      "\xC3\x41",
      "\xE0\x80\x80",
      "\xE0\x9F\xBF",
      "\xED\xA0\x80",
      "\xED\xBF\xBF",
      "\xE2\x82",
      "\xF0\x80\x80\x80",
      "\xF0\x8F\xBF\xBF",
      "\xF4\x90\x80\x80",
      "\xF5\x80\x80\x80",
      "\xF8",
      "\xFE",
      "\xFF",
      "\xF0\x9F\x98",
  };
  switch (random.below(16)) {
    case 0:
    case 1:
    case 2:
      s += '"';
      break;
    case 3: {  // a backslash run: mostly short, sometimes longer than a block
      const size_t n = random.chance(1, 10) ? random.between(60, 140) : random.between(1, 9);
      s.append(n, '\\');
      break;
    }
    case 4:
      s += random.pick(kStructural);
      break;
    case 5:
      s += random.pick(kSpace);
      break;
    case 6:
      s += random.pick(kScalar);
      break;
    case 7: {  // \u with 0..4 hex digits, then maybe a non-hex byte
      s += "\\u";
      static const char kHex[] = "0123456789abcdefABCDEF";
      const size_t digits = random.chance(3, 4) ? 4 : random.below(4);
      for (size_t i = 0; i < digits; ++i) s += kHex[random.below(sizeof kHex - 1)];
      if (random.chance(1, 4)) s += random.pick(kScalar)[0];
      break;
    }
    case 8: {  // a valid escape
      static const char kEscapes[] = "\"\\/bfnrtu";
      s += '\\';
      s += kEscapes[random.below(sizeof kEscapes - 1)];
      break;
    }
    case 9:  // control bytes, among them 0x0C and 0x1A, which the SIMD128 op table must tell apart from ops
      s += static_cast<char>(random.chance(1, 3) ? (random.chance(1, 2) ? 0x0C : 0x1A) : random.below(0x20));
      break;
    case 10:
      s += random.pick(kValidUtf8);
      break;
    case 11: {  // dense non-ASCII text (CJK-like, 16 to 120 characters): the block-level UTF-8 check's ground
      const size_t n = random.between(16, 120);
      for (size_t i = 0; i < n; ++i) s += random.chance(1, 40) ? random.pick(kBadUtf8) : random.pick(kValidUtf8);
      break;
    }
    case 12:
      s += random.pick(kBadUtf8);
      break;
    case 13:
      s += static_cast<char>(random.below(256));
      break;
    case 14:
      s += static_cast<char>(0x7F);
      break;
    default: {  // plain string text, so that strings are long enough to span blocks
      const size_t n = random.between(1, 40);
      for (size_t i = 0; i < n; ++i) s += static_cast<char>(random.between('a', 'z'));
      break;
    }
  }
}

std::string wild_stream(rng& random, size_t max_bytes) {
  std::string s;
  const size_t target = random.skewed(max_bytes);
  while (s.size() < target) append_wild_token(random, s);
  return s;
}

// A valid document, a broken one, or a valid one with a stress token dropped in: the first string-content error
// then lies anywhere, often far into the stream.
std::string document_stream(rng& random) {
  json_shape shape;
  shape.max_bytes = 600;
  std::string doc = random_json(random, shape);
  switch (random.below(3)) {
    case 0:
      return doc;
    case 1:
      return mutate_json(random, doc);
    default: {
      std::string token;
      append_wild_token(random, token);
      doc.insert(random.below(doc.size() + 1), token);
      return doc;
    }
  }
}

std::string random_stream(rng& random) {
  return random.chance(1, 2) ? wild_stream(random, 700) : document_stream(random);
}

// Piece lengths (1..64) that add up to `size`.
enum class cut { blocks, random, bytewise };

std::vector<unsigned> pieces_of(size_t size, cut how, rng& random) {
  std::vector<unsigned> pieces;
  size_t left = size;
  while (left > 0) {
    unsigned n = 64;
    if (how == cut::bytewise) {
      n = 1;
    } else if (how == cut::random) {
      // Near-whole blocks often (the carries out of bit 63 and out of bit len-1), tiny pieces often.
      switch (random.below(4)) {
        case 0:
          n = unsigned(random.between(60, 64));
          break;
        case 1:
          n = unsigned(random.between(1, 4));
          break;
        default:
          n = unsigned(random.between(1, 64));
          break;
      }
    }
    if (n > left) n = unsigned(left);
    pieces.push_back(n);
    left -= n;
  }
  return pieces;
}

// MARK: comparison

std::string bits(uint64_t x, unsigned len) {
  std::string s;
  for (unsigned i = 0; i < len; ++i) s += ((x >> i) & 1) ? '1' : '.';
  return s;
}

std::string error_text(int at, error_code code) {
  return at < 0 ? std::string("none") : std::string(error_name(code)) + " at " + std::to_string(at);
}

// Compares one piece's masks; "" if equal.
std::string compare_masks(const scan_full_events& got, const stage1_reference_piece& want, unsigned len) {
  const struct {
    const char* name;
    uint64_t got, want;
  } masks[] = {{"events", got.events, want.events},
               {"quote", got.quote, want.quote},
               {"scalar", got.scalar, want.scalar},
               {"newline", got.newline, want.newline},
               {"in_string", got.in_string, want.in_string}};
  for (const auto& m : masks) {
    if (m.got != m.want) {
      // Bits at and above len must be clear too: show all 64 if any is set.
      const unsigned shown = ((m.got | m.want) >> len) != 0 ? 64 : len;
      return std::string(m.name) + " differs:\n  got  " + bits(m.got, shown) + "\n  want " + bits(m.want, shown);
    }
  }
  return "";
}

// Tracks, along one stream, whether the pieces' errors are still comparable with the model: up to and including
// the piece of the stream's first error (string-content, or UTF-8 outside strings, after which the scanner's
// reports are left free).
class error_checker {
 public:
  std::string check(const scan_full_events& got, const stage1_reference_piece& want) {
    if (!live_) return "";
    const int outside = want.utf8_outside_at;
    std::string problem;
    if (outside < 0 || (want.error_at >= 0 && want.error_at < outside)) {
      if (got.error_at != want.error_at || (want.error_at >= 0 && got.error != want.error)) {
        problem =
            "error: got " + error_text(got.error_at, got.error) + ", want " + error_text(want.error_at, want.error);
      }
    } else if (got.error_at >= 0 && got.error_at < outside) {
      // Nothing before the first UTF-8 error outside strings is an error per the model.
      problem = "error: got " + error_text(got.error_at, got.error) + " before the UTF-8 error outside strings at " +
                std::to_string(outside);
    }
    if (want.error_at >= 0 || outside >= 0) live_ = false;
    return problem;
  }

 private:
  bool live_ = true;
};

std::string describe_piece(const std::string& stream, size_t offset, unsigned len) {
  return "piece at " + std::to_string(offset) + " (" + std::to_string(len) + " bytes): \"" +
         printable(std::string_view(stream).substr(offset, len), 64) + "\"";
}

// Copies a piece into a block whose bytes past the piece are junk (quotes, backslashes, controls...): the
// scanner must ignore them.
void load_piece(uint8_t (&block)[64], const std::string& stream, size_t offset, unsigned len, rng& junk) {
  std::memcpy(block, stream.data() + offset, len);
  static const uint8_t kJunk[] = {'"', '\\', '\n', 0x01, 0xFF, 0xC3, '{', ',', '1', 't', ' '};
  for (unsigned i = len; i < 64; ++i) block[i] = junk.pick(kJunk);
}

// What scan_window runs: the Full instantiation (with its string-interior shortcut) for whole blocks.
template <class K>
scan_full_events scan_piece(scan_full_state& state, const uint8_t* block, unsigned len) {
  return len == 64 ? internal::scan_block_full<K, true>(state, block, 64)
                   : internal::scan_block_full<K>(state, block, len);
}

// Runs kernel K over `stream` cut into `pieces` and compares every piece with the model. "" if all agree.
template <class K>
std::string run_against_reference(const std::string& stream, const std::vector<unsigned>& pieces, rng& junk) {
  stage1_reference ref;
  scan_full_state state;
  error_checker errors;
  size_t offset = 0;
  uint8_t block[64];
  for (unsigned len : pieces) {
    load_piece(block, stream, offset, len, junk);
    const stage1_reference_piece want = ref.scan(block, len);
    const scan_full_events got = scan_piece<K>(state, block, len);
    std::string problem = compare_masks(got, want, len);
    if (problem.empty()) problem = errors.check(got, want);
    if (problem.empty() && (state.prev_in_string != 0) != ref.in_string()) problem = "in-string carry differs";
    if (!problem.empty()) return describe_piece(stream, offset, len) + ": " + problem;
    offset += len;
  }
  return "";
}

bool same_state(const scan_full_state& a, const scan_full_state& b) {
  return a.prev_in_string == b.prev_in_string && a.prev_escaped == b.prev_escaped && a.prev_scalar == b.prev_scalar &&
         a.hex_pending == b.hex_pending && a.utf8.need == b.utf8.need && a.utf8.lo == b.utf8.lo &&
         a.utf8.hi == b.utf8.hi;
}

// Two kernels in lockstep: everything bit for bit, errors included (the same scan_block_full over equal class masks).
template <class A, class B>
std::string run_kernels_lockstep(const std::string& stream, const std::vector<unsigned>& pieces, rng& junk) {
  scan_full_state sa, sb;
  size_t offset = 0;
  uint8_t block[64];
  for (unsigned len : pieces) {
    load_piece(block, stream, offset, len, junk);
    const scan_full_events a = scan_piece<A>(sa, block, len);
    const scan_full_events b = scan_piece<B>(sb, block, len);
    stage1_reference_piece as_ref;  // reuse the mask comparison: B plays the model
    as_ref.events = b.events;
    as_ref.quote = b.quote;
    as_ref.scalar = b.scalar;
    as_ref.newline = b.newline;
    as_ref.in_string = b.in_string;
    std::string problem = compare_masks(a, as_ref, len);
    if (problem.empty() && (a.error_at != b.error_at || a.error != b.error)) {
      problem = std::string("error: ") + A::name + " " + error_text(a.error_at, a.error) + ", " + B::name + " " +
                error_text(b.error_at, b.error);
    }
    if (problem.empty() && !same_state(sa, sb)) problem = "carried state differs";
    if (!problem.empty()) return describe_piece(stream, offset, len) + ": " + problem;
    offset += len;
  }
  return "";
}

size_t stream_count() { return env_count("SLUICE_STAGE1_STREAMS", 10000); }

// MARK: per-byte class definitions

block_classes classes_by_definition(const uint8_t* p) {
  block_classes r{};
  for (unsigned i = 0; i < 64; ++i) {
    const uint8_t b = p[i];
    const uint64_t bit = uint64_t{1} << i;
    const bool op = b == '{' || b == '}' || b == '[' || b == ']' || b == ':' || b == ',';
    const bool ws = b == ' ' || b == '\t' || b == '\n' || b == '\r';
    if (b == '"') r.quote |= bit;
    if (op) r.op |= bit;
    if (op || ws || b == '"') r.nonscalar |= bit;
    if (b == '\\') r.backslash |= bit;
    if (b < 0x20) r.control |= bit;
    if (b == '\n') r.newline |= bit;
    if (b >= 0x80) r.high |= bit;
  }
  return r;
}

uint64_t digits_by_definition(const uint8_t* p) {
  uint64_t r = 0;
  for (unsigned i = 0; i < 64; ++i) r |= uint64_t(p[i] >= '0' && p[i] <= '9') << i;
  return r;
}

std::string compare_classes(const block_classes& got, const block_classes& want) {
  const struct {
    const char* name;
    uint64_t got, want;
  } masks[] = {{"quote", got.quote, want.quote},
               {"op", got.op, want.op},
               {"nonscalar", got.nonscalar, want.nonscalar},
               {"backslash", got.backslash, want.backslash},
               {"control", got.control, want.control},
               {"newline", got.newline, want.newline},
               {"high", got.high, want.high}};
  for (const auto& m : masks) {
    if (m.got != m.want) return std::string(m.name) + ":\n  got  " + bits(m.got, 64) + "\n  want " + bits(m.want, 64);
  }
  return "";
}

// Blocks that put every byte value at every position, then random ones (uniform bytes, and JSON-ish streams).
std::vector<std::string> class_test_blocks() {
  std::vector<std::string> blocks;
  for (unsigned shift = 0; shift < 64; ++shift) {
    for (unsigned k = 0; k < 4; ++k) {
      std::string b(64, '\0');
      for (unsigned i = 0; i < 64; ++i) b[i] = static_cast<char>(k * 64 + (i + shift) % 64);
      blocks.push_back(b);
    }
  }
  rng random(base_seed() ^ 0xC1A55);
  for (unsigned n = 0; n < 2000; ++n) {
    std::string b;
    if (n % 2 == 0) {
      for (unsigned i = 0; i < 64; ++i) b += static_cast<char>(random.below(256));
    } else {
      while (b.size() < 64) append_wild_token(random, b);
      b.resize(64);
    }
    blocks.push_back(b);
  }
  // Blocks where a rare class is absent, so a kernel's "skip when empty" shortcut is taken.
  blocks.emplace_back(64, ' ');
  blocks.emplace_back("{\"abc\":[1,2,3],\"d\":true,\"e\":null,\"f\":\"ghijklmnopqrstuvwxyz0123456789\"}   ");
  blocks.back().resize(64, ' ');
  return blocks;
}

// MARK: per-kernel suites

template <class K>
class Stage1Kernel : public ::testing::Test {};

#if defined(__SSE2__)
using kernels = ::testing::Types<scalar::kernel, sse2::kernel>;
#else
using kernels = ::testing::Types<scalar::kernel>;
#endif

struct kernel_names {
  template <class K>
  static std::string GetName(int) {
    return K::name;
  }
};

TYPED_TEST_SUITE(Stage1Kernel, kernels, kernel_names);

TYPED_TEST(Stage1Kernel, ClassifyMatchesPerByteDefinition) {
  for (const std::string& b : class_test_blocks()) {
    const auto* p = reinterpret_cast<const uint8_t*>(b.data());
    const std::string problem = compare_classes(TypeParam::classify(p), classes_by_definition(p));
    ASSERT_EQ(problem, "") << "block \"" << printable(b, 64) << "\"";
  }
}

TYPED_TEST(Stage1Kernel, DigitsMatchPerByteDefinition) {
  for (const std::string& b : class_test_blocks()) {
    const auto* p = reinterpret_cast<const uint8_t*>(b.data());
    ASSERT_EQ(TypeParam::digits(p), digits_by_definition(p)) << "block \"" << printable(b, 64) << "\"";
  }
}

// Hand-checked cases: the model itself is under test here as much as the kernel.
struct directed_case {
  const char* name;
  std::string input;
  // One char per input byte, '1' where the bit is set; "" = not checked.
  const char* events;
  const char* quote;
  const char* in_string;
  const char* scalar;
  int error_at;
  error_code error;
};

const directed_case kDirected[] = {
    {"Grammar", R"({"a":[1,true,"x\"y"]})", "11..11111...11.....11", ".1.1.........1....1..", ".11..........11111...",
     "......1.1111.........", -1, error_code::ok},
    {"BackslashRuns", R"("a\\\"b" \\ "\\")", "1........1..1...", "1......1....1..1", "1111111.....111.",
     ".........11.....", -1, error_code::ok},
    {"EscapedQuoteOutsideString", R"(1\"x")", "1..11", "....1", "....1", "11.1.", -1, error_code::ok},
    {"ControlInString", "\"a\tb\"\t", "1.....", "1...1.", "1111..", "......", 2, error_code::control_character},
    {"ControlOutsideStringIsScalar", "\x01\x02 ", "1..", "...", "...", "11.", -1, error_code::ok},
    {"InvalidEscape", R"(["\x"])", "11...1", ".1..1.", ".111..", "......", 3, error_code::invalid_escape},
    {"EscapeBeatsControl", "\"\\\t\"", "1...", "1..1", "111.", "....", 2, error_code::invalid_escape},
    {"InvalidUnicodeEscape", R"("\u12G4")", "1.......", "1......1", "1111111.", "........", 5,
     error_code::invalid_unicode_escape},
    {"ShortUnicodeEscapeQuote", R"("\u12" )", "1......", "1....1.", "11111..", "", 5,
     error_code::invalid_unicode_escape},
    {"HexBeatsControl", "\"\\u1\t\"", "", "", "", "", 4, error_code::invalid_unicode_escape},
    {"BackslashAtHexPosition", R"("\u1\"x")", "", "1......1", "1111111.", "", 4, error_code::invalid_unicode_escape},
    {"Utf8Valid", "\"\xC3\xA9\xE2\x82\xAC\xF0\x9F\x98\x80\"", "", "1.........1", "1111111111.", "", -1, error_code::ok},
    {"Utf8CutByClosingQuote", "\"\xC3\"", "", "1.1", "11.", "", 2, error_code::invalid_utf8},
    {"Utf8Surrogate", "\"\xED\xA0\x80\"", "", "", "", "", 2, error_code::invalid_utf8},
    {"Utf8Overlong", "\"\xC0\xAF\"", "", "", "", "", 1, error_code::invalid_utf8},
    {"Utf8AboveMax", "\"\xF4\x90\x80\x80\"", "", "", "", "", 2, error_code::invalid_utf8},
    {"Utf8BeatsEscape", "\"\\\xFF\"", "", "", "", "", 2, error_code::invalid_utf8},
    {"NewlineInString", "\"a\nb\"", "", "", "", "", 2, error_code::control_character},
};

std::string marks(uint64_t x, size_t n) { return bits(x, unsigned(n)); }

TYPED_TEST(Stage1Kernel, DirectedCases) {
  for (const directed_case& c : kDirected) {
    SCOPED_TRACE(c.name);
    ASSERT_LE(c.input.size(), 64u);
    uint8_t block[64];
    std::memset(block, '"', sizeof block);  // junk past the input
    std::memcpy(block, c.input.data(), c.input.size());
    const unsigned len = unsigned(c.input.size());
    stage1_reference ref;
    const stage1_reference_piece want = ref.scan(block, len);
    scan_full_state state;
    const scan_full_events got = internal::scan_block_full<TypeParam>(state, block, len);
    const struct {
      const char* name;
      const char* expected;
      uint64_t model, kernel;
    } masks[] = {{"events", c.events, want.events, got.events},
                 {"quote", c.quote, want.quote, got.quote},
                 {"in_string", c.in_string, want.in_string, got.in_string},
                 {"scalar", c.scalar, want.scalar, got.scalar}};
    for (const auto& m : masks) {
      if (*m.expected == '\0') continue;
      ASSERT_EQ(std::string(m.expected).size(), c.input.size()) << m.name << ": the case itself is malformed";
      EXPECT_EQ(marks(m.model, len), m.expected) << m.name << " (model)";
      EXPECT_EQ(marks(m.kernel, len), m.expected) << m.name << " (kernel)";
    }
    EXPECT_EQ(want.error_at, c.error_at) << "model";
    EXPECT_EQ(got.error_at, c.error_at) << "kernel";
    if (c.error_at >= 0) {
      EXPECT_STREQ(error_name(want.error), error_name(c.error)) << "model";
      EXPECT_STREQ(error_name(got.error), error_name(c.error)) << "kernel";
    }
  }
}

// The model's one reported-separately case: a UTF-8 error outside strings.
TEST(Stage1Reference, Utf8ErrorOutsideStringsIsNotAStringError) {
  stage1_reference ref;
  const uint8_t input[] = {'[', 0xFF, ']'};
  const stage1_reference_piece r = ref.scan(input, 3);
  EXPECT_EQ(r.error_at, -1);
  EXPECT_EQ(r.utf8_outside_at, 1);
}

// Carries across pieces, spelled out: each case is cut at every position and fed as two pieces.
TYPED_TEST(Stage1Kernel, DirectedCarriesAtEverySplit) {
  const std::string cases[] = {
      "\"ab\\\\\\\"cd\" 12 \"x\"",              // an odd backslash run, a number, strings
      "\"\\u00e9\\uD83D\\uDE00\" [1]",          // \u escapes
      "\"\xF0\x9F\x98\x80\xE2\x82\xAC\" true",  // UTF-8 sequences
      "\"\\u12\" \"\\uZZZZ\"",                  // broken \u escapes
      "\"\xE2\x82\" \"\xC3\"",                  // truncated UTF-8
      "tru\\\\e \"\\\\\\\\\"",                  // backslashes outside and inside strings
  };
  rng junk(base_seed());
  for (const std::string& s : cases) {
    for (unsigned at = 1; at < s.size(); ++at) {
      const std::vector<unsigned> pieces = {at, unsigned(s.size() - at)};
      ASSERT_EQ(run_against_reference<TypeParam>(s, pieces, junk), "") << "split at " << at;
    }
    ASSERT_EQ(run_against_reference<TypeParam>(s, pieces_of(s.size(), cut::bytewise, junk), junk), "");
  }
}

// A carry out of bit 63 of a full block: a backslash run, a \u escape, a UTF-8 sequence or a string that straddles
// the block boundary at several offsets, inside and outside a string, completed or broken by what follows.
TYPED_TEST(Stage1Kernel, DirectedCarriesAcrossFullBlocks) {
  const std::string tails[] = {"\\",     "\\\\", "\\\\\\",   "\\u",          "\\u0", "\\u00",
                               "\\u004", "\xC3", "\xE2\x82", "\xF0\x9F\x98", "\"",   "a"};
  const std::string heads[] = {"\"", "n\"", "u0041\"", "041\"", "A9\"", "\x82\xAC\"", "\x80\"", "\x98\x80\"", "\\\""};
  rng junk(base_seed());
  for (const char* prefix : {"\"", " "}) {
    for (const std::string& tail : tails) {
      for (const std::string& head : heads) {
        for (unsigned pad = 0; pad <= 8; ++pad) {
          // The tail's last byte lands at index 59 + pad: bytes 59..67 around the boundary at 64.
          std::string s = prefix + std::string(64 + pad - 4 - 1 - tail.size(), 'a') + tail + head + " 1 \"z\"";
          ASSERT_EQ(run_against_reference<TypeParam>(s, pieces_of(s.size(), cut::blocks, junk), junk), "")
              << "stream \"" << printable(s) << "\"";
        }
      }
    }
  }
}

// Whole blocks inside long strings take scan_block_full's string-interior shortcut: the same masks, errors and carries
// as the full classification, whatever the block holds (plain text, multi-byte characters, sequences cut by the
// block edge, a control byte, a bad byte) and wherever the string starts and ends.
TYPED_TEST(Stage1Kernel, StringInteriorBlocks) {
  const std::string specials[] = {
      "",     "\x01",         "\t",       "\n",  "\xC3\xA9", "\xE4\xB8\xAD", "\xF0\x9F\x98\x80",
      "\xC0", "\xED\xA0\x80", "\xE2\x82", "\\n", "\\u00e9",  "\x7F"};
  rng random(base_seed() ^ 0x5717);
  for (unsigned lead = 0; lead < 64; lead += 7) {
    for (const std::string& special : specials) {
      for (unsigned at : {0u, 1u, 62u, 63u, 64u, 100u, 190u}) {
        std::string body(200, 'a');
        for (size_t i = 0; i < body.size(); i += 9) body[i] = ' ';
        body.insert(at, special);
        const std::string s = std::string(lead, ' ') + "[1,\"" + body + "\", 2]";
        for (const cut how : {cut::blocks, cut::random}) {
          ASSERT_EQ(run_against_reference<TypeParam>(s, pieces_of(s.size(), how, random), random), "")
              << "stream \"" << printable(s) << "\"";
        }
      }
    }
  }
}

void run_random(const char* what, std::string (*scan)(const std::string&, const std::vector<unsigned>&, rng&)) {
  const uint64_t seed0 = base_seed() ^ 0x57A6E1;
  const size_t n = stream_count();
  int failures = 0;
  for (size_t k = 0; k < n && failures < 3; ++k) {
    rng random(seed0 + k);
    const std::string stream = random_stream(random);
    if (stream.empty()) continue;
    for (cut how : {cut::blocks, cut::random, cut::bytewise}) {
      if (how == cut::bytewise && k % 8 != 0) continue;  // byte pieces are slow under ASan; a sample suffices
      const std::string problem = scan(stream, pieces_of(stream.size(), how, random), random);
      if (!problem.empty()) {
        ADD_FAILURE() << what << ", stream seed " << seed0 + k << ", cut " << int(how) << ", stream \""
                      << printable(stream, 400) << "\"\n"
                      << problem;
        ++failures;
        break;
      }
    }
  }
}

TYPED_TEST(Stage1Kernel, MatchesReferenceOnRandomStreams) {
  run_random(TypeParam::name, &run_against_reference<TypeParam>);
}

#if defined(__SSE2__)
TEST(Stage1Kernels, Sse2AgreesWithScalarBitForBit) {
  run_random("sse2 vs scalar", &run_kernels_lockstep<sse2::kernel, scalar::kernel>);
}
#endif

// The test hook behind the wasm kernel test's stage1_debug (4 x u64 per block) reports what scan_block_full
// reports, with the build's best kernel and the scalar one.
TEST(Stage1Debug, BothKernelsMatchReference) {
  const uint64_t seed0 = base_seed() ^ 0xDEB6;
  for (size_t k = 0; k < 300; ++k) {
    rng random(seed0 + k);
    const std::string stream = random_stream(random);
    if (stream.empty()) continue;
    std::vector<uint8_t> padded(stream.begin(), stream.end());
    padded.resize(stream.size() + 64, 0);
    const size_t blocks = (stream.size() + 63) / 64;
    std::vector<uint64_t> best(blocks * 4), scalar_out(blocks * 4);
    stage1_debug<internal::best_kernel>(padded.data(), stream.size(), best.data());
    stage1_debug<scalar::kernel>(padded.data(), stream.size(), scalar_out.data());
    ASSERT_EQ(best, scalar_out) << "seed " << seed0 + k << " (" << internal::best_kernel::name << " vs scalar)";
    stage1_reference ref;
    error_checker errors;
    for (size_t b = 0; b < blocks; ++b) {
      const unsigned len = unsigned(std::min<size_t>(64, stream.size() - 64 * b));
      const stage1_reference_piece want = ref.scan(padded.data() + 64 * b, len);
      scan_full_events got{};
      got.events = best[4 * b];
      got.in_string = best[4 * b + 1];
      got.quote = best[4 * b + 2];
      got.error_at = int(uint32_t(best[4 * b + 3])) - 1;
      got.error = error_code(best[4 * b + 3] >> 32);
      ASSERT_EQ(got.events, want.events) << "seed " << seed0 + k << " block " << b;
      ASSERT_EQ(got.in_string, want.in_string) << "seed " << seed0 + k << " block " << b;
      ASSERT_EQ(got.quote, want.quote) << "seed " << seed0 + k << " block " << b;
      ASSERT_EQ(errors.check(got, want), "") << "seed " << seed0 + k << " block " << b;
    }
  }
}

}  // namespace
}  // namespace sluice::test
