// What the lazy index (sluice/lazy_index.h) and the stream cursor are checked against, shared by
// tests/cpp/lazy_index_test.cpp and the fuzz target tests/fuzz/fuzz_lazy_index.cpp: an obvious recursive-descent
// walk of a valid document, and the push parser's verdict on a whole document.
#ifndef SLUICE_TEST_LAZY_REFERENCE_H
#define SLUICE_TEST_LAZY_REFERENCE_H

#include <cstddef>
#include <string_view>
#include <vector>

#include "sluice/error.h"
#include "sluice/lazy_index.h"
#include "sluice/options.h"

namespace sluice::test {

struct ref_member {
  size_t key_start = 0, key_end = 0;  // 0, 0 for array elements
  size_t value_start = 0, value_end = 0;
  bool operator==(const ref_member& o) const {
    return key_start == o.key_start && key_end == o.key_end && value_start == o.value_start && value_end == o.value_end;
  }
};

struct ref_container {
  size_t start = 0, end = 0;  // brackets
  std::vector<ref_member> members;
};

// Containers in the order of their opening brackets. Assumes a valid document (a leading byte order mark skipped).
class reference_walk {
 public:
  explicit reference_walk(std::string_view text);
  std::vector<ref_container> containers;
  size_t root_start = 0, root_end = 0;

 private:
  void space();
  void string();
  void value();
  std::string_view t_;
  size_t i_ = 0;
};

// The push parser's verdict on the whole of `bytes`, with a selector that selects nothing.
parse_error parser_verdict(std::string_view bytes, uint32_t max_depth, kernel_kind kernel);

bool same_error(const parse_error& a, const parse_error& b);

// Copies `text` into the index and builds it.
error_code build_index(lazy_index& index, std::string_view text);

std::vector<ref_member> members_of(const lazy_child* table, uint32_t count);

// Reads a whole document the lazy way: every container listed, every scalar member checked by the parser.
// Returns the first error in reading order (code ok when everything is valid); `members` counts those listed.
parse_error read_everything(lazy_index& index, size_t* members = nullptr);

}  // namespace sluice::test

#endif  // SLUICE_TEST_LAZY_REFERENCE_H
