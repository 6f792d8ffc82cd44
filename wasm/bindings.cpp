// The push parser's half of the bindings: the parser (stream/stream_parser.h) exposed to the JS facade through
// embind, one call per chunk (the lazy index's half, plain C exports: lazy_bindings.cpp). All parsers share one
// window, one set of result tables and one view; the JS layer keeps each parser's carry (but the command line's
// compact-lines parser's), and saves idle parsers to its heap (js/parse/native_parser.ts). The contract (flags, the
// parser_view layout, the record layouts, the limits) is contract.h here and js/native/contract.ts there, documented in
// HACKING.md; users never see this module.
#include <emscripten/bind.h>
#include <malloc.h>

#include <cstdint>
#include <string>

#include "contract.h"
#include "stream/batches.h"
#include "stream/owned_carry.h"
#include "stream/parser_state.h"
#include "stream/saved_state.h"
#include "stream/stream_parser.h"

namespace {

using sluice::batch_mode;
using sluice::parser_options;
using sluice::contract::parser_view;
namespace contract = sluice::contract;
namespace internal = sluice::internal;

// The JS layer validated the numbers against the same limits; anything else (NaN, below 1) falls back to the
// defaults, and above the limits is clamped to them.
parser_options make_options(double max_depth, double max_element_bytes, int flags) {
  parser_options o;
  if (max_depth >= 1) o.max_depth = max_depth < contract::max_depth ? uint32_t(max_depth) : contract::max_depth;
  if (max_element_bytes >= 1)
    o.max_element_bytes =
        uint64_t(max_element_bytes < contract::max_element_bytes ? max_element_bytes : contract::max_element_bytes);
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

// What every parser of the module shares: the window, the result tables (stream/workspace.h) and the view.
internal::workspace shared;
parser_view view{};

// The view after a call of `st` (null: after a save or load, which change only the window fields).
void refresh(const internal::parser_state* st) {
  view.input_ptr = uint32_t(reinterpret_cast<uintptr_t>(shared.window.data()));
  view.input_capacity = uint32_t(shared.window.capacity());
  if (st == nullptr) return;
  view.element_count = uint32_t(shared.elements.size());
  view.elements_ptr = uint32_t(reinterpret_cast<uintptr_t>(shared.elements.data()));
  view.batch_count = uint32_t(shared.batches.size());
  view.batches_ptr = uint32_t(reinterpret_cast<uintptr_t>(shared.batches.data()));
  view.status = uint32_t(st->status);
  const sluice::parse_error& e = st->error;
  view.error_byte = e.byte < 0 ? 256 : uint32_t(e.byte);
  view.error_offset = double(e.offset);
  view.error_line = double(e.line);
  view.error_column = double(e.column);
  view.bytes_fed = double(st->bytes_fed);
  view.window_offset = double(st->w_base);
  view.retain_from = st->retain_from == internal::no_position ? -1 : double(st->retain_from);
  view.carry_through = double(st->carry_through);
  view.carried_count = st->carried;
}

// One push parser: a few hundred bytes of state while resident; the JS layer saves idle ones (save/load) and keeps
// their carry.
class wasm_parser {
 public:
  wasm_parser(double max_depth, double max_element_bytes, int flags)
      : st_(internal::new_parser(make_options(max_depth, max_element_bytes, flags), shared)),
        owns_carry_((flags & contract::flag_compact_lines) != 0) {}
  ~wasm_parser() { delete st_; }

  int add_path(const std::string& path) { return add(path, internal::selector_role::value); }
  // A marker selector (push_parser::add_marker_path).
  int add_marker_path(const std::string& path) { return add(path, internal::selector_role::end_marker); }
  // A start marker (push_parser::add_start_marker_path).
  int add_start_marker_path(const std::string& path) { return add(path, internal::selector_role::start_marker); }

  int feed(double n) {
    if (st_ == nullptr) return out_of_memory();
    if (owns_carry_) carry_.apply_pending(shared.window.capacity());
    internal::feed(*st_, size_t(n));
    after_call();
    refresh(st_);
    return int(st_->status);
  }

  int finish() {
    if (st_ == nullptr) return out_of_memory();
    if (owns_carry_) carry_.apply_pending(shared.window.capacity());
    internal::finish(*st_);
    after_call();
    refresh(st_);
    return int(st_->status);
  }

  // Writes the parser's state at input_ptr (the window grows if it must); its size is view.saved_bytes, 0 when
  // memory is exhausted.
  void save() {
    view.saved_bytes = 0;
    if (st_ != nullptr && internal::save_state(*st_, shared.window)) view.saved_bytes = uint32_t(shared.window.size());
    shared.window.clear();
    refresh(nullptr);
  }

  // Takes the state of n bytes a save() wrote, now at input_ptr. False when memory is exhausted.
  bool load(double n) {
    internal::parser_state* st = internal::load_state(shared.window.data(), size_t(n), shared);
    if (st == nullptr) return false;
    delete st_;
    st_ = st;
    return true;
  }

 private:
  // The batches; a compact-lines parser (the command line: one parser, never saved) keeps its carry here, since
  // its batch compacts elements that began in an earlier window.
  void after_call() {
    if (!owns_carry_) return internal::build_batches(*st_, nullptr, 0);
    carry_.extend(*st_);
    internal::build_batches(*st_, carry_.data(), carry_.c_base);
    carry_.keep(*st_);
  }

  int add(const std::string& path, internal::selector_role role) {
    size_t at = 0;
    if (st_ == nullptr) return contract::path_refused;
    return path_result(internal::add_selector(*st_, path, role, &at), at);
  }

  int out_of_memory() {
    view.status = uint32_t(sluice::error_code::out_of_memory);
    view.element_count = 0;
    view.batch_count = 0;
    view.error_byte = 256;
    view.error_offset = 0;
    view.error_line = 1;
    view.error_column = 1;
    return int(view.status);
  }

  internal::parser_state* st_;
  bool owns_carry_;
  internal::owned_carry carry_;
};

uintptr_t view_address() {
  if (shared.window.data() == nullptr) shared.init();
  refresh(nullptr);
  return reinterpret_cast<uintptr_t>(&view);
}

// Makes input_capacity >= n, for a saved state larger than the window (rare: a deep document's open containers).
bool reserve(double n) {
  const bool ok = n >= 0 && n <= double(contract::max_element_bytes) && shared.window.reserve(size_t(n));
  refresh(nullptr);
  return ok;
}

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
      .function("feed", &wasm_parser::feed)
      .function("finish", &wasm_parser::finish)
      .function("save", &wasm_parser::save)
      .function("load", &wasm_parser::load);
  emscripten::function("view", &view_address);
  emscripten::function("reserve", &reserve);
  emscripten::function("heapInUse", &heap_in_use);
  emscripten::function("buildKind", &build_kind);
}
