// lazy_index and lazy_cursor against an obvious recursive-descent walk of the same documents:
// - every container's member table (key and value spans, container ids) equals the walk's, on random documents,
//   for both kernels;
// - lazy validation is complete: a document is valid exactly when build(), every enumeration and the push
//   parser's verdict on every scalar member all accept it, and the errors reported are the push parser's own
//   (same code and absolute position) for the part read;
// - find() resolves duplicate and escaped keys like JSON.parse (last) or first-wins, keys_text()/values_text()
//   write the spans given;
// - the cursor, fed in random chunkings, reports every member of every container the walk finds, through each
//   of its operations (next/finish/enter, skip, read_run, leave).
// Once per kernel. Soak: SLUICE_LAZY_DOCS=... SLUICE_TEST_SEED=...
#include <gtest/gtest.h>

#include <cstring>
#include <string>
#include <vector>

#include "lazy/lazy_cursor.h"
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

using internal::cursor_record;
using internal::cursor_status;
using internal::lazy_cursor;

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
    const std::string doc = random.chance(1, 2) ? random_json(random, shape) : mutate_json(random, random_json(random, shape));
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
      ASSERT_TRUE(same_error(index.error(), truth)) << where << "\n lazy " << describe(index.error())
                                                    << "\n parser " << describe(truth);
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
    EXPECT_TRUE(same_error(index.error(), parser_verdict(doc, options().max_depth, options().kernel))) << doc << " " << describe(index.error());
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
  EXPECT_EQ(find("caf", false), -1);   // a prefix of the escaped "caf\u00e9"
  EXPECT_EQ(find("cafe", false), -1);  // as long as its raw spelling would be without the escape
  EXPECT_EQ(find("\\u0061", false), -1);  // the raw spelling of "a", as a key of its own

  size_t size = 0;
  const uint8_t* keys = index.keys_text(t, count, &size);
  EXPECT_EQ(std::string(reinterpret_cast<const char*>(keys), size),
            R"(["a","b","\u0061","c\"d","caf\u00e9","","b"])");
}

// An array's consecutive container members come from the container table, with only the bytes between them
// checked (enumerate_members' run of containers): any spacing lists the same members as the reference walk, and
// anything but whitespace and one comma there is the parser's error.
TEST_P(LazyIndex, ArraysOfContainersListFromTheTable) {
  const char* valid[] = {
      "[[1,2],[3,4],{\"a\":[5]},[],{}]", "[ [1] ,\n\t[2]\r\n, {} ,[ ] ]", "[[[1],[2]],[[3]],4,[5],\"x\",[6]]",
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
      "[[1],,[2]]", "[[1] [2]]", "[[1],\x01[2]]", "[[1],\x0c[2]]", "[[1], ,[2]]", "[[1],[2],]", "[[1],[2] 3]",
      "[[1],[2]\xC2\xA0,[3]]", "[{},{} {}]",
  };
  for (const char* doc : broken) {
    lazy_index index(options());
    ASSERT_EQ(build_index(index, doc), error_code::ok) << doc;
    uint32_t count = 0;
    ASSERT_EQ(index.children(0, &count), nullptr) << doc;
    EXPECT_TRUE(same_error(index.error(), parser_verdict(doc, options().max_depth, options().kernel))) << doc << " " << describe(index.error());
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

// MARK: the cursor

// Feeds `doc` to a cursor in the chunks given, driving one operation to completion.
class cursor_driver {
 public:
  cursor_driver(std::string_view doc, std::vector<size_t> chunks, kernel_kind kernel)
      : doc_(doc), chunks_(std::move(chunks)), cursor(kernel) {}

  template <class Op>
  cursor_status drive(Op op) {
    cursor_status s = op();
    while (s == cursor_status::need_input) s = feed_and_resume();
    return s;
  }

  // The next chunk (or the end of input), then resume() once.
  cursor_status feed_and_resume() {
    if (next_chunk_ < chunks_.size()) {
      const size_t n = chunks_[next_chunk_++];
      if (n > cursor.input_capacity()) cursor.reserve(n);
      if (n != 0) std::memcpy(cursor.input_data(), doc_.data() + fed_, n);
      fed_ += n;
      cursor.feed(n);
    } else {
      cursor.end_input();
    }
    return cursor.resume();
  }

 private:
  std::string_view doc_;
  std::vector<size_t> chunks_;
  size_t next_chunk_ = 0;
  size_t fed_ = 0;

 public:
  lazy_cursor cursor;
};

// Walks every container depth-first with next/finish/enter, choosing at random per member whether to enter it,
// read it, or skip it; and per container whether to read the rest as runs, skip some, or leave early. Checks each
// reported span against the reference walk.
struct cursor_walk {
  const reference_walk& ref;
  rng& random;
  cursor_driver& d;
  std::string where;
  size_t containers_checked = 0;

  // The cursor's focus is container `c` (just entered, nothing read).
  void container(size_t c) {
    const ref_container& box = ref.containers[c];
    size_t next_container = c + 1;
    bool left_paused = false;  // the previous member was paused at and neither entered nor read: skip() counts it
    for (size_t i = 0; i < box.members.size(); ++i) {
      const ref_member& m = box.members[i];
      switch (random.below(6)) {
        case 0: {  // the rest as runs of a few members
          const uint32_t max = uint32_t(random.between(1, 4));
          // (ReadRunReportsConsecutiveMembers checks the records; here, that the cursor stays consistent.)
          const cursor_status s = d.drive([&] { return d.cursor.read_run(max); });
          if (s == cursor_status::end) {
            ASSERT_EQ(d.cursor.value_end(), box.end + 1) << where;
            ++containers_checked;
            return;
          }
          ASSERT_EQ(s, cursor_status::paused) << where;
          return check_rest_by_leaving(c);
        }
        case 1: {  // skip this member and maybe a few more
          const uint64_t k = random.between(1, box.members.size() - i);
          ASSERT_EQ(d.drive([&] { return d.cursor.skip(left_paused ? k + 1 : k); }), cursor_status::paused) << where;
          left_paused = false;
          i += k - 1;
          while (next_container < ref.containers.size() && ref.containers[next_container].start < box.members[i].value_end)
            ++next_container;
          continue;
        }
        case 2:  // leave the container now
          return check_rest_by_leaving(c);
        default:
          break;
      }
      ASSERT_EQ(d.drive([&] { return d.cursor.next(); }), cursor_status::paused) << where;
      left_paused = true;
      if (m.key_end != 0) {
        ASSERT_EQ(d.cursor.key_start(), m.key_start) << where;
        ASSERT_EQ(d.cursor.key_end(), m.key_end) << where;
      }
      ASSERT_EQ(d.cursor.value_start(), m.value_start) << where;
      ASSERT_EQ(d.cursor.hold_from(), m.key_end != 0 ? m.key_start : m.value_start) << where;
      const bool is_container = next_container < ref.containers.size() && ref.containers[next_container].start == m.value_start;
      if (is_container && random.chance(2, 3)) {
        ASSERT_EQ(d.cursor.enter(), cursor_status::paused) << where;
        left_paused = false;
        const size_t inner = next_container;
        container(inner);
        if (::testing::Test::HasFatalFailure()) return;
        ASSERT_EQ(d.cursor.value_end(), m.value_end) << where;
      } else if (random.chance(1, 2)) {
        ASSERT_EQ(d.drive([&] { return d.cursor.finish(); }), cursor_status::paused) << where;
        ASSERT_EQ(d.cursor.value_end(), m.value_end) << where;
        left_paused = false;
      }  // else: the next next() skips it
      while (next_container < ref.containers.size() && ref.containers[next_container].start < m.value_end) ++next_container;
    }
    ASSERT_EQ(d.drive([&] { return d.cursor.next(); }), cursor_status::end) << where;
    ASSERT_EQ(d.cursor.value_end(), box.end + 1) << where;
    ++containers_checked;
  }

  void check_rest_by_leaving(size_t c) {
    ASSERT_EQ(d.drive([&] { return d.cursor.leave(); }), cursor_status::end) << where;
    ASSERT_EQ(d.cursor.value_end(), ref.containers[c].end + 1) << where;
  }
};

class LazyCursor : public ::testing::TestWithParam<kernel_kind> {};

TEST_P(LazyCursor, WalksEveryContainerInAnyChunking) {
  const uint64_t docs = env_count("SLUICE_LAZY_DOCS", 1500);
  for (uint64_t n = 0; n < docs; ++n) {
    const uint64_t seed = base_seed() ^ (n * 0x2545F4914F6CDD1DULL) ^ 0xC0;
    rng random(seed);
    json_shape shape;
    shape.max_bytes = random.chance(1, 10) ? 30000 : random.skewed(3000);
    const std::string doc = random_json(random, shape);
    const reference_walk ref(doc);
    std::vector<size_t> chunks;
    switch (random.below(3)) {
      case 0: chunks = chunks_one_shot(doc.size()); break;
      case 1: chunks = chunks_bytewise(doc.size()); break;
      default: chunks = chunks_random(doc.size(), random, 200); break;
    }
    cursor_driver d(doc, chunks, GetParam());
    cursor_walk walk{ref, random, d, "seed " + std::to_string(seed) + ": " + printable(doc)};
    ASSERT_EQ(d.drive([&] { return d.cursor.next(); }), cursor_status::paused) << walk.where;
    ASSERT_EQ(d.cursor.value_start(), ref.root_start) << walk.where;
    if (!ref.containers.empty() && random.chance(3, 4)) {
      ASSERT_EQ(d.cursor.enter(), cursor_status::paused) << walk.where;
      walk.container(0);
      if (HasFatalFailure()) return;
    } else {
      ASSERT_EQ(d.drive([&] { return d.cursor.finish(); }), cursor_status::paused) << walk.where;
      ASSERT_EQ(d.cursor.value_end(), ref.root_end) << walk.where;
    }
    ASSERT_EQ(d.drive([&] { return d.cursor.next(); }), cursor_status::end) << walk.where;
  }
}

TEST_P(LazyCursor, ReadRunReportsConsecutiveMembers) {
  rng random(base_seed() + 99);
  for (int n = 0; n < 400; ++n) {
    json_shape shape;
    shape.root = random.chance(1, 2) ? root_kind::array : root_kind::object;
    shape.fill = true;
    shape.max_bytes = random.skewed(5000);
    const std::string doc = random_json(random, shape);
    const reference_walk ref(doc);
    cursor_driver d(doc, chunks_random(doc.size(), random, 300), GetParam());
    ASSERT_EQ(d.drive([&] { return d.cursor.next(); }), cursor_status::paused);
    ASSERT_EQ(d.cursor.enter(), cursor_status::paused);
    std::vector<ref_member> seen;
    for (;;) {
      // One read_run call at a time, feeding by hand: records come back with need_input too.
      cursor_status s = d.cursor.read_run(uint32_t(random.between(1, 50)));
      const auto take = [&] {
        for (size_t i = 0; i < d.cursor.run_count(); ++i) {
          const cursor_record& r = d.cursor.run()[i];
          seen.push_back({r.key_start < 0 ? 0 : size_t(r.key_start), r.key_start < 0 ? 0 : size_t(r.key_end),
                          size_t(r.value_start), size_t(r.value_end)});
        }
      };
      take();
      while (s == cursor_status::need_input) {
        s = d.feed_and_resume();
        take();
      }
      if (s == cursor_status::end) break;
      ASSERT_EQ(s, cursor_status::paused);
    }
    ASSERT_EQ(seen, ref.containers[0].members) << printable(doc);
  }
}

INSTANTIATE_TEST_SUITE_P(Kernels, LazyCursor, all_kernels(), kernel_param_name());

}  // namespace
}  // namespace sluice::test
