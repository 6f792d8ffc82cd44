// The elements a parser reports do not depend on how the input is cut: for random documents and each kind of
// selector, one-shot parsing equals the reference splitter's elements (bytes, selector, key), every chunking
// (random sizes, empty chunks, one byte at a time) equals one-shot parsing, and a string or container element is
// reported by the very feed() that brought its last byte; batches (random batch_mode) keep their contract; and
// driven as the wasm binding drives it (support/binding_client.h), every chunking gives the same. Once per kernel.
// Soak: SLUICE_CHUNKING_DOCS=... SLUICE_TEST_SEED=...
#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <tuple>
#include <vector>

#include "sluice/push_parser.h"
#include "support/binding_client.h"
#include "support/collect.h"
#include "support/kernel_param.h"
#include "support/random_json.h"
#include "support/reference_splitter.h"
#include "support/rng.h"

namespace sluice::test {
namespace {

struct chunking_case {
  const char* name;
  root_kind root;
  bool ndjson;
  std::vector<std::string> (*paths)(rng&);
};

const chunking_case kCases[] = {
    {"Root", root_kind::any, false, [](rng&) { return std::vector<std::string>{"$"}; }},
    {"DefaultPath", root_kind::array, false, [](rng&) { return std::vector<std::string>{}; }},
    {"ArrayElements", root_kind::array, false, [](rng&) { return std::vector<std::string>{"$[*]"}; }},
    {"ObjectMembers", root_kind::object, false, [](rng&) { return std::vector<std::string>{"$.*"}; }},
    {"WildcardOnAnyRoot", root_kind::any, false, [](rng&) { return std::vector<std::string>{"$[*]"}; }},
    {"Index", root_kind::array, false,
     [](rng& r) { return std::vector<std::string>{"$[" + std::to_string(r.below(4)) + "]"}; }},
    {"Grandchildren", root_kind::any, false, [](rng&) { return std::vector<std::string>{"$.*[*]"}; }},
    {"NamedMembers", root_kind::object, false,
     [](rng&) {
       return std::vector<std::string>{"$.a", "$['b'][*]", "$[\"c\"].*"};
     }},
    // `$.a[*]` lies inside `$.*`'s `a`, and `$.a[0]` is also `$.a[*]`: nested and doubly matched elements.
    {"OverlappingPaths", root_kind::object, false,
     [](rng&) {
       return std::vector<std::string>{"$.a[*]", "$.*", "$.a[0]"};
     }},
    {"Ndjson", root_kind::any, true, [](rng&) { return std::vector<std::string>{}; }},
    {"NdjsonElements", root_kind::any, true, [](rng&) { return std::vector<std::string>{"$[*]"}; }},
};

// The cumulative feed boundaries of a chunking, in feed order.
std::vector<size_t> boundaries(const std::vector<size_t>& chunks) {
  std::vector<size_t> out;
  size_t at = 0;
  for (size_t n : chunks) out.push_back(at += n);
  return out;
}

// "" if every string or container element was reported by the feed that brought its last byte. (Numbers and
// literals end only when the next byte shows it, so their timing is left free.)
std::string check_timing(const parse_outcome& outcome, const std::vector<size_t>& ends,
                         const std::vector<size_t>& chunks) {
  std::vector<size_t> fed = boundaries(chunks);
  for (size_t i = 0; i < outcome.elements.size() && i < ends.size(); ++i) {
    const collected_element& e = outcome.elements[i];
    char first = e.bytes.empty() ? '\0' : e.bytes[0];
    if (first != '[' && first != '{' && first != '"') continue;
    size_t expected = *std::lower_bound(fed.begin(), fed.end(), ends[i]);
    if (e.at_finish || e.reported_at != expected) {
      return "element " + std::to_string(i) + " ends at byte " + std::to_string(ends[i]) + " but was reported " +
             (e.at_finish ? std::string("by finish()") : "after " + std::to_string(e.reported_at) + " bytes") +
             ", not by the feed that ended at " + std::to_string(expected);
    }
  }
  return "";
}

using chunking_param = std::tuple<kernel_kind, size_t>;

class Chunking : public ::testing::TestWithParam<chunking_param> {};

TEST_P(Chunking, ElementsIndependentOfChunks) {
  const kernel_kind kernel = std::get<0>(GetParam());
  const chunking_case& c = kCases[std::get<1>(GetParam())];
  const uint64_t count = env_count("SLUICE_CHUNKING_DOCS", 150);
  const uint64_t seed0 = base_seed() + 0x10000000ULL * (std::get<1>(GetParam()) + 1);
  uint64_t failures = 0, elements_seen = 0;
  for (uint64_t i = 0; i < count && failures < 5; ++i) {
    const uint64_t seed = seed0 + i;
    rng random(seed);
    json_shape shape;
    shape.root = c.root;
    // Now and then a document (and so an element) larger than the parser's 64 KiB input window.
    shape.max_bytes = random.chance(1, 50) ? 150000 : random.chance(1, 10) ? 20000 : random.between(16, 3000);
    shape.fill = shape.max_bytes == 150000 || random.chance(1, 3);
    shape.max_nesting = random.between(1, 30);
    parse_setup setup;
    setup.options.kernel = kernel;
    setup.options.ndjson = c.ndjson;
    setup.paths = c.paths(random);
    static const batch_mode modes[] = {batch_mode::none, batch_mode::json_array, batch_mode::cover};
    setup.options.batches = random.pick(modes);
    const std::string doc = c.ndjson ? random_ndjson(random, random.between(0, 12), shape) : random_json(random, shape);

    std::vector<collected_element> expected;
    std::vector<size_t> ends;
    ASSERT_TRUE(reference_split(doc, setup.paths, c.ndjson, expected, &ends)) << "seed " << seed;
    elements_seen += expected.size();

    std::vector<std::vector<size_t>> chunkings = {chunks_one_shot(doc.size())};
    for (size_t max_chunk : {size_t{3}, size_t{64}, size_t{1000}}) {
      chunkings.push_back(chunks_random(doc.size(), random, max_chunk));
    }
    // Tiny chunks cost a call per byte or two: for the few large documents, larger chunks say as much.
    if (doc.size() > 20000) chunkings.erase(chunkings.begin() + 1);
    if (doc.size() <= 8192) chunkings.push_back(chunks_bytewise(doc.size()));

    parse_outcome one_shot;
    for (size_t k = 0; k < chunkings.size(); ++k) {
      parse_outcome outcome = parse_chunked(doc, setup, chunkings[k]);
      std::string why;
      if (outcome.status != error_code::ok) {
        why = "rejected: " + describe(outcome.error);
      } else if (k == 0) {
        why = describe_difference(expected, outcome.elements);
        one_shot = outcome;
      } else {
        why = describe_difference(one_shot, outcome);
      }
      if (why.empty()) why = check_timing(outcome, ends, chunkings[k]);
      if (why.empty()) why = outcome.batch_problem;
      if (why.empty()) {
        // The same through the binding's protocol: shared workspace, saved and restored state, caller's carry.
        const parse_outcome bound = parse_chunked_like_binding(doc, setup, chunkings[k]);
        why = describe_difference(outcome, bound);
        if (why.empty() && !bound.batch_problem.empty()) why = "like the binding: " + bound.batch_problem;
      }
      if (!why.empty()) {
        ++failures;
        ADD_FAILURE() << "seed " << seed << ", chunking " << k << " (" << chunkings[k].size() << " feeds): " << why
                      << "\n  input: \"" << printable(doc, 400) << "\"";
        break;
      }
    }
  }
  EXPECT_EQ(failures, 0u);
  EXPECT_GT(elements_seen, count / 8) << "the documents should hold elements for this selector";
}

std::string param_name(const ::testing::TestParamInfo<chunking_param>& info) {
  return std::string(kCases[std::get<1>(info.param)].name) + "_" + kernel_name(std::get<0>(info.param));
}

INSTANTIATE_TEST_SUITE_P(Selectors, Chunking,
                         ::testing::Combine(all_kernels(), ::testing::Range(size_t{0}, std::size(kCases))), param_name);

}  // namespace
}  // namespace sluice::test
