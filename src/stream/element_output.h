// The push parser's output: selected elements opened where they start and recorded where they end, with their
// key, into the element table the caller reads after each call. Every record is written by emit_element().
#ifndef SLUICE_STREAM_ELEMENT_OUTPUT_H
#define SLUICE_STREAM_ELEMENT_OUTPUT_H

#include <cstdint>

#include "scan/bits.h"
#include "stream/parser_state.h"

namespace sluice {
namespace internal {

// Appends one record; the table has room (the callers reserve it, so a failure leaves nothing half done). `end` is
// in the window; a name key lies key_gap bytes before the element's first byte.
SLUICE_INLINE void emit_element(parser_state& st, const uint8_t* end, uint64_t size, uint32_t path, key_kind key,
                                uint64_t key_gap, uint64_t key_size, uint64_t index) noexcept {
  raw_element e;
  e.end = end;
  e.size = uint32_t(size);
  e.path_index = path;
  e.key = key;
  e.key_gap = uint32_t(key_gap);
  e.key_size = uint32_t(key_size);
  e.index_lo = uint32_t(index);
  e.index_hi = uint32_t(index >> 32);
  st.elements.push_back(e);
}

SLUICE_INLINE bool reserve_elements(parser_state& st, uint32_t paths) noexcept {
  return st.elements.reserve(st.elements.size() + unsigned(count_ones(paths)));
}

// The outermost open element whose bytes are kept: markers (add_marker_path) keep none, so neither the carry nor
// the size limit starts at them.
inline const open_element* first_retained(const parser_state& st) noexcept {
  for (uint32_t i = 0; i < st.open_count; ++i)
    if ((st.open[i].paths & ~st.selectors.markers) != 0) return &st.open[i];
  return nullptr;
}

// The first offset the open elements and the key being read may not reach.
inline void update_limit(parser_state& st) noexcept {
  uint64_t limit = no_position;
  const uint64_t max = st.options.max_element_bytes;
  if (const open_element* o = first_retained(st)) limit = o->start + max;
  if (st.key_reading && st.key_start + max < limit) limit = st.key_start + max;
  st.limit_pos = limit;
}

// The selectors `paths` chose the value starting at absolute offset p, inside `level` containers. A name key is
// the one just read (st.key_start, st.key_end). The caller updates the limit. False (nothing done) when the table of
// open elements cannot grow.
SLUICE_INLINE bool open_element_at(parser_state& st, uint64_t p, uint32_t level, uint32_t paths, key_kind key,
                                   uint64_t index) noexcept {
  if (st.open_count == st.open.size() && !st.open.push_back(open_element{})) return false;
  open_element& o = st.open[st.open_count++];
  o.start = p;
  o.level = level;
  o.paths = paths;
  o.key = key;
  o.index = index;
  o.retain_from = p;
  if (key == key_kind::name) {
    o.key_start = st.key_start;
    o.key_end = st.key_end;
    o.retain_from = st.key_start;
  }
  return true;
}

// Whether the element [start, end) passes the filter of selector `path` (selectors.filtered): 1 or 0, -1 when
// memory is exhausted. Bytes before the window are in filter_carry (keep_filter_bytes).
// Its members' keys, when the walk recorded them all (member_visitor), spare the filter a scan.
SLUICE_NOINLINE inline int filter_verdict(parser_state& st, uint32_t path, uint64_t start, uint64_t end) noexcept {
  const filter_program& f = st.selectors.paths[path].filter;
  const member_list members{st.members_of == start ? st.member_keys : nullptr, st.member_count};
  if (start >= st.w_base) {
    const uint8_t* w = st.window.data() + (start - st.w_base);
    return f.accepts(w, w + (end - start), members) ? 1 : 0;
  }
  byte_buffer& c = st.filter_carry;
  const size_t kept = c.size();
  if (!c.append(st.window.data(), size_t(end - st.w_base))) return -1;
  const bool pass = f.accepts(c.data() + (start - st.filter_from), c.data() + c.size(), members);
  c.resize_unchecked(kept);
  return pass ? 1 : 0;
}

// After a call: the bytes the outermost open element a filter decides about has in the window, kept for its
// evaluation at its close in a later call. False when memory is exhausted.
SLUICE_NOINLINE inline bool keep_filter_bytes(parser_state& st) noexcept {
  const uint32_t filtered = st.selectors.filtered;
  uint64_t from = no_position;
  for (uint32_t i = 0; i < st.open_count; ++i) {
    if ((st.open[i].paths & filtered) != 0) {
      from = st.open[i].start;
      break;
    }
  }
  if (from == no_position || from >= st.w_base) {
    st.filter_carry.clear();
    st.filter_from = from;
    if (from == no_position) return true;
  }
  const uint64_t first = from > st.w_base ? from : st.w_base;
  return st.filter_carry.append(st.window.data() + (first - st.w_base), size_t(st.w_base + st.w_len - first));
}

// The innermost open element ends just before `end`: one record per selector that chose it and, when a filter
// decides about it, it passes. A marker-only element
// kept no bytes, and a marker's record is the position just past the element. False (nothing done) when the
// table cannot grow.
inline bool close_element(parser_state& st, uint64_t end) noexcept {
  const open_element& o = st.open[st.open_count - 1];
  uint32_t paths = o.paths;
  for (uint32_t rest = paths & st.selectors.filtered; rest != 0; rest &= rest - 1) {
    const uint32_t path = uint32_t(trailing_zeroes(rest));
    const int verdict = filter_verdict(st, path, o.start, end);
    if (verdict < 0) return false;
    if (verdict == 0) paths &= ~(1u << path);
  }
  if (st.members_of == o.start) st.members_of = no_position;
  if (!reserve_elements(st, paths)) return false;
  --st.open_count;
  const uint32_t markers = st.selectors.markers;
  const uint8_t* const past = st.window.data() + (end - st.w_base);
  const bool named = o.key == key_kind::name;
  const uint64_t key_gap = named ? o.start - o.key_start : 0;
  const uint64_t key_size = named ? o.key_end - o.key_start : 0;
  const uint32_t kept = paths & ~markers;
  if (kept != 0) {
    if (o.start < st.w_base) st.carried += uint32_t(count_ones(kept));
    if (o.retain_from < st.w_base && end >= st.carry_through) st.carry_through = end;
  }
  for (uint32_t rest = paths; rest != 0; rest &= rest - 1) {
    const uint32_t path = uint32_t(trailing_zeroes(rest));
    if (((markers >> path) & 1) != 0) {
      emit_element(st, past, 0, path, o.key, 0, 0, o.index);
    } else {
      emit_element(st, past, end - o.start, path, o.key, key_gap, key_size, o.index);
    }
  }
  update_limit(st);
  return true;
}

// close_element() inline for the element a selecting walk closes most: the only open element, one selector's (no
// marker), no name key, no key being read, begun in this window. Anything else goes out of line (139 instructions
// an element there, the call included).
SLUICE_INLINE bool close_only_element(parser_state& st, uint64_t end) noexcept {
  const open_element& o = st.open[0];
  const uint32_t paths = o.paths;
  if (st.open_count != 1 || (paths & (paths - 1)) != 0 ||
      (paths & (st.selectors.markers | st.selectors.filtered)) != 0 || o.key == key_kind::name || o.start < st.w_base ||
      st.key_reading || !st.elements.reserve(st.elements.size() + 1))
    return close_element(st, end);
  st.open_count = 0;
  emit_element(st, st.window.data() + (end - st.w_base), end - o.start, uint32_t(trailing_zeroes(paths)), o.key, 0, 0,
               o.index);
  st.limit_pos = no_position;  // what update_limit() finds with nothing open and no key being read
  return true;
}

// Start markers (add_start_marker_path) matched the value starting at p (in the window): recorded at once, as
// size-0 elements pointing at its first byte, with its key (still held: key_pending keeps it until here).
SLUICE_NOINLINE inline bool start_marker(parser_state& st, uint64_t p, uint32_t paths, key_kind key,
                                         uint64_t index) noexcept {
  if (!reserve_elements(st, paths)) return false;
  const uint8_t* data = st.window.data() + (p - st.w_base);
  const bool named = key == key_kind::name;
  const uint64_t key_gap = named ? p - st.key_start : 0;
  const uint64_t key_size = named ? st.key_end - st.key_start : 0;
  if (named && st.key_start < st.w_base && p >= st.carry_through) st.carry_through = p;
  for (uint32_t rest = paths; rest != 0; rest &= rest - 1)
    emit_element(st, data, 0, uint32_t(trailing_zeroes(rest)), key, key_gap, key_size, index);
  return true;
}

}  // namespace internal
}  // namespace sluice

#endif  // SLUICE_STREAM_ELEMENT_OUTPUT_H
