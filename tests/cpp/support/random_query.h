// Seeded random JSONPath queries mixing child and descendant segments, names (in several spellings, escapes
// included), wildcards, indices and forward slices, with the steps the descendant oracle evaluates them by.
#ifndef SLUICE_TESTS_SUPPORT_RANDOM_QUERY_H
#define SLUICE_TESTS_SUPPORT_RANDOM_QUERY_H

#include <string>
#include <vector>

#include "support/descendant_oracle.h"
#include "support/rng.h"

namespace sluice::test {

// A query of 0 to 3 segments: its text (from `$`), its steps appended to `steps`. Names among a, b, c and
// __proto__; indices and slice bounds small, so that small documents have something to select.
std::string random_query(rng& random, std::vector<query_step>& steps);

}  // namespace sluice::test

#endif  // SLUICE_TESTS_SUPPORT_RANDOM_QUERY_H
