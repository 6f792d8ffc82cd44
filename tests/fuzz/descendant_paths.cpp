// Queries with `..` and slices for fuzz_push_parser (descendant_paths.h).
#include "descendant_paths.h"

#include <string>
#include <vector>

#include "support/descendant_oracle.h"
#include "support/random_query.h"
#include "support/rng.h"
#include "support/simdjson_oracle.h"

namespace sluice::test {

descendant_setup with_descendant_paths(const parse_setup& base, const uint8_t* config_bytes) {
  // Bytes 1-3 (the small limits and the chunking seed): a mutation of any of them draws other queries, so the
  // fuzzer steers them while the input format stays that of the seeds.
  rng random(0xD35CULL +
             (uint64_t{config_bytes[1]} | uint64_t{config_bytes[2]} << 8 | uint64_t{config_bytes[3]} << 16));
  descendant_setup d;
  d.setup = base;
  for (const std::string& path : base.paths) d.queries.push_back(steps_of(path));
  const uint64_t n = 1 + random.below(3);
  for (uint64_t k = 0; k < n; ++k) {
    std::vector<query_step> steps;
    const std::string path = random_query(random, steps);
    const size_t at = random.below(d.setup.paths.size() + 1);
    d.setup.paths.insert(d.setup.paths.begin() + at, path);
    d.queries.insert(d.queries.begin() + at, steps);
  }
  return d;
}

std::string judge_descendant_run(std::string_view input, const descendant_setup& setup, const parse_outcome& outcome,
                                 const parse_outcome& plain) {
  const parser_options& o = setup.setup.options;
  if (outcome.status == error_code::element_too_large) {
    return o.max_element_bytes >= input.size() ? "ELEMENT_TOO_LARGE with a limit above the input size" : "";
  }
  if (plain.status == error_code::element_too_large) {
    // The plain run stopped early: its verdict says nothing about the rest. Another error is judged by the
    // simdjson-backed checks of the plain run on other inputs; an acceptance is checked here.
    if (outcome.status != error_code::ok) return "";
    const oracle_verdict verdict = oracle_judge(input, o.ndjson);
    if (!verdict.valid || verdict.nesting > o.max_depth) return "accepted an input the oracle rejects";
  } else if (outcome.status != plain.status || describe(outcome.error) != describe(plain.error)) {
    return "ends with " + describe(outcome.error) + ", without these paths with " + describe(plain.error);
  }
  if (outcome.status != error_code::ok) return "";
  const std::vector<collected_element> expected = expected_elements(input, o.ndjson, setup.queries);
  const std::string diff = describe_difference(expected, outcome.elements);
  return diff.empty() ? "" : "elements differ from the descendant oracle: " + diff;
}

}  // namespace sluice::test
