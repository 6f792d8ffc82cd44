// The expected elements of queries with descendant segments (`..`) and slices: RFC 9535's definition applied to a
// small DOM (each segment maps a nodelist to the next; `..` visits the input node and all its descendants), each
// selected node once (where RFC 9535 would list a node reached twice, the parser reports it once), delivered when
// its last byte arrives. Independent of the parser under test: no stage 1, no automaton, no chunks. Used by
// descendant_slice_test.cpp and the fuzz target; reference_splitter.h is the linear paths' counterpart.
#ifndef SLUICE_TESTS_SUPPORT_DESCENDANT_ORACLE_H
#define SLUICE_TESTS_SUPPORT_DESCENDANT_ORACLE_H

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "support/collect.h"

namespace sluice::test {

// One segment of a query: a child segment, or (descendant) a descendant segment, with one selector.
struct query_step {
  bool descendant = false;
  enum { by_name, wildcard, index, slice } kind = wildcard;
  std::string name;  // decoded
  uint64_t start = 0, end = ~uint64_t{0}, stride = 1;
};

// The steps of a path written in the forms the hand-written tests and the fuzz target's linear paths use: `.name`,
// `..name`, `*`, `['name']` / `["name"]` without escapes, `[N]`, `[a:b:c]` with non-negative bounds.
std::vector<query_step> steps_of(std::string_view path);

// The elements the parser must report for a valid document (or NDJSON stream, whose values are keyed by their
// number): per value, one per selector in selector order, values by their end.
std::vector<collected_element> expected_elements(std::string_view text, bool ndjson,
                                                 const std::vector<std::vector<query_step>>& queries);

// expected_elements of paths written as steps_of reads them.
std::vector<collected_element> oracle(std::string_view input, const std::vector<std::string>& paths,
                                      bool ndjson = false);

}  // namespace sluice::test

#endif  // SLUICE_TESTS_SUPPORT_DESCENDANT_ORACLE_H
