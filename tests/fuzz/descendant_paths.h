// The push parser fuzz target's queries with descendant segments (`..`) and slices: chosen by the input's
// configuration bytes, mixed with the target's linear path set, and the run's outcome judged against the
// descendant oracle (support/descendant_oracle.h) and against the run without these queries.
#ifndef SLUICE_TESTS_FUZZ_DESCENDANT_PATHS_H
#define SLUICE_TESTS_FUZZ_DESCENDANT_PATHS_H

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "support/collect.h"
#include "support/descendant_oracle.h"

namespace sluice::test {

struct descendant_setup {
  parse_setup setup;
  std::vector<std::vector<query_step>> queries;  // the steps of each of setup.paths, in order
};

// `base` with 1 to 3 random queries (support/random_query.h) drawn from a seed made of bytes 1-3 of the input,
// shuffled among base's own paths (base's batch mode, limits and NDJSON kept).
descendant_setup with_descendant_paths(const parse_setup& base, const uint8_t* config_bytes);

// Empty if `outcome` (of `setup`, from with_descendant_paths) is right, else what is wrong. `plain` is the run of
// the same input with base's paths: selectors change no verdict, so the error (code and position) must be plain's
// (ELEMENT_TOO_LARGE aside: which elements are kept depends on the selectors); an accepted input must yield the
// oracle's elements, in completion order, with their keys.
std::string judge_descendant_run(std::string_view input, const descendant_setup& setup, const parse_outcome& outcome,
                                 const parse_outcome& plain);

}  // namespace sluice::test

#endif  // SLUICE_TESTS_FUZZ_DESCENDANT_PATHS_H
