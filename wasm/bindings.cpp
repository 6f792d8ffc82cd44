// The only Emscripten file: exposes push_parser to the JS facade (js/native.ts) through embind. The contract (the
// parser_view layout, the record layouts, the flags) is documented in HACKING.md; users never see this module.
#include <emscripten/bind.h>
#include <malloc.h>

#include <cstdint>
#include <string>
#include <vector>

#include "internal/parser_state.h"
#include "sluice/push_parser.h"

namespace {

using sluice::batch_mode;
using sluice::element;
using sluice::error_code;
using sluice::kernel_kind;
using sluice::parser_options;
using sluice::push_parser;

static_assert(sizeof(void*) == 4, "the binding contract assumes wasm32");
static_assert(sizeof(element) == 32, "element record: 8 x u32");
static_assert(sizeof(sluice::batch) == 16, "batch record: 4 x u32");

// Read by JS with a Uint32Array and a Float64Array over memory.buffer.
struct parser_view {
  uint32_t input_ptr;
  uint32_t input_capacity;
  uint32_t element_count;
  uint32_t elements_ptr;
  uint32_t batch_count;
  uint32_t batches_ptr;
  uint32_t status;
  uint32_t error_byte;  // 256 = end of input
  double error_offset;
  double error_line;
  double error_column;
  double bytes_fed;
  // Where the addresses of the last results lie in the stream (openJson): an address in the window
  // [window_ptr, window_ptr + input_capacity] is at window_offset + (address - window_ptr), any other at
  // carry_offset + (address - carry_ptr).
  uint32_t window_ptr;
  uint32_t carry_ptr;
  double window_offset;
  double carry_offset;
};
static_assert(sizeof(parser_view) == 88, "parser_view layout");

enum flags : int {
  flag_ndjson = 1,
  flag_json_batches = 2,
  flag_cover_batches = 4,
  flag_scalar_kernel = 8,  // tests: run the scalar kernel inside the SIMD build
  flag_compact_lines = 16,  // batches of compacted elements, one per line (the CLI's select)
};

parser_options make_options(double max_depth, double max_element_bytes, int flags) {
  parser_options o;
  o.max_depth = max_depth >= 1 && max_depth <= 4294967295.0 ? uint32_t(max_depth) : 1024;
  o.max_element_bytes = max_element_bytes >= 1 && max_element_bytes <= 4294967295.0 ? uint64_t(max_element_bytes)
                                                                                    : (uint64_t{256} << 20);
  o.ndjson = (flags & flag_ndjson) != 0;
  o.batches = (flags & flag_json_batches)    ? batch_mode::json_array
              : (flags & flag_cover_batches) ? batch_mode::cover
              : (flags & flag_compact_lines) ? batch_mode::compact_lines
                                             : batch_mode::none;
  o.kernel = (flags & flag_scalar_kernel) ? kernel_kind::scalar : kernel_kind::best;
  return o;
}

class wasm_parser {
 public:
  wasm_parser(double max_depth, double max_element_bytes, int flags)
      : parser_(make_options(max_depth, max_element_bytes, flags)), view_{} {
    refresh();
  }

  // -1: accepted; -2: too many paths or too late; else the index of the offending character.
  int add_path(const std::string& path) {
    size_t at = 0;
    if (parser_.add_path(path, &at)) return -1;
    return at == size_t(-1) ? -2 : int(at);
  }

  // The same for a marker selector (push_parser::add_marker_path).
  int add_marker_path(const std::string& path) {
    size_t at = 0;
    if (parser_.add_marker_path(path, &at)) return -1;
    return at == size_t(-1) ? -2 : int(at);
  }

  // A start marker (push_parser::add_start_marker_path).
  int add_start_marker_path(const std::string& path) {
    size_t at = 0;
    if (parser_.add_start_marker_path(path, &at)) return -1;
    return at == size_t(-1) ? -2 : int(at);
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

// Tests: stage-1 masks of `input`, 4 x u64 per 64-byte block (events, in_string, quote, error; stage1_debug in
// parser_state.h), computed by the best kernel or the scalar one. Returns the address of the words; valid until
// the next call.
uintptr_t stage1_debug(const std::string& input, bool scalar) {
  static std::vector<uint64_t> out;
  std::vector<uint8_t> padded(input.begin(), input.end());
  padded.resize(input.size() + 64, 0);
  out.assign((input.size() + 63) / 64 * 4 + 1, 0);
  const uint8_t* p = padded.data();
  if (scalar) {
    sluice::internal::stage1_debug_scalar(p, input.size(), out.data());
  } else {
    sluice::internal::stage1_debug_best(p, input.size(), out.data());
  }
  return reinterpret_cast<uintptr_t>(out.data());
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
  emscripten::function("stage1Debug", &stage1_debug);
}
