// The binding contract of the push parser, C++ half: the flags of the Parser constructor, the parser_view struct
// JS reads after every call, the element and batch records, and the limits JS validates options against. The JS
// half is js/native/contract.ts, with the same names in upper case (tests/node/contract.test.ts compares the two
// files); the static_asserts below tie each constant to the layout it describes. HACKING.md documents both.
#ifndef SLUICE_WASM_CONTRACT_H
#define SLUICE_WASM_CONTRACT_H

#include <cstddef>
#include <cstdint>

#include "sluice/limits.h"
#include "sluice/push_parser.h"
#include "stream/workspace.h"

namespace sluice {
namespace contract {

static_assert(sizeof(void*) == 4, "the binding contract assumes wasm32");

// MARK: flags of the Parser constructor
constexpr int flag_ndjson = 1;          // a sequence of top-level values (parser_options::ndjson)
constexpr int flag_value_batches = 2;   // batch_mode::json_array: each batch one JSON array text `[e1,e2,...]`
constexpr int flag_cover_batches = 4;   // batch_mode::cover: each batch one address range covering its elements
constexpr int flag_compact_lines = 16;  // batch_mode::compact_lines: one batch per call, the elements compacted, one
                                        // per line (the CLI's select; its module, sluice-cli.wasm, only)
constexpr int flag_skip_invalid = 32;   // with flag_ndjson: bad lines reported and skipped (skip_invalid)
constexpr int flag_share_repeats = 64;  // with flag_compact_lines: a node's repeats share its line (share_repeats)

// MARK: parser_add_path: the selector's role
constexpr int role_value = 0;         // its matches are elements
constexpr int role_end_marker = 1;    // a marker reported at each match's end (push_parser::add_marker_path)
constexpr int role_start_marker = 2;  // a marker reported where each match starts (add_start_marker_path)

// MARK: parser_add_path's result (else the index of the path's syntax error)
constexpr int path_accepted = -1;
// More than max_selectors, more than 64 steps in the selectors with a `..` together (selector_set.h), or after the
// first feed.
constexpr int path_refused = -2;

// MARK: limits (src/sluice/limits.h), as literals JS can mirror
constexpr uint32_t max_selectors = 32;
constexpr uint32_t max_depth = 1000000;
constexpr double max_element_bytes = 4294967295;
static_assert(max_selectors == sluice::max_selectors);
static_assert(max_depth == sluice::max_depth_limit);
static_assert(max_element_bytes == double(sluice::max_element_bytes_limit));

// MARK: parser_view
// One for the module: every parser's call refreshes it. Read by JS with a Uint32Array and a Float64Array over
// memory.buffer: u32 and f64 word indices below.
struct parser_view {
  uint32_t input_ptr;       // where the next chunk is written: the window all parsers share
  uint32_t input_capacity;  // how many bytes may be written there
  uint32_t element_count;   // elements completed by the last call
  uint32_t elements_ptr;
  uint32_t batch_count;
  uint32_t batches_ptr;
  uint32_t status;      // 0 ok, else an error_code; sticky
  uint32_t error_byte;  // 256 = end of input
  double error_offset;
  double error_line;
  double error_column;
  double bytes_fed;
  double window_offset;  // the stream offset of input_ptr in the last call
  // The caller keeps the stream's bytes [retain_from, window_offset + n) for the next call (its carry); -1: none.
  double retain_from;
  // The last call's records need the carry extended with the window up to this stream offset (at least
  // window_offset); 0: no record reads the carry.
  double carry_through;
  uint32_t carried_count;  // elements of the last call that began before its window (their bytes: the carry)
  uint32_t saved_bytes;    // save() wrote the parser's state at input_ptr, this many bytes
  uint32_t skipped_count;  // lines the last call skipped (flag_skip_invalid): skipped records at skipped_ptr
  uint32_t skipped_ptr;
};
constexpr uint32_t view_input_ptr = 0;
constexpr uint32_t view_input_capacity = 1;
constexpr uint32_t view_element_count = 2;
constexpr uint32_t view_elements_ptr = 3;
constexpr uint32_t view_batch_count = 4;
constexpr uint32_t view_batches_ptr = 5;
constexpr uint32_t view_status = 6;
constexpr uint32_t view_error_byte = 7;
constexpr uint32_t view_carried_count = 22;
constexpr uint32_t view_saved_bytes = 23;
constexpr uint32_t view_skipped_count = 24;
constexpr uint32_t view_skipped_ptr = 25;
// f64 indices
constexpr uint32_t view_error_offset = 4;
constexpr uint32_t view_error_line = 5;
constexpr uint32_t view_error_column = 6;
constexpr uint32_t view_bytes_fed = 7;
constexpr uint32_t view_window_offset = 8;
constexpr uint32_t view_retain_from = 9;
constexpr uint32_t view_carry_through = 10;
constexpr uint32_t view_bytes = 104;

static_assert(offsetof(parser_view, input_ptr) == view_input_ptr * 4);
static_assert(offsetof(parser_view, input_capacity) == view_input_capacity * 4);
static_assert(offsetof(parser_view, element_count) == view_element_count * 4);
static_assert(offsetof(parser_view, elements_ptr) == view_elements_ptr * 4);
static_assert(offsetof(parser_view, batch_count) == view_batch_count * 4);
static_assert(offsetof(parser_view, batches_ptr) == view_batches_ptr * 4);
static_assert(offsetof(parser_view, status) == view_status * 4);
static_assert(offsetof(parser_view, error_byte) == view_error_byte * 4);
static_assert(offsetof(parser_view, carried_count) == view_carried_count * 4);
static_assert(offsetof(parser_view, saved_bytes) == view_saved_bytes * 4);
static_assert(offsetof(parser_view, skipped_count) == view_skipped_count * 4);
static_assert(offsetof(parser_view, skipped_ptr) == view_skipped_ptr * 4);
static_assert(offsetof(parser_view, error_offset) == view_error_offset * 8);
static_assert(offsetof(parser_view, error_line) == view_error_line * 8);
static_assert(offsetof(parser_view, error_column) == view_error_column * 8);
static_assert(offsetof(parser_view, bytes_fed) == view_bytes_fed * 8);
static_assert(offsetof(parser_view, window_offset) == view_window_offset * 8);
static_assert(offsetof(parser_view, retain_from) == view_retain_from * 8);
static_assert(offsetof(parser_view, carry_through) == view_carry_through * 8);
static_assert(sizeof(parser_view) == view_bytes);

// MARK: element record (internal::raw_element): u32 words
// The element is the stream's bytes [end - len, end), `end` an address in the window: those before the window lie
// in the caller's carry. A name key lies key_gap bytes before the element's first byte.
constexpr uint32_t element_words = 8;
constexpr uint32_t element_end = 0;
constexpr uint32_t element_len = 1;
constexpr uint32_t element_path_index = 2;
constexpr uint32_t element_key_kind = 3;
constexpr uint32_t element_key_gap = 4;
constexpr uint32_t element_key_len = 5;
constexpr uint32_t element_index_lo = 6;
constexpr uint32_t element_index_hi = 7;
constexpr uint32_t key_none = 0;
constexpr uint32_t key_index = 1;
constexpr uint32_t key_name = 2;

using internal::raw_element;
static_assert(sizeof(raw_element) == element_words * 4);
static_assert(offsetof(raw_element, end) == element_end * 4);
static_assert(offsetof(raw_element, size) == element_len * 4);
static_assert(offsetof(raw_element, path_index) == element_path_index * 4);
static_assert(offsetof(raw_element, key) == element_key_kind * 4);
static_assert(offsetof(raw_element, key_gap) == element_key_gap * 4);
static_assert(offsetof(raw_element, key_size) == element_key_len * 4);
static_assert(offsetof(raw_element, index_lo) == element_index_lo * 4);
static_assert(offsetof(raw_element, index_hi) == element_index_hi * 4);
static_assert(uint32_t(key_kind::none) == key_none && uint32_t(key_kind::index) == key_index &&
              uint32_t(key_kind::name) == key_name);

// MARK: batch record (sluice::batch): u32 words
// ptr 0: the batch's one element began before the window, its bytes are in the caller's carry.
constexpr uint32_t batch_words = 4;
constexpr uint32_t batch_ptr = 0;
constexpr uint32_t batch_len = 1;
constexpr uint32_t batch_first_element = 2;
constexpr uint32_t batch_element_count = 3;

static_assert(sizeof(batch) == batch_words * 4);
static_assert(offsetof(batch, data) == batch_ptr * 4);
static_assert(offsetof(batch, size) == batch_len * 4);
static_assert(offsetof(batch, first_element) == batch_first_element * 4);
static_assert(offsetof(batch, element_count) == batch_element_count * 4);

// MARK: skipped line record (sluice::skipped_line): u32 words, f64 words, then the text's bytes
constexpr uint32_t skipped_bytes = 120;
constexpr uint32_t skipped_code = 0;
constexpr uint32_t skipped_byte = 1;           // 256: the end of the line or of the input
constexpr uint32_t skipped_element_index = 2;  // elements of the same call before it
constexpr uint32_t skipped_text_len = 3;
constexpr uint32_t skipped_offset = 2;  // f64 indices
constexpr uint32_t skipped_line_number = 3;
constexpr uint32_t skipped_column = 4;
constexpr uint32_t skipped_text = 40;  // byte offset of the line's first bytes
constexpr uint32_t skipped_text_max = 80;

using record = sluice::skipped_line;
static_assert(sizeof(record) == skipped_bytes);
static_assert(offsetof(record, code) == skipped_code * 4);
static_assert(offsetof(record, byte) == skipped_byte * 4);
static_assert(offsetof(record, element_index) == skipped_element_index * 4);
static_assert(offsetof(record, text_len) == skipped_text_len * 4);
static_assert(offsetof(record, offset) == skipped_offset * 8);
static_assert(offsetof(record, line) == skipped_line_number * 8);
static_assert(offsetof(record, column) == skipped_column * 8);
static_assert(offsetof(record, text) == skipped_text);
static_assert(skipped_text_max == sluice::skipped_text_bytes);

}  // namespace contract
}  // namespace sluice

#endif  // SLUICE_WASM_CONTRACT_H
