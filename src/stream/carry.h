// The carry: the bytes of the selected element in progress (and of a key a selector must compare) that a later
// chunk still needs, once the window they arrived in is rewritten. Everything else is forgotten at the end of
// each call, so memory is bounded by max_element_bytes, not by the document.
#ifndef SLUICE_STREAM_CARRY_H
#define SLUICE_STREAM_CARRY_H

#include <cstddef>
#include <cstdint>

#include "stream/parser_state.h"

namespace sluice {
namespace internal {

// Makes [start, end) contiguous in memory and returns its address. Bytes before the window live in the carry,
// which covers [c_base, w_base) at the start of a feed and is extended with window bytes on demand; feed() reserved
// room for the whole window, so this never reallocates while pointers of this feed are out.
inline const uint8_t* resolve(parser_state& st, uint64_t start, uint64_t end) noexcept {
  if (start >= st.w_base) return st.window.data() + (start - st.w_base);
  const uint64_t c_end = st.c_base + st.carry.size();
  if (end > c_end) st.carry.append_unchecked(st.window.data() + (c_end - st.w_base), size_t(end - c_end));
  return st.carry.data() + (start - st.c_base);
}

// Applies what the previous call decided for the carry, now that the caller is done with its results, and makes
// room for `n` more bytes so resolve() never reallocates during the coming scan. False when memory is exhausted.
bool prepare_carry(parser_state& st, size_t n);

// Keeps the bytes of the open element (or key) for the next chunk; forgets everything else.
void retain_tail(parser_state& st);

}  // namespace internal
}  // namespace sluice

#endif  // SLUICE_STREAM_CARRY_H
