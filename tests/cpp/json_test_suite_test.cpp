// JSONTestSuite (tests/corpus/JSONTestSuite): y_ accepted, n_ rejected with a syntax code (or DEPTH_LIMIT), i_ as
// tests/README.md's table says; every file also fed one byte at a time and split in two at every position, with
// elements and error (code, offset, line, column, byte) identical to one-shot parsing. Once per kernel.
#include <gtest/gtest.h>

#include <algorithm>
#include <cctype>
#include <map>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include "sluice/push_parser.h"
#include "support/collect.h"
#include "support/files.h"
#include "support/kernel_param.h"
#include "support/reference_splitter.h"

namespace sluice::test {
namespace {

// MARK: the i_ table of tests/README.md

struct i_outcome {
  bool accepted = false;
  std::string code;  // the error name when rejected
};

// Rows like "| `i_name.json` | accepted | why |" or "| `i_name.json` | rejected (INVALID_UTF8) | why |".
std::map<std::string, i_outcome> read_i_table(const std::string& readme) {
  std::map<std::string, i_outcome> table;
  size_t at = 0;
  while (at < readme.size()) {
    size_t end = std::min(readme.find('\n', at), readme.size());
    std::string line = readme.substr(at, end - at);
    at = end + 1;
    std::vector<std::string> cells;
    for (size_t bar = line.find('|'); bar != std::string::npos;) {
      size_t next = line.find('|', bar + 1);
      if (next == std::string::npos) break;
      std::string cell = line.substr(bar + 1, next - bar - 1);
      cell.erase(std::remove(cell.begin(), cell.end(), '`'), cell.end());
      size_t first = cell.find_first_not_of(' '), last = cell.find_last_not_of(' ');
      cells.push_back(first == std::string::npos ? "" : cell.substr(first, last - first + 1));
      bar = next;
    }
    if (cells.size() < 2 || cells[0].rfind("i_", 0) != 0) continue;
    i_outcome outcome;
    const std::string& text = cells[1];
    if (text == "accepted") {
      outcome.accepted = true;
    } else if (text.rfind("rejected (", 0) == 0 && text.back() == ')') {
      outcome.code = text.substr(10, text.size() - 11);
    } else {
      outcome.code = "unparsable outcome: " + text;
    }
    table[cells[0]] = outcome;
  }
  return table;
}

const std::map<std::string, i_outcome>& i_table() {
  static const std::map<std::string, i_outcome> table = read_i_table(read_file(tests_readme_path()));
  return table;
}

// MARK: helpers

std::vector<std::string> suite_files() { return list_files(json_test_suite_dir(), ".json"); }

parse_setup setup_for(kernel_kind kernel, std::vector<std::string> paths) {
  parse_setup s;
  s.options.kernel = kernel;
  s.paths = std::move(paths);
  return s;
}

// The error position is where the input says it is: line and column recomputed from the bytes before the offset,
// and the offending byte read at it (-1 at the end of input).
std::string check_error_position(const std::string& input, const parse_error& error) {
  if (error.offset > input.size()) return "offset past the end of input";
  uint64_t line = 1, line_start = 0;
  for (uint64_t i = 0; i < error.offset; ++i) {
    if (input[i] == '\n') {
      ++line;
      line_start = i + 1;
    }
  }
  int byte = error.offset < input.size() ? static_cast<unsigned char>(input[error.offset]) : -1;
  if (error.line != line) return "line " + std::to_string(error.line) + ", expected " + std::to_string(line);
  if (error.column != error.offset - line_start + 1) {
    return "column " + std::to_string(error.column) + ", expected " + std::to_string(error.offset - line_start + 1);
  }
  if (error.byte != byte) return "byte " + std::to_string(error.byte) + ", expected " + std::to_string(byte);
  return "";
}

// Two-chunk splits: every position, except in the two files over 16 KiB (n_structure_open_array_object, 250 KB,
// and n_structure_100000_opening_arrays, both rejected with DEPTH_LIMIT after a few KiB; every split there costs
// seconds under ASan): every position from 512 before the one-shot error to 256 after it, the three positions
// around every 64-byte block boundary before that, then every 509th position to the end.
std::vector<size_t> split_points(size_t size, const parse_outcome& one_shot) {
  std::vector<size_t> points;
  const size_t error_at = one_shot.status == error_code::ok ? size : one_shot.error.offset;
  const size_t dense_from = size <= 16384 ? 0 : (error_at > 512 ? error_at - 512 : 0);
  const size_t dense_until = size <= 16384 ? size : std::min<size_t>(size, error_at + 256);
  for (size_t at = 0; at <= size; ++at) {
    const bool dense = at >= dense_from && at <= dense_until;
    const bool block_edge = at < dense_from && (at % 64 <= 1 || at % 64 == 63);
    const bool sparse = at > dense_until && (at - dense_until) % 509 == 0;
    if (dense || block_edge || sparse || at == size) points.push_back(at);
  }
  return points;
}

// MARK: the tests

using suite_param = std::tuple<kernel_kind, std::string>;

class JsonTestSuite : public ::testing::TestWithParam<suite_param> {
 protected:
  kernel_kind kernel() const { return std::get<0>(GetParam()); }
  const std::string& name() const { return std::get<1>(GetParam()); }
  std::string input() const { return read_file(json_test_suite_dir() + "/" + name()); }
};

TEST_P(JsonTestSuite, OutcomeAndChunkingInvariance) {
  const std::string doc = input();
  const char kind = name()[0];
  // `$` gives the root as one element; `$[*]` and `$.*` split it, exercising keys, indices and both batch modes.
  const std::pair<const char*, batch_mode> setups[] = {
      {"$", batch_mode::none}, {"$[*]", batch_mode::json_array}, {"$.*", batch_mode::cover}};
  for (const auto& [path, batches] : setups) {
    SCOPED_TRACE(std::string("path ") + path);
    parse_setup setup = setup_for(kernel(), {path});
    setup.options.batches = batches;
    parse_outcome one_shot = parse_one_shot(doc, setup);
    const error_code status = one_shot.status;

    if (kind == 'y') {
      EXPECT_EQ(status, error_code::ok) << describe(one_shot.error);
    } else if (kind == 'n') {
      // A syntax error, or DEPTH_LIMIT (n_structure_100000_opening_arrays is too deep before it is truncated).
      EXPECT_TRUE((status >= error_code::expected_value && status <= error_code::unexpected_end) ||
                  status == error_code::depth_limit)
          << describe(one_shot.error);
    } else {
      auto row = i_table().find(name());
      ASSERT_NE(row, i_table().end()) << name() << " is missing from the i_ table in tests/README.md";
      if (row->second.accepted) {
        EXPECT_EQ(status, error_code::ok) << describe(one_shot.error);
      } else {
        EXPECT_NE(status, error_code::ok) << "accepted, the table says " << row->second.code;
        if (status != error_code::ok) {
          EXPECT_EQ(error_name(status), row->second.code);
        }
      }
    }

    if (status == error_code::ok) {
      std::vector<collected_element> expected;
      ASSERT_TRUE(reference_split(doc, {path}, false, expected));
      EXPECT_EQ(describe_difference(expected, one_shot.elements), "");
    } else {
      EXPECT_EQ(check_error_position(doc, one_shot.error), "");
      EXPECT_EQ(one_shot.status_after_error, status) << "the error must be sticky";
      EXPECT_EQ(one_shot.elements_after_error, 0u);
    }

    EXPECT_EQ(one_shot.batch_problem, "");

    parse_outcome bytewise = parse_chunked(doc, setup, chunks_bytewise(doc.size()));
    EXPECT_EQ(describe_difference(one_shot, bytewise), "") << "one byte at a time";
    EXPECT_EQ(bytewise.batch_problem, "") << "one byte at a time";

    if (std::string(path) != "$") continue;  // splits once per file: the other paths add little but time
    for (size_t at : split_points(doc.size(), one_shot)) {
      parse_outcome split = parse_chunked(doc, setup, chunks_split(doc.size(), at));
      std::string diff = describe_difference(one_shot, split);
      if (diff.empty()) diff = split.batch_problem;
      if (!diff.empty()) {
        ADD_FAILURE() << "split at " << at << ": " << diff;
        break;  // one split is enough to show the bug; the rest would repeat it
      }
    }
  }
}

std::string param_name(const ::testing::TestParamInfo<suite_param>& info) {
  std::string name = std::get<1>(info.param);
  name = name.substr(0, name.size() - 5);  // .json
  // Test names allow letters, digits and '_': other bytes become _xHH, which keeps names unique (1.0e+ vs 1.0e-).
  std::string out = std::string(kernel_name(std::get<0>(info.param))) + "_";
  for (unsigned char c : name) {
    if (std::isalnum(c) || c == '_') {
      out += static_cast<char>(c);
    } else {
      static const char hex[] = "0123456789ABCDEF";
      out += "_x";
      out += hex[c >> 4];
      out += hex[c & 15];
    }
  }
  return out;
}

INSTANTIATE_TEST_SUITE_P(Files, JsonTestSuite, ::testing::Combine(all_kernels(), ::testing::ValuesIn(suite_files())),
                         param_name);

TEST(JsonTestSuiteCopy, IsCompleteAndTheTableCoversEveryIFile) {
  std::vector<std::string> names = suite_files();
  size_t y = 0, n = 0, i = 0;
  for (const std::string& name : names) {
    y += name[0] == 'y';
    n += name[0] == 'n';
    if (name[0] == 'i') {
      ++i;
      auto row = i_table().find(name);
      EXPECT_NE(row, i_table().end()) << name << " is missing from the i_ table in tests/README.md";
      if (row != i_table().end()) {
        EXPECT_EQ(row->second.code.find("unparsable"), std::string::npos) << name;
      }
    }
  }
  // The upstream test_parsing folder holds 95 y_, 188 n_ and 35 i_ files.
  EXPECT_EQ(y, 95u);
  EXPECT_EQ(n, 188u);
  EXPECT_EQ(i, 35u);
  for (const auto& row : i_table()) {
    EXPECT_TRUE(std::binary_search(names.begin(), names.end(), row.first)) << row.first << " is not in the corpus";
  }
}

}  // namespace
}  // namespace sluice::test
