// The one pass lazy_index::build() makes over a whole document: where every container starts and ends. Stage 1's
// structure masks (lazy_scan.h) and a stack of open container ids; nothing is validated beyond the bracket
// structure, so the pass costs little more than the block classification itself (no per-token work at all: the
// only events visited are brackets, lazy_brackets.h).
#ifndef SLUICE_INTERNAL_LAZY_SKELETON_H
#define SLUICE_INTERNAL_LAZY_SKELETON_H

#include "internal/lazy_brackets.h"
#include "internal/lazy_scan.h"
#include "internal/lazy_state.h"

namespace sluice {
namespace internal {

template <class K>
bool build_skeleton(lazy_state& st) noexcept {
  const uint8_t* const d = st.doc.data();
  const uint32_t n = uint32_t(st.doc.size());
  uint32_t pos = 0;
  if (n >= 3 && d[0] == 0xEF && d[1] == 0xBB && d[2] == 0xBF) pos = 3;
  while (pos < n && is_json_space(d[pos])) ++pos;
  if (pos == n) return false;  // empty: the parser says where
  st.root_start = pos;
  st.containers.clear();
  if (!is_open_bracket(d[pos])) {
    // A scalar root: its end is the last non-space byte; build() validates the whole text with the parser.
    uint32_t end = n;
    while (end > pos && is_json_space(d[end - 1])) --end;
    st.root_end = end;
    st.root_container = lazy_no_container;
    return true;
  }
  st.root_container = 0;
  // The open containers, innermost last. Bounded by max_depth.
  pod_vector<uint32_t> open;
  const uint32_t max_depth = st.options.max_depth;
  lean_state s;
  bool done = false;  // the root has closed: only whitespace may follow
  for (uint32_t off = pos; off < n; off += 64) {
    const unsigned len = n - off < 64 ? n - off : 64;
    const lean_block b = lean_scan<K>(s, d + off, len);
    if (done) {
      if (b.events != 0) return false;
      continue;
    }
    // Commas and colons need nothing here: only brackets are visited (with the scalar kernel, every structural).
    for (uint64_t ev = bracket_bits<K>::of(d + off, b.structural); ev != 0; ev = clear_lowest_bit(ev)) {
      const unsigned i = unsigned(trailing_zeroes(ev));
      const uint8_t c = d[off + i];
      if (is_open_bracket(c)) {
        if (open.size() >= max_depth) return false;
        const uint32_t id = uint32_t(st.containers.size());
        if (!st.containers.push_back({off + i, 0, 0}) || !open.push_back(id)) return false;
      } else if (is_close_bracket(c)) {
        if (open.size() == 0) return false;
        lazy_container& box = st.containers[open.back()];
        open.pop_back();
        if ((d[box.start] == '{') != (c == '}')) return false;
        box.end = off + i;
        box.next = uint32_t(st.containers.size());
        if (open.size() == 0) {
          st.root_end = off + i + 1;
          done = true;
          // Anything but whitespace after the root is trailing data.
          if ((b.events & ~mask_below(i + 1)) != 0) return false;
          break;
        }
      }
    }
  }
  return done && s.prev_in_string == 0;
}

}  // namespace internal
}  // namespace sluice

#endif  // SLUICE_INTERNAL_LAZY_SKELETON_H
