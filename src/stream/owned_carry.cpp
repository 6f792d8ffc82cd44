#include "stream/owned_carry.h"

#include <cstring>

#include "stream/failure.h"

namespace sluice {
namespace internal {

void owned_carry::apply_pending(size_t window) noexcept {
  switch (pending) {
    case action::none:
      break;
    case action::clear:
      carry.clear();
      // After a huge element, give its memory back.
      if (carry.capacity() > 4 * window) carry.release();
      if (spare.capacity() > 4 * window) spare.release();
      break;
    case action::drop_prefix: {
      const size_t drop = size_t(pending_base - c_base);
      std::memmove(carry.data(), carry.data() + drop, carry.size() - drop);
      carry.resize_unchecked(carry.size() - drop);
      c_base = pending_base;
      break;
    }
    case action::swap:
      carry.swap(spare);
      spare.clear();
      c_base = pending_base;
      // After a huge element, do not keep a second huge buffer around.
      if (spare.capacity() > 4 * window) spare.release();
      break;
  }
  pending = action::none;
}

void owned_carry::extend(parser_state& st) noexcept {
  if (carry.size() == 0) return;
  const uint64_t w_base = st.w_base;
  const uint64_t keep = st.retain_from;
  const bool continues = keep != no_position && keep < w_base;
  const uint64_t through = continues ? w_base + st.w_len : st.carry_through;
  if (through > w_base && !carry.append(st.window.data(), size_t(through - w_base))) {
    fail(st, error_code::out_of_memory, w_base, -1);
  }
}

void owned_carry::keep(parser_state& st) noexcept {
  const uint64_t w_base = st.w_base;
  const uint64_t w_end = w_base + st.w_len;
  const uint64_t keep = st.retain_from;
  if (keep == no_position) {
    pending = carry.size() != 0 ? action::clear : action::none;
  } else if (keep < w_base) {
    if (keep > c_base) {
      pending = action::drop_prefix;
      pending_base = keep;
    }
  } else {
    const uint8_t* tail = st.window.data() + (keep - w_base);
    const size_t n = size_t(w_end - keep);
    if (carry.size() == 0) {
      // Nothing of this call points into the carry: fill it directly.
      if (!carry.append(tail, n)) return fail(st, error_code::out_of_memory, keep, -1);
      c_base = keep;
    } else {
      spare.clear();
      if (!spare.append(tail, n)) return fail(st, error_code::out_of_memory, keep, -1);
      pending = action::swap;
      pending_base = keep;
    }
  }
}

}  // namespace internal
}  // namespace sluice
