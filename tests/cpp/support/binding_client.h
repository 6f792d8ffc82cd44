// The push parser driven as the wasm binding and the JS layer drive it (wasm/bindings.cpp, js/native/session.ts,
// js/parse/materialise.ts), so that the native suites and the fuzz target check that protocol too: one workspace
// shared with another parser that runs between every two calls (so nothing of one call survives in the window or
// the tables), the parser saved to bytes and restored from them before every call, the carry kept by the caller,
// the elements read from the records (bytes before the window from the carry) and the batches checked against
// their contract (a carried element is `0` in a json_array batch, a batch of its own with null data in cover).
#ifndef SLUICE_TESTS_SUPPORT_BINDING_CLIENT_H
#define SLUICE_TESTS_SUPPORT_BINDING_CLIENT_H

#include <cstddef>
#include <string_view>
#include <vector>

#include "support/collect.h"

namespace sluice::test {

// What parse_chunked gives, obtained that way (chunks larger than the window are fed in window-sized pieces).
// Protocol breaches (a record reading bytes the caller was never told to keep, a batch breaking its contract, a
// saved state that does not load) land in batch_problem.
parse_outcome parse_chunked_like_binding(std::string_view input, const parse_setup& setup,
                                         const std::vector<size_t>& chunks);

}  // namespace sluice::test

#endif  // SLUICE_TESTS_SUPPORT_BINDING_CLIENT_H
