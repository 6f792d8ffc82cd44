// Marker selectors (push_parser::add_marker_path) and offset_of: a marker reports where the value it matches
// ends, as a size-0 element, without keeping its bytes (so max_element_bytes does not apply to it); the elements
// of ordinary paths inside it are unchanged, in every chunking; offset_of maps result addresses back to absolute
// stream offsets, in the window and in the carry.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstring>

#include <string>
#include <string_view>
#include <tuple>
#include <vector>

#include "sluice/push_parser.h"
#include "support/random_json.h"
#include "support/rng.h"

namespace sluice::test {
namespace {

struct seen {
  std::string bytes;  // "" for a marker
  uint32_t path;
  uint64_t end;  // absolute offset just past the value
};

std::vector<seen> run(std::string_view input, size_t chunk, const std::vector<std::string>& paths,
                      const std::vector<std::string>& markers, parser_options options = {},
                      error_code* status = nullptr) {
  options.batches = batch_mode::json_array;
  push_parser parser(options);
  for (const std::string& p : paths) EXPECT_TRUE(parser.add_path(p));
  for (const std::string& p : markers) EXPECT_TRUE(parser.add_marker_path(p));
  std::vector<seen> out;
  const auto collect = [&] {
    for (size_t i = 0; i < parser.element_count(); ++i) {
      const element& e = parser.elements()[i];
      seen s{std::string(reinterpret_cast<const char*>(e.data), e.size), e.path_index,
             parser.offset_of(e.data + e.size)};
      if (e.size == 0) {
        EXPECT_EQ(e.key_data, nullptr);
      }
      out.push_back(s);
    }
    // The batch text stays valid JSON: a marker is written as 0.
    if (parser.batch_count() != 0) {
      const batch& b = parser.batches()[0];
      EXPECT_EQ(b.data[0], '[');
      EXPECT_EQ(b.data[b.size - 1], ']');
    }
  };
  error_code st = error_code::ok;
  for (size_t at = 0; at < input.size() && st == error_code::ok; at += chunk) {
    const size_t n = std::min(chunk, input.size() - at);
    std::memcpy(parser.input_data(), input.data() + at, n);
    st = parser.feed(n);
    collect();
  }
  if (st == error_code::ok) {
    st = parser.finish();
    collect();
  }
  if (status) *status = st;
  return out;
}

TEST(MarkerPath, ReportsContainerEndsWithoutBytes) {
  const std::string doc = R"({"a":{"rows":[1,"x",{"k":[2]},[3]],"n":4},"total":5})";
  for (size_t chunk : {size_t(1), size_t(3), size_t(7), size_t(64), doc.size()}) {
    const std::vector<seen> got = run(doc, chunk, {"$.a.rows[*]", "$.total"}, {"$.a.rows", "$.a"});
    ASSERT_EQ(got.size(), 7u) << chunk;
    EXPECT_EQ(got[0].bytes, "1");
    EXPECT_EQ(got[1].bytes, "\"x\"");
    EXPECT_EQ(got[2].bytes, R"({"k":[2]})");
    EXPECT_EQ(got[3].bytes, "[3]");
    // The markers: rows ends, then a ends, each at the offset just past its closing bracket.
    EXPECT_EQ(got[4].bytes, "");
    EXPECT_EQ(got[4].path, 2u);
    EXPECT_EQ(got[4].end, doc.find("],\"n\"") + 1);
    EXPECT_EQ(got[5].path, 3u);
    EXPECT_EQ(got[5].end, doc.find(",\"total\""));
    EXPECT_EQ(got[6].bytes, "5");
    EXPECT_EQ(got[6].end, doc.size() - 1);
    for (size_t i = 0; i < 4; ++i)
      EXPECT_EQ(doc.substr(got[i].end - got[i].bytes.size(), got[i].bytes.size()), got[i].bytes);
  }
}

TEST(MarkerPath, IgnoresTheElementSizeLimit) {
  std::string doc = R"({"big":[)";
  for (int i = 0; i < 5000; ++i) doc += i ? ",\"abcdefgh\"" : "\"abcdefgh\"";
  doc += R"(],"after":[1,2]})";
  parser_options options;
  options.max_element_bytes = 100;
  error_code status;
  const std::vector<seen> got = run(doc, 4096, {"$.after[*]"}, {"$.big", "$.after"}, options, &status);
  EXPECT_EQ(status, error_code::ok);
  ASSERT_EQ(got.size(), 4u);
  EXPECT_EQ(got[0].path, 1u);
  EXPECT_EQ(got[0].end, doc.find(",\"after\""));
  EXPECT_EQ(got[1].bytes, "1");
  EXPECT_EQ(got[2].bytes, "2");
  EXPECT_EQ(got[3].path, 2u);
}

TEST(MarkerPath, SameValueAsOrdinaryPathAndScalars) {
  const std::string doc = R"([10,"s",true,{"x":[]}])";
  for (size_t chunk : {size_t(1), size_t(2), size_t(64)}) {
    // A wildcard marker over scalars in an array (the fast path must leave them to the general path), and a
    // value chosen by both a marker and an ordinary path.
    const std::vector<seen> got = run(doc, chunk, {"$[3]"}, {"$[*]", "$[3].x"});
    std::vector<std::string> bytes;
    for (const seen& s : got) bytes.push_back(s.bytes + "@" + std::to_string(s.path) + ":" + std::to_string(s.end));
    EXPECT_EQ(bytes, (std::vector<std::string>{"@1:3", "@1:7", "@1:12", "@2:20", "{\"x\":[]}@0:21", "@1:21"})) << chunk;
  }
}

TEST(MarkerPath, StartMarkersReportKeysWhereValuesStart) {
  const std::string doc = R"({"a\u0041":[1,{"x":2}],"b":"s","c":{"d":[]}})";
  for (size_t chunk : {size_t(1), size_t(2), size_t(5), size_t(64)}) {
    parser_options options;
    options.batches = batch_mode::json_array;
    push_parser parser(options);
    ASSERT_TRUE(parser.add_path("$.c.d"));
    ASSERT_TRUE(parser.add_start_marker_path("$.*"));
    ASSERT_TRUE(parser.add_start_marker_path("$.aA[*]"));
    std::vector<std::string> got;
    const auto collect = [&] {
      for (size_t i = 0; i < parser.element_count(); ++i) {
        const element& e = parser.elements()[i];
        std::string s = std::to_string(e.path_index) + ":" + std::to_string(parser.offset_of(e.data)) + ":";
        if (e.key == key_kind::name) s += std::string(reinterpret_cast<const char*>(e.key_data), e.key_size);
        if (e.key == key_kind::index) s += "#" + std::to_string(e.index());
        s += ":" + std::string(reinterpret_cast<const char*>(e.data), e.size);
        got.push_back(s);
      }
    };
    for (size_t at = 0; at < doc.size(); at += chunk) {
      const size_t n = std::min(chunk, doc.size() - at);
      std::memcpy(parser.input_data(), doc.data() + at, n);
      ASSERT_EQ(parser.feed(n), error_code::ok);
      collect();
    }
    ASSERT_EQ(parser.finish(), error_code::ok);
    collect();
    const auto at = [&](const char* text) { return std::to_string(doc.find(text)); };
    EXPECT_EQ(got, (std::vector<std::string>{
                       "1:" + at("[1") + ":\"a\\u0041\":", "2:" + at("1,") + ":#0:", "2:" + at("{\"x") + ":#1:",
                       "1:" + at("\"s\"") + ":\"b\":", "1:" + at("{\"d") + ":\"c\":", "0:" + at("[]}") + ":\"d\":[]"}))
        << chunk;
  }
}

// Random documents and chunkings: adding markers changes nothing about the ordinary elements, and each marker
// reports exactly the end (or start, and key) of the value the same path selects as an ordinary path.
TEST(MarkerPath, RandomDocumentsAgreeWithOrdinarySelection) {
  const char* pool[] = {"$", "$[*]", "$.a", "$.a[*]", "$.*", "$.*.b", "$[0]", "$[1].c", "$.b.*", "$.a.a", "$[*][*]"};
  rng random(base_seed() ^ 0x3a7c);
  const uint64_t docs = env_count("SLUICE_RANDOM_DOCS", 1500);
  struct item {
    uint32_t path;
    uint64_t start, end;
    std::string key, bytes;
    bool operator==(const item& o) const {
      return path == o.path && start == o.start && end == o.end && key == o.key && bytes == o.bytes;
    }
  };
  // kinds[i]: 0 ordinary, 1 end marker, 2 start marker.
  const auto run = [](const std::string& doc, const std::vector<std::string>& paths, const std::vector<int>& kinds,
                      const std::vector<size_t>& chunks) {
    push_parser parser;
    for (size_t i = 0; i < paths.size(); ++i) {
      const bool ok = kinds[i] == 0   ? parser.add_path(paths[i])
                      : kinds[i] == 1 ? parser.add_marker_path(paths[i])
                                      : parser.add_start_marker_path(paths[i]);
      EXPECT_TRUE(ok);
    }
    std::vector<item> out;
    const auto collect = [&] {
      for (size_t i = 0; i < parser.element_count(); ++i) {
        const element& e = parser.elements()[i];
        item it{e.path_index, parser.offset_of(e.data), parser.offset_of(e.data + e.size), "",
                std::string(reinterpret_cast<const char*>(e.data), e.size)};
        if (e.key == key_kind::name && e.key_data) it.key.assign(reinterpret_cast<const char*>(e.key_data), e.key_size);
        if (e.key == key_kind::index) it.key = "#" + std::to_string(e.index());
        out.push_back(it);
      }
    };
    size_t at = 0;
    for (size_t n : chunks) {
      std::memcpy(parser.input_data(), doc.data() + at, n);
      at += n;
      if (parser.feed(n) != error_code::ok) break;
      collect();
    }
    if (parser.status() == error_code::ok) {
      parser.finish();
      collect();
    }
    EXPECT_EQ(parser.status(), error_code::ok);
    return out;
  };
  uint64_t reported_ends = 0, reported_starts = 0, reported_ordinary = 0;
  for (uint64_t d = 0; d < docs; ++d) {
    json_shape shape;
    shape.max_bytes = 1500;
    shape.fill = random.chance(1, 2);
    const std::string doc = random_json(random, shape);
    const size_t n_ordinary = size_t(random.between(1, 2));
    const size_t n_markers = size_t(random.between(1, 4));
    std::vector<std::string> paths;
    std::vector<int> kinds;
    for (size_t i = 0; i < n_ordinary + n_markers; ++i) {
      paths.push_back(pool[random.below(sizeof pool / sizeof pool[0])]);
      kinds.push_back(i < n_ordinary ? 0 : int(random.between(1, 2)));
    }
    std::vector<size_t> chunks;
    for (size_t at = 0; at < doc.size();) {
      const size_t n = std::min<size_t>(doc.size() - at, random.between(1, random.chance(1, 2) ? 7 : 300));
      chunks.push_back(n);
      at += n;
    }
    const std::vector<item> with = run(doc, paths, kinds, chunks);
    // The ordinary elements alone, and every path as an ordinary one (one chunk).
    std::vector<item> plain = run(doc, std::vector<std::string>(paths.begin(), paths.begin() + n_ordinary),
                                  std::vector<int>(n_ordinary, 0), chunks);
    const std::vector<item> all = run(doc, paths, std::vector<int>(paths.size(), 0), {doc.size()});
    std::vector<item> ordinary, ends, starts;
    for (const item& it : with) {
      if (it.path < n_ordinary)
        ordinary.push_back(it);
      else if (kinds[it.path] == 1)
        ends.push_back({it.path, 0, it.end, "", ""});
      else
        starts.push_back({it.path, it.start, 0, it.key, ""});
    }
    ASSERT_EQ(ordinary, plain) << d << " " << doc;
    std::vector<item> want_ends, want_starts;
    for (const item& it : all) {
      if (it.path < n_ordinary) continue;
      if (kinds[it.path] == 1)
        want_ends.push_back({it.path, 0, it.end, "", ""});
      else
        want_starts.push_back({it.path, it.start, 0, it.key, ""});
    }
    const auto by_pos = [](const item& a, const item& b) {
      return std::tie(a.start, a.end, a.path) < std::tie(b.start, b.end, b.path);
    };
    std::sort(want_ends.begin(), want_ends.end(), by_pos);
    std::sort(ends.begin(), ends.end(), by_pos);
    std::sort(want_starts.begin(), want_starts.end(), by_pos);
    std::sort(starts.begin(), starts.end(), by_pos);
    ASSERT_EQ(ends, want_ends) << d << " " << doc;
    ASSERT_EQ(starts, want_starts) << d << " " << doc;
    reported_ends += ends.size();
    reported_starts += starts.size();
    reported_ordinary += ordinary.size();
  }
  // The pool's paths do select things in these documents: the comparisons above were not of empty lists.
  EXPECT_GT(reported_ends, docs);
  EXPECT_GT(reported_starts, docs);
  EXPECT_GT(reported_ordinary, docs);
}

}  // namespace
}  // namespace sluice::test
