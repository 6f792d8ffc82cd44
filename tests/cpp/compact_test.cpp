// Compaction (stream/compact.h) and the compact_lines batches (stream/compact_lines.h), once per kernel: each
// kernel's compact_classes() equal their per-byte definitions for every byte value at every position; the compacted
// text equals a byte-at-a-time reference on crafted values (escaped quotes and backslash runs at block edges,
// strings across blocks, every whitespace byte, non-ASCII text) and on seeded random documents with extra
// whitespace sprinkled between tokens; nothing is written past the documented overshoot; through the push parser,
// every chunking gives each element as the compacted text of the element cover mode gives, with the same key, and
// the batch is exactly those texts, each followed by a newline (with share_repeats, a node two paths select has one
// line, which both records name).
#include "stream/compact.h"

#include <gtest/gtest.h>

#include <string>
#include <string_view>
#include <vector>

#include "kernels/best_kernel.h"
#include "kernels/scalar/simd.h"
#include "sluice/push_parser.h"
#include "support/canonical_json.h"
#include "support/collect.h"
#include "support/kernel_param.h"
#include "support/random_json.h"
#include "support/rng.h"

namespace sluice::test {
namespace {

// Inserts runs of random whitespace next to the structural bytes outside strings (always between two tokens), so
// documents look pretty-printed, or worse.
std::string sprinkle_whitespace(std::string_view doc, rng& random) {
  static const char kSpace[] = {' ', '\t', '\n', '\r'};
  const auto run = [&](std::string& out) {
    const uint64_t n = random.chance(1, 3) ? random.skewed(80) : 0;
    for (uint64_t i = 0; i < n; ++i) out.push_back(random.pick(kSpace));
  };
  std::string out;
  bool in_string = false;
  bool escaped = false;
  for (const char c : doc) {
    if (in_string) {
      out.push_back(c);
      if (escaped) {
        escaped = false;
      } else if (c == '\\') {
        escaped = true;
      } else if (c == '"') {
        in_string = false;
      }
      continue;
    }
    const bool structural = std::string_view("{}[],:").find(c) != std::string_view::npos;
    if (structural) run(out);
    out.push_back(c);
    if (structural) run(out);
    in_string = c == '"';
  }
  return out;
}

// The value itself, without a byte order mark or surrounding whitespace (an element never has them).
std::string_view trimmed(std::string_view doc) {
  if (doc.substr(0, 3) == "\xEF\xBB\xBF") doc.remove_prefix(3);
  while (!doc.empty() && std::string_view(" \t\n\r").find(doc.front()) != std::string_view::npos) doc.remove_prefix(1);
  while (!doc.empty() && std::string_view(" \t\n\r").find(doc.back()) != std::string_view::npos) doc.remove_suffix(1);
  return doc;
}

// compact_value with the given kernel into a buffer with guard bytes after the allowed overshoot.
std::string compact_with(kernel_kind kernel, std::string_view value, std::string* problem) {
  constexpr size_t guard = 32;
  std::vector<uint8_t> out(value.size() + internal::compact_overshoot + guard, 0xA5);
  const auto* in = reinterpret_cast<const uint8_t*>(value.data());
  uint8_t* end = kernel == kernel_kind::scalar
                     ? internal::compact_value<scalar::kernel>(in, value.size(), out.data())
                     : internal::compact_value<internal::best_kernel>(in, value.size(), out.data());
  for (size_t i = out.size() - guard; i < out.size(); ++i) {
    if (out[i] != 0xA5) *problem = "wrote past the overshoot at " + std::to_string(i);
  }
  return std::string(reinterpret_cast<const char*>(out.data()), size_t(end - out.data()));
}

class Compact : public ::testing::TestWithParam<kernel_kind> {};

template <class K>
internal::compact_classes classes_of(const uint8_t* block) {
  return K::compact_classes(block);
}

// Each kernel's compact_classes() against its per-byte definition, for blocks that put every byte value at every
// position (block j holds byte (i * 7 + j) mod 256 at position i), then random blocks.
TEST_P(Compact, ClassesAreTheirPerByteDefinitions) {
  rng random(base_seed() + 0x2f00);
  uint8_t block[64];
  for (int j = 0; j < 256 + 200; ++j) {
    for (int i = 0; i < 64; ++i) block[i] = uint8_t(j < 256 ? i * 7 + j : random.below(256));
    const internal::compact_classes c = GetParam() == kernel_kind::scalar ? classes_of<scalar::kernel>(block)
                                                                          : classes_of<internal::best_kernel>(block);
    internal::compact_classes want{};
    for (int i = 0; i < 64; ++i) {
      const uint64_t bit = uint64_t{1} << i;
      if (block[i] == '"') want.quote |= bit;
      if (block[i] == '\\') want.backslash |= bit;
      if (block[i] < 0x21 || block[i] >= 0x80) want.space |= bit;
    }
    ASSERT_EQ(c.quote, want.quote) << "block " << j;
    ASSERT_EQ(c.backslash, want.backslash) << "block " << j;
    ASSERT_EQ(c.space, want.space) << "block " << j;
  }
}

TEST_P(Compact, CraftedValues) {
  const std::string long_text(150, 'x');
  const std::vector<std::string> values = {
      "{}",
      "[ ]",
      "{ \"a\" : 1 , \"b\" : [ true , false , null ] }",
      "[\n  1,\n  -2.5e+10,\n  0.000\n]",
      "\"a string   with spaces\"",
      "-0.0E-7",
      "{\"k\\\" \": \" \\\" \\\\\\\" \"}",
      "[\t\"\\\\\", \"\\\\\\\\\" ,\r\n\"\\u0020 \\n\"]",
      "{ \"caf\xC3\xA9 \xE4\xB8\xAD\xE6\x96\x87\" : \"\xF0\x9F\x98\x80 \xC2\xA0\" }",
      "[ \"" + long_text + " \" , \"" + long_text + "\\\\\" , 1 ]",
      // A quote preceded by backslash runs of every length around the block edge (byte 63/64).
      "[" + std::string(60, ' ') + "\"ab\\\\\\\"  \" ,  \"" + std::string(70, ' ') + "\" ]",
      "[" + std::string(62, ' ') + "\"\\\"\"  ]",
      "[" + std::string(61, ' ') + "\"\\\\\"   ]",
      "{" + std::string(200, '\n') + "\"a\"" + std::string(63, '\r') + ":" + std::string(64, '\t') + "{}}",
  };
  for (const std::string& value : values) {
    std::string problem;
    EXPECT_EQ(compact_with(GetParam(), value, &problem), compact_json(value)) << value;
    EXPECT_EQ(problem, "") << value;
  }
}

TEST_P(Compact, RandomDocumentsEqualTheReference) {
  const uint64_t count = env_count("SLUICE_RANDOM_DOCS", 400);
  uint64_t failures = 0;
  size_t removed = 0;
  for (uint64_t i = 0; i < count && failures < 5; ++i) {
    const uint64_t seed = base_seed() + 0x3000 + i;
    rng random(seed);
    json_shape shape;
    shape.max_bytes = random.chance(1, 10) ? 20000 : random.between(8, 3000);
    shape.fill = random.chance(1, 3);
    std::string doc = random_json(random, shape);
    if (random.chance(2, 3)) doc = sprinkle_whitespace(doc, random);
    const std::string_view value = trimmed(doc);
    std::string problem;
    const std::string expected = compact_json(value);
    const std::string actual = compact_with(GetParam(), value, &problem);
    removed += value.size() - expected.size();
    if (actual != expected || !problem.empty()) {
      ++failures;
      ADD_FAILURE() << "seed " << seed << " " << problem << "\n  input: \"" << printable(value, 400)
                    << "\"\n  expected: \"" << printable(expected, 400) << "\"\n  actual: \"" << printable(actual, 400)
                    << "\"";
    }
  }
  EXPECT_EQ(failures, 0u);
  EXPECT_GT(removed, count * 10) << "the documents should hold whitespace to remove";
}

// MARK: through the push parser

struct lines_case {
  const char* name;
  std::vector<std::string> paths;
  root_kind root;
  bool ndjson;
  // share_repeats: a node two paths select gets one line, both records pointing at it.
  bool share = false;
};

const lines_case kLinesCases[] = {
    {"array", {"$[*]"}, root_kind::array, false},
    {"root", {"$"}, root_kind::any, false},
    {"members_and_nested", {"$.*", "$.*.*"}, root_kind::object, false},
    {"ndjson", {}, root_kind::any, true},
    {"repeats_shared", {"$[*]", "$[0]", "$[0:2]"}, root_kind::array, false, true},
    {"descendant_repeats_shared", {"$..*", "$..[0]", "$.*"}, root_kind::any, false, true},
};

class CompactLines : public ::testing::TestWithParam<std::tuple<kernel_kind, size_t>> {};

TEST_P(CompactLines, ElementsAreTheCompactedCoverElements) {
  const kernel_kind kernel = std::get<0>(GetParam());
  const lines_case& c = kLinesCases[std::get<1>(GetParam())];
  const uint64_t count = env_count("SLUICE_RANDOM_DOCS", 150);
  uint64_t failures = 0;
  size_t elements_seen = 0;
  size_t shared_seen = 0;
  for (uint64_t i = 0; i < count && failures < 5; ++i) {
    const uint64_t seed = base_seed() + 0x4000 + 0x1000 * std::get<1>(GetParam()) + i;
    rng random(seed);
    json_shape shape;
    shape.root = c.root;
    shape.max_bytes = random.chance(1, 20) ? 150000 : random.between(16, 4000);
    shape.fill = true;
    std::string doc = c.ndjson ? random_ndjson(random, random.between(0, 10), shape) : random_json(random, shape);
    if (!c.ndjson && random.chance(2, 3)) doc = sprinkle_whitespace(doc, random);

    parse_setup cover;
    cover.paths = c.paths;
    cover.options.kernel = kernel;
    cover.options.ndjson = c.ndjson;
    cover.options.batches = batch_mode::cover;
    parse_setup lines = cover;
    lines.options.batches = batch_mode::compact_lines;
    lines.options.share_repeats = c.share;

    const parse_outcome expected = parse_one_shot(doc, cover);
    std::vector<collected_element> compacted = expected.elements;
    for (collected_element& e : compacted) e.bytes = compact_json(e.bytes);
    elements_seen += compacted.size();
    for (size_t max_chunk : {size_t{0}, size_t{7}, size_t{100}, size_t{5000}}) {
      const parse_outcome actual = max_chunk == 0
                                       ? parse_one_shot(doc, lines)
                                       : parse_chunked(doc, lines, chunks_random(doc.size(), random, max_chunk));
      std::string why = expected.status != error_code::ok ? "rejected: " + describe(expected.error)
                                                          : describe_difference(compacted, actual.elements);
      if (why.empty() && actual.status != expected.status) why = "status differs: " + describe(actual.error);
      if (why.empty()) why = actual.batch_problem;
      shared_seen += actual.shared_lines;
      if (!why.empty()) {
        ++failures;
        ADD_FAILURE() << "seed " << seed << ", chunks up to " << max_chunk << ": " << why << "\n  input: \""
                      << printable(doc, 400) << "\"";
        break;
      }
    }
  }
  EXPECT_EQ(failures, 0u);
  EXPECT_GE(elements_seen, count) << "the documents should hold elements for this selector";
  if (c.share) {
    EXPECT_GE(shared_seen, count) << "the documents should hold nodes two paths select";
  }
}

std::string lines_name(const ::testing::TestParamInfo<std::tuple<kernel_kind, size_t>>& info) {
  return std::string(kLinesCases[std::get<1>(info.param)].name) + "_" + kernel_name(std::get<0>(info.param));
}

INSTANTIATE_TEST_SUITE_P(Kernels, Compact, all_kernels(), kernel_param_name());
INSTANTIATE_TEST_SUITE_P(Selectors, CompactLines,
                         ::testing::Combine(all_kernels(), ::testing::Range(size_t{0}, std::size(kLinesCases))),
                         lines_name);

}  // namespace
}  // namespace sluice::test
