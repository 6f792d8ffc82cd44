// The push parser's general path: every event the walks (walk/walk.h) leave, with the state in parser_state. It
// follows the same grammar automaton (walk/grammar.h), asks the selector automaton (select/selector_set.h) about
// every value and key, opens and closes elements (element_output.h), and reports every error. O(1) per event.
#ifndef SLUICE_STREAM_GENERAL_PATH_H
#define SLUICE_STREAM_GENERAL_PATH_H

#include <cstdint>

#include "scan/bits.h"
#include "stream/carry.h"
#include "stream/element_output.h"
#include "stream/failure.h"
#include "stream/parser_state.h"
#include "walk/grammar.h"
#include "walk/token_dfa.h"

namespace sluice {
namespace internal {

// MARK: values

// Descendant selectors at a value beginning at depth d: the root starts them; deeper, the key or index advances the
// container's positions. Sets the value's positions (pos_at[d + 1], read only if it is a container) and their bits in
// next_cand; returns the selectors that select the value. Out of line: inlined, it made begin_value too big to
// inline, and linear paths paid a call per value; and push_container() stays as it was for them.
SLUICE_NOINLINE inline uint32_t descend(parser_state& st, uint32_t d, key_kind key, uint64_t index) noexcept {
  selector_set& sel = st.selectors;
  uint64_t inside = sel.start_pos;
  uint32_t selected = 0;
  if (d != 0) {
    const uint64_t pos = sel.pos_at[d];
    const uint64_t hit = key == key_kind::name ? st.member_pos : sel.match_index_pos(pos, index);
    selected = sel.paths_ending(hit);
    inside = sel.positions_inside(pos, hit);
  }
  if (inside != 0) {
    st.next_cand |= sel.desc_paths;
    if (d + 1 > sel.live_len) sel.reach(d + 1);  // deeper than a live container has been
    sel.pos_at[d + 1] = inside;
  }
  return selected;
}

// A value starts at p. Decides which selectors continue into it (next_cand) and which select it.
inline void begin_value(parser_state& st, uint64_t p) noexcept {
  if (st.cand_top == 0) {
    st.next_cand = 0;
    return;
  }
  selector_set& sel = st.selectors;
  const uint32_t d = st.depth;
  uint32_t matched;
  key_kind key = key_kind::none;
  uint64_t index = 0;
  if (d == 0) {
    matched = sel.all;
    if (st.options.ndjson) {
      key = key_kind::index;
      index = st.root_index;
    }
  } else if (st.is_object_at(d)) {
    matched = st.member_match;
    key = key_kind::name;
  } else {
    index = sel.index_at[d];
    key = key_kind::index;
    matched = sel.match_index(st.cand_top, d, index);
  }
  uint32_t selected = matched & sel.len_is[d];
  st.next_cand = matched & ~sel.len_is[d];
  if ((st.cand_top & sel.desc_paths) != 0) selected |= descend(st, d, key, index);
  // Records give a key's place as a 32-bit distance before its value: only gigabytes of whitespace after a key can
  // break that.
  if (selected != 0 && key == key_kind::name && p - st.key_start > UINT32_MAX) {
    fail(st, error_code::element_too_large, p, byte_at(st, p));
    return;
  }
  if ((selected & sel.start_markers) != 0) {
    if (!start_marker(st, p, selected & sel.start_markers, key, index)) fail(st, error_code::out_of_memory, p, -1);
    selected &= ~sel.start_markers;
  }
  if (selected != 0 && !open_element_at(st, p, d, selected, key, index)) {
    fail(st, error_code::out_of_memory, p, -1);
    return;
  }
  st.key_pending = false;
  update_limit(st);
}

inline void after_value(parser_state& st) noexcept {
  if (st.depth == 0) {
    st.state = s_root_done;
    ++st.root_index;
  } else {
    st.state = after_value_in(st.is_object_at(st.depth));
  }
}

// A value ended just before `end`; the depth is back to the value's own level.
inline void end_value(parser_state& st, uint64_t end) noexcept {
  if (st.open_count != 0 && st.open[st.open_count - 1].level == st.depth && !close_element(st, end))
    fail(st, error_code::out_of_memory, end, -1);
  after_value(st);
}

// MARK: strings whose end matters

// The closing quote of a selected string, or of a key a selector compares, is at absolute offset q.
SLUICE_NOINLINE inline bool close_string(parser_state& st, uint64_t q) noexcept {
  if (q + 1 > st.limit_pos) {
    fail_too_large(st);
    return false;
  }
  if (st.state == s_key_end) {
    st.key_end = q + 1;
    st.key_reading = false;
    update_limit(st);
    if (!match_key(st)) {
      fail(st, error_code::out_of_memory, q, -1);
      return false;
    }
    st.state = s_colon;
    return true;
  }
  end_value(st, q + 1);
  return st.status == error_code::ok;
}

// A string whose end matters opened at window index i: its closing quote is the next unescaped quote, in this
// block or a later one (then scan_window finds it before that block's events).
inline bool find_string_end(parser_state& st, unsigned i, walk_state waiting) noexcept {
  st.state = waiting;
  const uint64_t rest = st.block_quote & ~mask_below(i - st.block_off + 1);
  if (rest == 0) return true;
  return close_string(st, st.block_base + unsigned(trailing_zeroes(rest)));
}

// MARK: containers and tokens

// A newline is an event only with skip_invalid (resync.h): inside a value it means the line ended too early.
constexpr error_code event_error(error_code code, uint8_t c) { return c == '\n' ? error_code::unexpected_end : code; }

inline bool push_container(parser_state& st, uint64_t p, bool object) noexcept {
  if (st.depth >= st.options.max_depth) {
    fail(st, error_code::depth_limit, p, object ? '{' : '[');
    return false;
  }
  const uint32_t d = ++st.depth;
  const uint64_t bit = uint64_t{1} << (d & 63);
  if (object) {
    st.is_object[d >> 6] |= bit;
  } else {
    st.is_object[d >> 6] &= ~bit;
  }
  st.cand_top = st.next_cand;
  // A container with candidates is never deeper than live_len (descend() grew it).
  if (d <= st.selectors.live_len) {
    st.selectors.cand_at[d] = st.next_cand;
    st.selectors.index_at[d] = 0;
  }
  st.state = object ? s_key_or_end : s_value_or_end;
  return true;
}

inline void pop_container(parser_state& st, uint64_t p) noexcept {
  const uint32_t d = --st.depth;
  st.cand_top = d <= st.selectors.live_len ? st.selectors.cand_at[d] : 0;
  end_value(st, p + 1);
}

// Runs the token DFA from window index i. Returns false on error. Leaves state == s_in_scalar when the window ran
// out.
SLUICE_NOINLINE inline bool run_token(parser_state& st, unsigned i) noexcept {
  uint8_t s = st.token;
  const uint8_t* w = st.window.data();
  const unsigned end = token_run(s, w, i, st.w_len);
  if (end == st.w_len) {
    st.token = s;
    st.state = s_in_scalar;
    return true;
  }
  const uint64_t pos = st.w_base + end;
  if (token_dfa.next[s][w[end]] == t_error) {
    fail(st, token_is_number(s) ? error_code::invalid_number : error_code::invalid_literal, pos, w[end]);
    return false;
  }
  if (pos > st.limit_pos) {
    fail_too_large(st);
    return false;
  }
  end_value(st, pos);
  return st.status == error_code::ok;
}

inline bool start_value(parser_state& st, uint64_t p, unsigned i, uint8_t c) noexcept {
  switch (class_of_byte.v[c]) {
    case ev_open_object:
    case ev_open_array:
      begin_value(st, p);
      return push_container(st, p, c == '{');
    case ev_quote:
      begin_value(st, p);
      // Only a selected string needs its end (the next unescaped quote); any other is complete as far as the
      // grammar goes: stage 1 validated its contents and reports no event inside it.
      if (st.open_count != 0 && st.open[st.open_count - 1].start == p) return find_string_end(st, i, s_string_end);
      after_value(st);
      return true;
    case ev_scalar: {
      const uint8_t s = token_dfa.next[t_start][c];
      if (s > t_done) {
        begin_value(st, p);
        st.token = s;
        return run_token(st, i + 1);
      }
      break;
    }
    default:
      break;
  }
  fail(st, event_error(error_code::expected_value, c), p, c);
  return false;
}

// MARK: events

// One event: byte c at window index i.
SLUICE_NOINLINE inline bool handle_event(parser_state& st, unsigned i, uint8_t c) noexcept {
  const uint64_t p = st.w_base + i;
  st.members_of = no_position;  // the walk records no event taken here: the filter scans
  if (p >= st.limit_pos) {
    fail_too_large(st);
    return false;
  }
  const uint8_t s = st.state;
  if (s >= container_states) {
    if (c == '\n' && s <= s_root_done) {
      st.state = s_root;  // skip_invalid: the line's value is complete (or the line empty)
      return true;
    }
    if (s == s_root || (s == s_root_done && st.options.ndjson && !st.options.skip_invalid))
      return start_value(st, p, i, c);
    // s_string_end, s_key_end and s_in_scalar hold no events.
    fail(st, s == s_root_done ? error_code::trailing_data : error_code::expected_value, p, c);
    return false;
  }
  const uint8_t next = grammar(s, c);
  switch (action_of(next)) {
    case a_plain:
      st.state = next;
      return true;
    case a_push:
    case a_scalar:
    case a_string:
      return start_value(st, p, i, c);
    case a_pop:
      pop_container(st, p);
      return true;
    case a_key:
      if (st.cand_top != 0) {
        // A selector may compare this key, or report it with the element: keep its bytes and find its end.
        begin_key(st, p);
        update_limit(st);
        return find_string_end(st, i, s_key_end);
      }
      st.state = s_colon;
      return true;
    case a_next_element:
      if (st.cand_top != 0) ++st.selectors.index_at[st.depth];
      st.state = s_value_in_array;
      return true;
    default:
      fail(st, event_error(error_in(s), c), p, c);
      return false;
  }
}

}  // namespace internal
}  // namespace sluice

#endif  // SLUICE_STREAM_GENERAL_PATH_H
