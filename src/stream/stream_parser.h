// The push parser's calls on one parser_state: what the wasm binding (wasm/bindings.cpp, with the JS layer keeping
// the carry) and push_parser (keeping it itself) share. Each call scans the window of the workspace the parser works
// in and leaves its results there: the element records, then the batches the caller builds (batches.h).
#ifndef SLUICE_STREAM_STREAM_PARSER_H
#define SLUICE_STREAM_STREAM_PARSER_H

#include <cstddef>
#include <string_view>

#include "sluice/error.h"
#include "sluice/options.h"
#include "stream/parser_state.h"

namespace sluice {
namespace internal {

// A parser working in `shared`, with its options clamped to their ranges; null when memory is exhausted. Freed
// with delete.
parser_state* new_parser(const parser_options& options, workspace& shared) noexcept;

enum class selector_role : uint8_t {
  value,         // add_path: the elements it matches
  end_marker,    // add_marker_path
  start_marker,  // add_start_marker_path
};
// See push_parser::add_path and its marker variants.
bool add_selector(parser_state& st, std::string_view path, selector_role role, size_t* error_at);

// Scans the n bytes at the start of the window (at most its capacity). Returns the sticky status.
error_code feed(parser_state& st, size_t n) noexcept;
// The end of input.
error_code finish(parser_state& st) noexcept;

}  // namespace internal
}  // namespace sluice

#endif  // SLUICE_STREAM_STREAM_PARSER_H
