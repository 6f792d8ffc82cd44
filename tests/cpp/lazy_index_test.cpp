// lazy_index against an obvious recursive-descent walk of the same documents:
// - every container's member table (key and value spans, container ids) equals the walk's, on random documents,
//   for both kernels;
// - lazy validation is complete: a document is valid exactly when build(), every enumeration and the push
//   parser's verdict on every scalar member all accept it, and the errors reported are the push parser's own
//   (same code and absolute position) for the part read;
// - find() resolves duplicate and escaped keys like JSON.parse (last) or first-wins, keys_text()/values_text()
//   write the spans given.
// Once per kernel. Soak: SLUICE_LAZY_DOCS=... SLUICE_TEST_SEED=...
#include <gtest/gtest.h>

#include <cstring>
#include <string>
#include <vector>

#include "sluice/lazy_index.h"
#include "sluice/push_parser.h"
#include "support/collect.h"
#include "support/kernel_param.h"
#include "support/lazy_reference.h"
#include "support/random_json.h"
#include "support/reference_splitter.h"
#include "support/rng.h"

namespace sluice::test {
namespace {

class LazyIndex : public ::testing::TestWithParam<kernel_kind> {
 protected:
  lazy_options options() const {
    lazy_options o;
    o.kernel = GetParam();
    return o;
  }
};

// MARK: tables

TEST_P(LazyIndex, MemberTablesEqualTheReferenceWalk) {
  const uint64_t docs = env_count("SLUICE_LAZY_DOCS", 1500);
  for (uint64_t n = 0; n < docs; ++n) {
    const uint64_t seed = base_seed() ^ (n * 0x9E3779B97F4A7C15ULL);
    rng random(seed);
    json_shape shape;
    shape.max_bytes = random.chance(1, 10) ? 40000 : random.skewed(3000);
    shape.fill = random.chance(1, 4);
    const std::string doc = random_json(random, shape);
    const std::string where = "seed " + std::to_string(seed) + ": " + printable(doc);
    lazy_index index(options());
    ASSERT_EQ(build_index(index, doc), error_code::ok) << where << " " << describe(index.error());
    const reference_walk walk(doc);
    ASSERT_EQ(index.root_start(), walk.root_start) << where;
    ASSERT_EQ(index.root_end(), walk.root_end) << where;
    ASSERT_EQ(index.container_count(), walk.containers.size()) << where;
    // The container table: brackets, and `next` the first container after the subtree.
    const sluice::lazy_container* boxes = index.container_table();
    ASSERT_EQ(boxes == nullptr, walk.containers.empty()) << where;
    for (uint32_t c = 0; c < walk.containers.size(); ++c) {
      ASSERT_EQ(boxes[c].start, walk.containers[c].start) << where << " container " << c;
      ASSERT_EQ(boxes[c].end, walk.containers[c].end) << where << " container " << c;
      uint32_t next = c + 1;
      while (next < walk.containers.size() && walk.containers[next].start < walk.containers[c].end) ++next;
      ASSERT_EQ(boxes[c].next, next) << where << " container " << c;
    }
    for (uint32_t c = 0; c < walk.containers.size(); ++c) {
      uint32_t count = 0;
      const lazy_child* table = index.children(c, &count);
      ASSERT_NE(table, nullptr) << where << " container " << c << " " << describe(index.error());
      ASSERT_EQ(members_of(table, count), walk.containers[c].members) << where << " container " << c;
      // Container ids: a member's id names the container starting at its value.
      for (uint32_t i = 0; i < count; ++i) {
        const char first = doc[table[i].value_start];
        ASSERT_EQ(table[i].first_byte, uint8_t(first)) << where;
        if (first == '{' || first == '[') {
          ASSERT_LT(table[i].container, walk.containers.size()) << where;
          ASSERT_EQ(walk.containers[table[i].container].start, table[i].value_start) << where;
        } else {
          ASSERT_EQ(table[i].container, lazy_no_container) << where;
        }
      }
    }
  }
}

TEST_P(LazyIndex, KernelsAgree) {
  rng random(base_seed() + 7);
  for (int n = 0; n < 300; ++n) {
    json_shape shape;
    shape.max_bytes = random.skewed(20000);
    const std::string doc =
        random.chance(1, 2) ? random_json(random, shape) : mutate_json(random, random_json(random, shape));
    lazy_options best;
    lazy_options scalar;
    scalar.kernel = kernel_kind::scalar;
    lazy_index a(best), b(scalar);
    const error_code ea = build_index(a, doc), eb = build_index(b, doc);
    ASSERT_EQ(ea, eb) << printable(doc);
    ASSERT_TRUE(same_error(a.error(), b.error())) << printable(doc);
    if (ea != error_code::ok) continue;
    for (uint32_t c = 0; c < a.container_count(); ++c) {
      uint32_t na = 0, nb = 0;
      const lazy_child* ta = a.children(c, &na);
      const lazy_child* tb = b.children(c, &nb);
      ASSERT_EQ(ta == nullptr, tb == nullptr) << printable(doc);
      if (ta == nullptr) {
        ASSERT_TRUE(same_error(a.error(), b.error())) << printable(doc);
        continue;
      }
      ASSERT_EQ(members_of(ta, na), members_of(tb, nb)) << printable(doc);
    }
  }
}

// MARK: validation

TEST_P(LazyIndex, ReadingEverythingValidatesLikeTheParser) {
  const uint64_t docs = env_count("SLUICE_LAZY_DOCS", 1500) * 2;
  size_t structural = 0, found_reading = 0;
  for (uint64_t n = 0; n < docs; ++n) {
    const uint64_t seed = base_seed() ^ (n * 0xD1B54A32D192ED03ULL) ^ 0xBAD;
    rng random(seed);
    json_shape shape;
    shape.max_bytes = random.skewed(4000);
    const std::string doc = mutate_json(random, random_json(random, shape));
    const std::string where = "seed " + std::to_string(seed) + ": " + printable(doc);
    const lazy_options o = options();
    const parse_error truth = parser_verdict(doc, o.max_depth, o.kernel);
    lazy_index index(o);
    const error_code built = build_index(index, doc);
    if (built != error_code::ok) {
      // A structural error: reported exactly as the parser reports the whole document.
      ASSERT_TRUE(same_error(index.error(), truth))
          << where << "\n lazy " << describe(index.error()) << "\n parser " << describe(truth);
      ++structural;
      continue;
    }
    const parse_error lazy = read_everything(index);
    ASSERT_EQ(lazy.code == error_code::ok, truth.code == error_code::ok)
        << where << "\n lazy " << describe(lazy) << "\n parser " << describe(truth);
    if (lazy.code == error_code::ok) continue;
    ++found_reading;
    // An error of the part read, in its absolute position: at or after the parser's first error in the document,
    // and a real one (the parser, given the document up to that point and no further, fails there too or before).
    ASSERT_GE(lazy.offset, truth.offset) << where;
  }
  // The mutations break documents both ways: in their structure, and in what only reading finds.
  EXPECT_GT(structural, docs / 10);
  EXPECT_GT(found_reading, docs / 20);
}

TEST_P(LazyIndex, ErrorsArePositionedInTheDocument) {
  struct error_case {
    const char* doc;
    error_code code;
    uint64_t offset, line, column;
  };
  // Enumerating the root finds these; positions are absolute even for errors inside members.
  const error_case cases[] = {
      {"[1 2]", error_code::expected_comma_or_bracket, 3, 1, 4},
      {"{\"a\" 1}", error_code::expected_colon, 5, 1, 6},
      {"[\n [],\n \"a\tb\"]", error_code::control_character, 10, 3, 4},
      {"{\"k\":\"\\x\"}", error_code::invalid_escape, 7, 1, 8},
      {"[tru]", error_code::invalid_literal, 4, 1, 5},
      {"[01]", error_code::invalid_number, 2, 1, 3},
      {"[1,]", error_code::expected_value, 3, 1, 4},
      {"{,}", error_code::expected_key, 1, 1, 2},
      {"[\"\xC0\xAF\"]", error_code::invalid_utf8, 2, 1, 3},
  };
  for (const error_case& e : cases) {
    lazy_index index(options());
    ASSERT_EQ(build_index(index, e.doc), error_code::ok) << e.doc;
    uint32_t count = 0;
    ASSERT_EQ(index.children(0, &count), nullptr) << e.doc;
    EXPECT_EQ(index.error().code, e.code) << e.doc;
    EXPECT_EQ(index.error().offset, e.offset) << e.doc;
    EXPECT_EQ(index.error().line, e.line) << e.doc;
    EXPECT_EQ(index.error().column, e.column) << e.doc;
  }
  // A nested container's error is the nested container's business: the root still enumerates.
  lazy_index nested(options());
  ASSERT_EQ(build_index(nested, "{\"ok\":1,\n\"bad\":[1,\n 2 3, \"padding padding padding padding padding padding\"]}"),
            error_code::ok);
  uint32_t count = 0;
  ASSERT_NE(nested.children(0, &count), nullptr);
  ASSERT_EQ(count, 2u);
  ASSERT_EQ(nested.children(1, &count), nullptr);
  EXPECT_EQ(nested.error().code, error_code::expected_comma_or_bracket);
  EXPECT_EQ(nested.error().offset, 22u);
  EXPECT_EQ(nested.error().line, 3u);
  EXPECT_EQ(nested.error().column, 4u);
  // Structural errors fail build() with the parser's verdict on the whole document.
  for (const char* doc : {"[1,{]", "{\"a\":[}", "[[[]]", "\"abc", "[] x", "", "  ", "[\"a\\\"]", "{}}"}) {
    lazy_index index(options());
    EXPECT_NE(build_index(index, doc), error_code::ok) << doc;
    EXPECT_TRUE(same_error(index.error(), parser_verdict(doc, options().max_depth, options().kernel)))
        << doc << " " << describe(index.error());
  }
  // Depth: the parser's limit, at the same bracket.
  lazy_options shallow = options();
  shallow.max_depth = 3;
  lazy_index deep(shallow);
  EXPECT_EQ(build_index(deep, "[[[1]]]"), error_code::ok);
  lazy_index deeper(shallow);
  EXPECT_EQ(build_index(deeper, "[[[[1]]]]"), error_code::depth_limit);
  EXPECT_EQ(deeper.error().offset, 3u);
}

TEST_P(LazyIndex, ScalarRootsAndTheByteOrderMark) {
  lazy_index number(options());
  ASSERT_EQ(build_index(number, " -12.5e3 \n"), error_code::ok);
  EXPECT_EQ(number.root_container(), lazy_no_container);
  EXPECT_EQ(number.root_start(), 1u);
  EXPECT_EQ(number.root_end(), 8u);
  lazy_index bad(options());
  EXPECT_EQ(build_index(bad, "\"a\\qb\""), error_code::invalid_escape);
  lazy_index bom(options());
  ASSERT_EQ(build_index(bom, "\xEF\xBB\xBF {\"a\":[1]}"), error_code::ok);
  EXPECT_EQ(bom.root_start(), 4u);
  uint32_t count = 0;
  const lazy_child* root = bom.children(0, &count);
  ASSERT_NE(root, nullptr);
  ASSERT_EQ(count, 1u);
  EXPECT_EQ(root[0].key_start, 5u);
}

// MARK: lookups and texts

TEST_P(LazyIndex, FindResolvesDuplicateAndEscapedKeys) {
  const std::string doc = R"({"a":1,"b":2,"\u0061":3,"c\"d":4,"caf\u00e9":5,"":6,"b":7})";
  lazy_index index(options());
  ASSERT_EQ(build_index(index, doc), error_code::ok);
  uint32_t count = 0;
  const lazy_child* t = index.children(0, &count);
  ASSERT_NE(t, nullptr);
  ASSERT_EQ(count, 7u);
  const auto find = [&](std::string_view key, bool first) {
    return index.find(t, count, reinterpret_cast<const uint8_t*>(key.data()), key.size(), first);
  };
  EXPECT_EQ(find("a", false), 2);  // "\u0061" is "a", and the last one wins
  EXPECT_EQ(find("a", true), 0);
  EXPECT_EQ(find("b", false), 6);
  EXPECT_EQ(find("b", true), 1);
  EXPECT_EQ(find("c\"d", false), 3);
  EXPECT_EQ(find("c\\\"d", false), -1);  // the raw spelling is not the key
  EXPECT_EQ(find("caf\xC3\xA9", false), 4);
  EXPECT_EQ(find("", false), 5);
  EXPECT_EQ(find("z", false), -1);
  EXPECT_EQ(find("caf", false), -1);      // a prefix of the escaped "caf\u00e9"
  EXPECT_EQ(find("cafe", false), -1);     // as long as its raw spelling would be without the escape
  EXPECT_EQ(find("\\u0061", false), -1);  // the raw spelling of "a", as a key of its own

  size_t size = 0;
  const uint8_t* keys = index.keys_text(t, count, &size);
  EXPECT_EQ(std::string(reinterpret_cast<const char*>(keys), size), R"(["a","b","\u0061","c\"d","caf\u00e9","","b"])");
}

// An array's consecutive container members come from the container table, with only the bytes between them
// checked (enumerate_members' run of containers): any spacing lists the same members as the reference walk, and
// anything but whitespace and one comma there is the parser's error.
TEST_P(LazyIndex, ArraysOfContainersListFromTheTable) {
  const char* valid[] = {
      "[[1,2],[3,4],{\"a\":[5]},[],{}]",
      "[ [1] ,\n\t[2]\r\n, {} ,[ ] ]",
      "[[[1],[2]],[[3]],4,[5],\"x\",[6]]",
      "[{\"a\":1},{\"b\":[2,3]},{\"c\":{}}]",
  };
  for (const char* doc : valid) {
    lazy_index index(options());
    ASSERT_EQ(build_index(index, doc), error_code::ok) << doc;
    const reference_walk walk(doc);
    for (uint32_t c = 0; c < walk.containers.size(); ++c) {
      uint32_t count = 0;
      const lazy_child* table = index.children(c, &count);
      ASSERT_NE(table, nullptr) << doc << " container " << c;
      EXPECT_EQ(members_of(table, count), walk.containers[c].members) << doc << " container " << c;
    }
  }
  const char* broken[] = {
      "[[1],,[2]]", "[[1] [2]]",   "[[1],\x01[2]]",         "[[1],\x0c[2]]", "[[1], ,[2]]",
      "[[1],[2],]", "[[1],[2] 3]", "[[1],[2]\xC2\xA0,[3]]", "[{},{} {}]",
  };
  for (const char* doc : broken) {
    lazy_index index(options());
    ASSERT_EQ(build_index(index, doc), error_code::ok) << doc;
    uint32_t count = 0;
    ASSERT_EQ(index.children(0, &count), nullptr) << doc;
    EXPECT_TRUE(same_error(index.error(), parser_verdict(doc, options().max_depth, options().kernel)))
        << doc << " " << describe(index.error());
  }
}

TEST_P(LazyIndex, ValuesTextLeavesLongContainersOut) {
  const std::string doc = R"([1,"two",[3,3,3,3,3,3,3,3,3,3],{"x":[]},null])";
  lazy_index index(options());
  ASSERT_EQ(build_index(index, doc), error_code::ok);
  uint32_t count = 0;
  const lazy_child* t = index.children(0, &count);
  ASSERT_NE(t, nullptr);
  size_t size = 0;
  const uint8_t* text = index.values_text(t, 0, count, 10, &size);
  EXPECT_EQ(std::string(reinterpret_cast<const char*>(text), size), R"([1,"two",0,{"x":[]},null])");
  text = index.values_text(t, 1, 3, 1000, &size);
  EXPECT_EQ(std::string(reinterpret_cast<const char*>(text), size), R"(["two",[3,3,3,3,3,3,3,3,3,3]])");
  text = index.values_text(t, 2, 2, 1000, &size);
  EXPECT_EQ(std::string(reinterpret_cast<const char*>(text), size), "[]");
}

INSTANTIATE_TEST_SUITE_P(Kernels, LazyIndex, all_kernels(), kernel_param_name());

}  // namespace
}  // namespace sluice::test
