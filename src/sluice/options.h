// Options of the push parser. Validated by push_parser's constructor (clamped to the documented ranges).
#ifndef SLUICE_OPTIONS_H
#define SLUICE_OPTIONS_H

#include <cstdint>

namespace sluice {

// Which stage-1 kernel scans the input. `best` is the SIMD kernel compiled in (SSE2 natively, SIMD128 in the wasm
// SIMD build, scalar where neither exists); `scalar` forces the portable reference kernel. All kernels produce
// bit-identical results.
enum class kernel_kind : uint8_t { best = 0, scalar = 1 };

// What the parser prepares for the caller besides the element table, per feed()/finish().
enum class batch_mode : uint8_t {
  none = 0,
  // Each batch is the text of a JSON array holding exactly its elements (`[e1,e2,...]`): one JSON.parse per batch.
  // The text is ASCII: non-ASCII characters are written as \uXXXX escapes (same values, faster to decode).
  json_array = 1,
  // Each batch is the smallest address range covering its elements: one copy per batch.
  cover = 2,
  // One batch per call: each element compacted (insignificant whitespace removed, every other byte kept) and
  // followed by '\n', so the batch is NDJSON. The element records point at their compacted text in the batch.
  compact_lines = 3,
};

struct parser_options {
  // Deepest nesting allowed (the root value is depth 0, its children depth 1...). 1..1'000'000.
  uint32_t max_depth = 1024;
  // Largest selected element, and largest object key a selector must compare, in bytes. At most 4 GiB - 1.
  uint64_t max_element_bytes = uint64_t{256} << 20;
  // A sequence of top-level values (newline-delimited or concatenated) instead of exactly one.
  bool ndjson = false;
  batch_mode batches = batch_mode::none;
  kernel_kind kernel = kernel_kind::best;
  // Last, so that positional initialisers of the fields above stay valid. With ndjson: a line that does not parse is
  // reported (push_parser::skipped) and skipped, the parser resuming at the next newline; each line then holds at most
  // one value, and a value cut by its newline is UNEXPECTED_END. OUT_OF_MEMORY stays fatal.
  bool skip_invalid = false;
  // With compact_lines: an element that is the node of the element before it (another selector chose it too: the
  // same end and size) gets no line of its own; its record points at that element's compacted text, so the caller
  // tells repeats by their equal ends (the CLI's union whose selectors may select one node: one line per query).
  bool share_repeats = false;
};

}  // namespace sluice

#endif  // SLUICE_OPTIONS_H
