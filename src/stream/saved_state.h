// A parser saved to bytes and restored from them. The wasm binding keeps only the parsers in use resident in the
// module's memory; the state of the others waits in the JS heap as these bytes (js/parse/native_parser.ts), where
// the garbage collector frees it with a dropped parser. Typically a few hundred bytes: the scalars, the open
// elements, the selectors' steps and their state along the path, a bit per open container, a key's start.
#ifndef SLUICE_STREAM_SAVED_STATE_H
#define SLUICE_STREAM_SAVED_STATE_H

#include <cstddef>
#include <cstdint>

#include "stream/parser_state.h"
#include "util/buffers.h"

namespace sluice {
namespace internal {

// Replaces the contents of `out` with the parser's state. False when memory is exhausted.
bool save_state(const parser_state& st, byte_buffer& out) noexcept;

// A parser working in `shared`, in the state p[0..n) that save_state wrote; null when memory is exhausted or the
// bytes are not such a state.
parser_state* load_state(const uint8_t* p, size_t n, workspace& shared) noexcept;

}  // namespace internal
}  // namespace sluice

#endif  // SLUICE_STREAM_SAVED_STATE_H
