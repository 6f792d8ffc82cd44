// The carry: the bytes of the selected element in progress (and of the key before it) that a later call still
// needs once the window they arrived in is rewritten. The parser keeps none of them: after each call it names where
// they start (retain_from) and its caller keeps the stream's bytes from there to the end of the window, appending
// each later window while the element lasts. An element that began in an earlier window is reported by position
// (raw_element: its end in the window, its size), its first bytes in the caller's carry. The caller may be the
// JS layer, where the garbage collector sees the carry's size and frees it with a dropped parser, or push_parser
// for native callers.
//
// The one exception is a key a selector compares whose end has not arrived: the parser keeps its start itself
// (key_carry), but never more than the longest raw text a compared name can have; a longer key matches no name.
#ifndef SLUICE_STREAM_CARRY_H
#define SLUICE_STREAM_CARRY_H

#include <cstdint>

#include "stream/parser_state.h"

namespace sluice {
namespace internal {

// A key a selector may compare starts at absolute offset p.
inline void begin_key(parser_state& st, uint64_t p) noexcept {
  st.key_pending = true;
  st.key_reading = true;
  st.key_start = p;
  st.key_unmatchable = false;
  st.key_carry.clear();
}

// Sets member_match: the selectors matching the key [key_start, key_end) that just closed (quotes included). False
// when memory is exhausted.
bool match_key(parser_state& st) noexcept;

// At the end of a feed: where the bytes the next call needs start (retain_from), and the start of a key still
// being read (key_carry). False when memory is exhausted.
bool retain_tail(parser_state& st) noexcept;

}  // namespace internal
}  // namespace sluice

#endif  // SLUICE_STREAM_CARRY_H
