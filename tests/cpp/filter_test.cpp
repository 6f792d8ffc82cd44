// The native filter evaluator (select/filter.h): RFC 9535 §2.3.5.2.2 comparisons on raw JSON text, corner by
// corner, then through the push parser with the element cut at every byte, and with the members the walk records.
#include "select/filter.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <string>
#include <utility>
#include <vector>

#include "sluice/push_parser.h"
#include "support/rng.h"

namespace sluice::test {
namespace {

using internal::filter_program;

bool passes(const std::string& program, const std::string& json) {
  filter_program f;
  size_t at = 0;
  EXPECT_TRUE(f.compile(program, &at)) << program << " at " << at;
  const auto* p = reinterpret_cast<const uint8_t*>(json.data());
  return f.accepts(p, p + json.size());
}

struct filter_case {
  const char* program;
  const char* json;
  bool pass;
};

const filter_case kCases[] = {
    // Numbers by value, whatever their form.
    {R"(@."a";L1=)", R"({"a":1.0})", true},
    {R"(@."a";L100=)", R"({"a":1e2})", true},
    {R"(@."a";L100=)", R"({"a":10E+1})", true},
    {R"(@."a";L0=)", R"({"a":-0})", true},
    {R"(@."a";L-0.5<)", R"({"a":-1e0})", true},
    {R"(@."a";L2l)", R"({"a":2.000})", true},
    {R"(@."a";L2<)", R"({"a":2.000})", false},
    {R"(@."a";L1000g)", R"({"a":999.9999})", false},
    // Strings after unescaping, ordered by code points (U+FFFF below U+1F600, though its UTF-16 unit is above).
    {R"(@."a";L"é"=)", R"({"a":"\u00e9"})", true},
    {R"(@."a";L"\u00e9"=)", R"({"a":"é"})", true},
    {R"(@."a";L"/\n"=)", R"({"a":"\/\u000a"})", true},
    {R"(@."a";L"😀"=)", R"({"a":"\ud83d\ude00"})", true},
    {R"(@."a";L"😀"<)", R"({"a":"\uffff"})", true},
    {R"(@."a";L"ab"<)", R"({"a":"a"})", true},
    {R"(@."a";L"a"<)", R"({"a":"a"})", false},
    {R"(@."a";L"b">)", R"({"a":"a"})", false},
    // Member names after unescaping too; the last of a repeated name, as JSON.parse keeps it.
    {R"(@."é";L1=)", R"({"\u00e9":1})", true},
    {R"(@."\u00e9";L1=)", R"({"\u00E9":1})", true},
    {R"(@."\u00e9";L1=)", R"({"é":1})", true},
    {R"(@."ab";L1=)", R"({"a\u0062":1})", true},
    {R"(@."a\u0062";L1=)", R"({"ab":1})", true},
    {R"(@."\u0061b";L1=)", R"({"ab":1})", true},
    {R"(@."ab";E)", R"({"a":1})", false},
    {R"(@."a";E)", R"({"ab":1})", false},
    {R"(@."a\"";E)", R"({"a\\":1})", false},
    {R"(@."a\\";E)", R"({"a\\":1})", true},
    {R"(@."a";L2=)", R"({"a":1,"a":2})", true},
    // Missing members and out-of-range indices are Nothing: equal only to Nothing, never ordered.
    {R"(@."x";Lnull=)", R"({"a":1})", false},
    {R"(@."x";Lnulln)", R"({"a":1})", true},
    {R"(@."x";@."y";=)", R"({"a":1})", true},
    {R"(@."x";@."a";<)", R"({"a":1})", false},
    {R"(@#3;E)", R"([1,2,3])", false},
    {R"(@#2;E)", R"([1,2,[]])", true},
    {R"(@."a"#1;L2=)", R"({"a":[1,2]})", true},
    {R"(@."a";E)", R"([{"a":1}])", false},
    // Across types: unequal, unordered, != true.
    {R"(@."a";L"1"=)", R"({"a":1})", false},
    {R"(@."a";L"1"n)", R"({"a":1})", true},
    {R"(@."a";Ltruel)", R"({"a":true})", true},
    {R"(@."a";Ltrue<)", R"({"a":true})", false},
    {R"(@."a";Lfalse=)", R"({"a":null})", false},
    {R"(@."a";Lnull=)", R"({"a":null})", true},
    // Containers: deep equality, never ordered.
    {R"(@."a";@."b";=)", R"({"a":{"p":[1,{"q":null}],"r":"s"},"b":{ "r":"s" , "p":[1.0,{"q":null}]}})", true},
    {R"(@."a";@."b";=)", R"({"a":{"p":1},"b":{"p":1,"q":2}})", false},
    {R"(@."a";@."b";=)", R"({"a":[1,2],"b":[1,2,3]})", false},
    {R"(@."a";@."b";=)", R"({"a":[],"b":{}})", false},
    {R"(@."a";@."b";l)", R"({"a":[1],"b":[1]})", true},
    {R"(@."a";@."b";<)", R"({"a":[1],"b":[2]})", false},
    // Logic.
    {R"(@."a";L1=@."b";E&)", R"({"a":1})", false},
    {R"(@."a";L1=@."b";E|)", R"({"a":1})", true},
    {R"(@."a";L1=~)", R"({"a":1})", false},
    {R"(@;E)", R"(7)", true},
    {R"(@;L7=)", R"( 7 )", true},
};

TEST(Filter, ComparesAsRfc9535) {
  for (const filter_case& c : kCases) EXPECT_EQ(passes(c.program, c.json), c.pass) << c.program << " on " << c.json;
}

// Numbers on both sides of the fast path (Clinger's: mantissa below 2^53, power of ten up to 22) read as strtod
// reads them.
TEST(Filter, NumbersAsStrtodReadsThem) {
  const char* numbers[] = {"0",
                           "-0",
                           "1",
                           "12.5e-3",
                           "123456789012345678",
                           "9007199254740993",
                           "1e22",
                           "1e23",
                           "1.5e-22",
                           "1e-23",
                           "0.1",
                           "0.30000000000000004",
                           "1e308",
                           "1e-320",
                           "4.9e-324",
                           "1E+2",
                           "-2.5E-0",
                           "100000000000000000000000",
                           "1234567890123456789",
                           "12345678901234567890",
                           "0.0000000000000000000012",
                           "-0.000000000000000000000",
                           "9007199254740992.5"};
  for (const char* a : numbers) {
    for (const char* b : numbers) {
      const double x = std::strtod(a, nullptr), y = std::strtod(b, nullptr);
      const std::string json = std::string("[") + a + "]";
      EXPECT_EQ(passes(std::string("@#0;L") + b + "=", json), x == y) << a << " == " << b;
      EXPECT_EQ(passes(std::string("@#0;L") + b + "<", json), x < y) << a << " < " << b;
    }
  }
}

// Strings are skipped a block of bytes at a time: an escape (or a run of them) at every offset from the member's
// start, so that one falls on each block's last bytes, never ends the string early or late. Each string holds a
// decoy member `"a":2` that only a wrong skip could see; the real one follows, then a scalar up to the end, in
// compact text and with blanks between the tokens.
TEST(Filter, SkipsStringsWithEscapesAtEveryOffset) {
  for (const char* escape : {R"(\")", R"(\\)", R"(\\\")", R"(\\\\)", R"(\u0022)", R"(\/)"}) {
    for (size_t pad = 0; pad < 80; ++pad) {
      const std::string text = std::string(pad, 'x') + escape + R"(,\"a\":2,)" + std::string(pad % 7, 'y') + escape;
      const std::string compact = R"({"s":")" + text + R"(","a":1,"t":[")" + text + R"("],"b":true})";
      EXPECT_TRUE(passes(R"(@."a";L1=)", compact)) << compact;
      EXPECT_TRUE(passes(R"(@."b";Ltrue=)", compact)) << compact;
      const std::string spaced = R"({ "s" : ")" + text + "\" ,\t\"a\" :\n1 , \"b\" : false }";
      EXPECT_TRUE(passes(R"(@."a";L1=)", spaced)) << spaced;
      EXPECT_TRUE(passes(R"(@."b";Lfalse=)", spaced)) << spaced;
    }
  }
}

TEST(Filter, RefusesMalformedPrograms) {
  for (const char* bad : {"", "@", "@.a;E", "L1", "L1=", "@;@;", "=", "@;Lx=", "@#;E", "@;L\"a=", "@;L1=&"}) {
    filter_program f;
    EXPECT_FALSE(f.compile(bad, nullptr)) << bad;
  }
}

TEST(Filter, DecidesElementsCutAtEveryByte) {
  const std::string doc =
      R"({"rows":[{"s":"\u00e9t\u00e9","n":10},{"s":"x","n":1e1},{"n":"10"},{"s":"été","n":9.5},7]})";
  const std::string path = R"($["rows"][?@."s";L"été"=@."n";L10=|])";
  std::vector<std::string> whole;
  for (size_t cut = 0; cut <= doc.size(); ++cut) {
    push_parser parser;
    ASSERT_TRUE(parser.add_path(path));
    std::vector<std::string> got;
    auto feed = [&](const std::string& part) {
      std::copy(part.begin(), part.end(), parser.input_data());
      ASSERT_EQ(parser.feed(part.size()), error_code::ok);
      for (size_t i = 0; i < parser.element_count(); ++i) {
        const element& e = parser.elements()[i];
        got.emplace_back(reinterpret_cast<const char*>(e.data), e.size);
      }
    };
    ASSERT_TRUE(parser.reserve(doc.size()));
    feed(doc.substr(0, cut));
    feed(doc.substr(cut));
    ASSERT_EQ(parser.finish(), error_code::ok);
    if (cut == 0) whole = got;
    EXPECT_EQ(got, whole) << "cut at " << cut;
  }
  EXPECT_EQ(whole, (std::vector<std::string>{R"({"s":"\u00e9t\u00e9","n":10})", R"({"s":"x","n":1e1})",
                                             R"({"s":"été","n":9.5})"}));
}

// The elements a parser keeps of `doc` under `path`, fed in pieces of `piece` bytes (0: at once).
std::vector<std::string> kept(const std::string& doc, const std::string& path, size_t piece) {
  push_parser parser;
  EXPECT_TRUE(parser.add_path(path));
  EXPECT_TRUE(parser.reserve(doc.size()));
  std::vector<std::string> got;
  const size_t step = piece == 0 ? doc.size() : piece;
  for (size_t at = 0; at < doc.size(); at += step) {
    const size_t n = std::min(step, doc.size() - at);
    std::copy(doc.begin() + long(at), doc.begin() + long(at + n), parser.input_data());
    EXPECT_EQ(parser.feed(n), error_code::ok);
    for (size_t i = 0; i < parser.element_count(); ++i) {
      const element& e = parser.elements()[i];
      got.emplace_back(reinterpret_cast<const char*>(e.data), e.size);
    }
  }
  EXPECT_EQ(parser.finish(), error_code::ok);
  return got;
}

// Objects of whole blocks, whose members the walk records so that the filter reads only their keys, decide
// as the scan of their bytes does: repeated names (the last kept), escaped names, the name inside strings and deeper
// objects, blanks around every token, values that end the object or not, more members than are recorded. Fed at
// once (recorded), in pieces of 100 bytes (windows whose short last block goes through the general path), and cut
// once at many offsets (a record spanning calls).
TEST(Filter, RecordedMembersDecideAsTheScan) {
  const char* members[] = {R"("a":1)",
                           R"("a" : 2)",
                           R"("\u0061":1)",
                           R"("ab":1)",
                           R"("b":1)",
                           R"("a":"x\"a\":1")",
                           R"("a":{"a":1,"b":[1,{"a":2}]})",
                           R"("b":{"b":[1,{"a":2}],"a":1})",
                           R"("a":[{"a":1},2])",
                           R"("a":null)",
                           "\"a\"\n:\t1.0 ",
                           R"("a":true)",
                           R"("b" : "x")",
                           R"("a\u0062":1)",
                           R"("\u00E9":1)",
                           R"("é":2)"};
  const char* programs[] = {R"(@."a";L1=)", R"(@."a";E)",   R"(@."a";@."b";=)", R"(@."a"."a";L1=)", R"(@."a";L"y"<)",
                            R"(@."b";E~)",  R"(@."a"#0;E)", R"(@."ab";L1=)",    R"(@."\u00e9";L1=)"};
  rng random(base_seed() + 33);
  for (int round = 0; round < 40; ++round) {
    std::vector<std::string> rows;
    std::string doc = R"({"rows":[)";
    for (int r = 0; r < 12; ++r) {
      std::string row = "{";
      const uint64_t count = random.skewed(40);
      for (uint64_t m = 0; m < count; ++m) {
        if (m != 0) row += random.chance(1, 3) ? " ,\n " : ",";
        if (random.chance(1, 3)) {
          row += R"("pad":")" + std::string(random.below(70), 'x') + (random.chance(1, 2) ? R"(\"")" : "\"");
        } else {
          row += random.pick(members);
        }
      }
      row += random.chance(1, 4) ? " }" : "}";
      rows.push_back(row);
      doc += (r != 0 ? ", " : "") + row;
    }
    doc += "]}";
    for (const char* program : programs) {
      std::vector<std::string> expected;
      for (const std::string& row : rows)
        if (passes(program, row)) expected.push_back(row);
      const std::string path = std::string(R"($["rows"][?)") + program + "]";
      EXPECT_EQ(kept(doc, path, 0), expected) << "round " << round << ", " << program << " on " << doc;
      EXPECT_EQ(kept(doc, path, 100), expected) << "round " << round << ", " << program << " in pieces";
      for (size_t cut = 1; cut < doc.size(); cut += 1 + random.below(97)) {
        push_parser parser;
        ASSERT_TRUE(parser.add_path(path));
        ASSERT_TRUE(parser.reserve(doc.size()));
        std::vector<std::string> got;
        for (const std::string& part : {doc.substr(0, cut), doc.substr(cut)}) {
          std::copy(part.begin(), part.end(), parser.input_data());
          ASSERT_EQ(parser.feed(part.size()), error_code::ok);
          for (size_t i = 0; i < parser.element_count(); ++i) {
            const element& e = parser.elements()[i];
            got.emplace_back(reinterpret_cast<const char*>(e.data), e.size);
          }
        }
        ASSERT_EQ(parser.finish(), error_code::ok);
        EXPECT_EQ(got, expected) << "round " << round << ", " << program << ", cut at " << cut;
      }
    }
  }
}

// The status and error position of a document fed in pieces (0: at once).
std::pair<error_code, uint64_t> verdict(const std::string& doc, const std::string& path, size_t piece) {
  push_parser parser;
  EXPECT_TRUE(parser.add_path(path));
  EXPECT_TRUE(parser.reserve(doc.size()));
  const size_t step = piece == 0 ? doc.size() : piece;
  for (size_t at = 0; at < doc.size() && parser.status() == error_code::ok; at += step) {
    const size_t n = std::min(step, doc.size() - at);
    std::copy(doc.begin() + long(at), doc.begin() + long(at + n), parser.input_data());
    parser.feed(n);
  }
  if (parser.status() == error_code::ok) parser.finish();
  return {parser.status(), parser.status() == error_code::ok ? 0 : uint64_t(parser.error().offset)};
}

// Inside an object a filter decides about, the member walk checks the grammar as the other walks do: a document
// spoilt at any byte is refused with the error, at the position, that `[*]` reports.
TEST(Filter, RecordedObjectsReportErrorsAsWithoutAFilter) {
  const std::string row =
      R"({"a":1,"b":[1,{"c":"x\"y"},true],"p":")" + std::string(40, 'z') + R"(","d":{"e":null},"f":-1.5e3})";
  std::string doc = R"({"rows":[)";
  for (int r = 0; r < 4; ++r) doc += (r != 0 ? "," : "") + row;
  doc += "]}";
  for (size_t at = 0; at < doc.size(); ++at) {
    for (const char c : {'x', '"', ',', '}', ']', '\\'}) {
      if (doc[at] == c) continue;
      std::string spoilt = doc;
      spoilt[at] = c;
      for (const size_t piece : {size_t(0), size_t(7)}) {
        EXPECT_EQ(verdict(spoilt, R"($["rows"][?@."a";E])", piece), verdict(spoilt, R"($["rows"][*])", piece))
            << "'" << c << "' at " << at << ", pieces of " << piece;
      }
    }
  }
}

}  // namespace
}  // namespace sluice::test
