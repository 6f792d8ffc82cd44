// batch_mode::compact_lines: the elements of one feed()/finish(), compacted (compact.h) one after another into the
// batch text, each followed by '\n', so the batch is NDJSON ready to write (`sluice select`), and each element
// record re-pointed at its compacted text. One batch per call.
#ifndef SLUICE_STREAM_COMPACT_LINES_H
#define SLUICE_STREAM_COMPACT_LINES_H

namespace sluice {
namespace internal {

struct parser_state;
struct element_bytes;

// Writes the batch for st.elements into st.batch_text and st.batches, with the kernel st.options.kernel names, and
// re-points each record at its compacted text. Every element's bytes must be at hand (`bytes` with a carry).
// Returns false when the batch text cannot grow (the caller reports out_of_memory).
bool write_compact_lines(parser_state& st, const element_bytes& bytes) noexcept;

}  // namespace internal
}  // namespace sluice

#endif  // SLUICE_STREAM_COMPACT_LINES_H
