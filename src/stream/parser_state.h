// Everything a push parser keeps from one call to the next: a few hundred bytes of scalars, the selector automaton,
// a bit per open container, and the start of a key a selector compares while its end has not arrived. The window
// and the result tables belong to the workspace the parser works in (workspace.h); the bytes of an element in
// progress to the caller (carry.h). A parser is saved to bytes and restored from them (saved_state.h), so that an
// idle one holds no memory of the module.
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
#include "stream/workspace.h"
#include "util/buffers.h"
#include "walk/grammar.h"

namespace sluice {
namespace internal {

constexpr uint64_t no_position = ~uint64_t{0};
// The member keys of a filtered object the walk records (member_visitor, into parser_state::member_keys); a larger
// object is scanned by its filter instead.
constexpr uint32_t recorded_members = 32;

// A selected element whose last byte has not arrived yet. Elements may nest (of different selectors, or of one with a
// descendant segment): at most one per open container and the root.
struct open_element {
  uint64_t start;        // absolute offset of its first byte
  uint64_t retain_from;  // its key's opening quote for object members, else start
  uint64_t key_start;    // key span, quotes included (key == name)
  uint64_t key_end;
  uint64_t index;  // key == index
  uint32_t level;  // number of enclosing containers
  uint32_t paths;  // selectors that chose it
  key_kind key;
};

// The state as plain bytes: every field that lives from one call to the next, and those of the call under way. A
// saved parser is a copy of it (the open elements in use only: `open` comes last), then of the rest of
// parser_state.
struct parser_scalars {
  parser_options options;
  bool compiled = false;  // the selectors are compiled: at the first call

  // MARK: input
  uint64_t w_base = 0;  // absolute offset of window[0] during a call
  unsigned w_len = 0;   // bytes in the window during a call
  uint64_t bytes_fed = 0;
  uint8_t bom_matched = 0;  // bytes of a leading EF BB BF seen so far
  bool bom_done = false;
  // After a call: the caller keeps the stream's bytes [retain_from, w_base + w_len) for the next one (the open
  // element and the key before it, carry.h); no_position when none.
  uint64_t retain_from = no_position;
  // The key being read started in an earlier call and is longer than any name a selector compares: no name can
  // match it, and key_carry does not hold it.
  bool key_unmatchable = false;

  // MARK: stage 1 and positions
  scan_full_state scan;
  uint64_t block_base = 0;     // absolute offset of the block being processed
  unsigned block_off = 0;      // its index in the window
  uint64_t block_newline = 0;  // its newline mask
  uint64_t block_quote = 0;    // its unescaped quotes
  uint64_t lines_before = 0;   // newlines before the current block
  uint64_t line_start = 0;     // absolute offset where the current line starts (as of the block start)
  uint64_t spaces_end = 0;     // compact_lines: just past the last whitespace byte outside strings so far (0: none);
                               // an element that starts at or after it is copied as it is
  // lines_before and line_start as of the window's start: for an error before the current block (after the scan,
  // the carry or the batches out of memory), whose line the per-block counts have already passed.
  uint64_t window_lines = 0;
  uint64_t window_line_start = 0;

  // MARK: stage 2
  uint8_t state = s_root;     // walk_state
  uint32_t depth = 0;         // open containers
  uint8_t token = 0;          // DFA state while state == s_in_scalar
  uint32_t cand_top = 0;      // selectors.cand_at[depth], cached
  uint32_t next_cand = 0;     // selectors continuing into the value just begun
  uint32_t member_match = 0;  // selectors matching the key just read
  uint64_t member_pos = 0;    // positions matching the key just read
  bool key_pending = false;   // a key a selector may need is being read or awaits its value
  bool key_reading = false;   // ...and its closing quote has not arrived (only then does the limit apply)
  uint64_t key_start = 0, key_end = 0;
  uint64_t root_index = 0;  // top-level values completed (NDJSON keys)

  // MARK: skip_invalid (stream/resync.h)
  bool skipping = false;                       // a bad line was reported: its rest is skipped up to the next newline
  uint8_t line_head_len = 0;                   // bytes of the current line kept from earlier calls, for a report's text
  uint64_t skipped_lines = 0;                  // lines reported and skipped so far
  skipped_line pending = {};                   // the report of the line being skipped, emitted when it ends
  uint8_t line_head[skipped_text_bytes] = {};  // the current line's first bytes, when it began before the window
  uint64_t limit_pos = no_position;            // first offset an open element or key may not reach

  // MARK: results of the last call (the records are in the workspace)
  uint32_t carried = 0;  // elements that began before the window: the caller's carry holds their first bytes
  // Records whose bytes or key began before the window need the caller's carry extended with the window up to
  // this offset (at least w_base); 0 when no record does.
  uint64_t carry_through = 0;
  error_code status = error_code::ok;
  parse_error error;

  uint32_t open_count = 0;  // in parser_state::open
  // filter_carry holds the stream's bytes [filter_from, w_base): the outermost open element a filter decides about
  // began in an earlier call. no_position when none did.
  uint64_t filter_from = no_position;
};

struct parser_state : parser_scalars {
  explicit parser_state(workspace& shared) noexcept
      : window(shared.window),
        elements(shared.elements),
        batches(shared.batches),
        batch_text(shared.batch_text),
        skipped(shared.skipped) {}
  parser_state(const parser_state&) = delete;
  parser_state& operator=(const parser_state&) = delete;

  // The workspace's, for the duration of a call.
  byte_buffer& window;
  pod_vector<raw_element>& elements;
  pod_vector<batch>& batches;
  byte_buffer& batch_text;
  pod_vector<skipped_line>& skipped;

  pod_vector<open_element> open;    // the open elements, outermost first: open_count of them in use
  selector_set selectors;           // compiled at the first call
  std::vector<uint64_t> is_object;  // bit per depth 1..max_depth
  // The bytes [key_start, ...) of a key being read that began in an earlier call, while no longer than the longest
  // raw text a compared name can have (selectors.max_key_bytes): what a name is compared with.
  byte_buffer key_carry;
  // The bytes of an open element a filter decides about (selectors.filtered) from earlier calls: the caller's carry
  // holds them too, but a filter is evaluated here, at the element's close.
  byte_buffer filter_carry;
  // The object a filter decides about, while the member walk records its members: the offsets of their keys'
  // opening quotes from members_of, so that the filter finds a member without scanning the object's bytes. Not
  // saved: a restored parser scans. no_position when no record is under way or complete.
  uint64_t members_of = no_position;
  uint32_t member_count = 0;
  uint32_t member_keys[recorded_members];

  bool is_object_at(uint32_t d) const noexcept { return (is_object[d >> 6] >> (d & 63)) & 1; }
  // The positions alive in the current container: 0 unless a descendant selector is a candidate there.
  uint64_t container_positions() const noexcept {
    return (cand_top & selectors.desc_paths) != 0 ? selectors.pos_at[depth] : 0;
  }
  // Bytes of memory it holds (the workspace not included).
  size_t allocated() const noexcept {
    return sizeof(parser_state) + is_object.capacity() * sizeof(uint64_t) + key_carry.allocated() +
           filter_carry.allocated() + selectors.allocated() + open.allocated();
  }
};

// Stage 1 + stage 2 over the window (stream/scan_window.h): one instantiation per kernel. The wasm modules
// (SLUICE_ONE_KERNEL) have the best only.
void scan_window_scalar(parser_state& st);
void scan_window_best(parser_state& st);
const char* best_kernel_name();  // "simd128", "sse2" or "scalar"

}  // namespace internal
}  // namespace sluice

#endif  // SLUICE_STREAM_PARSER_STATE_H
