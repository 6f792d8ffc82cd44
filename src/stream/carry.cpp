#include "stream/carry.h"

#include <cstring>

#include "stream/element_output.h"
#include "stream/failure.h"

namespace sluice {
namespace internal {

bool prepare_carry(parser_state& st, size_t n) {
  switch (st.pending) {
    case parser_state::carry_action::none: break;
    case parser_state::carry_action::clear:
      st.carry.clear();
      // After a huge element, give its memory back: the window is the working size (reserve() may have made it
      // larger than the default, and a carry of a few windows is then the normal case, not one to free each call).
      if (st.carry.capacity() > 4 * st.window.capacity()) st.carry.release();
      if (st.spare.capacity() > 4 * st.window.capacity()) st.spare.release();
      break;
    case parser_state::carry_action::drop_prefix: {
      const size_t drop = size_t(st.pending_base - st.c_base);
      std::memmove(st.carry.data(), st.carry.data() + drop, st.carry.size() - drop);
      st.carry.resize_unchecked(st.carry.size() - drop);
      st.c_base = st.pending_base;
      break;
    }
    case parser_state::carry_action::swap:
      st.carry.swap(st.spare);
      st.spare.clear();
      st.c_base = st.pending_base;
      // After a huge element, do not keep a second huge buffer around.
      if (st.spare.capacity() > 4 * st.window.capacity()) st.spare.release();
      break;
  }
  st.pending = parser_state::carry_action::none;
  if (st.carry.size() != 0 && !st.carry.reserve(st.carry.size() + n + 1)) return false;
  return true;
}

void retain_tail(parser_state& st) {
  uint64_t keep = no_position;
  if (const open_element* o = first_retained(st)) keep = o->retain_from;
  if (st.key_pending && st.key_start < keep) keep = st.key_start;
  const uint64_t w_end = st.w_base + st.w_len;
  if (keep == no_position) {
    st.pending = st.carry.size() != 0 ? parser_state::carry_action::clear : parser_state::carry_action::none;
    return;
  }
  if (keep < st.w_base) {
    // Open since an earlier chunk: the carry already holds its start; append the rest of this window.
    resolve(st, st.c_base, w_end);
    if (keep > st.c_base) {
      st.pending = parser_state::carry_action::drop_prefix;
      st.pending_base = keep;
    }
    return;
  }
  const uint8_t* tail = st.window.data() + (keep - st.w_base);
  const size_t n = size_t(w_end - keep);
  if (st.carry.size() == 0) {
    // Nothing of this call points into the carry: fill it directly.
    if (!st.carry.append(tail, n)) return fail(st, error_code::out_of_memory, keep, -1);
    st.c_base = keep;
    return;
  }
  st.spare.clear();
  if (!st.spare.append(tail, n)) return fail(st, error_code::out_of_memory, keep, -1);
  st.pending = parser_state::carry_action::swap;
  st.pending_base = keep;
}

}  // namespace internal
}  // namespace sluice
