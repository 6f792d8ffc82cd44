// sluice accepts exactly what simdjson accepts (mapped through the documented differences in
// support/simdjson_oracle.h): over JSONTestSuite, the jsonexamples corpus, random documents and mutations of them.
// Soak: SLUICE_RANDOM_DOCS=... SLUICE_MUTATIONS=... SLUICE_TEST_SEED=... (defaults keep the suite to seconds).
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "sluice/push_parser.h"
#include "support/collect.h"
#include "support/files.h"
#include "support/kernel_param.h"
#include "support/random_json.h"
#include "support/rng.h"
#include "support/simdjson_oracle.h"

namespace sluice::test {
namespace {

// MARK: the oracle itself

TEST(Oracle, AcceptsAndRejectsTheObviousCases) {
  EXPECT_TRUE(oracle_judge("[1,{\"a\":null}]").valid);
  EXPECT_FALSE(oracle_judge("[1,]").valid);
  EXPECT_FALSE(oracle_judge("").valid);
  EXPECT_FALSE(oracle_judge("  ").valid);
  EXPECT_FALSE(oracle_judge("[] []").valid);
  EXPECT_FALSE(oracle_judge("[\"\x01\"]").valid);
  EXPECT_FALSE(oracle_judge("[\"\xED\xA0\x80\"]").valid);
}

TEST(Oracle, SkipsALeadingBomLikeSluice) {  // difference 4: asserted, since the mapping relies on it
  EXPECT_TRUE(oracle_judge("\xEF\xBB\xBF{}").valid);
  EXPECT_TRUE(oracle_judge("\xEF\xBB\xBF[1] [2]", true).valid);
  EXPECT_FALSE(oracle_judge("{}\xEF\xBB\xBF").valid);
  EXPECT_FALSE(oracle_judge("\xEF\xBB\xBF").valid);
}

TEST(Oracle, MapsNumbersOutsideDoubleRange) {  // difference 1
  for (const char* doc : {"1e400", "[-1e400]", "{\"a\":18446744073709551616}", "-9223372036854775809"}) {
    oracle_verdict v = oracle_judge(doc);
    EXPECT_TRUE(v.valid) << doc;
    EXPECT_EQ(v.mapped, mapped_number_range) << doc;
    EXPECT_NE(v.simdjson_error, "") << doc;
  }
  // The rewrite must not launder bad grammar: these stay rejected.
  for (const char* doc : {"[1e400,]", "1e400x", "[01e400]", "[1.e400]", "[-]", "[1e]", "[1e400 1]"}) {
    EXPECT_FALSE(oracle_judge(doc).valid) << doc;
  }
}

TEST(Oracle, MapsLoneSurrogateEscapes) {  // difference 2
  for (const char* doc : {"[\"\\uD800\"]", "[\"\\uDC00\\uD800\"]", "{\"\\udead\":1}", "[\"\\uD800\", 1e999]"}) {
    oracle_verdict v = oracle_judge(doc);
    EXPECT_TRUE(v.valid) << doc;
    EXPECT_NE(v.mapped, mapped_none) << doc;
  }
  for (const char* doc : {"[\"\\uD800\\x\"]", "[\"\\uD80\"]", "[\"\\u\"]", "[\"\\uD800\\\"]"}) {
    EXPECT_FALSE(oracle_judge(doc).valid) << doc;
  }
}

TEST(Oracle, MapsAQuoteRightAfterANumberOrLiteralInNdjson) {  // difference 6
  for (const char* doc : {"1\"a\"", "true\"a\"", "\"a\"-1.5e3\"b\"null\"\""}) {
    oracle_verdict v = oracle_judge(doc, true);
    EXPECT_TRUE(v.valid) << doc;
    EXPECT_EQ(v.mapped, mapped_value_boundary) << doc;
  }
  for (const char* doc : {"tru\"a\"", "1.\"a\"", "1\"a"}) EXPECT_FALSE(oracle_judge(doc, true).valid) << doc;
  for (const char* doc : {"1\"a\"", "[1\"a\"]", "{\"a\":true\"b\":1}"}) EXPECT_FALSE(oracle_judge(doc).valid) << doc;
}

TEST(Oracle, CountsNestingOutsideStrings) {  // difference 3: the depth rule is applied by callers
  EXPECT_EQ(nesting_of("1"), 0u);
  EXPECT_EQ(nesting_of("[[],[[{}]]]"), 4u);
  EXPECT_EQ(nesting_of("[\"[[[\\\"[[\"]"), 1u);
  std::string deep = std::string(5000, '[') + std::string(5000, ']');
  oracle_verdict v = oracle_judge(deep);  // far past simdjson's default limit of 1024
  EXPECT_TRUE(v.valid);
  EXPECT_EQ(v.nesting, 5000u);
}

TEST(Oracle, JudgesNdjsonStreams) {  // difference 5
  EXPECT_TRUE(oracle_judge("1 2\n[3]{\"a\":4}\"x\"\"y\"", true).valid);
  EXPECT_TRUE(oracle_judge("", true).valid);
  EXPECT_TRUE(oracle_judge(" \n\r\n", true).valid);
  EXPECT_FALSE(oracle_judge("[1]\n[2", true).valid);  // parse_many would drop the truncated tail
  EXPECT_FALSE(oracle_judge("1 2 x", true).valid);
  EXPECT_FALSE(oracle_judge("[1]]", true).valid);
  EXPECT_FALSE(oracle_judge("nulltrue", true).valid);
  EXPECT_TRUE(oracle_judge("[1e400] \"\\uDFFF\"", true).valid);
}

TEST(Oracle, NumberGrammar) {
  for (const char* ok : {"0", "-0", "1", "-12", "0.5", "1e5", "1E+5", "1e-05", "-0.0e0", "123.456E789"}) {
    EXPECT_TRUE(is_json_number(ok)) << ok;
  }
  for (const char* bad : {"", "-", "01", "-01", "1.", ".5", "1e", "1e+", "+1", "1.5.2", "0x1", "1ee5", "--1"}) {
    EXPECT_FALSE(is_json_number(bad)) << bad;
  }
}

// MARK: sluice against the oracle

// What sluice must do with `input` given the oracle's verdict; "" if it did, else why not.
std::string check_against_oracle(std::string_view input, const parse_setup& setup) {
  oracle_verdict verdict = oracle_judge(input, setup.options.ndjson);
  parse_outcome outcome = parse_one_shot(input, setup);
  const uint32_t max_depth = setup.options.max_depth;
  if (verdict.valid && verdict.nesting <= max_depth) {
    if (outcome.status == error_code::ok) return "";
    return "oracle accepts (nesting " + std::to_string(verdict.nesting) +
           "), sluice rejects: " + describe(outcome.error);
  }
  if (verdict.valid) {  // too deep for max_depth: exactly DEPTH_LIMIT, nothing else
    if (outcome.status == error_code::depth_limit) return "";
    return "nesting " + std::to_string(verdict.nesting) + " > max_depth " + std::to_string(max_depth) +
           ", expected DEPTH_LIMIT, got " + describe(outcome.error);
  }
  if (outcome.status == error_code::ok) {
    return "oracle rejects (" + verdict.simdjson_error + "), sluice accepts";
  }
  if (outcome.status == error_code::element_too_large || outcome.status == error_code::out_of_memory) {
    return "unexpected " + describe(outcome.error);
  }
  if (outcome.status == error_code::depth_limit && nesting_of(input) <= max_depth) {
    return "DEPTH_LIMIT although nesting never exceeds max_depth";
  }
  return "";
}

class OracleAgreement : public ::testing::TestWithParam<kernel_kind> {
 protected:
  parse_setup setup() const {
    parse_setup s;
    s.options.kernel = GetParam();
    return s;
  }
};

TEST_P(OracleAgreement, JsonTestSuite) {
  const std::string dir = json_test_suite_dir();
  std::vector<std::string> names = list_files(dir, ".json");
  ASSERT_GE(names.size(), 300u) << "JSONTestSuite copy missing from " << dir;
  for (const std::string& name : names) {
    std::string input = read_file(dir + "/" + name);
    std::string why = check_against_oracle(input, setup());
    EXPECT_EQ(why, "") << name;
  }
}

TEST_P(OracleAgreement, JsonExamplesCorpus) {
  const std::string dir = jsonexamples_dir();
  std::vector<std::string> names = list_files(dir, ".json");
  std::vector<std::string> ndjson_names = list_files(dir, ".ndjson");
  ASSERT_GE(names.size(), 10u) << "jsonexamples copy missing from " << dir;
  names.insert(names.end(), ndjson_names.begin(), ndjson_names.end());
  for (const std::string& name : names) {
    std::string input = read_file(dir + "/" + name);
    parse_setup s = setup();
    s.options.ndjson = name.size() > 7 && name.compare(name.size() - 7, 7, ".ndjson") == 0;
    s.paths = {"$"};
    ASSERT_TRUE(oracle_judge(input, s.options.ndjson).valid) << name << ": the corpus holds valid documents only";
    EXPECT_EQ(check_against_oracle(input, s), "") << name;
  }
}

// A random document, its parser setup and its seed: small depth limits sometimes, so DEPTH_LIMIT is exercised on
// documents of a few hundred bytes.
struct random_case {
  std::string input;
  parse_setup setup;
};

random_case make_random_case(uint64_t seed, kernel_kind kernel, bool mutate) {
  rng random(seed);
  random_case c;
  c.setup.options.kernel = kernel;
  c.setup.options.ndjson = random.chance(1, 8);
  if (random.chance(1, 4)) c.setup.options.max_depth = static_cast<uint32_t>(random.between(1, 24));
  json_shape shape;
  shape.max_nesting = random.chance(1, 10) ? random.between(20, 1100) : random.between(1, 12);
  shape.max_bytes = random.chance(1, 20) ? 16384 : random.between(16, 1024);
  shape.root = static_cast<root_kind>(random.below(4));
  shape.fill = random.chance(1, 10);
  c.input = c.setup.options.ndjson ? random_ndjson(random, random.between(0, 6), shape) : random_json(random, shape);
  if (mutate) c.input = mutate_json(random, c.input);
  return c;
}

void run_random_cases(kernel_kind kernel, const char* count_variable, uint64_t fallback, bool mutate) {
  const uint64_t count = env_count(count_variable, fallback);
  const uint64_t seed0 = base_seed() + (mutate ? 0x40000000ULL : 0);
  uint64_t failures = 0, rejected = 0;
  for (uint64_t i = 0; i < count; ++i) {
    random_case c = make_random_case(seed0 + i, kernel, mutate);
    rejected += oracle_judge(c.input, c.setup.options.ndjson).valid ? 0 : 1;
    std::string why = check_against_oracle(c.input, c.setup);
    if (why.empty()) continue;
    if (++failures <= 10) {
      ADD_FAILURE() << "seed " << seed0 + i << (c.setup.options.ndjson ? " (ndjson)" : "") << " max_depth "
                    << c.setup.options.max_depth << ": " << why << "\n  input: \"" << printable(c.input, 400) << "\"";
    }
  }
  EXPECT_EQ(failures, 0u) << "of " << count << " cases";
  // The generators must do their job: valid documents valid, mutations mostly invalid.
  if (mutate) {
    EXPECT_GT(rejected * 2, count) << "mutations should mostly break documents";
  } else {
    EXPECT_EQ(rejected, 0u) << "the generator produced invalid documents";
  }
}

TEST_P(OracleAgreement, RandomDocuments) { run_random_cases(GetParam(), "SLUICE_RANDOM_DOCS", 20000, false); }

TEST_P(OracleAgreement, Mutations) { run_random_cases(GetParam(), "SLUICE_MUTATIONS", 50000, true); }

INSTANTIATE_TEST_SUITE_P(Kernels, OracleAgreement, all_kernels(), kernel_param_name());

}  // namespace
}  // namespace sluice::test
