// Scans the window: one stage-1 block at a time (scan/full_scan.h), its events walked at once while the block is
// in cache. The walk (walk/walk.h) takes what it can with the state in locals: the selecting walk where selectors
// are alive, the skipping walk where none is (most events: inside selected elements, or where no path leads).
// What they refuse goes to the general path (general_path.h) with the state in parser_state.
//
// The loop runs whole blocks only; a window's short last block is scanned out of line and its events go to the
// general path, so the function V8 tiers up holds one copy of stage 1 and of the walk. A block pays only for what
// it uses: inside a selected element the block loop calls the skipping walk itself, and the block's fields in
// parser_state (block_base...) are stored only before the general path or an error report reads them. Measurements
// and the rejected variants: docs/decisions.md.
#ifndef SLUICE_STREAM_SCAN_WINDOW_H
#define SLUICE_STREAM_SCAN_WINDOW_H

#include <cstdint>

#include "scan/full_scan.h"
#include "select/select_visitor.h"
#include "stream/failure.h"
#include "stream/general_path.h"
#include "stream/parser_state.h"
#include "stream/resync.h"
#include "walk/walk.h"

namespace sluice {
namespace internal {

// The walk's hot state from parser_state, and back. After the general path (`Recording` false) no member record is
// under way: handle_event() voids it.
template <bool Recording = true>
inline void load_walk(parser_state& st, walk_context& x) noexcept {
  x.state = st.state;
  x.depth = st.depth;
  x.cand = st.cand_top;
  x.open_level = st.open_count != 0 ? st.open[st.open_count - 1].level : ~uint32_t{0};
  x.rel_limit = st.limit_pos - st.w_base;
  // The general path grows these when a descendant selector goes deeper than before.
  x.cand_at = st.selectors.cand_at.data();
  x.live_len = st.selectors.live_len;
  x.skip_limit = Recording && st.members_of != no_position ? 0 : x.rel_limit;
}
inline void store_walk(parser_state& st, const walk_context& x) noexcept {
  st.state = x.state;
  st.depth = x.depth;
  st.cand_top = x.cand;
}

// One block of the window, len bytes at w + off: stage 1, then its events, walked (`Whole`: len == 64) or each
// through the general path (the short last block). False when the scan stops (an error, or the general path asked
// to).
template <class K, bool Whole>
SLUICE_INLINE bool scan_block(parser_state& st, walk_context& x, const uint8_t* w, unsigned off, unsigned len,
                              bool track_spaces, uint64_t newline_events) noexcept {
  [[maybe_unused]] select_visitor v{st};
  const scan_full_events b = scan_block_full<K, Whole>(st.scan, w + off, len);
  const uint64_t block_base = st.w_base + off;
  uint64_t quote = b.quote;
  // The block as the general path and the error reports read it: stored only before they run (the walks never do).
  const auto publish = [&] {
    st.block_base = block_base;
    st.block_off = off;
    st.block_newline = b.newline;
    st.block_quote = quote;
  };
  if (track_spaces) {
    // The bytes in no string, no token and no event, and not a closing quote: the whitespace outside strings.
    if (const uint64_t spaces = ~(b.in_string | b.quote | b.scalar | b.events) & mask_below(len))
      st.spaces_end = block_base + 64 - unsigned(leading_zeroes(spaces));
  }
  // skip_invalid: newlines are events too (~0 here), so the general path sees where each line ends (resync.h).
  uint64_t events = b.events | (b.newline & newline_events);
  if (b.error_at >= 0) {
    // Nothing at or after the error may complete: not an event, not the end of a string.
    events &= mask_below(unsigned(b.error_at));
    quote &= mask_below(unsigned(b.error_at));
  }
  static_assert(s_key_end % 2 == 1 && s_string_end == s_key_end - 1, "one compare finds both");
  if ((x.state | 1u) == s_key_end && quote != 0) {
    store_walk(st, x);
    publish();
    if (!close_string(st, block_base + unsigned(trailing_zeroes(quote)))) return false;
    load_walk(st, x);
  }
  x.block.off = off;
  if (!Whole) x.block.len = len;  // whole blocks: 64, set once a window
  x.block.scalar = b.scalar;
  x.block.quote = quote;
  x.block.have_digits = false;
  while (events != 0) {
    if constexpr (Whole) {
      // No selector alive (inside a selected element): straight to the skipping walk (above).
      if (x.cand == 0 && off + 64 <= x.skip_limit) {
        events = skip_events<K>(x, events);
        if (events == 0) break;
      }
      events = walk_events<K>(x, v, events);
      if (events == 0) break;
    }
    const unsigned i = off + unsigned(trailing_zeroes(events));
    events = clear_lowest_bit(events);
    store_walk(st, x);
    publish();
    if (!handle_event(st, i, w[i])) return false;
    load_walk<false>(st, x);
  }
  if (b.error_at >= 0) {
    store_walk(st, x);
    publish();
    fail(st, b.error, block_base + unsigned(b.error_at), w[off + unsigned(b.error_at)]);
    return false;
  }
  if (off + len > x.rel_limit) {
    store_walk(st, x);
    publish();
    fail_too_large(st);
    return false;
  }
  if (b.newline != 0) {
    st.lines_before += uint64_t(count_ones(b.newline));
    st.line_start = block_base + uint64_t(63 - leading_zeroes(b.newline)) + 1;
  }
  return true;
}

// A window's last block, when shorter than 64 bytes: once a window, out of line and without the walk (the general
// path takes each of its events), so that the scan's function holds one copy of stage 1 and of the walk.
template <class K>
SLUICE_NOINLINE bool scan_last_block(parser_state& st, walk_context& x, unsigned off, unsigned len, bool track_spaces,
                                     uint64_t newline_events) noexcept {
  return scan_block<K, false>(st, x, st.window.data(), off, len, track_spaces, newline_events);
}

template <class K>
void scan_window(parser_state& st) noexcept {
  const uint8_t* const w = st.window.data();
  const unsigned n = st.w_len;
  unsigned off = 0;
  // skip_invalid (resync.h): the rest of a bad line reported by an earlier call.
  if (st.skipping) off = skip_line_rest(st, 0, true);
  if (st.state == s_in_scalar && n != 0) {
    // A token cut by the previous chunk: it holds no newline and no event, so it can run before stage 1.
    st.block_base = st.w_base;
    st.block_off = 0;
    st.block_newline = 0;
    if (!run_token(st, 0) && !resync(st, &off)) return;
  }
  // compact_lines: where whitespace outside strings was last seen (parser_state::spaces_end). A flag tested once a
  // block, not an instantiation of its own: a second copy of this function added 15 kB to the SIMD module, and to the
  // CLI a second tier-up (init()'s warm-up compiles the first) and 5 MiB of peak RSS.
  const bool track_spaces = st.options.batches == batch_mode::compact_lines;
  walk_context x;  // what does not change from block to block is set once
  x.block.window = w;
  x.block.n = n;
  x.block.len = 64;
  x.block.digits = 0;
  x.object_bits = st.is_object.data();
  x.max_depth = st.options.max_depth;
  const uint64_t newline_events = st.options.skip_invalid ? ~uint64_t{0} : 0;
  load_walk(st, x);
  for (;;) {
    bool failed = false;
    for (; off + 64 <= n; off += 64) {
      if (!scan_block<K, true>(st, x, w, off, 64, track_spaces, newline_events)) {
        failed = true;
        break;
      }
    }
    if (!failed && (off >= n || scan_last_block<K>(st, x, off, n - off, track_spaces, newline_events))) break;
    // An error: fatal, or (skip_invalid) its line reported and the scan resumed after it.
    if (!resync(st, &off)) return;
    load_walk(st, x);
  }
  store_walk(st, x);
  st.block_base = st.w_base + n;
  st.block_off = n;
  st.block_newline = 0;
  st.block_quote = 0;
}

}  // namespace internal
}  // namespace sluice

#endif  // SLUICE_STREAM_SCAN_WINDOW_H
