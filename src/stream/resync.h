// NDJSON that survives a bad line (parser_options::skip_invalid): an error reports the line (skipped_line) and the
// parser starts over at the next newline, which may arrive in a later call. All of it runs on the error path: the
// scan's only extra work with the option off is one AND and one OR a block (newlines are events only with it on).
//
// With the option each line is a document of its own: a newline event outside a value returns the root to
// s_root, inside one it is UNEXPECTED_END (general_path.h), and a second value on the same line is TRAILING_DATA.
// A line's selected elements are emitted as they complete, so a line that fails later has delivered them already.
#ifndef SLUICE_STREAM_RESYNC_H
#define SLUICE_STREAM_RESYNC_H

#include <cstdint>
#include <cstring>

#include "stream/element_output.h"
#include "stream/failure.h"
#include "stream/parser_state.h"

namespace sluice {
namespace internal {

// Bytes [from, to) of the window up to the first newline, appended to the report's text while it has room.
inline void append_line_text(skipped_line& r, const uint8_t* from, const uint8_t* to) noexcept {
  while (from < to && r.text_len < skipped_text_bytes && *from != '\n') r.text[r.text_len++] = *from++;
}

// The pending report joins the call's results: once its line has ended (its text is then the same in every
// chunking), or at the end of input. Its place was reserved by report_line.
inline void emit_report(parser_state& st) noexcept {
  st.pending.element_index = uint32_t(st.elements.size());
  if (!st.skipped.push_back(st.pending)) fail(st, error_code::out_of_memory, st.w_base + st.w_len, -1);
  st.skipping = false;
}

// The error just recorded becomes the pending report, the grammar and stage 1 start over at the root, and the rest
// of the line is to be skipped (skip_line_rest). False when the error is fatal (the option off, or out of memory).
SLUICE_SMALL inline bool report_line(parser_state& st) noexcept {
  if (!st.options.skip_invalid || st.status == error_code::ok || st.status == error_code::out_of_memory) return false;
  const parse_error e = st.error;
  if (!st.skipped.reserve(st.skipped.size() + 1)) {
    st.status = error_code::ok;
    fail(st, error_code::out_of_memory, e.offset, -1);
    return false;
  }
  skipped_line& r = st.pending;
  r.code = uint32_t(e.code);
  r.byte = e.byte < 0 ? 256 : uint32_t(e.byte);
  r.element_index = 0;
  r.text_len = 0;
  r.offset = double(e.offset);
  r.line = double(e.line);
  r.column = double(e.column);
  // The line's first bytes: those of earlier calls kept in line_head, then the window's (later calls add theirs
  // while the line lasts: skip_line_rest).
  const uint64_t line_start = e.offset - (e.column - 1);
  const uint8_t* w = st.window.data();
  const uint8_t* w_end = w + st.w_len;
  if (line_start >= st.w_base) {
    if (line_start < st.w_base + st.w_len) append_line_text(r, w + (line_start - st.w_base), w_end);
  } else {
    std::memcpy(r.text, st.line_head, st.line_head_len);
    r.text_len = st.line_head_len;
    append_line_text(r, w, w_end);
  }
  ++st.skipped_lines;
  st.lines_before = e.line - 1;
  // Nothing of the line survives: no open element (its bytes are not kept), no key, no token, no string.
  st.status = error_code::ok;
  st.error = parse_error{};
  st.state = s_root;
  st.depth = 0;
  st.token = 0;
  st.cand_top = st.selectors.all;
  st.next_cand = 0;
  st.member_match = 0;
  st.member_pos = 0;
  st.key_pending = false;
  st.key_reading = false;
  st.key_unmatchable = false;
  st.key_carry.clear();
  st.open_count = 0;
  st.members_of = no_position;
  st.limit_pos = no_position;
  st.scan = scan_full_state{};
  st.skipping = true;
  return true;
}

// While skipping: the first newline at window index `from` or later ends the bad line, its report is emitted, and
// the scan resumes just past it (returned); the window's length when the line goes on into the next call.
// `new_window`: the report's text has not seen this window yet (a call after the error's).
SLUICE_NOINLINE inline unsigned skip_line_rest(parser_state& st, unsigned from, bool new_window) noexcept {
  const uint8_t* w = st.window.data();
  const unsigned n = st.w_len;
  if (new_window) append_line_text(st.pending, w, w + n);
  if (from >= n) return n;
  const void* nl = std::memchr(w + from, '\n', n - from);
  if (nl == nullptr) return n;
  const unsigned next = unsigned(static_cast<const uint8_t*>(nl) - w) + 1;
  emit_report(st);
  ++st.lines_before;
  st.line_start = st.w_base + next;
  st.spaces_end = st.line_start;  // the newline was whitespace (compact_lines)
  return next;
}

// An error in this call: reported and its line skipped. Returns false when it is fatal, else sets *resume to the
// window index where the scan goes on.
SLUICE_NOINLINE inline bool resync(parser_state& st, unsigned* resume) noexcept {
  if (!report_line(st)) return false;
  // From the error's byte: that of an unexpected newline is the line's end.
  const uint64_t at = uint64_t(st.pending.offset);
  const unsigned from = at <= st.w_base ? 0 : at >= st.w_base + st.w_len ? st.w_len : unsigned(at - st.w_base);
  *resume = skip_line_rest(st, from, false);
  return st.status == error_code::ok;
}

// At the end of a call with the option: the current line's first bytes, for a report in a later call.
inline void keep_line_head(parser_state& st) noexcept {
  const uint8_t* w = st.window.data();
  const uint64_t w_end = st.w_base + st.w_len;
  if (st.line_start >= st.w_base) {
    const uint64_t n = w_end - st.line_start;
    st.line_head_len = uint8_t(n < skipped_text_bytes ? n : skipped_text_bytes);
    std::memcpy(st.line_head, w + (st.line_start - st.w_base), st.line_head_len);
  } else if (st.line_head_len < skipped_text_bytes) {
    const unsigned room = skipped_text_bytes - st.line_head_len;
    const unsigned n = st.w_len < room ? st.w_len : room;
    std::memcpy(st.line_head + st.line_head_len, w, n);
    st.line_head_len = uint8_t(st.line_head_len + n);
  }
}

}  // namespace internal
}  // namespace sluice

#endif  // SLUICE_STREAM_RESYNC_H
