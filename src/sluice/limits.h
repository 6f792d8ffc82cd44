// The limits of the core, each defined once. The bindings mirror them in the binding contract (wasm/contract.h,
// js/native/contract.ts), so the JS layer validates options against the same numbers.
#ifndef SLUICE_LIMITS_H
#define SLUICE_LIMITS_H

#include <cstddef>
#include <cstdint>

namespace sluice {

// Selectors of one push parser, markers included: each is a bit of a 32-bit mask in the selector automaton.
// openJson() spends this budget on one request (its path, the containers around it, the members it tracks).
constexpr size_t max_selectors = 32;
// Deepest nesting a parser or a lazy document accepts (parser_options::max_depth, lazy_options::max_depth).
constexpr uint32_t max_depth_limit = 1000000;
// Largest element (and key) a parser keeps: element sizes are 32-bit in the binding's records.
constexpr uint64_t max_element_bytes_limit = (uint64_t{1} << 32) - 1;

}  // namespace sluice

#endif  // SLUICE_LIMITS_H
