// NDJSON that survives a bad line (parser_options::skip_invalid), once per kernel: random streams of valid and
// broken lines, fed in random chunkings (one byte at a time too), give exactly what a model gives that parses each
// line on its own with the strict parser: the same elements (a bad line's elements completed before its error
// included) and the same reports (code, offset, line, column, the line's first bytes). Also the fixed cases: a
// value cut by its newline, two values on a line, per-line limits, a truncated last line, the count.
#include <gtest/gtest.h>

#include <cstring>
#include <ostream>
#include <string>
#include <string_view>
#include <vector>

#include "sluice/push_parser.h"
#include "support/collect.h"
#include "support/kernel_param.h"
#include "support/random_json.h"
#include "support/rng.h"

namespace sluice::test {
namespace {

struct report {
  error_code code;
  uint64_t offset, line, column;
  std::string text;
  bool operator==(const report& o) const {
    return code == o.code && offset == o.offset && line == o.line && column == o.column && text == o.text;
  }
};

void PrintTo(const report& r, std::ostream* os) {
  *os << "{code " << int(r.code) << ", offset " << r.offset << ", line " << r.line << ", column " << r.column
      << ", text " << printable(r.text, 60) << "}";
}

struct run_result {
  std::vector<std::string> elements;  // bytes, then "#" and the path index
  std::vector<report> reports;
  uint64_t skipped_lines = 0;
  error_code status = error_code::ok;
};

std::string describe(const run_result& r) {
  std::string s;
  for (const auto& e : r.elements) s += "  element " + printable(e, 60) + "\n";
  for (const auto& x : r.reports)
    s += "  report code " + std::to_string(int(x.code)) + " at " + std::to_string(x.offset) + " line " +
         std::to_string(x.line) + " col " + std::to_string(x.column) + " text " + printable(x.text, 60) + "\n";
  return s + "  status " + std::to_string(int(r.status)) + "\n";
}

parser_options options_for(kernel_kind kernel, bool skip, uint32_t depth, uint64_t bytes) {
  parser_options o;
  o.kernel = kernel;
  o.ndjson = skip;
  o.skip_invalid = skip;
  o.max_depth = depth;
  o.max_element_bytes = bytes;
  return o;
}

void take(push_parser& p, run_result& r) {
  for (size_t i = 0; i < p.element_count(); ++i) {
    const element& e = p.elements()[i];
    r.elements.push_back(std::string(reinterpret_cast<const char*>(e.data), e.size) + "#" +
                         std::to_string(e.path_index));
  }
  for (size_t i = 0; i < p.skipped_count(); ++i) {
    const skipped_line& s = p.skipped()[i];
    r.reports.push_back({error_code(s.code), uint64_t(s.offset), uint64_t(s.line), uint64_t(s.column),
                         std::string(reinterpret_cast<const char*>(s.text), s.text_len)});
  }
}

run_result run(std::string_view input, const parser_options& o, const std::vector<std::string>& paths,
               const std::vector<size_t>& chunks) {
  push_parser p(o);
  for (const auto& path : paths) EXPECT_TRUE(p.add_path(path));
  run_result r;
  size_t at = 0;
  for (size_t n : chunks) {
    if (n > p.input_capacity()) p.reserve(n);
    std::memcpy(p.input_data(), input.data() + at, n);
    at += n;
    r.status = p.feed(n);
    take(p, r);
    if (r.status != error_code::ok) return r;
  }
  r.status = p.finish();
  take(p, r);
  r.skipped_lines = p.skipped_lines();
  return r;
}

bool blank(std::string_view line) {
  for (char c : line)
    if (c != ' ' && c != '\t' && c != '\r') return false;
  return true;
}

// The model: each line parsed as a document of its own by the strict parser, behind one space (so that a leading
// byte order mark is an error, as it is in the middle of a stream) and before its newline. An end of input there
// is the line's end: UNEXPECTED_END at the newline.
run_result model(std::string_view input, kernel_kind kernel, uint32_t depth, uint64_t bytes,
                 const std::vector<std::string>& paths) {
  run_result r;
  size_t start = 0;
  uint64_t line_no = 1;
  while (start <= input.size()) {
    size_t nl = input.find('\n', start);
    const bool last = nl == std::string_view::npos;
    if (last) nl = input.size();
    const std::string_view line = input.substr(start, nl - start);
    if (!blank(line)) {
      const std::string doc = " " + std::string(line) + (last ? "" : "\n");
      push_parser p(options_for(kernel, false, depth, bytes));
      // The stream's default path is `$` (each line's value); a document's is `$[*]`.
      for (const auto& path : paths.empty() ? std::vector<std::string>{"$"} : paths) EXPECT_TRUE(p.add_path(path));
      p.reserve(doc.size());
      std::memcpy(p.input_data(), doc.data(), doc.size());
      run_result one;
      error_code st = p.feed(doc.size());
      take(p, one);
      if (st == error_code::ok) {
        st = p.finish();
        take(p, one);
      }
      r.elements.insert(r.elements.end(), one.elements.begin(), one.elements.end());
      if (st != error_code::ok) {
        uint64_t off = p.error().offset - 1;
        if (off > line.size()) off = line.size();
        r.reports.push_back({st, start + off, line_no, off + 1, std::string(line.substr(0, skipped_text_bytes))});
        ++r.skipped_lines;
      }
    }
    if (last) break;
    start = nl + 1;
    ++line_no;
  }
  return r;
}

// A stream of lines: valid documents on one line, broken ones, blank lines; ending with or without a newline.
std::string random_stream(rng& random) {
  std::string s;
  const size_t lines = random.between(1, 12);
  json_shape shape;
  shape.max_bytes = random.chance(1, 4) ? 400 : 120;
  for (size_t i = 0; i < lines; ++i) {
    std::string line;
    if (random.chance(1, 8)) {
      line = random.chance(1, 2) ? "" : " \t\r";
    } else {
      line = random_json(random, shape);
      if (line.compare(0, 3, "\xEF\xBB\xBF") == 0) line.erase(0, 3);
      for (char& c : line)
        if (c == '\n') c = ' ';  // whitespace: a raw newline is never inside a valid string
      if (random.chance(2, 5)) line = mutate_json(random, line);
    }
    s += line;
    if (i + 1 < lines || random.chance(1, 2)) s += random.chance(1, 6) ? "\r\n" : "\n";
  }
  // A leading byte order mark is skipped at the stream's start only: keep the model's view of the first line.
  if (!s.empty() && uint8_t(s[0]) == 0xEF) s.insert(0, " ");
  return s;
}

class NdjsonResync : public ::testing::TestWithParam<kernel_kind> {};

TEST_P(NdjsonResync, RandomStreamsMatchTheLineModelInEveryChunking) {
  rng random(base_seed() ^ 0x4E444A53);
  const uint64_t docs = env_count("SLUICE_RANDOM_DOCS", 300);
  const std::vector<std::vector<std::string>> path_sets = {{}, {"$[*]"}, {"$.a", "$.b[*]"}};
  for (uint64_t d = 0; d < docs; ++d) {
    const std::string input = random_stream(random);
    const uint32_t depth = random.chance(1, 4) ? 3 : 1024;
    const uint64_t bytes = random.chance(1, 4) ? 40 : uint64_t{1} << 20;
    const std::vector<std::string>& paths = path_sets[random.below(path_sets.size())];
    const run_result want = model(input, GetParam(), depth, bytes, paths);
    const parser_options o = options_for(GetParam(), true, depth, bytes);
    const std::vector<std::vector<size_t>> chunkings = {chunks_one_shot(input.size()), chunks_bytewise(input.size()),
                                                        chunks_random(input.size(), random, 70)};
    for (const auto& chunks : chunkings) {
      const run_result got = run(input, o, paths, chunks);
      ASSERT_EQ(got.status, error_code::ok) << printable(input);
      ASSERT_TRUE(got.elements == want.elements && got.reports == want.reports)
          << "input " << printable(input, 400) << "\nwant\n"
          << describe(want) << "got (" << chunks.size() << " chunks)\n"
          << describe(got);
      ASSERT_EQ(got.skipped_lines, want.skipped_lines);
    }
  }
}

run_result one_shot(kernel_kind kernel, std::string_view input, uint32_t depth = 1024, uint64_t bytes = 1 << 20) {
  return run(input, options_for(kernel, true, depth, bytes), {}, chunks_one_shot(input.size()));
}

TEST_P(NdjsonResync, EachLineIsOneDocument) {
  // A value cut by its newline, two values on one line, a bad line between good ones, CRLF and blank lines.
  // A bad line's elements completed before its error are delivered (2, then 1).
  const run_result r = one_shot(GetParam(), "[1,\n2]\n1 2\n{\"a\":1}\r\n\n  \ntru\n3");
  EXPECT_EQ(r.elements, (std::vector<std::string>{"2#0", "1#0", "{\"a\":1}#0", "3#0"})) << describe(r);
  ASSERT_EQ(r.reports.size(), 4u) << describe(r);
  EXPECT_EQ(r.reports[0], (report{error_code::unexpected_end, 3, 1, 4, "[1,"}));
  EXPECT_EQ(r.reports[1], (report{error_code::trailing_data, 5, 2, 2, "2]"}));
  EXPECT_EQ(r.reports[2], (report{error_code::trailing_data, 9, 3, 3, "1 2"}));
  EXPECT_EQ(r.reports[3], (report{error_code::invalid_literal, 27, 7, 4, "tru"}));
  EXPECT_EQ(r.skipped_lines, 4u);
  EXPECT_EQ(r.status, error_code::ok);
}

TEST_P(NdjsonResync, LimitsApplyPerLineAndATruncatedLastLineIsReported) {
  const run_result r = one_shot(GetParam(), "[[[1]]]\n[[1]]\n\"0123456789\"\n[\"abc", 2, 8);
  EXPECT_EQ(r.elements, (std::vector<std::string>{"[[1]]#0"})) << describe(r);
  ASSERT_EQ(r.reports.size(), 3u) << describe(r);
  EXPECT_EQ(r.reports[0].code, error_code::depth_limit);
  EXPECT_EQ(r.reports[1].code, error_code::element_too_large);
  EXPECT_EQ(r.reports[1].line, 3u);
  EXPECT_EQ(r.reports[2], (report{error_code::unexpected_end, 32, 4, 6, "[\"abc"}));
}

TEST_P(NdjsonResync, WithoutTheOptionAnErrorStaysFatal) {
  parser_options o = options_for(GetParam(), true, 1024, 1 << 20);
  o.skip_invalid = false;
  const run_result r = run("1\n2]\n3\n", o, {}, chunks_one_shot(7));
  EXPECT_EQ(r.status, error_code::expected_value);
  EXPECT_TRUE(r.reports.empty());
}

TEST_P(NdjsonResync, ALongBadLineKeepsItsFirstBytesAcrossCalls) {
  std::string line = "{\"k\":\"" + std::string(200, 'x') + "\" \"oops\"}";
  const std::string input = "1\n" + line + "\n2\n";
  const run_result r = run(input, options_for(GetParam(), true, 1024, 1 << 20), {}, chunks_bytewise(input.size()));
  EXPECT_EQ(r.elements, (std::vector<std::string>{"1#0", "2#0"})) << describe(r);
  ASSERT_EQ(r.reports.size(), 1u);
  EXPECT_EQ(r.reports[0].code, error_code::expected_comma_or_brace);
  EXPECT_EQ(r.reports[0].text, line.substr(0, skipped_text_bytes));
}

INSTANTIATE_TEST_SUITE_P(Kernels, NdjsonResync, all_kernels(), kernel_param_name());

}  // namespace
}  // namespace sluice::test
