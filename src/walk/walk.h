// Stage 2's walk over the events of one block: the grammar automaton (grammar.h) applied event after event, with
// the state in locals, calling a visitor for what the grammar alone cannot decide. Two visitors specialise it:
//
//   skip_visitor (here)               no selector is alive (inside a selected element, or in a part of the document
//                                     no path leads into): only the grammar matters, strings, keys and commas are
//                                     plain transitions, and a dozen instructions handle an event;
//   select_visitor (select/)          selectors are alive: it decides about values, keys and element ends in the
//                                     common cases, and hands the walk over to the skipping walk whenever no
//                                     selector is alive any more.
//
// A visitor refuses (returns false) what it does not handle; the walk then stops, and the first event left goes to
// the push parser's general path (stream/general_path.h), which handles every case and reports every error.
// Invariant: a walk only opens containers no selector continues into, so a container it opens has no candidates.
//
// One event at a time: validating a dense block's events as one run with masks lost (docs/decisions.md).
#ifndef SLUICE_WALK_WALK_H
#define SLUICE_WALK_WALK_H

#include <cstdint>

#include "scan/bits.h"
#include "walk/grammar.h"
#include "walk/scalar_token.h"

namespace sluice {
namespace internal {

// The hot state of a walk, mirrored from the parser's state (which is authoritative whenever the general path
// runs).
struct walk_context {
  walk_block block;
  uint64_t rel_limit;     // window index from which an open element outgrows its limit: those events are refused
  uint64_t skip_limit;    // the blocks the skipping walk may take lie below it: rel_limit, or 0 while the innermost
                          // open element's members are recorded (select_visitor::members)
  uint64_t* object_bits;  // bit per depth: the container there is an object
  uint32_t* cand_at;      // [d]: selectors alive inside the container at depth d (d <= live_len)
  uint32_t max_depth;
  uint32_t live_len;  // the depth the selectors' stacks reach (selector_set::live_len): deeper, no selector is alive
  uint32_t depth;
  uint32_t cand;        // selectors alive in the current container
  uint32_t open_level;  // level of the innermost open element; ~0 if none
  uint8_t state;        // walk_state
};

constexpr bool in_array(uint8_t value_state) { return value_state != s_value_in_object; }

// The walk where no selector is alive. Leaves only at a container that closes back into the selectors' depths
// (live_len), and at what the grammar or the depth limit rejects.
struct skip_visitor {
  static constexpr const grammar_table<true>& table = skip_grammar;
  static constexpr bool selecting = false;  // never hands over to another walk
  static constexpr bool bounded = false;    // only run on blocks wholly below the size limit

  SLUICE_INLINE bool push(walk_context&, uint32_t, uint8_t, unsigned) noexcept { return true; }
  SLUICE_INLINE bool pop(walk_context& x, uint32_t depth, unsigned) noexcept { return depth - 1 > x.live_len; }
  SLUICE_INLINE bool scalar(walk_context&, uint32_t, uint8_t, unsigned, unsigned) noexcept { return true; }
  // Plain transitions of its table: never called.
  SLUICE_INLINE bool string(walk_context&, uint32_t, uint8_t, unsigned) noexcept { return true; }
  SLUICE_INLINE bool key(walk_context&, uint32_t, unsigned) noexcept { return true; }
  SLUICE_INLINE void next_element(walk_context&, uint32_t) noexcept {}
};

template <class K>
uint64_t skip_events(walk_context& x, uint64_t events) noexcept;

// Walks `events` (bits of the block x.block) until one needs the general path; returns the events left, that one
// first.
template <class K, class V>
SLUICE_INLINE uint64_t walk_events(walk_context& x, V& v, uint64_t events) noexcept {
  const uint8_t* const block = x.block.window + x.block.off;
  const unsigned off = x.block.off;
  // The rest of x (object_bits, cand_at, max_depth, live_len) is read where used, on the rare containers: copied
  // into locals here, V8 loaded and spilled them at every call of the skipping walk (about once a block).
  unsigned state = x.state;  // not uint8_t: the compiler masked it to 8 bits at every event
  uint32_t depth = x.depth;
  while (events != 0) {
    if constexpr (V::selecting) {
      if (x.cand == 0 && off + x.block.len <= x.skip_limit) {
        x.state = state;
        x.depth = depth;
        events = skip_events<K>(x, events);
        state = x.state;
        depth = x.depth;
        if (events == 0) break;
      } else if (x.cand == 0 && x.skip_limit == 0) {
        // Inside an object whose members are recorded: the visitor's walk of them.
        x.state = state;
        x.depth = depth;
        events = v.template members<K>(x, events);
        state = x.state;
        depth = x.depth;
        if (events == 0) break;
      }
    }
    unsigned bi;
    uint8_t c;
    unsigned next;
    // Plain transitions in a loop of their own: few live values, so V8 keeps them in registers.
    for (;;) {
      bi = unsigned(trailing_zeroes(events));
      if (V::bounded && off + bi >= x.rel_limit) goto out;
      c = block[bi];
      next = V::table(state, c);
      if (next >= container_states) break;
      state = next;
      events = clear_lowest_bit(events);
      if (events == 0) goto out;
    }
    switch (action_of(next)) {
      case a_push: {
        if (depth >= x.max_depth || !v.push(x, depth, state, off + bi)) goto out;
        ++depth;
        const uint64_t bit = uint64_t{1} << (depth & 63);
        uint64_t& word = x.object_bits[depth >> 6];
        word = state_of(next) == s_key_or_end ? word | bit : word & ~bit;
        if (depth <= x.live_len) x.cand_at[depth] = 0;
        state = state_of(next);
        break;
      }
      case a_pop:
        if (!v.pop(x, depth, off + bi)) goto out;
        --depth;
        state = after_value_in(((x.object_bits[depth >> 6] >> (depth & 63)) & 1) != 0);
        break;
      case a_scalar: {
        unsigned end;
        if (!scalar_token<K>(x.block, bi, c, &end) || end > x.rel_limit || !v.scalar(x, depth, state, off + bi, end))
          goto out;
        state = state_of(next);
        break;
      }
      case a_string:
        if (!v.string(x, depth, state, off + bi)) goto out;
        state = state_of(next);
        break;
      case a_key:
        if (!v.key(x, depth, off + bi)) goto out;
        state = s_colon;
        break;
      case a_next_element:
        v.next_element(x, depth);
        state = s_value_in_array;
        break;
      default:
        goto out;
    }
    events = clear_lowest_bit(events);
  }
out:
  x.state = state;
  x.depth = depth;
  return events;
}

// Out of line: the selecting walk calls it for runs of events where nothing is selected, and its loop stays small.
template <class K>
SLUICE_NOINLINE uint64_t skip_events(walk_context& x, uint64_t events) noexcept {
  skip_visitor v;
  return walk_events<K>(x, v, events);
}

}  // namespace internal
}  // namespace sluice

#endif  // SLUICE_WALK_WALK_H
