// The JSONPath subset (internal/selector.h): every accepted form with the steps it compiles to, every rejected
// form with the exact index of the offending character, and unescape_json_string on every escape, by hand and
// against the test splitter's independent decoder on random strings.
#include "select/selector.h"
#include "scan/json_string.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "support/collect.h"
#include "support/reference_splitter.h"
#include "support/rng.h"

namespace sluice::test {
namespace {

using internal::parse_selector;
using internal::selector;
using internal::step;

// A step as written in the tables: "name:<bytes>", "index:<n>", "*" or "slice:<start>:<end>:<step>" (end empty
// when omitted), after ".." for a descendant segment.
std::string describe(const step& s) {
  const std::string segment = s.descendant ? ".." : "";
  switch (s.kind) {
    case step::by_name:
      return segment + "name:" + s.name;
    case step::by_index:
      return segment + "index:" + std::to_string(s.index);
    case step::wildcard:
      return segment + "*";
    case step::slice:
      return segment + "slice:" + std::to_string(s.index) + ":" +
             (s.end == internal::slice_unbounded ? "" : std::to_string(s.end)) + ":" + std::to_string(s.stride);
  }
  return "?";
}

struct accepted_case {
  std::string path;
  std::vector<std::string> steps;
};

const accepted_case kAccepted[] = {
    {"$", {}},
    {"$.name", {"name:name"}},
    {"$._under_score9", {"name:_under_score9"}},
    {"$.a.b.c", {"name:a", "name:b", "name:c"}},
    {"$['a']", {"name:a"}},
    {"$[\"a\"]", {"name:a"}},
    {R"($["a\"b"])", {"name:a\"b"}},
    {R"($['it\'s'])", {"name:it's"}},
    {R"($['say "hi"'])", {"name:say \"hi\""}},
    {R"($["it's"])", {"name:it's"}},
    {"$['']", {"name:"}},
    {"$['a.b[0]*$']", {"name:a.b[0]*$"}},
    {R"($['\\\/\b\f\n\r\t'])", {"name:\\/\b\f\n\r\t"}},
    {"$[*]", {"*"}},
    {"$.*", {"*"}},
    {"$[0]", {"index:0"}},
    {"$[12]", {"index:12"}},
    {"$[9007199254740991]", {"index:9007199254740991"}},
    {"$.données",
     {"name:donn\xC3\xA9"
      "es"}},
    {"$.\xE2\x82\xAC\xF0\x9F\x98\x80", {"name:\xE2\x82\xAC\xF0\x9F\x98\x80"}},
    {"$['日本']", {"name:\xE6\x97\xA5\xE6\x9C\xAC"}},
    {R"($['\u0041'])", {"name:A"}},
    {R"($['\u00e9\u00E9'])", {"name:\xC3\xA9\xC3\xA9"}},
    {R"($['\u20AC'])", {"name:\xE2\x82\xAC"}},
    {R"($["\uD83D\uDE00"])", {"name:\xF0\x9F\x98\x80"}},
    {R"($['\uDBFF\uDFFF'])", {"name:\xF4\x8F\xBF\xBF"}},
    // Lone and reversed surrogates stay code units, in their 3-byte (WTF-8) form, as unescape_json_string gives.
    {R"($['\uD800'])", {"name:\xED\xA0\x80"}},
    {R"($['\uD800x'])", {"name:\xED\xA0\x80x"}},
    {R"($['\uDC00\uD800'])", {"name:\xED\xB0\x80\xED\xA0\x80"}},
    {R"($['\uD800\u0041'])",
     {"name:\xED\xA0\x80"
      "A"}},
    {R"($['\u0000'])", {std::string("name:\0", 6)}},
    {"$[ 'a' ]", {"name:a"}},
    {"$[\t*\n]", {"*"}},
    {"$[\r\n 3 ]", {"index:3"}},
    {"$['a'][\"b\"][0].c[*].*", {"name:a", "name:b", "index:0", "name:c", "*", "*"}},
    {"$[0][1][2]", {"index:0", "index:1", "index:2"}},
    // Slices: every part optional, blanks around the parts, step 0 allowed (it selects nothing).
    {"$[1:5:2]", {"slice:1:5:2"}},
    {"$[1:]", {"slice:1::1"}},
    {"$[:3]", {"slice:0:3:1"}},
    {"$[::2]", {"slice:0::2"}},
    {"$[:]", {"slice:0::1"}},
    {"$[::]", {"slice:0::1"}},
    {"$[1:2:]", {"slice:1:2:1"}},
    {"$[0:0]", {"slice:0:0:1"}},
    {"$[3:1]", {"slice:3:1:1"}},
    {"$[1:5:0]", {"slice:1:5:0"}},
    {"$[ 1 : 5 : 2 ]", {"slice:1:5:2"}},
    {"$[\t:\n3\r]", {"slice:0:3:1"}},
    {"$[0:9007199254740992:9007199254740992]", {"slice:0:9007199254740992:9007199254740992"}},
    {"$.a[2:].b", {"name:a", "slice:2::1", "name:b"}},
    // Descendant segments.
    {"$..a", {"..name:a"}},
    {"$..*", {"..*"}},
    {"$..['a']", {"..name:a"}},
    {"$..[\"a b\"]", {"..name:a b"}},
    {"$..[*]", {"..*"}},
    {"$..[0]", {"..index:0"}},
    {"$..[1:3]", {"..slice:1:3:1"}},
    {"$..[ ::2 ]", {"..slice:0::2"}},
    {"$..données",
     {"..name:donn\xC3\xA9"
      "es"}},
    {"$.x..a[0]..*", {"name:x", "..name:a", "index:0", "..*"}},
    {"$..a..a", {"..name:a", "..name:a"}},
};

TEST(ParseSelector, AcceptedForms) {
  for (const accepted_case& c : kAccepted) {
    selector s;
    size_t error_at = 12345;
    ASSERT_TRUE(parse_selector(c.path, s, &error_at)) << "path " << printable(c.path) << " rejected at " << error_at;
    std::vector<std::string> got;
    for (const step& st : s.steps) got.push_back(describe(st));
    EXPECT_EQ(got, c.steps) << "path " << printable(c.path);
  }
}

TEST(ParseSelector, ReusedSelectorIsCleared) {
  selector s;
  ASSERT_TRUE(parse_selector("$.a.b", s, nullptr));
  ASSERT_TRUE(parse_selector("$[1]", s, nullptr));
  ASSERT_EQ(s.steps.size(), 1u);
  EXPECT_EQ(describe(s.steps[0]), "index:1");
}

struct rejected_case {
  std::string path;
  size_t error_at;
};

const rejected_case kRejected[] = {
    {"", 0},                 // no root
    {"a", 0},                //
    {"a.b", 0},              //
    {" $", 0},               // no blanks outside brackets
    {"$ ", 1},               //
    {"$a", 1},               // a step starts with . or [
    {"$.", 2},               // ends too early: the index is the path's length
    {"$[", 2},               //
    {"$[*", 3},              //
    {"$[0", 3},              //
    {"$['a", 4},             // unterminated name
    {"$['a'", 5},            //
    {"$['a\\", 5},           // unterminated escape
    {"$[\"]", 4},            //
    {"$[-1]", 2},            // negative index
    {"$[01]", 3},            // leading zero
    {"$[00]", 3},            //
    {"$[1:-2]", 4},          // negative slice bounds and steps
    {"$[-1:]", 2},           //
    {"$[::-1]", 4},          //
    {"$[1:2:3:4]", 7},       // a slice has three parts at most
    {"$[1:2 3]", 6},         //
    {"$[01:2]", 3},          // leading zeros in a slice
    {"$[1:02]", 5},          //
    {"$[1::00]", 6},         //
    {"$[:", 3},              // ends too early
    {"$[1:2", 5},            //
    {"$[1,2]", 3},           // union
    {"$['a','b']", 5},       //
    {"$[1 2]", 4},           //
    {"$[ ]", 3},             // empty brackets
    {"$[]", 2},              //
    {"$..", 3},              // descendant without a selector
    {"$...a", 3},            //
    {"$.. a", 3},            // no blank after ..
    {"$..0", 3},             //
    {"$..[-1]", 4},          //
    {"$..['a','b']", 7},     // union
    {"$..[?@.a]", 4},        // filter
    {"$[?(@)]", 3},          // a filter in RFC 9535 syntax, not the lowered program
    {"$[?(@.a>1)]", 3},      // a filter in RFC 9535 syntax, not the lowered program (select/filter.h)
    {"$[(@.length-1)]", 2},  // script
    {"$.1a", 2},             // a dot name cannot start with a digit
    {"$.-a", 2},             //
    {"$.a-b", 3},            // nor hold a dash
    {"$.a b", 3},            //
    {"$.a.", 4},             //
    {"$.*a", 3},             //
    {"$[*]]", 4},            //
    {"$['a'x]", 5},          //
    {"$[a]", 2},             // unquoted name in brackets
    {"$['\\x']", 4},         // invalid escape: at the escaped char
    {"$['\\u12']", 3},       // short \u: at the backslash
    {"$['\\u12G4']", 3},     //
    {"$['a\tb']", 4},        // raw control character
    {"$['a\nb']", 4},        //
    {"$.a$", 3},             //
};

TEST(ParseSelector, RejectedFormsWithErrorIndex) {
  for (const rejected_case& c : kRejected) {
    selector s;
    size_t error_at = 12345;
    EXPECT_FALSE(parse_selector(c.path, s, &error_at)) << "path " << printable(c.path) << " accepted";
    EXPECT_EQ(error_at, c.error_at) << "path " << printable(c.path);
    // A null error_at is allowed.
    EXPECT_FALSE(parse_selector(c.path, s, nullptr)) << "path " << printable(c.path);
  }
}

// Indices beyond any array (and beyond JS's exact integers) are rejected, never wrapped around.
TEST(ParseSelector, HugeIndexRejectedNotWrapped) {
  for (const char* path : {"$[99999999999999999999]", "$[18446744073709551617]", "$[184467440737095516160]",
                           "$[0:99999999999999999999]", "$[::18446744073709551617]", "$..[99999999999999999999]"}) {
    selector s;
    size_t error_at = 0;
    EXPECT_FALSE(parse_selector(path, s, &error_at)) << path;
    EXPECT_GT(error_at, 2u) << path;
    EXPECT_LT(error_at, std::string(path).size() - 1) << path;
  }
}

// MARK: unescape_json_string

std::string unescape(const std::string& contents, std::string out = "") {
  internal::unescape_json_string(reinterpret_cast<const uint8_t*>(contents.data()), contents.size(), out);
  return out;
}

TEST(UnescapeJsonString, EveryEscape) {
  const struct {
    std::string in, out;
  } cases[] = {
      {"", ""},
      {"plain text", "plain text"},
      {R"(\")", "\""},
      {R"(\\)", "\\"},
      {R"(\/)", "/"},
      {R"(\b\f\n\r\t)", "\b\f\n\r\t"},
      {R"(a\"b\\c)", "a\"b\\c"},
      {R"(\\\")", "\\\""},
      {R"(\u0041)", "A"},
      {R"(\u0000)", std::string("\0", 1)},
      {R"(\u007F\u0080)", "\x7F\xC2\x80"},
      {R"(\u07FF\u0800)", "\xDF\xBF\xE0\xA0\x80"},
      {R"(\u00e9\u00E9)", "\xC3\xA9\xC3\xA9"},
      {R"(\u20AC)", "\xE2\x82\xAC"},
      {R"(\uFFFF)", "\xEF\xBF\xBF"},
      {R"(\uD83D\uDE00)", "\xF0\x9F\x98\x80"},
      {R"(\ud83d\ude00)", "\xF0\x9F\x98\x80"},
      {R"(\uD800\uDC00)", "\xF0\x90\x80\x80"},
      {R"(\uDBFF\uDFFF)", "\xF4\x8F\xBF\xBF"},
      {R"(\uD800)", "\xED\xA0\x80"},
      {R"(\uDFFF)", "\xED\xBF\xBF"},
      {R"(\uD800x)", "\xED\xA0\x80x"},
      {R"(\uD800\n)", "\xED\xA0\x80\n"},
      {R"(\uD800\u0041)",
       "\xED\xA0\x80"
       "A"},
      {R"(\uD800\uD800)", "\xED\xA0\x80\xED\xA0\x80"},
      {R"(\uDC00\uD800)", "\xED\xB0\x80\xED\xA0\x80"},
      {R"(\uD83D\uDE00\uD83D)", "\xF0\x9F\x98\x80\xED\xA0\xBD"},
      {"raw \xC3\xA9\xF0\x9F\x98\x80 utf-8", "raw \xC3\xA9\xF0\x9F\x98\x80 utf-8"},
      {R"(x\u0041y\tz)", "xAy\tz"},
  };
  for (const auto& c : cases) EXPECT_EQ(unescape(c.in), c.out) << "contents " << printable(c.in);
}

TEST(UnescapeJsonString, AppendsToOutput) {
  EXPECT_EQ(unescape(R"(b\n)", "a"),
            "a"
            "b\n");
}

// Random valid string contents: every escape, \u in both cases, pairs, lone and reversed surrogates, raw UTF-8.
std::string random_string_contents(rng& random) {
  static const char* const kPieces[] = {
      "a",
      "Z",
      " ",
      "\\\"",
      "\\\\",
      "\\/",
      "\\b",
      "\\f",
      "\\n",
      "\\r",
      "\\t",
      "\\u0041",
      "\\u00e9",
      "\\u00E9",
      "\\u20ac",
      "\\uD83D\\uDE00",
      "\\uD800",
      "\\uDC00",
      "\\uDBFF",
      "\\uDFFF",
      "\\uffff",
      "\\u0000",
      "\xC3\xA9",
      "\xE2\x82\xAC",
      "\xF0\x9F\x98\x80",
      "'",
      "\\ud83d",
      "\\ude00",
      "\\u005C",
      "u",
      "\\u0022",
  };
  std::string s;
  const size_t n = random.below(12);
  for (size_t i = 0; i < n; ++i) s += random.pick(kPieces);
  return s;
}

TEST(UnescapeJsonString, AgreesWithIndependentDecoderOnRandomStrings) {
  rng random(base_seed() ^ 0x5E1EC7);
  for (int k = 0; k < 3000; ++k) {
    const std::string contents = random_string_contents(random);
    ASSERT_EQ(unescape(contents), decode_json_string("\"" + contents + "\"")) << "contents " << printable(contents);
  }
}

// A double-quoted name in a path decodes exactly like the same JSON string in a document, so a selector matches
// a key however either is spelled.
TEST(ParseSelector, QuotedNamesDecodeLikeJsonStrings) {
  rng random(base_seed() ^ 0xA11CE);
  for (int k = 0; k < 3000; ++k) {
    const std::string contents = random_string_contents(random);
    selector s;
    size_t error_at = 0;
    ASSERT_TRUE(parse_selector("$[\"" + contents + "\"]", s, &error_at)) << printable(contents) << " at " << error_at;
    ASSERT_EQ(s.steps.size(), 1u);
    ASSERT_EQ(s.steps[0].kind, step::by_name);
    ASSERT_EQ(s.steps[0].name, unescape(contents)) << "contents " << printable(contents);
  }
}

}  // namespace
}  // namespace sluice::test
