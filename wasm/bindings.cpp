// The push parser's half of the bindings: the parser (stream/stream_parser.h) exposed to the JS facade as plain C
// exports of a bare module (no Emscripten glue, no embind: js/native/native_module.ts gives JS its Parser class), one
// call per chunk (the lazy index's half: lazy_bindings.cpp). All parsers share one
// window, one set of result tables and one view; the JS layer keeps each parser's carry (but the command line's
// compact-lines parser's), and saves idle parsers to its heap (js/parse/native_parser.ts). The contract (flags, the
// parser_view layout, the record layouts, the limits) is contract.h here and js/native/contract.ts there, documented in
// HACKING.md; users never see this module.
#include <emscripten/emscripten.h>
#include <malloc.h>

#include <cstdint>
#include <new>
#include <string_view>

#include "contract.h"
#include "stream/batches.h"
#include "stream/failure.h"
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
  o.skip_invalid = o.ndjson && (flags & contract::flag_skip_invalid) != 0;
  o.batches = (flags & contract::flag_value_batches)   ? batch_mode::json_array
              : (flags & contract::flag_cover_batches) ? batch_mode::cover
              : (flags & contract::flag_compact_lines) ? batch_mode::compact_lines
                                                       : batch_mode::none;
  o.share_repeats = o.batches == batch_mode::compact_lines && (flags & contract::flag_share_repeats) != 0;
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
  view.skipped_count = uint32_t(shared.skipped.size());
  view.skipped_ptr = uint32_t(reinterpret_cast<uintptr_t>(shared.skipped.data()));
}

// Compact lines (contract::flag_compact_lines, the command line's `select`) exist in the command line's module
// (sluice-cli.wasm) only; the page's modules are built with SLUICE_NO_COMPACT_LINES and without
// stream/compact_lines.cpp (wasm/CMakeLists.txt).
#ifdef SLUICE_NO_COMPACT_LINES
constexpr bool has_compact_lines = false;
#else
constexpr bool has_compact_lines = true;
#endif

// The status of a call on a parser that could not be allocated: out_of_memory, nothing found.
int out_of_memory_status() {
  view.status = uint32_t(sluice::error_code::out_of_memory);
  view.element_count = 0;
  view.batch_count = 0;
  view.skipped_count = 0;
  view.error_byte = 256;
  view.error_offset = 0;
  view.error_line = 1;
  view.error_column = 1;
  return int(view.status);
}

// One push parser: a few hundred bytes of state while resident; the JS layer saves idle ones (save/load) and keeps
// their carry.
class wasm_parser {
 public:
  static void* operator new(size_t size) noexcept { return ::operator new(size, std::nothrow); }
  static void operator delete(void* p) noexcept { ::operator delete(p); }

  wasm_parser(double max_depth, double max_element_bytes, int flags)
      : st_(internal::new_parser(make_options(max_depth, max_element_bytes, flags), shared)),
        owns_carry_((flags & contract::flag_compact_lines) != 0) {}
  ~wasm_parser() { delete st_; }

  // A selector of `role`: contract::role_value, a marker (push_parser::add_marker_path) or a start marker
  // (push_parser::add_start_marker_path). The path's UTF-8 (WTF-8) bytes, which the selector copies.
  int add_path(int role, std::string_view path) {
    size_t at = 0;
    if (st_ == nullptr) return contract::path_refused;
    const internal::selector_role r = role == contract::role_end_marker     ? internal::selector_role::end_marker
                                      : role == contract::role_start_marker ? internal::selector_role::start_marker
                                                                            : internal::selector_role::value;
    return path_result(internal::add_selector(*st_, path, r, &at), at);
  }

  int feed(double n) {
    if (st_ == nullptr) return out_of_memory_status();
    if (has_compact_lines && owns_carry_) carry_.apply_pending(shared.window.capacity());
    internal::feed(*st_, size_t(n));
    after_call();
    refresh(st_);
    return int(st_->status);
  }

  int finish() {
    if (st_ == nullptr) return out_of_memory_status();
    if (has_compact_lines && owns_carry_) carry_.apply_pending(shared.window.capacity());
    internal::finish(*st_);
    after_call();
    refresh(st_);
    return int(st_->status);
  }

  // The caller could not keep the last call's carry (the engine refused its buffer): the parser fails with
  // out_of_memory at `offset`, a byte of that call's window still there, its line and column located as any error's.
  int fail_out_of_memory(double offset) {
    if (st_ == nullptr) return out_of_memory_status();
    internal::fail(*st_, sluice::error_code::out_of_memory, uint64_t(offset), -1);
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
    if (!has_compact_lines || !owns_carry_) return internal::build_batches(*st_, nullptr, 0);
    carry_.extend(*st_);
    internal::build_batches(*st_, carry_.data(), carry_.c_base);
    carry_.keep(*st_);
  }

  internal::parser_state* st_;
  bool owns_carry_;
  internal::owned_carry carry_;
};

}  // namespace

// The exports (js/native/native_module.ts, PARSER_EXPORTS): every argument and result an i32 or an f64; a parser is
// its address. Strings arrive as UTF-8 bytes JS wrote at input_ptr.
extern "C" {

// A new parser, or 0 when memory is exhausted (or compact lines are asked of the page's module): every call then
// takes 0 as a parser whose state could not be allocated (out_of_memory, as wasm_parser does for its own state).
EMSCRIPTEN_KEEPALIVE wasm_parser* parser_new(double max_depth, double max_element_bytes, int flags) {
  if (!has_compact_lines && (flags & contract::flag_compact_lines) != 0) return nullptr;
  return new wasm_parser(max_depth, max_element_bytes, flags);
}
EMSCRIPTEN_KEEPALIVE void parser_delete(wasm_parser* p) { delete p; }
// The path is the n bytes at input_ptr.
EMSCRIPTEN_KEEPALIVE int parser_add_path(wasm_parser* p, int role, double n) {
  if (p == nullptr) return contract::path_refused;
  return p->add_path(role, std::string_view(reinterpret_cast<const char*>(shared.window.data()), size_t(n)));
}
EMSCRIPTEN_KEEPALIVE int parser_feed(wasm_parser* p, double n) { return p ? p->feed(n) : out_of_memory_status(); }
EMSCRIPTEN_KEEPALIVE int parser_finish(wasm_parser* p) { return p ? p->finish() : out_of_memory_status(); }
// view.saved_bytes 0: memory exhausted.
EMSCRIPTEN_KEEPALIVE int parser_fail_out_of_memory(wasm_parser* p, double offset) {
  return p ? p->fail_out_of_memory(offset) : out_of_memory_status();
}
EMSCRIPTEN_KEEPALIVE void parser_save(wasm_parser* p) {
  if (p != nullptr) return p->save();
  view.saved_bytes = 0;
  refresh(nullptr);
}
EMSCRIPTEN_KEEPALIVE int parser_load(wasm_parser* p, double n) { return p != nullptr && p->load(n) ? 1 : 0; }

// Address of the parser_view every call refreshes (the first call allocates the shared window).
EMSCRIPTEN_KEEPALIVE uintptr_t parser_view_address() {
  if (shared.window.data() == nullptr) shared.init();
  refresh(nullptr);
  return reinterpret_cast<uintptr_t>(&view);
}

// Makes input_capacity >= n: a saved state larger than the window (rare: a deep document's open containers), or a
// long path. 0 when memory is exhausted.
EMSCRIPTEN_KEEPALIVE int parser_reserve(double n) {
  const bool ok = n >= 0 && n <= double(contract::max_element_bytes) && shared.window.reserve(size_t(n));
  refresh(nullptr);
  return ok ? 1 : 0;
}

// Tests: bytes malloc'ed right now, and which build this is (1: SIMD128).
EMSCRIPTEN_KEEPALIVE double parser_heap_in_use() { return double(mallinfo().uordblks); }
EMSCRIPTEN_KEEPALIVE int parser_build_simd() {
#ifdef __wasm_simd128__
  return 1;
#else
  return 0;
#endif
}

}  // extern "C"
