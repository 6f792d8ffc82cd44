// RFC 9535 descendant segments (`..`) and slices, streamed: every node a query selects is delivered once, when its
// last byte arrives, whatever the chunking. Checked against an oracle that is the RFC's definition applied to a
// small DOM (each segment maps a nodelist to the next; `..` visits the input node and all its descendants), on
// seeded random documents and random queries mixing linear and descendant selectors, and by hand on the corners.
// Soak: SLUICE_RANDOM_DOCS=... SLUICE_TEST_SEED=...
#include <gtest/gtest.h>

#include <cstring>
#include <string>
#include <vector>

#include "sluice/push_parser.h"
#include "support/binding_client.h"
#include "support/collect.h"
#include "support/descendant_oracle.h"
#include "support/kernel_param.h"
#include "support/random_json.h"
#include "support/random_query.h"
#include "support/rng.h"

namespace sluice::test {
namespace {

// A document dense in containers and in the names the queries ask for (random_json's are mostly long strings),
// its scalars sometimes random_json's, for the escapes and the long strings.
void random_tree(rng& random, size_t depth, std::string& out) {
  const char* const blanks[] = {"", "", " ", "\n  ", "\t"};
  const char* const keys[] = {"\"a\"", "\"b\"", "\"c\"", "\"\\u0061\"", "\"__proto__\"", "\"a\\\"b\"", "\"x\""};
  const uint64_t pick = depth == 0 ? 5 : random.below(6);
  if (pick < 4) {
    const bool object = pick < 2;
    out += object ? '{' : '[';
    const uint64_t n = random.below(6);
    for (uint64_t k = 0; k < n; ++k) {
      if (k != 0) out += ',';
      out += blanks[random.below(5)];
      if (object) {
        out += keys[random.below(7)];
        out += ':';
      }
      random_tree(random, depth - 1, out);
    }
    out += blanks[random.below(5)];
    out += object ? '}' : ']';
    return;
  }
  json_shape scalar;
  scalar.root = root_kind::scalar;
  const char* const plain[] = {"1", "-2.5e3", "true", "null", "\"s\"", "\"\""};
  if (random.below(4) != 0) {
    out += plain[random.below(6)];
    return;
  }
  const std::string value = random_json(random, scalar);
  out += value.substr(value.compare(0, 3, "\xEF\xBB\xBF") == 0 ? 3 : 0);  // no BOM inside a document
}

// MARK: the tests

class DescendantSlice : public ::testing::TestWithParam<kernel_kind> {
 protected:
  parse_setup setup(std::vector<std::string> paths, bool ndjson = false) const {
    parse_setup s;
    s.options.kernel = GetParam();
    s.options.ndjson = ndjson;
    s.paths = std::move(paths);
    return s;
  }
};

// Every chunking gives the oracle's elements; `what` names the case in failures.
void expect_selection(std::string_view input, const parse_setup& s, const std::vector<collected_element>& expected,
                      rng& random, const std::string& what) {
  const std::vector<std::vector<size_t>> chunkings = {chunks_one_shot(input.size()), chunks_bytewise(input.size()),
                                                      chunks_random(input.size(), random, 97)};
  for (size_t k = 0; k < chunkings.size(); ++k) {
    const parse_outcome got = parse_chunked(input, s, chunkings[k]);
    ASSERT_TRUE(got.paths_ok) << what;
    ASSERT_EQ(got.status, error_code::ok) << what << " chunking " << k << ": " << describe(got.error);
    ASSERT_EQ(describe_difference(expected, got.elements), "") << what << " chunking " << k;
  }
  // As the binding drives it: saved and restored before every call.
  const parse_outcome bound = parse_chunked_like_binding(input, s, chunks_random(input.size(), random, 200));
  ASSERT_EQ(bound.status, error_code::ok) << what << ": " << describe(bound.error);
  ASSERT_EQ(bound.batch_problem, "") << what;
  ASSERT_EQ(describe_difference(expected, bound.elements), "") << what << " (binding)";
}

std::vector<std::string> bytes_of(const std::vector<collected_element>& elements) {
  std::vector<std::string> out;
  for (const collected_element& e : elements) out.push_back(e.bytes + "#" + std::to_string(e.path_index));
  return out;
}

TEST_P(DescendantSlice, HandWrittenCases) {
  rng random(base_seed());
  const struct {
    const char* doc;
    std::vector<std::string> paths;
    std::vector<std::string> expect;  // bytes#selector in arrival order
  } cases[] = {
      {R"({"a":{"a":1},"b":[{"a":2}]})", {"$..a"}, {"1#0", R"({"a":1}#0)", "2#0"}},
      {R"([[1,2],[3]])", {"$..[0]"}, {"1#0", "[1,2]#0", "3#0"}},
      {R"({"x":[[5,6],7],"y":[8]})", {"$.x..[0]"}, {"5#0", "[5,6]#0"}},
      {R"({"a":[1,{"b":2}]})", {"$..*"}, {"1#0", "2#0", R"({"b":2}#0)", R"([1,{"b":2}]#0)"}},
      {R"([0,1,2,3,4,5,6])",
       {"$[1:5:2]", "$[::3]", "$[5:]", "$[:1]", "$[1:5:0]", "$[4:2]"},
       {"0#1", "0#3", "1#0", "3#0", "3#1", "5#2", "6#1", "6#2"}},
      // One node, delivered once, though two `..` reach it twice (RFC 9535 would list it twice).
      {R"({"a":{"a":{"b":1}}})", {"$..a..b"}, {"1#0"}},
      // Linear and descendant selectors together, on the same values.
      {R"({"rows":[{"id":1},{"id":2,"k":{"id":3}}]})",
       {"$.rows[*]", "$..id"},
       {"1#1", R"({"id":1}#0)", "2#1", "3#1", R"({"id":2,"k":{"id":3}}#0)"}},
      {R"({"a":{"b":{"a":{"b":1}}}})", {"$..a.b", "$.a.b"}, {"1#0", R"({"a":{"b":1}}#0)", R"({"a":{"b":1}}#1)"}},
      {R"([{"a":[1,2,3]},{"a":[4]}])", {"$..a[1:]"}, {"2#0", "3#0"}},
      {R"({"a":1})", {"$..['a']", "$..[\"a\"]", "$..[*]"}, {"1#0", "1#1", "1#2"}},
      {R"([1])", {"$..a", "$.a..b"}, {}},
  };
  for (const auto& c : cases) {
    const parse_setup s = setup(c.paths);
    const std::vector<collected_element> expected = oracle(c.doc, c.paths);
    ASSERT_EQ(bytes_of(expected), c.expect) << c.doc << " (the oracle)";
    expect_selection(c.doc, s, expected, random, c.doc);
  }
}

TEST_P(DescendantSlice, RandomDocumentsAndQueries) {
  const uint64_t seed0 = base_seed() ^ 0xD35C;
  const uint64_t docs = env_count("SLUICE_RANDOM_DOCS", 150);
  uint64_t selected = 0;
  for (uint64_t k = 0; k < docs; ++k) {
    rng random(seed0 + k);
    json_shape shape;
    shape.max_nesting = 1 + random.below(12);
    shape.max_bytes = 200 + random.below(1500);
    shape.root = random.below(4) == 0 ? root_kind::any : random.below(2) ? root_kind::object : root_kind::array;
    shape.fill = random.below(3) == 0;
    const bool ndjson = random.below(5) == 0;
    std::string input;
    if (random.below(3) == 0) {
      input = ndjson ? random_ndjson(random, 1 + random.below(4), shape) : random_json(random, shape);
    } else {
      const uint64_t values = ndjson ? 1 + random.below(4) : 1;
      for (uint64_t v = 0; v < values; ++v) {
        std::string value;
        while (value.size() < 30) {  // mostly containers, not a lone scalar
          value.clear();
          random_tree(random, 2 + random.below(6), value);
        }
        input += value + (ndjson ? "\n" : "");
      }
    }
    std::vector<std::vector<query_step>> queries(1 + random.below(3));
    std::vector<std::string> paths;
    for (auto& q : queries) paths.push_back(random_query(random, q));
    const std::vector<collected_element> expected = expected_elements(input, ndjson, queries);
    std::string what = "seed " + std::to_string(seed0 + k) + " paths";
    for (const std::string& p : paths) what += " " + p;
    expect_selection(input, setup(paths, ndjson), expected, random, what);
    selected += expected.size();
    if (HasFatalFailure()) return;
  }
  // The queries select something (the generator is not so strict that every answer is empty).
  EXPECT_GT(selected, docs * 4);
}

// `$..*` opens an element in every container down a deep nest: the stacks grow to the depth, and the elements
// arrive innermost first.
TEST_P(DescendantSlice, DeepNesting) {
  rng random(base_seed());
  const size_t depth = 3000;
  std::string doc;
  for (size_t d = 0; d < depth; ++d) doc += "{\"a\":[";
  doc += "1";
  for (size_t d = 0; d < depth; ++d) doc += "]}";
  for (const char* path : {"$..*", "$..a[0]", "$..a..a[0]"}) {
    parse_setup s = setup({path});
    s.options.max_depth = 2 * depth + 1;
    const std::vector<collected_element> expected = oracle(doc, {path});
    const parse_outcome got = parse_chunked(doc, s, chunks_random(doc.size(), random, 300));
    ASSERT_EQ(got.status, error_code::ok) << path << ": " << describe(got.error);
    EXPECT_EQ(describe_difference(expected, got.elements), "") << path;
    const std::string p = path;
    EXPECT_EQ(got.elements.size(), p == "$..*" ? 2 * depth : p == "$..a[0]" ? depth : depth - 1) << path;
    // Saved and restored before every call: thousands of open elements, and stacks grown past the tables.
    const parse_outcome bound = parse_chunked_like_binding(doc, s, chunks_random(doc.size(), random, 3000));
    ASSERT_EQ(bound.status, error_code::ok) << path << ": " << describe(bound.error);
    EXPECT_EQ(bound.batch_problem, "") << path;
    EXPECT_EQ(describe_difference(expected, bound.elements), "") << path << " (binding)";
  }
  // One level too deep: the depth limit, where the bracket opens.
  parse_setup s = setup({"$..a"});
  s.options.max_depth = 2 * depth - 1;
  const parse_outcome got = parse_one_shot(doc, s);
  EXPECT_EQ(got.status, error_code::depth_limit);
  EXPECT_EQ(got.error.offset, 6 * (depth - 1) + 5);
}

// A state saved with the selector tables at their deepest still loads: descend() reaches one past a scalar at
// max_depth, and a linear path may be longer than max_depth (the fuzz target's first finding: load_state refused
// tables deeper than max_depth).
TEST_P(DescendantSlice, SavedAtTheDepthLimit) {
  for (const std::vector<std::string>& paths :
       {std::vector<std::string>{"$..*"}, {"$..a", "$.*.*"}, {"$.*.*.*"}, {"$..[0]", "$[0]"}}) {
    for (const char* doc : {R"([1,"x",{"a":2}])", R"({"a":[[3]]})", R"([0])"}) {
      parse_setup s = setup(paths);
      s.options.max_depth = 1;
      const parse_outcome one_shot = parse_one_shot(doc, s);
      const parse_outcome bound = parse_chunked_like_binding(doc, s, chunks_bytewise(std::strlen(doc)));
      ASSERT_EQ(bound.batch_problem, "") << paths[0] << " " << doc;
      EXPECT_EQ(describe_difference(one_shot, bound), "") << paths[0] << " " << doc;
    }
  }
}

// The size limit counts from the outermost open element: a selected container bigger than the limit fails, though
// everything in it is small.
TEST_P(DescendantSlice, ElementSizeLimit) {
  const std::string doc = R"({"a":{"b":[1,2,3,4,5,6,7,8,9]},"c":{"a":1}})";
  parse_setup s = setup({"$..a"});
  s.options.max_element_bytes = 20;
  parse_outcome got = parse_one_shot(doc, s);
  EXPECT_EQ(got.status, error_code::element_too_large);
  s.paths = {"$..b[3:]"};
  got = parse_one_shot(doc, s);
  ASSERT_EQ(got.status, error_code::ok) << describe(got.error);
  EXPECT_EQ(bytes_of(got.elements), (std::vector<std::string>{"4#0", "5#0", "6#0", "7#0", "8#0", "9#0"}));
}

// NDJSON and skip_invalid: a bad line drops what was open in it, and the next line starts the automaton again.
TEST_P(DescendantSlice, NdjsonSkipInvalid) {
  const std::string input = "{\"a\":{\"a\":1}}\n{\"a\":[{\"a\":\n{\"b\":{\"a\":3}}\n";
  parse_setup s = setup({"$..a"}, true);
  s.options.skip_invalid = true;
  for (const auto& chunks : {chunks_one_shot(input.size()), chunks_bytewise(input.size())}) {
    const parse_outcome got = parse_chunked(input, s, chunks);
    ASSERT_EQ(got.status, error_code::ok) << describe(got.error);
    EXPECT_EQ(bytes_of(got.elements), (std::vector<std::string>{"1#0", "{\"a\":1}#0", "3#0"}));
  }
}

// A marker selector with a descendant segment: a record of size 0 where each match ends.
TEST_P(DescendantSlice, MarkerPaths) {
  push_parser parser(setup({}).options);
  ASSERT_TRUE(parser.add_path("$..b"));
  ASSERT_TRUE(parser.add_marker_path("$..a"));
  const std::string doc = R"({"a":{"b":1,"a":[2]}})";
  std::vector<std::string> got;
  const auto take = [&] {
    for (size_t i = 0; i < parser.element_count(); ++i) {
      const element& e = parser.elements()[i];
      got.push_back(std::to_string(e.size) + "#" + std::to_string(e.path_index));
    }
  };
  ASSERT_TRUE(parser.reserve(doc.size()));
  std::memcpy(parser.input_data(), doc.data(), doc.size());
  ASSERT_EQ(parser.feed(doc.size()), error_code::ok);
  take();
  ASSERT_EQ(parser.finish(), error_code::ok);
  take();
  EXPECT_EQ(got, (std::vector<std::string>{"1#0", "0#1", "0#1"}));
}

// The position budget: 64 steps of descendant selectors in all, then the path is refused as over budget.
TEST_P(DescendantSlice, PositionBudget) {
  push_parser parser(setup({}).options);
  std::string eight = "$";
  for (int k = 0; k < 8; ++k) eight += "..a";
  for (int k = 0; k < 8; ++k) ASSERT_TRUE(parser.add_path(eight)) << k;
  size_t error_at = 0;
  EXPECT_FALSE(parser.add_path("$..a", &error_at));
  EXPECT_EQ(error_at, size_t(-1));
  EXPECT_TRUE(parser.add_path("$.a.a.a.a.a.a.a.a.a")) << "linear selectors take no positions";
}

INSTANTIATE_TEST_SUITE_P(Kernels, DescendantSlice, all_kernels(), kernel_param_name());

}  // namespace
}  // namespace sluice::test
