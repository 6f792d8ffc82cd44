// The push parser's visitor of the walk (walk/walk.h) where selectors are alive: the common cases of selection
// decided in the walk itself. A live array whose elements a wildcard alone chooses (`$.rows[*]`, nothing selected
// inside them) has each element opened and closed, or a string or scalar element recorded, without the general
// path; a container no selector continues into is entered by the skipping walk. Everything else (a key a
// selector compares, an index step, several selectors, a marker, the root) is refused: the general path
// (stream/general_path.h) takes it.
#ifndef SLUICE_SELECT_SELECT_VISITOR_H
#define SLUICE_SELECT_SELECT_VISITOR_H

#include <cstdint>

#include "scan/bits.h"
#include "select/selector_set.h"
#include "sluice/limits.h"
#include "stream/element_output.h"
#include "stream/parser_state.h"
#include "walk/walk.h"

namespace sluice {
namespace internal {

static_assert(max_element_bytes_limit <= UINT32_MAX, "a recorded member's offset is 32-bit");

// The walk inside an object a filter decides about (select_visitor::push), from its first member to its end: the
// skipping walk's table with keys reported, so that the keys of its own members are recorded and nothing else is
// looked at. Leaves at the object's end, and at a member past recorded_members (select_visitor::key drops the
// record).
struct member_visitor {
  static constexpr const grammar_table<true, false>& table = member_grammar;
  static constexpr bool selecting = false;  // never hands over to another walk
  static constexpr bool bounded = true;     // so a key lies within max_element_bytes (< 2^32) of the object

  parser_state& st;

  SLUICE_INLINE bool push(walk_context&, uint32_t, uint8_t, unsigned) noexcept { return true; }
  SLUICE_INLINE bool pop(walk_context& x, uint32_t depth, unsigned) noexcept { return depth - 1 > x.open_level; }
  SLUICE_INLINE bool scalar(walk_context&, uint32_t, uint8_t, unsigned, unsigned) noexcept { return true; }
  // Plain transitions of its table: never called.
  SLUICE_INLINE bool string(walk_context&, uint32_t, uint8_t, unsigned) noexcept { return true; }
  SLUICE_INLINE void next_element(walk_context&, uint32_t) noexcept {}
  SLUICE_INLINE bool key(walk_context& x, uint32_t depth, unsigned i) noexcept {
    if (depth != x.open_level + 1) return true;
    if (st.member_count == recorded_members) return false;
    st.member_keys[st.member_count++] = uint32_t(st.w_base + i - st.members_of);
    return true;
  }
};

// Out of line, as skip_events: the selecting walk's loop stays small.
template <class K>
SLUICE_NOINLINE uint64_t member_events(walk_context& x, parser_state& st, uint64_t events) noexcept {
  member_visitor v{st};
  return walk_events<K>(x, v, events);
}

struct select_visitor {
  static constexpr const grammar_table<false>& table = grammar;
  static constexpr bool selecting = true;  // hands runs without a live selector to the skipping walk
  static constexpr bool bounded = true;    // events at or past the size limit are refused

  parser_state& st;

  // After the element table or the open elements changed: where the limit lies now, and the innermost element.
  SLUICE_INLINE void sync_open(walk_context& x) noexcept {
    x.open_level = st.open_count != 0 ? st.open[st.open_count - 1].level : ~uint32_t{0};
    x.rel_limit = st.limit_pos - st.w_base;
    x.skip_limit = st.members_of != no_position ? 0 : x.rel_limit;
  }

  // A container opens at window index i, in a container at `depth`.
  SLUICE_INLINE bool push(walk_context& x, uint32_t depth, uint8_t state, unsigned i) noexcept {
    if (x.cand == 0) return true;
    // An element of a live array, opened here when a wildcard alone chose it (and no key is in flight).
    if (!in_array(state) || st.open_count != 0 || st.key_pending || st.key_reading) return false;
    const uint32_t chosen = st.selectors.wildcard_choice(x.cand, depth, true);
    if (chosen == decide_generally) return false;
    const uint64_t p = st.w_base + i;
    if (!open_element_at(st, p, depth, chosen, key_kind::index, st.selectors.index_at[depth])) return false;
    // What update_limit() finds: the only open element, retained (wildcard_choice excludes markers), no key.
    st.limit_pos = p + st.options.max_element_bytes;
    x.open_level = depth;
    x.rel_limit = st.limit_pos - st.w_base;
    x.skip_limit = x.rel_limit;
    x.cand = 0;
    // An object a filter decides about: its members recorded as the walk meets them (key() below).
    if ((chosen & st.selectors.filtered) != 0 && x.block.window[i] == '{') {
      st.members_of = p;
      st.member_count = 0;
      x.skip_limit = 0;
    }
    return true;
  }

  // A container closes at window index i, back to depth - 1.
  SLUICE_INLINE bool pop(walk_context& x, uint32_t depth, unsigned i) noexcept {
    const uint32_t d = depth - 1;
    if (d == 0) return false;  // the root ends: the general path moves to s_root_done
    if (d == x.open_level) {
      if (!close_only_element(st, st.w_base + i + 1)) return false;  // the general path reports out_of_memory
      sync_open(x);
    }
    if (d <= x.live_len) x.cand = x.cand_at[d];
    return true;
  }

  // A string or scalar value of the live array at `depth`, window bytes [i, end): recorded here when a wildcard
  // alone chose it. `end` is called only when some selector chose it (a string's end may lie in a later block).
  template <class End>
  SLUICE_INLINE bool record(walk_context& x, uint32_t depth, uint8_t state, unsigned i, End end_of) noexcept {
    if (!in_array(state)) return false;
    const uint32_t chosen = st.selectors.wildcard_choice(x.cand, depth, false);
    if (chosen == 0) return true;
    if (chosen == decide_generally) return false;
    const unsigned end = end_of();
    // Refused, the general path reports what is wrong, or finds the end in a later block.
    if (end == 0 || end > x.rel_limit || end - i > st.options.max_element_bytes || !reserve_elements(st, chosen))
      return false;
    if ((chosen & st.selectors.filtered) != 0 &&
        !st.selectors.paths[trailing_zeroes(chosen)].filter.accepts(x.block.window + i, x.block.window + end))
      return true;
    emit_element(st, x.block.window + end, end - i, uint32_t(trailing_zeroes(chosen)), key_kind::index, 0, 0,
                 st.selectors.index_at[depth]);
    return true;
  }

  SLUICE_INLINE bool scalar(walk_context& x, uint32_t depth, uint8_t state, unsigned i, unsigned end) noexcept {
    return x.cand == 0 || record(x, depth, state, i, [&] { return end; });
  }

  // A string value opens at window index i; its end is the next unescaped quote (0: not in this block).
  SLUICE_INLINE bool string(walk_context& x, uint32_t depth, uint8_t state, unsigned i) noexcept {
    return x.cand == 0 || record(x, depth, state, i, [&] {
             const uint64_t rest = x.block.quote & ~mask_below(i - x.block.off + 1);
             return rest == 0 ? 0u : x.block.off + unsigned(trailing_zeroes(rest)) + 1;
           });
  }

  // A key a selector may compare goes to the general path. A member's key of a recorded object reaches this walk
  // only when member_visitor left it there, past recorded_members: the record is dropped, and the filter scans.
  SLUICE_INLINE bool key(walk_context& x, uint32_t depth, unsigned) noexcept {
    if (x.cand != 0) return false;
    if (st.members_of != no_position && depth == x.open_level + 1) {
      st.members_of = no_position;
      x.skip_limit = x.rel_limit;
    }
    return true;
  }

  SLUICE_INLINE void next_element(walk_context& x, uint32_t depth) noexcept {
    if (x.cand != 0) ++st.selectors.index_at[depth];
  }

  // The events inside an object whose members are recorded (x.skip_limit 0): the member walk's, above.
  template <class K>
  SLUICE_INLINE uint64_t members(walk_context& x, uint64_t events) noexcept {
    return member_events<K>(x, st, events);
  }
};

}  // namespace internal
}  // namespace sluice

#endif  // SLUICE_SELECT_SELECT_VISITOR_H
