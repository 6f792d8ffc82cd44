#ifndef SLUICE_STREAM_BATCHES_H
#define SLUICE_STREAM_BATCHES_H

#include <cstdint>

#include "stream/parser_state.h"

namespace sluice {
namespace internal {

// Builds the batches of the last call's element records as options.batches asks (batch_mode). An element that
// began before the window has its first bytes in the caller's carry: `carry` holds the stream's bytes from offset
// c_base on, extended with the window as far as the records need (push_parser), or is null (the JS layer keeps
// it): then such an element is written as `0` in a json_array batch and has a cover batch of its own whose data
// is null, and the caller takes its bytes from its carry.
void build_batches(parser_state& st, const uint8_t* carry, uint64_t c_base);

}  // namespace internal
}  // namespace sluice

#endif  // SLUICE_STREAM_BATCHES_H
