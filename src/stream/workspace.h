// What the push parsers of one module share: the input window and the results of the last call (the element
// records, the batches, the batch text). A call runs to its end before another may start on any parser, and its
// caller reads the results before making the next call on any parser, so one set serves all of them: a parser
// itself keeps only its small state between calls (parser_state.h), and the bytes of an element in progress are
// the caller's to keep (carry.h).
#ifndef SLUICE_STREAM_WORKSPACE_H
#define SLUICE_STREAM_WORKSPACE_H

#include <cstddef>
#include <cstdint>

#include "sluice/push_parser.h"
#include "util/buffers.h"

namespace sluice {
namespace internal {

constexpr size_t default_window_bytes = 64 * 1024;

// An element as the core reports it. Its last byte is always in the window of the call that completed it; its
// first may lie in an earlier window (then the caller's carry holds it). On wasm32 the layout is exactly the 8 x u32
// record of the binding contract.
struct raw_element {
  const uint8_t* end;  // just past the element (a start marker: its first byte), in the window
  uint32_t size;       // the element is [end - size, end) in the stream
  uint32_t path_index;
  key_kind key;
  uint32_t key_gap;   // key == name: from the key's opening quote to the element's first byte
  uint32_t key_size;  // the key's raw JSON text, quotes included
  uint32_t index_lo;
  uint32_t index_hi;
};

struct workspace {
  byte_buffer window;  // the caller writes each chunk here
  pod_vector<raw_element> elements;
  pod_vector<batch> batches;
  byte_buffer batch_text;
  pod_vector<skipped_line> skipped;  // lines skipped by the last call (parser_options::skip_invalid)

  // The window at its default size. False when memory is exhausted.
  bool init() noexcept { return window.reserve(default_window_bytes); }
  size_t allocated() const noexcept {
    return window.allocated() + elements.allocated() + batches.allocated() + batch_text.allocated() +
           skipped.allocated();
  }
};

}  // namespace internal
}  // namespace sluice

#endif  // SLUICE_STREAM_WORKSPACE_H
