// The one pass lazy_index::build() makes over a whole document: where every container starts and ends. Nothing
// is validated beyond the bracket structure, so the pass needs only strings (quotes, escapes) and brackets of each
// block: the kernels' skeleton() gives those with three compares per 16 bytes, about half the work of a full
// classification, and the only bytes visited one by one are brackets (twitter.json has 25,700 commas and colons
// outside strings against 4,600 brackets, canada.json 111,000 commas against 112,000 brackets).
#ifndef SLUICE_INTERNAL_LAZY_SKELETON_H
#define SLUICE_INTERNAL_LAZY_SKELETON_H

#include "lazy/lazy_state.h"
#include "scan/lean_scan.h"

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
  scan_lean_state s;  // only its string half is used: no scalar tokens here
  for (uint32_t off = pos; off < n; off += 64) {
    const unsigned len = n - off < 64 ? n - off : 64;
    const uint64_t valid = mask_below(len);
    const skeleton_classes c = K::skeleton(d + off);
    uint64_t quote;  // the unescaped quotes: not needed here, only where strings are
    const uint64_t in_string = scan_strings_lean(s, c.quote, c.backslash, len, valid, &quote);
    for (uint64_t ev = c.bracket & valid & ~in_string; ev != 0; ev = clear_lowest_bit(ev)) {
      const unsigned i = unsigned(trailing_zeroes(ev));
      const uint8_t ch = d[off + i];
      if (is_open_bracket(ch)) {
        if (open.size() >= max_depth) return false;
        const uint32_t id = uint32_t(st.containers.size());
        if (!st.containers.push_back({off + i, 0, 0}) || !open.push_back(id)) return false;
      } else if (is_close_bracket(ch)) {
        if (open.size() == 0) return false;
        lazy_container& box = st.containers[open.back()];
        open.pop_back();
        if ((d[box.start] == '{') != (ch == '}')) return false;
        box.end = off + i;
        box.next = uint32_t(st.containers.size());
        if (open.size() == 0) {
          st.root_end = off + i + 1;
          // Only whitespace may follow the root; anything else is trailing data (the parser then says what).
          for (uint32_t q = off + i + 1; q < n; ++q)
            if (!is_json_space(d[q])) return false;
          return true;
        }
      }
      // Y _ y DEL, candidates only: invalid outside a string, reported when their container is listed.
    }
  }
  return false;  // the root never closed (or a string ran to the end): the parser says where
}

}  // namespace internal
}  // namespace sluice

#endif  // SLUICE_INTERNAL_LAZY_SKELETON_H
