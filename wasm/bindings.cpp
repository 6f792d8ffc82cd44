// The push parser's half of the bindings: push_parser exposed to the JS facade through embind, one call per chunk
// (the lazy index's half, plain C exports: lazy_bindings.cpp). The contract (flags, the parser_view layout, the
// record layouts, the limits) is contract.h here and js/native/contract.ts there, documented in HACKING.md; users
// never see this module.
#include <emscripten/bind.h>
#include <malloc.h>

#include <cstdint>
#include <string>

#include "contract.h"
#include "sluice/push_parser.h"
#include "stream/parser_state.h"

namespace {

using sluice::batch_mode;
using sluice::parser_options;
using sluice::push_parser;
using sluice::contract::parser_view;
namespace contract = sluice::contract;

// The JS layer validated the numbers against the same limits; anything else (NaN, below 1) falls back to the
// defaults, and above the limits is clamped to them.
parser_options make_options(double max_depth, double max_element_bytes, int flags) {
  parser_options o;
  if (max_depth >= 1) o.max_depth = max_depth < contract::max_depth ? uint32_t(max_depth) : contract::max_depth;
  if (max_element_bytes >= 1)
    o.max_element_bytes = uint64_t(max_element_bytes < contract::max_element_bytes ? max_element_bytes
                                                                                   : contract::max_element_bytes);
  o.ndjson = (flags & contract::flag_ndjson) != 0;
  o.batches = (flags & contract::flag_value_batches)   ? batch_mode::json_array
              : (flags & contract::flag_cover_batches) ? batch_mode::cover
              : (flags & contract::flag_compact_lines) ? batch_mode::compact_lines
                                                       : batch_mode::none;
  return o;
}

// addPath and friends: path_accepted, path_refused, or the index of the offending character.
int path_result(bool accepted, size_t at) {
  if (accepted) return contract::path_accepted;
  return at == size_t(-1) ? contract::path_refused : int(at);
}

class wasm_parser {
 public:
  wasm_parser(double max_depth, double max_element_bytes, int flags)
      : parser_(make_options(max_depth, max_element_bytes, flags)), view_{} {
    refresh();
  }

  int add_path(const std::string& path) {
    size_t at = 0;
    return path_result(parser_.add_path(path, &at), at);
  }

  // A marker selector (push_parser::add_marker_path).
  int add_marker_path(const std::string& path) {
    size_t at = 0;
    return path_result(parser_.add_marker_path(path, &at), at);
  }

  // A start marker (push_parser::add_start_marker_path).
  int add_start_marker_path(const std::string& path) {
    size_t at = 0;
    return path_result(parser_.add_start_marker_path(path, &at), at);
  }

  uintptr_t view() const { return reinterpret_cast<uintptr_t>(&view_); }

  bool reserve(double n) {
    const bool ok = n >= 0 && parser_.reserve(size_t(n));
    refresh();
    return ok;
  }

  int feed(double n) {
    parser_.feed(size_t(n));
    refresh();
    return int(view_.status);
  }

  int finish() {
    parser_.finish();
    refresh();
    return int(view_.status);
  }

 private:
  void refresh() {
    view_.input_ptr = uint32_t(reinterpret_cast<uintptr_t>(parser_.input_data()));
    view_.input_capacity = uint32_t(parser_.input_capacity());
    view_.element_count = uint32_t(parser_.element_count());
    view_.elements_ptr = uint32_t(reinterpret_cast<uintptr_t>(parser_.elements()));
    view_.batch_count = uint32_t(parser_.batch_count());
    view_.batches_ptr = uint32_t(reinterpret_cast<uintptr_t>(parser_.batches()));
    view_.status = uint32_t(parser_.status());
    const sluice::parse_error& e = parser_.error();
    view_.error_byte = e.byte < 0 ? 256 : uint32_t(e.byte);
    view_.error_offset = double(e.offset);
    view_.error_line = double(e.line);
    view_.error_column = double(e.column);
    view_.bytes_fed = double(parser_.bytes_fed());
    const push_parser::address_map a = parser_.addresses();
    view_.window_ptr = uint32_t(reinterpret_cast<uintptr_t>(a.window));
    view_.carry_ptr = uint32_t(reinterpret_cast<uintptr_t>(a.carry));
    view_.window_offset = double(a.window_offset);
    view_.carry_offset = double(a.carry_offset);
  }

  push_parser parser_;
  parser_view view_;
};

double heap_in_use() { return double(mallinfo().uordblks); }

std::string build_kind() {
  return std::string(sluice::internal::best_kernel_name()) == "simd128" ? "simd128" : "scalar";
}

}  // namespace

EMSCRIPTEN_BINDINGS(sluice) {
  emscripten::class_<wasm_parser>("Parser")
      .constructor<double, double, int>()
      .function("addPath", &wasm_parser::add_path)
      .function("addMarkerPath", &wasm_parser::add_marker_path)
      .function("addStartMarkerPath", &wasm_parser::add_start_marker_path)
      .function("view", &wasm_parser::view)
      .function("reserve", &wasm_parser::reserve)
      .function("feed", &wasm_parser::feed)
      .function("finish", &wasm_parser::finish);
  emscripten::function("heapInUse", &heap_in_use);
  emscripten::function("buildKind", &build_kind);
}
