// validate_range (lazy/lazy_validate.h) by the push parser's calls (stream/stream_parser.h), which the wasm lazy
// module holds anyway (it is the page's parser module with the index added): no push_parser class and no carry,
// since a parser that selects nothing keeps no bytes.
#include "lazy/lazy_validate.h"

#include <cstring>

#include "stream/parser_state.h"
#include "stream/stream_parser.h"
#include "stream/workspace.h"

namespace sluice {
namespace internal {

namespace {

// A selector no document can satisfy (2^53 elements), so that the push parser validates without selecting.
constexpr const char* validate_only_path = "$[9007199254740992]";

// 1-based line of document offset `pos` and the offset its line starts at. Errors only: O(pos).
void line_of(const uint8_t* d, uint64_t pos, uint64_t& line, uint64_t& line_start) {
  line = 1;
  line_start = 0;
  for (const uint8_t* p = d; p < d + pos;) {
    const void* nl = std::memchr(p, '\n', size_t(d + pos - p));
    if (nl == nullptr) break;
    const uint8_t* at = static_cast<const uint8_t*>(nl);
    ++line;
    line_start = uint64_t(at - d) + 1;
    p = at + 1;
  }
}

}  // namespace

parse_error validate_range(const uint8_t* d, uint64_t start, uint64_t end, uint32_t max_depth, kernel_kind kernel,
                           error_code if_valid) {
  static const parse_error oom{error_code::out_of_memory, start, 1, 1, -1};
  parser_options o;
  o.max_depth = max_depth;
  o.kernel = kernel;
  // A workspace of its own, freed on return (the wasm module's shared one belongs to its parsers).
  workspace ws;
  if (!ws.init()) return oom;
  parser_state* st = new_parser(o, ws);
  if (st == nullptr) return oom;
  add_selector(*st, validate_only_path, selector_role::value, nullptr);
  uint64_t at = start;
  while (at < end && st->status == error_code::ok) {
    size_t n = ws.window.capacity();
    if (n > end - at) n = size_t(end - at);
    std::memcpy(ws.window.data(), d + at, n);
    feed(*st, n);
    at += n;
  }
  if (st->status == error_code::ok) finish(*st);
  parse_error e = st->error;
  delete st;
  if (e.code == error_code::ok) return if_valid == error_code::ok ? e : parse_error{if_valid, start, 1, 1, -1};
  if (start != 0) {
    uint64_t base_line, base_start;
    line_of(d, start, base_line, base_start);
    if (e.line == 1) e.column += start - base_start;
    e.line += base_line - 1;
    e.offset += start;
  }
  return e;
}

}  // namespace internal
}  // namespace sluice
