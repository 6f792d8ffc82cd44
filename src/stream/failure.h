// Errors of the push parser: the first one is recorded with its absolute offset, line and column, and the parser
// is dead afterwards. Positions are chunking-independent: within a block the events before the first
// string-content error are handled first, so the error reported is always the first in stream order.
#ifndef SLUICE_STREAM_FAILURE_H
#define SLUICE_STREAM_FAILURE_H

#include <cstdint>

#include "scan/bits.h"
#include "stream/parser_state.h"

namespace sluice {
namespace internal {

// Line and column of `pos`, which lies in the window (before, in or after the current block: the scan counts lines
// a block at a time, and after it an out-of-memory error names a byte it has passed), or at the end of the input.
// Only called on errors.
inline void locate(const parser_state& st, uint64_t pos, uint64_t& line, uint64_t& column) noexcept {
  uint64_t lines = st.lines_before;
  uint64_t start = st.line_start;
  uint64_t from = st.block_base + 64;  // the window's bytes from here to pos are counted one by one
  if (pos < st.block_base) {
    lines = st.window_lines;
    start = st.window_line_start;
    from = st.w_base;
  } else {
    uint64_t nl = st.block_newline;
    if (pos < st.block_base + 64) nl &= mask_below(unsigned(pos - st.block_base));
    if (nl != 0) {
      lines += uint64_t(count_ones(nl));
      start = st.block_base + uint64_t(63 - leading_zeroes(nl)) + 1;
    }
  }
  // Beyond the block (a token that ran on, whose rest of the block may hold newlines), or before it.
  if (pos > from && st.w_len != 0) {
    const uint64_t w_end = st.w_base + st.w_len;
    for (uint64_t q = from; q < pos && q < w_end; ++q) {
      if (q >= st.w_base && st.window.data()[q - st.w_base] == '\n') {
        ++lines;
        start = q + 1;
      }
    }
  }
  line = lines + 1;
  column = pos - start + 1;
}

// The byte at absolute offset pos if the window holds it, else -1 (end of input).
inline int byte_at(const parser_state& st, uint64_t pos) noexcept {
  return (pos >= st.w_base && pos < st.w_base + st.w_len) ? st.window.data()[pos - st.w_base] : -1;
}

// Records the first error; the parser is dead afterwards. `byte` is the offending byte, -1 for end of input.
SLUICE_SMALL inline void fail(parser_state& st, error_code code, uint64_t pos, int byte) noexcept {
  if (st.status != error_code::ok) return;
  // An open element (or key) that already outgrew the limit at an earlier position reports that instead.
  if (pos > st.limit_pos && code != error_code::element_too_large) {
    code = error_code::element_too_large;
    pos = st.limit_pos;
    byte = byte_at(st, pos);
  }
  st.status = code;
  st.error.code = code;
  st.error.offset = pos;
  st.error.byte = byte;
  locate(st, pos, st.error.line, st.error.column);
}

// The open element (or key) outgrew max_element_bytes at limit_pos.
SLUICE_NOINLINE inline void fail_too_large(parser_state& st) noexcept {
  fail(st, error_code::element_too_large, st.limit_pos, byte_at(st, st.limit_pos));
}

}  // namespace internal
}  // namespace sluice

#endif  // SLUICE_STREAM_FAILURE_H
