// The verdict on text the lazy index found broken (or must check whole): the push parser's first error in a
// range of the document, run by lazy_validate.cpp in whatever links the index (natively, and in the wasm lazy
// module, which is the page's parser module with the index added).
#ifndef SLUICE_LAZY_VALIDATE_H
#define SLUICE_LAZY_VALIDATE_H

#include <cstdint>

#include "sluice/error.h"
#include "sluice/options.h"

namespace sluice {
namespace internal {

// The push parser's first error in bytes [start, end) of `d`, read as a document of their own, with its positions
// moved to where those bytes are in `d`; when it finds none, `if_valid` at `start` (line 1, column 1): ok for a
// range that only needed checking, out_of_memory where the index failed on text the parser accepts.
parse_error validate_range(const uint8_t* d, uint64_t start, uint64_t end, uint32_t max_depth, kernel_kind kernel,
                           error_code if_valid);

}  // namespace internal
}  // namespace sluice

#endif  // SLUICE_LAZY_VALIDATE_H
