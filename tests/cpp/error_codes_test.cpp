// The error codes stay in step with their documentation: error_name() of every code equals the table in
// HACKING.md (status, code, class), and every example input documented there and in src/sluice/error.h produces
// its code, with both kernels, fed at once and one byte at a time. Both files are read from the source tree, so
// editing either without the other fails here.
#include <gtest/gtest.h>

#include <cctype>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "sluice/error.h"
#include "sluice/push_parser.h"
#include "support/collect.h"
#include "support/files.h"

namespace sluice::test {
namespace {

// The repository root, from this file's path (CMake compiles sources by absolute path).
std::string repo_file(const std::string& relative) {
  std::string here = __FILE__;
  const size_t cut = here.rfind("/tests/cpp/");
  if (cut == std::string::npos) return relative;
  return here.substr(0, cut + 1) + relative;
}

std::string read_repo_file(const std::string& relative) {
  bool ok = false;
  std::string text = read_file(repo_file(relative), &ok);
  EXPECT_TRUE(ok) << "cannot read " << repo_file(relative);
  return text;
}

std::vector<std::string> lines_of(const std::string& text) {
  std::vector<std::string> lines;
  size_t start = 0;
  while (start <= text.size()) {
    size_t end = text.find('\n', start);
    if (end == std::string::npos) end = text.size();
    lines.push_back(text.substr(start, end - start));
    start = end + 1;
  }
  return lines;
}

std::string trim(const std::string& s) {
  const size_t b = s.find_first_not_of(" \t");
  if (b == std::string::npos) return "";
  return s.substr(b, s.find_last_not_of(" \t") - b + 1);
}

// The contents of each `...` span in `text`.
std::vector<std::string> backticked(const std::string& text) {
  std::vector<std::string> out;
  size_t at = 0;
  for (;;) {
    const size_t open = text.find('`', at);
    if (open == std::string::npos) break;
    const size_t close = text.find('`', open + 1);
    if (close == std::string::npos) break;
    out.push_back(text.substr(open + 1, close - open - 1));
    at = close + 1;
  }
  return out;
}

struct table_row {
  int status;
  std::string code;
  std::string error_class;
  std::string example;  // the raw markdown cell
};

// The rows of HACKING.md's "### Error codes" table.
std::vector<table_row> hacking_error_table() {
  std::vector<table_row> rows;
  bool in_section = false;
  for (const std::string& line : lines_of(read_repo_file("HACKING.md"))) {
    if (line.rfind("#", 0) == 0) {
      in_section = line == "### Error codes";
      continue;
    }
    if (!in_section || line.rfind("|", 0) != 0) continue;
    std::vector<std::string> cells;
    size_t start = 1;
    for (size_t bar = line.find('|', start); bar != std::string::npos; bar = line.find('|', start)) {
      cells.push_back(trim(line.substr(start, bar - start)));
      start = bar + 1;
    }
    if (cells.size() != 4 || cells[0].empty() || cells[0].find_first_not_of("0123456789") != std::string::npos) {
      continue;  // the header and the |---| rule
    }
    const std::vector<std::string> code = backticked(cells[1]);
    rows.push_back({std::stoi(cells[0]), code.size() == 1 ? code[0] : cells[1], cells[2], cells[3]});
  }
  return rows;
}

TEST(ErrorCodes, NamesMatchHackingTable) {
  const std::vector<table_row> rows = hacking_error_table();
  ASSERT_EQ(rows.size(), size_t(error_code_count - 1)) << "one row per status 1.." << error_code_count - 1;
  std::set<int> seen;
  for (const table_row& row : rows) {
    SCOPED_TRACE("status " + std::to_string(row.status));
    ASSERT_GE(row.status, 1);
    ASSERT_LT(row.status, error_code_count);
    EXPECT_TRUE(seen.insert(row.status).second) << "listed twice";
    const error_code code = error_code(row.status);
    EXPECT_EQ(error_name(code), row.code);
    EXPECT_EQ(is_limit_error(code), row.error_class == "JsonLimitError") << row.error_class;
    EXPECT_TRUE(row.error_class == "JsonLimitError" || row.error_class == "JsonSyntaxError") << row.error_class;
  }
}

TEST(ErrorCodes, NamesAreUniqueUpperCase) {
  EXPECT_STREQ(error_name(error_code::ok), "OK");
  std::set<std::string> names;
  for (int s = 0; s < error_code_count; ++s) {
    const std::string name = error_name(error_code(s));
    EXPECT_TRUE(names.insert(name).second) << name;
    EXPECT_EQ(name.find_first_not_of("ABCDEFGHIJKLMNOPQRSTUVWXYZ_8"), std::string::npos) << name;
  }
  EXPECT_STREQ(error_name(error_code(error_code_count)), "UNKNOWN");
}

// MARK: examples

// A documented example as bytes: <TAB> is a tab, \xHH a byte (`["\x"]` stays a backslash and an x).
std::string example_bytes(const std::string& text) {
  std::string out;
  for (size_t i = 0; i < text.size(); ++i) {
    if (text.compare(i, 5, "<TAB>") == 0) {
      out += '\t';
      i += 4;
      continue;
    }
    if (text[i] == '\\' && i + 3 < text.size() && text[i + 1] == 'x' && std::isxdigit(uint8_t(text[i + 2])) &&
        std::isxdigit(uint8_t(text[i + 3]))) {
      out += char(std::stoi(text.substr(i + 2, 2), nullptr, 16));
      i += 3;
      continue;
    }
    out += text[i];
  }
  return out;
}

parse_setup setup_for(kernel_kind kernel, uint64_t max_element_bytes = uint64_t{256} << 20) {
  parse_setup setup;
  setup.options.kernel = kernel;
  setup.options.max_element_bytes = max_element_bytes;
  return setup;
}

// Every kernel, at once and byte by byte: the code the input produces, or a description of the disagreement.
std::string code_of(const std::string& input, uint64_t max_element_bytes = uint64_t{256} << 20) {
  std::string result;
  for (kernel_kind kernel : {kernel_kind::best, kernel_kind::scalar}) {
    const parse_setup setup = setup_for(kernel, max_element_bytes);
    for (const parse_outcome& o :
         {parse_one_shot(input, setup), parse_chunked(input, setup, chunks_bytewise(input.size()))}) {
      const std::string name = error_name(o.status);
      if (result.empty()) result = name;
      if (name != result) return "inconsistent: " + result + " vs " + name;
    }
  }
  return result;
}

TEST(ErrorCodes, HackingTableExamplesProduceTheirCode) {
  for (const table_row& row : hacking_error_table()) {
    SCOPED_TRACE(row.code + ": " + row.example);
    const error_code code = error_code(row.status);
    const std::vector<std::string> examples = backticked(row.example);
    switch (code) {
      case error_code::depth_limit: {
        // "1025 nested `[`": one more than the default max_depth.
        ASSERT_EQ(examples, std::vector<std::string>{"["});
        ASSERT_NE(row.example.find("1025"), std::string::npos);
        EXPECT_EQ(code_of(std::string(1025, '[') + std::string(1025, ']')), row.code);
        EXPECT_EQ(code_of(std::string(1024, '[') + std::string(1024, ']')), "OK");
        break;
      }
      case error_code::element_too_large:
        EXPECT_EQ(code_of("[\"123456\"]", 8), "OK");
        EXPECT_EQ(code_of("[\"1234567\"]", 8), row.code);
        break;
      case error_code::out_of_memory:
        // Needs a heap that cannot grow: not producible in a native test (the name is checked above).
        break;
      default:
        ASSERT_EQ(examples.size(), 1u) << "one example input per row";
        EXPECT_EQ(code_of(example_bytes(examples[0])), row.code) << "input " << printable(example_bytes(examples[0]));
        break;
    }
  }
}

// The examples in the enum's comments (src/sluice/error.h): every `...` on the line of a code.
TEST(ErrorCodes, HeaderExamplesProduceTheirCode) {
  std::map<std::string, error_code> by_identifier;
  const char* const identifiers[] = {"ok",
                                     "expected_value",
                                     "expected_comma_or_bracket",
                                     "expected_comma_or_brace",
                                     "expected_key",
                                     "expected_colon",
                                     "trailing_data",
                                     "invalid_number",
                                     "invalid_literal",
                                     "control_character",
                                     "invalid_escape",
                                     "invalid_unicode_escape",
                                     "invalid_utf8",
                                     "unexpected_end",
                                     "depth_limit",
                                     "element_too_large",
                                     "out_of_memory"};
  for (int s = 0; s < error_code_count; ++s) by_identifier[identifiers[s]] = error_code(s);
  size_t checked = 0;
  for (const std::string& line : lines_of(read_repo_file("src/sluice/error.h"))) {
    const size_t eq = line.find(" = ");
    const size_t comment = line.find("//");
    if (eq == std::string::npos || comment == std::string::npos || eq > comment) continue;
    const std::string identifier = trim(line.substr(0, eq));
    const auto it = by_identifier.find(identifier);
    if (it == by_identifier.end()) continue;
    EXPECT_EQ(std::stoi(line.substr(eq + 3)), int(it->second)) << identifier;
    for (const std::string& example : backticked(line.substr(comment))) {
      const std::string input = example_bytes(example);
      EXPECT_EQ(code_of(input), error_name(it->second)) << identifier << ": input " << printable(input);
      ++checked;
    }
  }
  EXPECT_GE(checked, 20u) << "the header's examples were not found";
}

// error.h describes these in words rather than as inputs.
TEST(ErrorCodes, HeaderWordExamplesProduceTheirCode) {
  for (const char* bytes : {"\xC0\xAF", "\xED\xA0\x80", "\xF4\x90\x80\x80", "\xE2\x82", "\xF0\x9F\x98"}) {
    const std::string input = std::string("[\"") + bytes + "\"]";
    EXPECT_EQ(code_of(input), "INVALID_UTF8") << printable(input);
  }
  EXPECT_EQ(code_of(""), "UNEXPECTED_END");
  EXPECT_EQ(code_of("[1,2"), "UNEXPECTED_END");
}

}  // namespace
}  // namespace sluice::test
