#include "stream/carry.h"

#include "stream/element_output.h"

namespace sluice {
namespace internal {

bool match_key(parser_state& st) noexcept {
  const uint64_t n = st.key_end - st.key_start;
  const uint8_t* key;
  if (st.key_start >= st.w_base) {
    key = st.window.data() + (st.key_start - st.w_base);
  } else if (st.key_unmatchable || n > st.selectors.max_key_bytes) {
    st.member_match = st.selectors.match_any_key(st.cand_top, st.depth);
    st.member_pos = st.selectors.wild_pos & st.container_positions();
    return true;
  } else {
    // key_carry holds [key_start, w_base).
    if (!st.key_carry.append(st.window.data(), size_t(st.key_end - st.w_base))) return false;
    key = st.key_carry.data();
  }
  st.member_match = st.selectors.match_key(st.cand_top, st.depth, key + 1, size_t(n - 2));
  if ((st.cand_top & st.selectors.desc_paths) != 0)
    st.member_pos = st.selectors.match_key_pos(st.selectors.pos_at[st.depth], key + 1, size_t(n - 2));
  return true;
}

bool retain_tail(parser_state& st) noexcept {
  uint64_t keep = no_position;
  if (const open_element* o = first_retained(st)) keep = o->retain_from;
  if (st.key_pending && st.key_start < keep) keep = st.key_start;
  st.retain_from = keep;
  if (!st.key_reading || st.key_unmatchable) return true;
  const uint64_t w_end = st.w_base + st.w_len;
  if (w_end - st.key_start > st.selectors.max_key_bytes) {
    st.key_unmatchable = true;
    st.key_carry.clear();
    return true;
  }
  // Started in this window, or earlier (then key_carry holds it up to this window).
  const uint64_t from = st.key_start > st.w_base ? st.key_start : st.w_base;
  return st.key_carry.append(st.window.data() + (from - st.w_base), size_t(w_end - from));
}

}  // namespace internal
}  // namespace sluice
