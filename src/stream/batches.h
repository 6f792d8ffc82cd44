#ifndef SLUICE_STREAM_BATCHES_H
#define SLUICE_STREAM_BATCHES_H

#include <cstdint>

#include "stream/parser_state.h"

namespace sluice {
namespace internal {

// Where the records' bytes lie: the window, or the carry (null when the caller keeps it).
struct element_bytes {
  const uint8_t* window;
  uint64_t w_base;
  const uint8_t* carry;
  uint64_t c_base;

  // The element's first byte, or null when it lies in a carry the caller keeps.
  const uint8_t* start(const raw_element& e) const noexcept {
    const size_t end = size_t(e.end - window);
    if (end >= e.size) return e.end - e.size;
    return carry != nullptr ? carry + (w_base + end - e.size - c_base) : nullptr;
  }
};

// Builds the batches of the last call's element records as options.batches asks (batch_mode). An element that
// began before the window has its first bytes in the caller's carry: `carry` holds the stream's bytes from offset
// c_base on, extended with the window as far as the records need (push_parser), or is null (the JS layer keeps
// it): then such an element is written as `0` in a json_array batch and has a cover batch of its own whose data
// is null, and the caller takes its bytes from its carry.
void build_batches(parser_state& st, const uint8_t* carry, uint64_t c_base);

}  // namespace internal
}  // namespace sluice

#endif  // SLUICE_STREAM_BATCHES_H
