// The selector automaton: the compiled form of a push parser's selectors, and its state along the current path.
// Each selector is a bit (at most max_selectors of them); at every depth the automaton keeps the set of selectors
// still matching the path from the root (the candidates), so a value's fate is a few mask operations: O(1) per
// value, and nothing at all deeper than the longest selector.
//
// A selector with a descendant segment (`..`) has no fixed depth for its steps: it runs as a set of positions
// (selector, steps matched so far), a bit each of one 64-bit mask, kept per open container. A value's positions
// are those its key or index advanced, plus the parent's `..` positions, which stay alive in every container under
// theirs; its selector's bit is a candidate wherever any position is alive. The depth tables and stacks then reach
// as deep as such a container has been opened (live_len), grown as the path goes deeper.
#ifndef SLUICE_SELECT_SELECTOR_SET_H
#define SLUICE_SELECT_SELECTOR_SET_H

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "scan/bits.h"
#include "select/selector.h"
#include "sluice/limits.h"

namespace sluice {
namespace internal {

// An index or slice step: indices start <= i < end, every stride-th (an index N: [N, N + 1), stride 1).
struct index_step {
  uint32_t path;  // the selector (linear tables) or the position (positions' table)
  uint64_t start;
  uint64_t end;
  uint64_t stride;
  bool has(uint64_t i) const noexcept { return i - start < end - start && (stride == 1 || (i - start) % stride == 0); }
};

// Positions of descendant selectors, all selectors together.
constexpr uint32_t max_positions = 64;

// wildcard_choice(): the general path must decide.
constexpr uint32_t decide_generally = ~uint32_t{0};

struct selector_set {
  // MARK: compiled at the first feed
  std::vector<selector> paths;
  uint32_t all = 0;            // a bit per selector
  uint32_t markers = 0;        // added with add_(start_)marker_path: reported, never retained
  uint32_t start_markers = 0;  // ...of which add_start_marker_path: reported where the value starts
  uint32_t filtered = 0;       // selectors whose last step is a filter: a child is selected only if it passes
  uint32_t desc_paths = 0;     // selectors with a descendant segment: run by positions, never in the depth tables
  uint32_t max_len = 0;        // the longest selector without a descendant segment, in steps
  // The tables and stacks hold depths 0..live_len; deeper, no selector is alive. max_len, grown by reach().
  uint32_t live_len = 0;
  // The longest raw JSON text (quotes included) a key can have and still equal a name step: 6 bytes per byte of
  // the name (a \uXXXX escape per character, at most 6 bytes per byte of its UTF-8), plus the quotes. 0 when no
  // step is a name.
  uint32_t max_key_bytes = 0;
  std::vector<uint32_t> len_is;   // [d]: selectors with exactly d steps (they select values at level d)
  std::vector<uint32_t> wild_at;  // [j]: selectors whose step j is * (any key or index)
  std::vector<uint32_t> name_at;  // [j]: selectors whose step j is a name
  // [j]: selectors whose step j is [N] or a slice, and every descendant selector (the general path decides)
  std::vector<uint32_t> index_mask_at;
  std::vector<std::vector<index_step>> index_at_step;  // [j]: the same, with their N

  // Positions (descendant selectors): bit base + j of a selector is "steps 0..j-1 matched, step j next".
  uint64_t start_pos = 0;                // position 0 of every descendant selector: the root's
  uint64_t desc_pos = 0;                 // positions whose step is `..`: they stay alive in every value under theirs
  uint64_t wild_pos = 0;                 // ...whose step is *
  uint64_t name_pos = 0;                 // ...whose step is a name
  uint64_t last_pos = 0;                 // ...whose step is their selector's last
  uint8_t pos_path[max_positions] = {};  // the selector of each position
  uint8_t pos_step[max_positions] = {};  // ...and its step
  std::vector<index_step> pos_indices;   // index and slice steps (path: the position's bit)

  // MARK: along the current path
  std::vector<uint32_t> cand_at;   // [d]: selectors still matching inside the open container at depth d
  std::vector<uint64_t> index_at;  // [d]: index of the current element in the array at depth d
  std::vector<uint64_t> pos_at;    // [d]: positions alive inside the container at depth d (read only when cand_at[d]
                                   // holds a descendant selector)
  std::string key_scratch;         // an escaped key, decoded for comparison

  // Adds a selector; false with *error_at as parse_selector() sets it, or size_t(-1) when the budget is spent.
  bool add(std::string_view path, size_t* error_at);
  // Builds the tables. Without any selector, selects every element of the root array (the root value itself
  // with ndjson, where each top-level value is the root).
  void compile(bool ndjson);

  // Which of the candidates `cand` match the element `index` of the array at depth d.
  uint32_t match_index(uint32_t cand, uint32_t d, uint64_t index) const noexcept {
    uint32_t matched = cand & wild_at[d - 1];
    for (const index_step& s : index_at_step[d - 1])
      if (s.has(index)) matched |= cand & (1u << s.path);
    return matched;
  }
  // Which of the candidates `cand` match the member whose raw key (quotes excluded, n bytes) is `key`, in an
  // object at depth d.
  uint32_t match_key(uint32_t cand, uint32_t d, const uint8_t* key, size_t n);
  // ...whose key is longer than max_key_bytes: the wildcards alone.
  uint32_t match_any_key(uint32_t cand, uint32_t d) const noexcept { return cand & wild_at[d - 1]; }

  // MARK: positions
  // Which of the positions `pos` match that member (its raw key, quotes excluded).
  uint64_t match_key_pos(uint64_t pos, const uint8_t* key,
                         size_t n);  // Which of the positions `pos` match the element `index` of an array.
  uint64_t match_index_pos(uint64_t pos, uint64_t index) const noexcept {
    uint64_t matched = pos & wild_pos;
    for (const index_step& s : pos_indices)
      if (((pos >> s.path) & 1) != 0 && s.has(index)) matched |= uint64_t{1} << s.path;
    return matched;
  }
  // The selectors that select a value whose matched positions are `matched`.
  uint32_t paths_ending(uint64_t matched) const noexcept {
    uint32_t ending = 0;
    for (uint64_t rest = matched & last_pos; rest != 0; rest &= rest - 1)
      ending |= 1u << pos_path[trailing_zeroes(rest)];
    return ending;
  }
  // The positions alive inside a value of a container with positions `pos`, the value's matched ones `matched`.
  uint64_t positions_inside(uint64_t pos, uint64_t matched) const noexcept {
    return ((matched & ~last_pos) << 1) | (pos & desc_pos);
  }
  // Makes the tables and stacks hold depth d (> live_len): a descendant selector is alive in a container there.
  void reach(uint32_t d);

  // Bytes of memory the tables hold.
  size_t allocated() const noexcept;

  // The common case of a live array at depth d (wildcards alone decide about its elements): the one plain
  // selector that chooses the next element, 0 when none does (strings and scalars only: nothing can continue into
  // them), or decide_generally when the general path must decide (an index or slice step, a descendant selector,
  // several selectors, a marker, a selector continuing into the container).
  SLUICE_INLINE uint32_t wildcard_choice(uint32_t cand, uint32_t d, bool container) const noexcept {
    if ((index_mask_at[d - 1] & cand) != 0) return decide_generally;
    const uint32_t matched = cand & wild_at[d - 1];
    const uint32_t chosen = matched & len_is[d];
    if (chosen == 0) return container ? decide_generally : 0;
    if ((chosen & (chosen - 1)) != 0 || (chosen & markers) != 0 || (container && matched != chosen))
      return decide_generally;
    return chosen;
  }
};

}  // namespace internal
}  // namespace sluice

#endif  // SLUICE_SELECT_SELECTOR_SET_H
