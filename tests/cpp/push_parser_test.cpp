// The push parser's contract (sluice/push_parser.h), once per kernel: element spans and keys, several paths and
// nested selections, [N], NDJSON forms, the BOM, error code/offset/line/column/byte for a table of inputs in every
// chunking, elements delivered by the failing feed, sticky errors, the depth and element-size limits, bounded
// memory, both batch modes, and element bytes in the carry staying valid until the next call (ASan checks the
// reads).
#include "sluice/push_parser.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstring>
#include <string>
#include <string_view>
#include <vector>

#include "support/canonical_json.h"
#include "support/collect.h"
#include "support/kernel_param.h"
#include "support/random_json.h"
#include "support/reference_splitter.h"
#include "support/rng.h"

namespace sluice::test {
namespace {

// MARK: helpers

// An expected element: key "" = none, "#N" = index N, anything else = the raw JSON key, quotes included.
collected_element el(std::string bytes, std::string key = "", uint32_t path = 0) {
  collected_element e;
  e.bytes = std::move(bytes);
  e.path_index = path;
  if (key.empty()) {
    e.key = key_kind::none;
  } else if (key[0] == '#') {
    e.key = key_kind::index;
    e.index = std::stoull(key.substr(1));
  } else {
    e.key = key_kind::name;
    e.key_bytes = std::move(key);
  }
  return e;
}

struct expected_error {
  error_code code = error_code::ok;
  uint64_t offset = 0;
  int byte = -1;      // -1: the input ended
  uint64_t line = 0;  // 0: counted from the input below
  uint64_t column = 0;
};

// Line and column of `offset`, counted the obvious way.
void line_column(std::string_view input, uint64_t offset, uint64_t& line, uint64_t& column) {
  line = 1;
  uint64_t line_start = 0;
  for (uint64_t i = 0; i < offset && i < input.size(); ++i) {
    if (input[i] == '\n') {
      ++line;
      line_start = i + 1;
    }
  }
  column = offset - line_start + 1;
}

std::string chunks_text(const std::vector<size_t>& chunks) {
  std::string s;
  for (size_t i = 0; i < chunks.size() && i < 24; ++i) s += (i ? "," : "") + std::to_string(chunks[i]);
  if (chunks.size() > 24) s += ",... (" + std::to_string(chunks.size()) + " chunks)";
  return s;
}

// The chunkings every contract test runs: at once, byte by byte, every two-piece split of short inputs, three
// one-byte feeds first, and random ones.
std::vector<std::vector<size_t>> chunkings(size_t size, uint64_t seed) {
  std::vector<std::vector<size_t>> out = {chunks_one_shot(size), chunks_bytewise(size)};
  if (size <= 160) {
    for (size_t at = 1; at < size; ++at) out.push_back(chunks_split(size, at));
  }
  if (size > 3) out.push_back({1, 1, 1, size - 3});
  rng random(seed);
  for (int k = 0; k < 6; ++k) out.push_back(chunks_random(size, random, k < 3 ? 8 : 100));
  return out;
}

class PushParser : public ::testing::TestWithParam<kernel_kind> {
 protected:
  parse_setup setup(std::vector<std::string> paths = {}, bool ndjson = false) const {
    parse_setup s;
    s.options.kernel = GetParam();
    s.options.ndjson = ndjson;
    s.paths = std::move(paths);
    return s;
  }

  // Every chunking gives exactly these elements and this outcome; an error stays (sticky) and reports nothing more.
  void expect_outcome(std::string_view input, const parse_setup& s, const std::vector<collected_element>& elements,
                      expected_error error = {}) const {
    if (error.code != error_code::ok && error.line == 0) line_column(input, error.offset, error.line, error.column);
    for (const std::vector<size_t>& chunks : chunkings(input.size(), base_seed() ^ input.size())) {
      SCOPED_TRACE("input \"" + printable(input) + "\" in chunks " + chunks_text(chunks));
      const parse_outcome o = parse_chunked(input, s, chunks);
      ASSERT_TRUE(o.paths_ok);
      ASSERT_EQ(describe_difference(elements, o.elements), "");
      ASSERT_EQ(error_name(o.status), std::string(error_name(error.code)));
      ASSERT_EQ(o.error.code, error.code);
      if (error.code == error_code::ok) continue;
      ASSERT_EQ(o.error.offset, error.offset) << describe(o.error);
      ASSERT_EQ(o.error.byte, error.byte) << describe(o.error);
      ASSERT_EQ(o.error.line, error.line) << describe(o.error);
      ASSERT_EQ(o.error.column, error.column) << describe(o.error);
      ASSERT_EQ(o.status_after_error, error.code) << "not sticky";
      ASSERT_EQ(o.elements_after_error, 0u);
    }
  }

  void expect_ok(std::string_view input, const parse_setup& s, const std::vector<collected_element>& elements) const {
    expect_outcome(input, s, elements);
  }
};

// Writes `chunk` into the window and feeds it.
error_code feed(push_parser& parser, std::string_view chunk) {
  if (chunk.size() > parser.input_capacity() && !parser.reserve(chunk.size())) return error_code::out_of_memory;
  if (!chunk.empty()) std::memcpy(parser.input_data(), chunk.data(), chunk.size());
  return parser.feed(chunk.size());
}

// Copies what the last call reported (reading every element, key and batch byte: ASan checks they are live).
std::vector<collected_element> take(const push_parser& parser) {
  std::vector<collected_element> out;
  for (size_t i = 0; i < parser.element_count(); ++i) {
    const element& e = parser.elements()[i];
    collected_element c;
    c.bytes.assign(reinterpret_cast<const char*>(e.data), e.size);
    c.path_index = e.path_index;
    c.key = e.key;
    if (e.key == key_kind::name) c.key_bytes.assign(reinterpret_cast<const char*>(e.key_data), e.key_size);
    if (e.key == key_kind::index) c.index = e.index();
    out.push_back(std::move(c));
  }
  std::string batch_bytes;  // copied only so that ASan sees every batch byte read
  for (size_t b = 0; b < parser.batch_count(); ++b) {
    batch_bytes.append(reinterpret_cast<const char*>(parser.batches()[b].data), parser.batches()[b].size);
  }
  return out;
}

// MARK: spans and keys

TEST_P(PushParser, ElementSpansAreExactBytes) {
  expect_ok("[1, \"two\" ,{\"a\":[3]} ,[ ], true,null,\n-0.5e3 ,\"\\\"\"]", setup(),
            {el("1", "#0"), el("\"two\"", "#1"), el("{\"a\":[3]}", "#2"), el("[ ]", "#3"), el("true", "#4"),
             el("null", "#5"), el("-0.5e3", "#6"), el("\"\\\"\"", "#7")});
  expect_ok(" [ ] ", setup(), {});
  expect_ok("[[],{},\"\",0]", setup(), {el("[]", "#0"), el("{}", "#1"), el("\"\"", "#2"), el("0", "#3")});
}

TEST_P(PushParser, RootHasNoKey) {
  expect_ok(" {\"a\":1} ", setup({"$"}), {el("{\"a\":1}")});
  expect_ok("\"s\"", setup({"$"}), {el("\"s\"")});
  expect_ok("-12.5e1", setup({"$"}), {el("-12.5e1")});
  expect_ok("null", setup({"$"}), {el("null")});
}

// A root number ends only with the input: finish() reports it; a string or container is reported by the feed
// that brings its last byte.
TEST_P(PushParser, RootScalarCompletesAtFinish) {
  parse_outcome o = parse_one_shot("123", setup({"$"}));
  ASSERT_EQ(o.elements.size(), 1u);
  EXPECT_TRUE(o.elements[0].at_finish);
  o = parse_one_shot("123 ", setup({"$"}));
  ASSERT_EQ(o.elements.size(), 1u);
  EXPECT_FALSE(o.elements[0].at_finish);
  o = parse_one_shot("[\"a\"]", setup());
  ASSERT_EQ(o.elements.size(), 1u);
  EXPECT_FALSE(o.elements[0].at_finish);
}

TEST_P(PushParser, NameKeysAreRawJsonWithEscapes) {
  const std::string doc = R"({"a":1,"b\"c":[2],"\u0041":{"x":3},"":4,"\\":"v","\n\u00e9":5})";
  expect_ok(doc, setup({"$.*"}),
            {el("1", R"("a")"), el("[2]", R"("b\"c")"), el("{\"x\":3}", R"("\u0041")"), el("4", R"("")"),
             el("\"v\"", R"("\\")"), el("5", R"("\n\u00e9")")});
  // Names match decoded keys, however either side is spelled.
  expect_ok(doc, setup({"$.A"}), {el("{\"x\":3}", R"("\u0041")")});
  expect_ok(doc, setup({R"($['b"c'])"}), {el("[2]", R"("b\"c")")});
  expect_ok(doc, setup({R"($['\\'])"}), {el("\"v\"", R"("\\")")});
  expect_ok(doc, setup({"$['\\n\xC3\xA9']"}), {el("5", R"("\n\u00e9")")});
  expect_ok(doc, setup({"$['']"}), {el("4", R"("")")});
  expect_ok(doc, setup({R"($["\u0041"].x)"}), {el("3", R"("x")")});
  expect_ok(doc, setup({"$.B"}), {});
  // Raw UTF-8 keys and an astral escape pair.
  expect_ok("{\"\xF0\x9F\x98\x80\":1,\"\\ud83d\\ude00\":2}", setup({"$['\\uD83D\\uDE00']"}),
            {el("1", "\"\xF0\x9F\x98\x80\""), el("2", R"("\ud83d\ude00")")});
}

TEST_P(PushParser, NdjsonIndices) {
  expect_ok("{\"a\":1}\n[2]\n\"three\"\n4", setup({}, true),
            {el("{\"a\":1}", "#0"), el("[2]", "#1"), el("\"three\"", "#2"), el("4", "#3")});
  expect_ok("[1,2]\n[3]", setup({"$[*]"}, true), {el("1", "#0"), el("2", "#1"), el("3", "#0")});
  expect_ok("{\"a\":1}\n{\"b\":2}\n{\"a\":3}", setup({"$.a"}, true), {el("1", R"("a")"), el("3", R"("a")")});
  expect_ok("1 2 3", setup({"$"}, true), {el("1", "#0"), el("2", "#1"), el("3", "#2")});
}

// MARK: selection

TEST_P(PushParser, SeveralPathsAndNestedSelections) {
  // A selected value inside another: completion order, so the inner ones first.
  expect_ok("[1,[2]]", setup({"$", "$[*]"}), {el("1", "#0", 1), el("[2]", "#1", 1), el("[1,[2]]", "", 0)});
  expect_ok(R"({"a":[1,{"b":2}],"c":[3]})", setup({"$.a", "$.a[*]"}),
            {el("1", "#0", 1), el("{\"b\":2}", "#1", 1), el("[1,{\"b\":2}]", R"("a")", 0)});
  // One value chosen by two paths: once per path, in path order.
  expect_ok("[5,6,7]", setup({"$[*]", "$[1]"}),
            {el("5", "#0", 0), el("6", "#1", 0), el("6", "#1", 1), el("7", "#2", 0)});
  expect_ok("[5,6,7]", setup({"$[1]", "$[*]"}),
            {el("5", "#0", 1), el("6", "#1", 0), el("6", "#1", 1), el("7", "#2", 1)});
  expect_ok(R"({"x":[1,2],"y":3})", setup({"$.*[*]", "$.*"}),
            {el("1", "#0", 0), el("2", "#1", 0), el("[1,2]", R"("x")", 1), el("3", R"("y")", 1)});
  expect_ok(R"({"a":"s","b":{"a":1}})", setup({"$.*", "$.a", "$.b.a"}),
            {el("\"s\"", R"("a")", 0), el("\"s\"", R"("a")", 1), el("1", R"("a")", 2), el("{\"a\":1}", R"("b")", 0)});
  // Three levels at once.
  expect_ok("[[[1]]]", setup({"$", "$[*]", "$[*][*]", "$[*][*][*]"}),
            {el("1", "#0", 3), el("[1]", "#0", 2), el("[[1]]", "#0", 1), el("[[[1]]]", "", 0)});
}

TEST_P(PushParser, IndexSelection) {
  expect_ok("[0, 1, [2], 3]", setup({"$[2]"}), {el("[2]", "#2")});
  expect_ok("[0,1]", setup({"$[3]"}), {});
  expect_ok("[[1,2],[3,4]]", setup({"$[1][0]"}), {el("3", "#0")});
  expect_ok(R"({"a":[10,"x",30]})", setup({"$.a[1]"}), {el("\"x\"", "#1")});
  expect_ok(R"([{"b":1},{"b":2}])", setup({"$[1].b"}), {el("2", R"("b")")});
  expect_ok(R"({"0":1})", setup({"$[0]"}), {});  // an index never matches a member
  expect_ok("[1]", setup({"$.a"}), {});          // nor a name an element
  expect_ok("5", setup({"$[*]"}), {});           // a scalar root has no elements
  expect_ok(R"({"a":1,"b":[2]})", setup({"$[*]"}), {el("1", R"("a")"), el("[2]", R"("b")")});  // [*] is .*
  std::string big = "[";
  for (int i = 0; i < 300; ++i) big += std::to_string(i) + (i < 299 ? "," : "]");
  expect_ok(big, setup({"$[257]"}), {el("257", "#257")});
}

// MARK: NDJSON

TEST_P(PushParser, NdjsonForms) {
  const auto s = setup({}, true);
  expect_ok("{\"a\":1}\n{\"a\":2}\n", s, {el("{\"a\":1}", "#0"), el("{\"a\":2}", "#1")});
  expect_ok("{}{}", s, {el("{}", "#0"), el("{}", "#1")});
  expect_ok("1 2", s, {el("1", "#0"), el("2", "#1")});
  expect_ok("[1][2]", s, {el("[1]", "#0"), el("[2]", "#1")});
  expect_ok("\"a\"\"b\"", s, {el("\"a\"", "#0"), el("\"b\"", "#1")});
  expect_ok("1\"a\"", s, {el("1", "#0"), el("\"a\"", "#1")});
  expect_ok("\n\n1\n\n\n2\n\n", s, {el("1", "#0"), el("2", "#1")});
  expect_ok("1\r\n2\r\n", s, {el("1", "#0"), el("2", "#1")});
  expect_ok("12", s, {el("12", "#0")});
  expect_ok("", s, {});
  expect_ok(" \n\t\r\n ", s, {});
  expect_outcome("truefalse", s, {}, {error_code::invalid_literal, 4, 'f'});
  expect_outcome("{}x", s, {el("{}", "#0")}, {error_code::expected_value, 2, 'x'});
  expect_outcome("1,2", s, {el("1", "#0")}, {error_code::expected_value, 1, ','});
  expect_outcome("[1]\n[2", s, {el("[1]", "#0")}, {error_code::unexpected_end, 6});
  // The same inputs as one document.
  expect_outcome("", setup(), {}, {error_code::unexpected_end, 0});
  expect_outcome(" \n ", setup(), {}, {error_code::unexpected_end, 3});
  expect_outcome("1 2", setup({"$"}), {el("1")}, {error_code::trailing_data, 2, '2'});
  expect_outcome("{}{}", setup({"$"}), {el("{}")}, {error_code::trailing_data, 2, '{'});
}

// MARK: BOM

TEST_P(PushParser, ByteOrderMark) {
  const std::string bom = "\xEF\xBB\xBF";
  expect_ok(bom + "[1,2]", setup(), {el("1", "#0"), el("2", "#1")});
  expect_ok(bom + "\"x\"", setup({"$"}), {el("\"x\"")});
  expect_ok(bom + "1\n2", setup({}, true), {el("1", "#0"), el("2", "#1")});
  expect_ok(bom, setup({}, true), {});
  // Offsets count the BOM's bytes.
  expect_outcome(bom + "[1,]", setup(), {el("1", "#0")}, {error_code::expected_value, 6, ']', 1, 7});
  expect_outcome(bom, setup(), {}, {error_code::unexpected_end, 3});
  // A partial BOM is an error at offset 0, however it is cut.
  expect_outcome("\xEF\xBB[1]", setup(), {}, {error_code::expected_value, 0, 0xEF});
  expect_outcome("\xEF[1]", setup(), {}, {error_code::expected_value, 0, 0xEF});
  expect_outcome("\xEF\xBB", setup(), {}, {error_code::expected_value, 0, 0xEF});
  expect_outcome("\xEF", setup({}, true), {}, {error_code::expected_value, 0, 0xEF});
  // Only at the very start.
  expect_outcome("[" + bom + "1]", setup(), {}, {error_code::expected_value, 1, 0xEF});
  expect_outcome("1\n" + bom + "2", setup({}, true), {el("1", "#0")}, {error_code::expected_value, 2, 0xEF});
}

// The BOM fed one byte per call, then the document.
TEST_P(PushParser, ByteOrderMarkSplitOverThreeFeeds) {
  push_parser parser(setup().options);
  EXPECT_EQ(feed(parser, "\xEF"), error_code::ok);
  EXPECT_EQ(feed(parser, "\xBB"), error_code::ok);
  EXPECT_EQ(feed(parser, "\xBF"), error_code::ok);
  EXPECT_EQ(feed(parser, "[7]"), error_code::ok);
  const std::vector<collected_element> got = take(parser);
  ASSERT_EQ(describe_difference({el("7", "#0")}, got), "");
  EXPECT_EQ(parser.finish(), error_code::ok);

  push_parser broken(setup().options);
  EXPECT_EQ(feed(broken, "\xEF"), error_code::ok);
  EXPECT_EQ(feed(broken, "\xBB"), error_code::ok);
  EXPECT_EQ(feed(broken, "["), error_code::expected_value);
  EXPECT_EQ(broken.error().offset, 0u);
  EXPECT_EQ(broken.error().byte, 0xEF);
}

// MARK: errors

struct error_case {
  std::string input;
  expected_error error;
  std::vector<std::string> paths = {};
  bool ndjson = false;
};

std::vector<error_case> error_cases() {
  std::vector<error_case> cases = {
      {"[1,]", {error_code::expected_value, 3, ']'}},
      {"{\"a\":}", {error_code::expected_value, 5, '}'}},
      {"]", {error_code::expected_value, 0, ']'}},
      {"[}", {error_code::expected_value, 1, '}'}},
      {"[\xFF]", {error_code::expected_value, 1, 0xFF}},
      {"[1 2]", {error_code::expected_comma_or_bracket, 3, '2'}},
      {"[1}", {error_code::expected_comma_or_bracket, 2, '}'}},
      {"[1:", {error_code::expected_comma_or_bracket, 2, ':'}},
      {"{\"a\":1 \"b\":2}", {error_code::expected_comma_or_brace, 7, '"'}},
      {"{\"a\":1]", {error_code::expected_comma_or_brace, 6, ']'}},
      {"{,}", {error_code::expected_key, 1, ','}},
      {"{1:2}", {error_code::expected_key, 1, '1'}},
      {"{\"a\":1,}", {error_code::expected_key, 7, '}'}},
      {"{]", {error_code::expected_key, 1, ']'}},
      {"{\"a\" 1}", {error_code::expected_colon, 5, '1'}},
      {"{\"a\",1}", {error_code::expected_colon, 4, ','}},
      {"{\"a\"]", {error_code::expected_colon, 4, ']'}},
      {"[] []", {error_code::trailing_data, 3, '['}, {"$"}},
      {"{}x", {error_code::trailing_data, 2, 'x'}, {"$"}},
      {"[1,2]]", {error_code::trailing_data, 5, ']'}},
      {"[01]", {error_code::invalid_number, 2, '1'}},
      {"[-01]", {error_code::invalid_number, 3, '1'}},
      {"[1.]", {error_code::invalid_number, 3, ']'}},
      {"[-]", {error_code::invalid_number, 2, ']'}},
      {"[1e]", {error_code::invalid_number, 3, ']'}},
      {"[1e+]", {error_code::invalid_number, 4, ']'}},
      {"[1.5x]", {error_code::invalid_number, 4, 'x'}},
      {"[1\xFF]", {error_code::invalid_number, 2, 0xFF}},
      {"[tru]", {error_code::invalid_literal, 4, ']'}},
      {"[nulll]", {error_code::invalid_literal, 5, 'l'}},
      {"[tr\xC3\xA9]", {error_code::invalid_literal, 3, 0xC3}},
      {"[\"a\tb\"]", {error_code::control_character, 3, '\t'}},
      {"[\"x\",\"a\x01\"]", {error_code::control_character, 7, 1}},
      {"[\"\\x\"]", {error_code::invalid_escape, 3, 'x'}},
      {"[\"\\'\"]", {error_code::invalid_escape, 3, '\''}},
      {"[\"\\u12G4\"]", {error_code::invalid_unicode_escape, 6, 'G'}},
      {"[\"\\u12\"]", {error_code::invalid_unicode_escape, 6, '"'}},
      {"[\"\xC0\xAF\"]", {error_code::invalid_utf8, 2, 0xC0}},
      {"[\"\xED\xA0\x80\"]", {error_code::invalid_utf8, 3, 0xA0}},
      {"[\"\xF4\x90\x80\x80\"]", {error_code::invalid_utf8, 3, 0x90}},
      {"[\"\xC3\"]", {error_code::invalid_utf8, 3, '"'}},
      {"[1,2", {error_code::unexpected_end, 4}},
      {"", {error_code::unexpected_end, 0}},
      {"\"abc", {error_code::unexpected_end, 4}, {"$"}},
      {"[\"a\xC3", {error_code::unexpected_end, 4}},
      {"[nul", {error_code::unexpected_end, 4}},
      {"-", {error_code::unexpected_end, 1}, {"$"}},
      {"{\"a\":1", {error_code::unexpected_end, 6}, {"$.a"}},
      // Lines: LF and CRLF lines before the error; column in bytes from the line start.
      {"[1,\r\n2,\n  x]", {error_code::expected_value, 10, 'x', 3, 3}},
      {"{\"a\":\n[1,\n2}\n", {error_code::expected_comma_or_bracket, 11, '}', 3, 2}},
      {"[\n\"a\",\n\"b\tc\"]", {error_code::control_character, 9, '\t', 3, 3}},
      {"[1,\n x\n\n]", {error_code::expected_value, 5, 'x', 2, 2}},
      // A number that runs past its block, after two newlines in the same block.
      {"\n\n[" + std::string(100, '1') + "x]", {error_code::invalid_number, 103, 'x', 3, 102}},
      {"[\"\xC3\xA9\xE2\x82\xAC\",\n\"\\q\"]", {error_code::invalid_escape, 12, 'q', 2, 3}},
  };
  // Far into the stream: many blocks and lines before the error.
  std::string many = "[";
  for (int i = 0; i < 200; ++i) many += "1,\n";
  cases.push_back({many + "]", {error_code::expected_value, many.size(), ']', 201, 1}});
  std::string crlf = "{\"k\":[";
  for (int i = 0; i < 150; ++i) crlf += "\"line\",\r\n";
  cases.push_back(
      {crlf + "\"\\u00G0\"]}", {error_code::invalid_unicode_escape, crlf.size() + 5, 'G', 151, 6}, {"$.k[*]"}});
  return cases;
}

TEST_P(PushParser, ErrorCodeOffsetLineColumn) {
  for (const error_case& c : error_cases()) {
    const parse_outcome whole = parse_one_shot(c.input, setup(c.paths, c.ndjson));
    // The elements before the error are whatever the document has before it; the error is checked in every chunking.
    expect_outcome(c.input, setup(c.paths, c.ndjson), whole.elements, c.error);
  }
}

// Elements completed before an error come back from the very feed that reports the error; afterwards the status
// stays and nothing more is reported.
TEST_P(PushParser, ElementsBeforeErrorComeWithIt) {
  {
    push_parser parser(setup().options);
    EXPECT_EQ(feed(parser, "[1,\"two\",[3],x]"), error_code::expected_value);
    EXPECT_EQ(describe_difference({el("1", "#0"), el("\"two\"", "#1"), el("[3]", "#2")}, take(parser)), "");
  }
  {
    push_parser parser(setup().options);
    EXPECT_EQ(feed(parser, "[1,\"tw"), error_code::ok);
    EXPECT_EQ(describe_difference({el("1", "#0")}, take(parser)), "");
    EXPECT_EQ(feed(parser, "o\",[3],}"), error_code::expected_value);
    EXPECT_EQ(describe_difference({el("\"two\"", "#1"), el("[3]", "#2")}, take(parser)), "");
    EXPECT_EQ(parser.error().offset, 13u);
    const uint64_t fed = parser.bytes_fed();
    // Sticky: later calls return the status and report nothing, and the error stays as it was.
    EXPECT_EQ(feed(parser, "[4]"), error_code::expected_value);
    EXPECT_EQ(parser.element_count(), 0u);
    EXPECT_EQ(parser.batch_count(), 0u);
    EXPECT_EQ(parser.finish(), error_code::expected_value);
    EXPECT_EQ(parser.element_count(), 0u);
    EXPECT_EQ(parser.status(), error_code::expected_value);
    EXPECT_EQ(parser.error().offset, 13u);
    EXPECT_EQ(parser.bytes_fed(), fed);
  }
  {
    // A stage-1 error (string contents) in the block of the elements before it.
    push_parser parser(setup().options);
    EXPECT_EQ(feed(parser, "[1,\"a\",\"\\x\"]"), error_code::invalid_escape);
    EXPECT_EQ(describe_difference({el("1", "#0"), el("\"a\"", "#1")}, take(parser)), "");
  }
  {
    // The failing feed's earlier chunks' element, finished in it.
    push_parser parser(setup({"$[*]"}).options);
    ASSERT_TRUE(parser.add_path("$[*]"));
    EXPECT_EQ(feed(parser, "[{\"a\":"), error_code::ok);
    EXPECT_EQ(parser.element_count(), 0u);
    EXPECT_EQ(feed(parser, "1},{\"b\" 2}]"), error_code::expected_colon);
    EXPECT_EQ(describe_difference({el("{\"a\":1}", "#0")}, take(parser)), "");
  }
}

// MARK: limits

TEST_P(PushParser, DepthLimitAtTheOffendingBracket) {
  for (const std::vector<std::string>& paths :
       std::vector<std::vector<std::string>>{{}, {"$"}, {"$[*][*][*]"}, {"$.a.b.c"}, {"$[0][0]", "$.a"}}) {
    parse_setup s = setup(paths);
    s.options.max_depth = 3;
    const parse_outcome ok = parse_one_shot("[[[1]]]", s);
    expect_outcome("[[[1]]]", s, ok.elements);
    expect_outcome("[[[[1]]]]", s, parse_one_shot("[[[[1]]]]", s).elements, {error_code::depth_limit, 3, '['});
    expect_outcome("{\"a\":{\"b\":{\"c\":{}}}}", s, parse_one_shot("{\"a\":{\"b\":{\"c\":{}}}}", s).elements,
                   {error_code::depth_limit, 15, '{'});
    expect_outcome("[1,[2,[3,[]]]]", s, parse_one_shot("[1,[2,[3,[]]]]", s).elements,
                   {error_code::depth_limit, 9, '['});
  }
  parse_setup one = setup();
  one.options.max_depth = 1;
  expect_ok("[1]", one, {el("1", "#0")});
  expect_outcome("[[]]", one, {}, {error_code::depth_limit, 1, '['});
  parse_setup nd = setup({}, true);
  nd.options.max_depth = 2;
  expect_outcome("[[1]]\n[[[1]]]", nd, {el("[[1]]", "#0")}, {error_code::depth_limit, 8, '['});
  // The default, 1024.
  const std::string deep = std::string(1024, '[') + std::string(1024, ']');
  EXPECT_EQ(parse_one_shot(deep, setup({"$"})).status, error_code::ok);
  const std::string deeper = std::string(1025, '[') + std::string(1025, ']');
  for (const auto& chunks : {chunks_one_shot(deeper.size()), chunks_split(deeper.size(), 1000)}) {
    const parse_outcome o = parse_chunked(deeper, setup(), chunks);
    EXPECT_EQ(o.status, error_code::depth_limit);
    EXPECT_EQ(o.error.offset, 1024u);
  }
}

// An element of exactly max_element_bytes passes; one byte more fails at start + limit, whatever the chunks.
TEST_P(PushParser, ElementSizeLimit) {
  for (const uint64_t limit : {uint64_t{12}, uint64_t{100}}) {
    const std::string n = std::to_string(limit);
    SCOPED_TRACE("limit " + n);
    const size_t L = size_t(limit);
    const auto string_of = [](size_t size) { return "\"" + std::string(size - 2, 'a') + "\""; };
    const auto number_of = [](size_t size) { return std::string(size, '7'); };
    const auto array_of = [](size_t size) { return "[" + std::string(size - 2, ' ') + "]"; };
    const auto object_of = [](size_t size) { return "{\"k\":" + std::string(size - 6, '1') + "}"; };
    // Newlines inside the element: the error's line and column count them.
    const auto lines_of = [](size_t size) { return "[" + std::string(size - 2, '\n') + "]"; };
    for (const auto& make : {+string_of, +number_of, +array_of, +object_of, +lines_of}) {
      for (const size_t pad : {size_t{0}, size_t{1}, size_t{63}}) {
        parse_setup s = setup();
        s.options.max_element_bytes = limit;
        const std::string before = "[" + std::string(pad, ' ') + "0, ";
        const size_t start = before.size();
        const std::string fits = make(L);
        expect_ok(before + fits + ",1]", s, {el("0", "#0"), el(fits, "#1"), el("1", "#2")});
        const std::string over = before + make(L + 1) + ",1]";
        expect_outcome(over, s, {el("0", "#0")},
                       {error_code::element_too_large, start + L, static_cast<uint8_t>(over[start + L])});
      }
    }
    // The root.
    parse_setup root = setup({"$"});
    root.options.max_element_bytes = limit;
    expect_ok(string_of(L), root, {el(string_of(L))});
    expect_outcome(string_of(L + 1), root, {}, {error_code::element_too_large, L, '"'});
    // Unselected values are not limited.
    parse_setup named = setup({"$.x"});
    named.options.max_element_bytes = limit;
    expect_ok("{\"big\":" + string_of(10 * L) + ",\"x\":1}", named, {el("1", R"("x")")});
    // An error beyond the limit inside the element: the limit was crossed first.
    parse_setup s = setup();
    s.options.max_element_bytes = limit;
    const std::string late = "[\"" + std::string(L + 5, 'a') + "\\x\"]";
    expect_outcome(late, s, {}, {error_code::element_too_large, 1 + L, 'a'});
    // An error within the limit is reported as itself.
    expect_outcome("[\"a\\x" + std::string(L, 'a') + "\"]", s, {}, {error_code::invalid_escape, 4, 'x'});
  }
}

// A key a selector compares is held to the same limit: its raw text, quotes included, may be exactly
// max_element_bytes long, whatever follows it.
TEST_P(PushParser, KeySizeLimit) {
  for (const uint64_t limit : {uint64_t{3}, uint64_t{12}, uint64_t{100}}) {
    SCOPED_TRACE("limit " + std::to_string(limit));
    const size_t L = size_t(limit);
    const std::string fits = "\"" + std::string(L - 2, 'k') + "\"";
    const std::string over = "\"" + std::string(L - 1, 'k') + "\"";
    parse_setup named = setup({"$.x"});
    named.options.max_element_bytes = limit;
    expect_ok("{" + fits + ":1}", named, {});
    expect_ok("{" + fits + " : 1, \"x\":2}", named, {el("2", R"("x")")});
    expect_outcome("{" + over + ":1}", named, {}, {error_code::element_too_large, 1 + L, '"'});
    // The selected member's key is its element's key, not part of its bytes.
    parse_setup all = setup({"$.*"});
    all.options.max_element_bytes = limit;
    expect_ok("{" + fits + ":1}", all, {el("1", fits)});
  }
}

// MARK: memory

// A run of random elements, each followed by its separator.
std::string element_run(rng& random, size_t bytes, bool ndjson, size_t* largest) {
  std::string s;
  json_shape shape;
  shape.max_bytes = 400;
  shape.max_nesting = 6;
  while (s.size() < bytes) {
    std::string e = random_json(random, shape);
    if (e.rfind("\xEF\xBB\xBF", 0) == 0) e.erase(0, 3);
    *largest = std::max(*largest, e.size());
    s += e;
    s += ndjson ? "\n" : ",";
  }
  return s;
}

// memory_bytes() stays within a few windows plus the largest element and the tables for the most elements one
// call reports, and does not grow with the stream: the same run of elements, fed in the same chunks, is repeated
// 16 times, and every repetition after the second finds the parser at its working size already.
TEST_P(PushParser, MemoryStaysBoundedOverLongStream) {
  for (const batch_mode mode : {batch_mode::none, batch_mode::json_array, batch_mode::cover}) {
    for (const bool ndjson : {false, true}) {
      SCOPED_TRACE("batch mode " + std::to_string(int(mode)) + (ndjson ? ", ndjson" : ""));
      rng random(base_seed() ^ 0x3E3 ^ uint64_t(mode) ^ (ndjson ? 16 : 0));
      size_t largest = 0;
      const std::string run = element_run(random, size_t{256} << 10, ndjson, &largest);
      parse_setup s = setup({}, ndjson);
      s.options.batches = mode;
      push_parser parser(s.options);
      const size_t window = parser.input_capacity();
      std::vector<size_t> chunks;
      for (size_t left = run.size(); left > 0;) {
        const size_t n = std::min(left, size_t(1 + random.below(window)));
        chunks.push_back(n);
        left -= n;
      }
      if (!ndjson) {
        ASSERT_EQ(feed(parser, "["), error_code::ok);
      }
      size_t peak_first_two = 0, peak_rest = 0, most_elements = 0;
      for (int rep = 0; rep < 16; ++rep) {
        size_t at = 0;
        for (const size_t n : chunks) {
          ASSERT_EQ(feed(parser, std::string_view(run).substr(at, n)), error_code::ok) << describe(parser.error());
          at += n;
          most_elements = std::max(most_elements, parser.element_count());
          size_t& peak = rep < 2 ? peak_first_two : peak_rest;
          peak = std::max(peak, parser.memory_bytes());
        }
      }
      ASSERT_EQ(feed(parser, ndjson ? "0" : "0]"), error_code::ok);
      ASSERT_EQ(parser.finish(), error_code::ok);
      ASSERT_EQ(parser.input_capacity(), window) << "the window never needed to grow";
      // Window, carry and spare, element and batch tables, with their growth slack, and the batch text: a chunk's
      // elements written as ASCII (up to three times their size, see internal/ascii_json.h).
      const size_t text = mode == batch_mode::json_array ? 3 * (window + largest) : 0;
      const size_t bound =
          4 * window + 4 * largest + text + 3 * most_elements * (sizeof(element) + sizeof(batch)) + 4096;
      EXPECT_LE(std::max(peak_first_two, peak_rest), bound)
          << "largest element " << largest << ", most elements per call " << most_elements;
      EXPECT_LE(peak_rest, peak_first_two) << "memory grew with the stream";
    }
  }
}

// After a huge element completes, its carry is given back: memory returns to what a parser that never saw the
// huge element holds after the same ordinary chunks.
TEST_P(PushParser, MemoryReturnsAfterHugeElement) {
  for (const char* after : {",1,2,3", ",{\"a\":[1,2]}", "          "}) {
    SCOPED_TRACE(std::string("followed by ") + after);
    push_parser parser(setup().options);
    push_parser control(setup().options);
    const size_t window = parser.input_capacity();
    ASSERT_EQ(feed(parser, "[1,\""), error_code::ok);
    ASSERT_EQ(feed(control, "[1,\"\""), error_code::ok);
    const std::string chunk(window, 'a');
    for (int i = 0; i < 128; ++i) ASSERT_EQ(feed(parser, chunk), error_code::ok);  // 8 MiB of string
    EXPECT_GT(parser.memory_bytes(), size_t{8} << 20) << "the element in progress is held";
    ASSERT_EQ(feed(parser, "\""), error_code::ok);
    ASSERT_EQ(parser.element_count(), 1u);
    EXPECT_EQ(parser.elements()[0].size, 2 + (size_t{8} << 20));
    // A few ordinary chunks later.
    std::string tail;
    while (tail.size() < 3 * window) tail += after;
    for (size_t at = 0; at < tail.size(); at += window) {
      ASSERT_EQ(feed(parser, std::string_view(tail).substr(at, window)), error_code::ok);
      ASSERT_EQ(feed(control, std::string_view(tail).substr(at, window)), error_code::ok);
    }
    EXPECT_LE(parser.memory_bytes(), control.memory_bytes() + window) << "still holding the huge element's buffers";
    ASSERT_EQ(feed(parser, "]"), error_code::ok);
    ASSERT_EQ(parser.finish(), error_code::ok);
    EXPECT_LE(parser.memory_bytes(), control.memory_bytes() + window) << "still holding them after finish()";
  }
}

// MARK: batches

bool is_ws(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r'; }

// A tiny JSON tokenizer: splits the text of `[m1, m2, ...]` into its members (strings and nesting respected,
// whitespace around members dropped). "" if the text has that shape, else what is wrong.
std::string split_json_array(std::string_view t, std::vector<std::string_view>& members) {
  size_t i = 0;
  const auto skip_ws = [&] {
    while (i < t.size() && is_ws(t[i])) ++i;
  };
  if (t.empty() || t[0] != '[') return "no opening bracket";
  i = 1;
  skip_ws();
  if (i < t.size() && t[i] == ']') return i + 1 == t.size() ? "" : "bytes after the array";
  for (;;) {
    const size_t start = i;
    int depth = 0;
    bool in_string = false;
    for (; i < t.size(); ++i) {
      const char c = t[i];
      if (in_string) {
        if (c == '\\') {
          ++i;
        } else if (c == '"') {
          in_string = false;
        }
        continue;
      }
      if (c == '"') {
        in_string = true;
      } else if (c == '[' || c == '{') {
        ++depth;
      } else if (c == ']' || c == '}') {
        if (depth == 0) break;
        --depth;
      } else if (c == ',' && depth == 0) {
        break;
      }
    }
    if (i >= t.size()) return "unterminated array";
    size_t end = i;
    while (end > start && is_ws(t[end - 1])) --end;
    if (end == start) return "empty member";
    members.push_back(t.substr(start, end - start));
    if (t[i] == ']') return i + 1 == t.size() ? "" : "bytes after the array";
    ++i;
    skip_ws();
  }
}

TEST(BatchTokenizer, SplitsOnlyWellFormedArrays) {
  std::vector<std::string_view> m;
  EXPECT_EQ(split_json_array("[ 1 ,\"a,]\\\"\" ,[2,{\"b\":3}]\n]", m), "");
  EXPECT_EQ(m, (std::vector<std::string_view>{"1", "\"a,]\\\"\"", "[2,{\"b\":3}]"}));
  m.clear();
  EXPECT_EQ(split_json_array("[]", m), "");
  EXPECT_TRUE(m.empty());
  EXPECT_NE(split_json_array("[1,]", m), "");
  EXPECT_NE(split_json_array("1,2]", m), "");
  EXPECT_NE(split_json_array("[1,2", m), "");
  EXPECT_NE(split_json_array("[1]x", m), "");
  m.clear();
  EXPECT_EQ(split_json_array("[1 2]", m), "");  // one member "1 2": never equal to an element
  EXPECT_EQ(m, (std::vector<std::string_view>{"1 2"}));
}

// The batches of the last call against the batch mode. "" if they keep the contract.
std::string check_call_batches(const push_parser& parser, batch_mode mode) {
  const size_t count = parser.element_count();
  if (mode == batch_mode::none) return parser.batch_count() == 0 ? "" : "batches without a batch mode";
  if (count == 0) return parser.batch_count() == 0 ? "" : "batches without elements";
  size_t next = 0;
  for (size_t b = 0; b < parser.batch_count(); ++b) {
    const batch& batch = parser.batches()[b];
    const std::string at = "batch " + std::to_string(b) + ": ";
    if (batch.first_element != next || batch.element_count == 0 || batch.first_element + batch.element_count > count)
      return at + "not the next run of elements";
    next += batch.element_count;
    const element* first = parser.elements() + batch.first_element;
    const std::string_view text(reinterpret_cast<const char*>(batch.data), batch.size);
    if (mode == batch_mode::json_array) {
      std::vector<std::string_view> members;
      const std::string problem = split_json_array(text, members);
      if (!problem.empty()) return at + problem + ": \"" + printable(text) + "\"";
      if (members.size() != batch.element_count) return at + "member count differs: \"" + printable(text) + "\"";
      if (!is_ascii(text)) return at + "not ASCII: \"" + printable(text) + "\"";
      for (size_t i = 0; i < members.size(); ++i) {
        if (canonical_json(members[i]) !=
            canonical_json(std::string_view(reinterpret_cast<const char*>(first[i].data), first[i].size)))
          return at + "member " + std::to_string(i) + " is not its element: \"" + printable(text) + "\"";
      }
    } else {
      const uint8_t* lo = first[0].data;
      const uint8_t* hi = first[0].data + first[0].size;
      for (size_t i = 1; i < batch.element_count; ++i) {
        lo = std::min(lo, first[i].data);
        hi = std::max(hi, first[i].data + first[i].size);
      }
      if (batch.data != lo || batch.data + batch.size != hi) return at + "not the smallest range covering its elements";
    }
  }
  return next == count ? "" : "batches leave elements out";
}

struct batch_run {
  std::vector<collected_element> elements;
  error_code status = error_code::ok;
  std::string problem;
  size_t batches = 0;
};

batch_run run_batches(std::string_view input, const parse_setup& s, const std::vector<size_t>& chunks) {
  batch_run out;
  push_parser parser(s.options);
  for (const std::string& p : s.paths) parser.add_path(p);
  size_t at = 0;
  const auto after_call = [&](const char* call) {
    for (collected_element& e : take(parser)) out.elements.push_back(std::move(e));
    out.batches += parser.batch_count();
    if (out.problem.empty()) {
      const std::string p = check_call_batches(parser, s.options.batches);
      if (!p.empty()) out.problem = std::string(call) + " ending at " + std::to_string(at) + ": " + p;
    }
  };
  for (const size_t n : chunks) {
    const error_code status = feed(parser, input.substr(at, n));
    at += n;
    after_call("feed");
    if (status != error_code::ok) break;
  }
  if (parser.status() == error_code::ok) {
    parser.finish();
    after_call("finish");
  }
  out.status = parser.status();
  return out;
}

struct batch_case {
  std::string input;
  std::vector<std::string> paths;
  bool ndjson;
};

TEST_P(PushParser, JsonArrayBatchesHoldExactlyTheirElements) {
  const batch_case cases[] = {
      {"[1, 2 ,3,\n\"a,b\" , [4,[5]] ,{\"c\":\"]\"}]", {"$[*]"}, false},
      {"[1,2,3]", {"$[*]", "$[1]"}, false},
      {"[1,[2,3]]", {"$", "$[*]", "$[*][*]"}, false},
      {"{\"a\":1, \"b\" : [2], \"c\":{\"d\":\"}\"}}", {"$.*"}, false},
      {"{\"a\":[1,2],\"b\":[3]}", {"$.a[*]", "$.b"}, false},
      {"1\n2\n3\n", {}, true},
      {"1\r\n\"x\"\n\n[3]\n", {}, true},
      {"{}{}[][]\"a\"\"b\"", {}, true},
      {"1 2 3", {}, true},
      {"[1,2]\n[3]", {"$[*]"}, true},
      {"[\"" + std::string(300, 'x') + "\", 1, {\"y\":\"" + std::string(200, 'z') + "\"}, 2]", {"$[*]"}, false},
  };
  for (const batch_case& c : cases) {
    parse_setup s = setup(c.paths, c.ndjson);
    s.options.batches = batch_mode::json_array;
    const parse_outcome plain = parse_one_shot(c.input, setup(c.paths, c.ndjson));
    ASSERT_EQ(plain.status, error_code::ok) << printable(c.input);
    for (const std::vector<size_t>& chunks : chunkings(c.input.size(), 7)) {
      const batch_run r = run_batches(c.input, s, chunks);
      SCOPED_TRACE("input \"" + printable(c.input) + "\" in chunks " + chunks_text(chunks));
      ASSERT_EQ(r.status, error_code::ok);
      ASSERT_EQ(r.problem, "");
      ASSERT_EQ(describe_difference(plain.elements, r.elements), "");
      ASSERT_GT(r.batches, 0u);
    }
  }
}

// Random documents, paths, chunkings and both batch modes: every call's batches keep the contract, and the
// elements are the reference splitter's.
TEST_P(PushParser, BatchesOnRandomDocuments) {
  const std::vector<std::vector<std::string>> path_sets = {{"$[*]"},       {"$.*"},    {"$", "$[*]"},
                                                           {"$.a", "$.*"}, {"$.*[*]"}, {"$[0]", "$[*]"}};
  const uint64_t seed0 = base_seed() ^ 0xBA7C;
  const size_t docs = env_count("SLUICE_BATCH_DOCS", 300);
  for (size_t k = 0; k < docs; ++k) {
    rng random(seed0 + k);
    const bool ndjson = random.chance(1, 4);
    json_shape shape;
    shape.max_bytes = 1500;
    const std::string input = ndjson ? random_ndjson(random, random.between(1, 12), shape) : random_json(random, shape);
    const std::vector<std::string> paths =
        ndjson && random.chance(1, 2) ? std::vector<std::string>{} : path_sets[random.below(path_sets.size())];
    std::vector<collected_element> expected;
    ASSERT_TRUE(reference_split(input, paths, ndjson, expected)) << "seed " << seed0 + k;
    for (const batch_mode mode : {batch_mode::json_array, batch_mode::cover}) {
      parse_setup s = setup(paths, ndjson);
      s.options.batches = mode;
      const std::vector<size_t> chunks = chunks_random(input.size(), random, random.chance(1, 2) ? 16 : 400);
      const batch_run r = run_batches(input, s, chunks);
      ASSERT_EQ(r.status, error_code::ok) << "seed " << seed0 + k;
      ASSERT_EQ(r.problem, "") << "seed " << seed0 + k << ", mode " << int(mode) << ", input \""
                               << printable(input, 400) << "\" in chunks " << chunks_text(chunks);
      ASSERT_EQ(describe_difference(expected, r.elements), "") << "seed " << seed0 + k << ", mode " << int(mode);
    }
  }
}

TEST_P(PushParser, CoverBatchesSpanTheirElements) {
  const batch_case cases[] = {
      {"[1, 2 ,3]", {"$[*]"}, false},
      {"[1,[2,3]]", {"$", "$[*]"}, false},
      {"{\"a\":1,\"b\":[2]}", {"$.*"}, false},
      {"1\n2 {}", {}, true},
  };
  for (const batch_case& c : cases) {
    parse_setup s = setup(c.paths, c.ndjson);
    s.options.batches = batch_mode::cover;
    const parse_outcome plain = parse_one_shot(c.input, setup(c.paths, c.ndjson));
    for (const std::vector<size_t>& chunks : chunkings(c.input.size(), 11)) {
      const batch_run r = run_batches(c.input, s, chunks);
      SCOPED_TRACE("input \"" + printable(c.input) + "\" in chunks " + chunks_text(chunks));
      ASSERT_EQ(r.problem, "");
      ASSERT_EQ(describe_difference(plain.elements, r.elements), "");
    }
  }
  // One feed, one region: one batch whose range is the elements' span.
  parse_setup s = setup();
  s.options.batches = batch_mode::cover;
  push_parser parser(s.options);
  ASSERT_EQ(feed(parser, "[ 10 , 20 ]"), error_code::ok);
  ASSERT_EQ(parser.batch_count(), 1u);
  EXPECT_EQ(std::string_view(reinterpret_cast<const char*>(parser.batches()[0].data), parser.batches()[0].size),
            "10 , 20");
}

// MARK: the carry

// Elements (and keys) that began in earlier chunks are served from the carry; their bytes stay readable until the
// next call, including when several complete in one call and the carry had to grow during it. take() reads
// every byte after each call, so ASan reports any pointer into freed memory.
TEST_P(PushParser, CarriedElementsStayValidUntilNextCall) {
  rng random(base_seed() ^ 0xCA44);
  const std::vector<std::vector<std::string>> path_sets = {
      {"$", "$[*]", "$[*][*]"}, {"$.*", "$.*.*"}, {"$[*]"}, {"$.a", "$.*[*]"}};
  size_t from_carry = 0;
  for (int k = 0; k < 240; ++k) {
    json_shape shape;
    shape.max_bytes = 6000;
    shape.max_nesting = 5;
    const bool ndjson = k % 3 == 0;
    const std::string input = ndjson ? random_ndjson(random, 8, shape) : random_json(random, shape);
    const std::vector<std::string>& paths = path_sets[k % path_sets.size()];
    std::vector<collected_element> expected;
    ASSERT_TRUE(reference_split(input, paths, ndjson, expected));
    push_parser parser(setup(paths, ndjson).options);
    for (const std::string& p : paths) ASSERT_TRUE(parser.add_path(p));
    std::vector<collected_element> got;
    size_t at = 0;
    while (at < input.size()) {
      // Mostly small chunks, so elements span many; now and then a large one that completes many at once.
      const size_t n = std::min(input.size() - at, size_t(random.chance(1, 8) ? 2000 : 1 + random.below(40)));
      ASSERT_EQ(feed(parser, std::string_view(input).substr(at, n)), error_code::ok);
      at += n;
      const uint8_t* window = parser.input_data();
      for (size_t i = 0; i < parser.element_count(); ++i) {
        const uint8_t* p = parser.elements()[i].data;
        if (p < window || p >= window + parser.input_capacity()) ++from_carry;
      }
      for (collected_element& e : take(parser)) got.push_back(std::move(e));
    }
    ASSERT_EQ(parser.finish(), error_code::ok);
    for (collected_element& e : take(parser)) got.push_back(std::move(e));
    ASSERT_EQ(describe_difference(expected, got), "") << "document " << k;
  }
  EXPECT_GT(from_carry, 100u) << "the carry was hardly exercised";
}

// MARK: add_path

TEST_P(PushParser, AddPath) {
  push_parser parser(setup().options);
  size_t error_at = 0;
  EXPECT_FALSE(parser.add_path("$[-1]", &error_at));
  EXPECT_EQ(error_at, 2u);
  EXPECT_FALSE(parser.add_path("$['a", &error_at));
  EXPECT_EQ(error_at, 4u);
  for (int i = 0; i < 32; ++i) ASSERT_TRUE(parser.add_path("$[" + std::to_string(i) + "]")) << i;
  EXPECT_FALSE(parser.add_path("$[32]", &error_at)) << "more than 32 paths";
  ASSERT_EQ(feed(parser, "[0,1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20,21,22,23,24,25,26,27,28,29,30,31,32]"),
            error_code::ok);
  const std::vector<collected_element> got = take(parser);
  ASSERT_EQ(got.size(), 32u);
  for (uint32_t i = 0; i < 32; ++i) {
    EXPECT_EQ(got[i].path_index, i);
    EXPECT_EQ(got[i].bytes, std::to_string(i));
  }

  push_parser late(setup().options);
  ASSERT_EQ(feed(late, "[1"), error_code::ok);
  EXPECT_FALSE(late.add_path("$")) << "paths are fixed by the first feed";
}

TEST_P(PushParser, DefaultPaths) {
  expect_ok("[1,[2]]", setup(), {el("1", "#0"), el("[2]", "#1")});
  expect_ok("[1]\n2", setup({}, true), {el("[1]", "#0"), el("2", "#1")});
}

TEST_P(PushParser, BytesFedAndWindow) {
  push_parser parser(setup().options);
  EXPECT_GE(parser.input_capacity(), size_t{64} << 10);
  ASSERT_EQ(feed(parser, "[1,"), error_code::ok);
  ASSERT_EQ(feed(parser, ""), error_code::ok);
  EXPECT_EQ(parser.bytes_fed(), 3u);
  ASSERT_TRUE(parser.reserve(size_t{1} << 20));
  EXPECT_GE(parser.input_capacity(), size_t{1} << 20);
  std::string big(size_t{1} << 20, ' ');
  big.back() = '2';
  ASSERT_EQ(feed(parser, big), error_code::ok);
  ASSERT_EQ(feed(parser, "]"), error_code::ok);
  EXPECT_EQ(describe_difference({el("2", "#1")}, take(parser)), "");
  EXPECT_EQ(parser.bytes_fed(), 4 + (size_t{1} << 20));
  EXPECT_EQ(parser.finish(), error_code::ok);
}

INSTANTIATE_TEST_SUITE_P(Kernels, PushParser, all_kernels(), kernel_param_name());

}  // namespace
}  // namespace sluice::test
