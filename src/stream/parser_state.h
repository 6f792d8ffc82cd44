// Everything a push_parser carries from one chunk to the next. Sizes are fixed when the first chunk arrives (paths
// compiled, depth stack allocated); afterwards only the carry and the result tables grow, and only to their working
// size (the largest element, the most elements per chunk).
#ifndef SLUICE_STREAM_PARSER_STATE_H
#define SLUICE_STREAM_PARSER_STATE_H

#include <cstddef>
#include <cstdint>
#include <vector>

#include "scan/full_scan.h"
#include "select/selector_set.h"
#include "sluice/error.h"
#include "sluice/limits.h"
#include "sluice/options.h"
#include "sluice/push_parser.h"
#include "util/buffers.h"
#include "walk/grammar.h"

namespace sluice {
namespace internal {

constexpr uint64_t no_position = ~uint64_t{0};
constexpr size_t default_window_bytes = 64 * 1024;

// A selected element whose last byte has not arrived yet. Elements of different selectors may nest; each selector
// has at most one open element, so at most max_selectors are open.
struct open_element {
  uint64_t start;        // absolute offset of its first byte
  uint64_t retain_from;  // its key's opening quote for object members, else start
  uint64_t key_start;    // key span, quotes included (key == name)
  uint64_t key_end;
  uint64_t index;        // key == index
  uint32_t level;        // number of enclosing containers
  uint32_t paths;        // selectors that chose it
  key_kind key;
};

struct parser_state {
  parser_options options;

  // MARK: selectors, compiled at the first feed
  selector_set selectors;
  bool compiled = false;

  // MARK: input
  byte_buffer window;      // the caller writes each chunk here
  uint64_t w_base = 0;     // absolute offset of window[0] during a feed
  unsigned w_len = 0;      // bytes in the window during a feed
  byte_buffer carry;       // retained bytes [c_base, c_base + carry.size())
  byte_buffer spare;       // the next carry, while elements of this feed still point into `carry`
  uint64_t c_base = 0;
  enum class carry_action : uint8_t { none, clear, drop_prefix, swap } pending = carry_action::none;
  uint64_t pending_base = 0;
  uint64_t bytes_fed = 0;
  uint8_t bom_matched = 0;  // bytes of a leading EF BB BF seen so far
  bool bom_done = false;

  // MARK: stage 1 and positions
  scan_full_state scan;
  uint64_t block_base = 0;      // absolute offset of the block being processed
  unsigned block_off = 0;       // its index in the window
  uint64_t block_newline = 0;   // its newline mask
  uint64_t block_quote = 0;     // its unescaped quotes
  uint64_t lines_before = 0;    // newlines before the current block
  uint64_t line_start = 0;      // absolute offset where the current line starts (as of the block start)
  uint64_t spaces_end = 0;      // compact_lines: just past the last whitespace byte outside strings so far (0: none);
                                // an element that starts at or after it is copied as it is

  // MARK: stage 2
  uint8_t state = s_root;             // walk_state
  uint32_t depth = 0;                 // open containers
  std::vector<uint64_t> is_object;    // bit per depth 1..max_depth
  uint8_t token = 0;                  // DFA state while state == s_in_scalar
  uint32_t cand_top = 0;              // selectors.cand_at[depth], cached
  uint32_t next_cand = 0;             // selectors continuing into the value just begun
  uint32_t member_match = 0;          // selectors matching the key just read
  bool key_pending = false;           // a key a selector may need is being read or awaits its value
  bool key_reading = false;           // ...and its closing quote has not arrived (only then does the limit apply)
  uint64_t key_start = 0, key_end = 0;
  uint64_t root_index = 0;            // top-level values completed (NDJSON keys)
  open_element open[max_selectors];
  uint32_t open_count = 0;
  uint64_t limit_pos = no_position;   // first offset an open element or key may not reach

  // MARK: results of the last call
  pod_vector<element> elements;
  pod_vector<batch> batches;
  byte_buffer batch_text;
  error_code status = error_code::ok;
  parse_error error;

  bool is_object_at(uint32_t d) const noexcept { return (is_object[d >> 6] >> (d & 63)) & 1; }
};

// Stage 1 + stage 2 over the window (stream/scan_window.h): one instantiation per kernel.
void scan_window_scalar(parser_state& st);
void scan_window_best(parser_state& st);
const char* best_kernel_name();  // "simd128", "sse2" or "scalar"

}  // namespace internal
}  // namespace sluice

#endif  // SLUICE_STREAM_PARSER_STATE_H
