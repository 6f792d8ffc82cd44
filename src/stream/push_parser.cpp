#include "sluice/push_parser.h"

#include <cstring>
#include <new>

#include "sluice/limits.h"
#include "stream/batches.h"
#include "stream/carry.h"
#include "stream/failure.h"
#include "stream/general_path.h"
#include "stream/owned_carry.h"
#include "stream/parser_state.h"
#include "stream/resync.h"
#include "stream/stream_parser.h"
#include "util/zeroed.h"

namespace sluice {
namespace internal {

namespace {

// The selectors and the depth stack, at the first call.
bool compile(parser_state& st) {
  st.selectors.compile(st.options.ndjson);
  st.cand_top = st.selectors.all;
  // Room for an open element per selector, as the table was before `..` let elements nest deeper: opening one then
  // allocates only past that. Should this fail, open_element_at() tries again, or reports out_of_memory.
  (void)st.open.assign_zero(max_selectors);
  assign_zeroed(st.is_object, st.options.max_depth / 64 + 1);
  st.compiled = true;
  return true;
}

void begin_call(parser_state& st) {
  st.window_lines = st.lines_before;
  st.window_line_start = st.line_start;
  st.elements.clear();
  st.batches.clear();
  st.batch_text.clear();
  st.skipped.clear();
  st.carried = 0;
  st.carry_through = 0;
  st.retain_from = no_position;
}

}  // namespace

SLUICE_SMALL parser_state* new_parser(const parser_options& options, workspace& shared) noexcept {
  parser_state* st = new (std::nothrow) parser_state(shared);
  if (st == nullptr) return nullptr;
  parser_options o = options;
  if (o.max_depth < 1) o.max_depth = 1;
  if (o.max_depth > max_depth_limit) o.max_depth = max_depth_limit;
  if (o.max_element_bytes < 1) o.max_element_bytes = 1;
  if (o.max_element_bytes > max_element_bytes_limit) o.max_element_bytes = max_element_bytes_limit;
  st->options = o;
  return st;
}

SLUICE_SMALL bool add_selector(parser_state& st, std::string_view path, selector_role role, size_t* error_at) {
  if (st.compiled) {
    if (error_at) *error_at = size_t(-1);
    return false;
  }
  if (!st.selectors.add(path, error_at)) return false;
  const uint32_t bit = 1u << (st.selectors.paths.size() - 1);
  if (role != selector_role::value) st.selectors.markers |= bit;
  if (role == selector_role::start_marker) st.selectors.start_markers |= bit;
  return true;
}

error_code feed(parser_state& st, size_t n) noexcept {
  begin_call(st);
  if (st.status != error_code::ok) return st.status;
  if (n > st.window.capacity()) n = st.window.capacity();
  if (!st.compiled) compile(st);
  st.w_base = st.bytes_fed;
  st.w_len = unsigned(n);
  st.bytes_fed += n;
  uint8_t* w = st.window.data();
  // A UTF-8 byte order mark at the very start is skipped: its bytes become spaces (they keep their offsets).
  size_t i = 0;
  while (!st.bom_done && i < n) {
    static const uint8_t bom[3] = {0xEF, 0xBB, 0xBF};
    if (w[i] != bom[st.bom_matched]) {
      if (st.bom_matched != 0) {
        fail(st, error_code::expected_value, 0, 0xEF);
        if (!report_line(st)) return st.status;  // skip_invalid: scan_window skips to the first newline
        st.pending.text_len = st.w_base != 0 ? st.line_head_len : 0;  // and reads this window into the text
        st.bom_done = true;
        break;
      }
      st.bom_done = true;
      break;
    }
    w[i++] = ' ';
    if (++st.bom_matched == 3) st.bom_done = true;
  }
#ifdef SLUICE_ONE_KERNEL
  scan_window_best(st);  // the wasm modules have their build's kernel only (wasm/CMakeLists.txt)
#else
  if (st.options.kernel == kernel_kind::scalar) {
    scan_window_scalar(st);
  } else {
    scan_window_best(st);
  }
#endif
  if (st.options.skip_invalid && st.status == error_code::ok) keep_line_head(st);
  if (st.selectors.filtered != 0 && !keep_filter_bytes(st))
    fail(st, error_code::out_of_memory, st.w_base + st.w_len, -1);
  if (!retain_tail(st)) fail(st, error_code::out_of_memory, st.w_base + st.w_len, -1);
  return st.status;
}

SLUICE_SMALL error_code finish(parser_state& st) noexcept {
  begin_call(st);
  if (st.status != error_code::ok) return st.status;
  if (!st.compiled) compile(st);
  st.w_base = st.bytes_fed;
  st.w_len = 0;
  st.block_base = st.bytes_fed;
  st.block_newline = 0;
  const uint64_t end = st.bytes_fed;
  if (!st.bom_done && st.bom_matched != 0) {
    fail(st, error_code::expected_value, 0, 0xEF);
  } else if (st.scan.prev_in_string != 0) {
    fail(st, error_code::unexpected_end, end, -1);  // inside a string, whether its end mattered or not
  } else if (st.state == s_in_scalar) {
    // A token cut by the end of input is complete only at the top level: inside an unterminated container the
    // document is truncated anyway, and `[1,2,31` may well have been `[1,2,314]`.
    if (st.depth == 0 && token_accepting(st.token)) {
      end_value(st, end);
    } else {
      fail(st, error_code::unexpected_end, end, -1);
    }
  }
  if (st.status == error_code::ok) {
    const bool complete = st.depth == 0 && (st.state == s_root_done || (st.options.ndjson && st.state == s_root));
    if (!complete) fail(st, error_code::unexpected_end, end, -1);
  }
  // skip_invalid: a bad line the input ended in is reported now, and so is a truncated last line.
  if (st.skipping) emit_report(st);
  if (report_line(st)) emit_report(st);
  // Nothing more can arrive: nothing is retained.
  return st.status;
}

}  // namespace internal

// MARK: push_parser

using internal::no_position;
using internal::parser_state;
using internal::raw_element;

// The parser, its own workspace, and its carry (stream/owned_carry.h), so that every element's bytes are
// contiguous for the caller.
struct push_parser::impl {
  internal::workspace ws;
  parser_state* st = nullptr;
  internal::owned_carry carry;
  internal::pod_vector<element> out;  // the last call's elements, with their addresses

  ~impl() { delete st; }

  // After a call: the carry extended as far as its records need, their addresses, the batches, and what the carry
  // becomes for the next call.
  void after_call() {
    carry.extend(*st);
    if (st->status == error_code::out_of_memory) return;
    const uint64_t w_base = st->w_base;
    const size_t count = ws.elements.size();
    out.clear();
    if (!out.reserve(count)) return internal::fail(*st, error_code::out_of_memory, w_base, -1);
    for (size_t i = 0; i < count; ++i) {
      const raw_element& r = ws.elements[i];
      const uint64_t start = w_base + uint64_t(r.end - ws.window.data()) - r.size;
      element e;
      e.data = carry.address(*st, start);
      e.size = r.size;
      e.path_index = r.path_index;
      e.key = r.key;
      e.key_data = r.key_size != 0 ? carry.address(*st, start - r.key_gap) : nullptr;
      e.key_size = r.key_size;
      e.index_lo = r.index_lo;
      e.index_hi = r.index_hi;
      out.push_back(e);
    }
    build_batches(*st, carry.data(), carry.c_base);
    if (st->options.batches == batch_mode::compact_lines && st->status != error_code::out_of_memory) {
      // The records now name the compacted text in the batch (their keys stay where they were).
      for (size_t i = 0; i < count; ++i) {
        out[i].data = ws.elements[i].end - ws.elements[i].size;
        out[i].size = ws.elements[i].size;
      }
    }
    carry.keep(*st);
  }
};

push_parser::push_parser(const parser_options& options) : impl_(new (std::nothrow) impl) {
  if (impl_ == nullptr) return;
  impl_->st = internal::new_parser(options, impl_->ws);
  if (impl_->st == nullptr) {
    delete impl_;
    impl_ = nullptr;
    return;
  }
  if (!impl_->ws.init()) internal::fail(*impl_->st, error_code::out_of_memory, 0, -1);
}

push_parser::~push_parser() { delete impl_; }

bool push_parser::add_path(std::string_view path, size_t* error_at) {
  return add(path, internal::selector_role::value, error_at);
}

bool push_parser::add_marker_path(std::string_view path, size_t* error_at) {
  return add(path, internal::selector_role::end_marker, error_at);
}

bool push_parser::add_start_marker_path(std::string_view path, size_t* error_at) {
  return add(path, internal::selector_role::start_marker, error_at);
}

bool push_parser::add(std::string_view path, internal::selector_role role, size_t* error_at) {
  if (impl_ == nullptr) {
    if (error_at) *error_at = size_t(-1);
    return false;
  }
  return internal::add_selector(*impl_->st, path, role, error_at);
}

uint8_t* push_parser::input_data() noexcept { return impl_ ? impl_->ws.window.data() : nullptr; }
size_t push_parser::input_capacity() const noexcept { return impl_ ? impl_->ws.window.capacity() : 0; }

bool push_parser::reserve(size_t n) {
  if (impl_ == nullptr || n > max_element_bytes_limit) return false;
  return impl_->ws.window.reserve(n);
}

error_code push_parser::feed(size_t n) {
  if (impl_ == nullptr) return error_code::out_of_memory;
  impl_->carry.apply_pending(impl_->ws.window.capacity());
  internal::feed(*impl_->st, n);
  impl_->after_call();
  return impl_->st->status;
}

error_code push_parser::finish() {
  if (impl_ == nullptr) return error_code::out_of_memory;
  impl_->carry.apply_pending(impl_->ws.window.capacity());
  internal::finish(*impl_->st);
  impl_->after_call();
  return impl_->st->status;
}

const element* push_parser::elements() const noexcept { return impl_ ? impl_->out.data() : nullptr; }
size_t push_parser::element_count() const noexcept { return impl_ ? impl_->out.size() : 0; }
const batch* push_parser::batches() const noexcept { return impl_ ? impl_->ws.batches.data() : nullptr; }
size_t push_parser::batch_count() const noexcept { return impl_ ? impl_->ws.batches.size() : 0; }
const skipped_line* push_parser::skipped() const noexcept { return impl_ ? impl_->ws.skipped.data() : nullptr; }
size_t push_parser::skipped_count() const noexcept { return impl_ ? impl_->ws.skipped.size() : 0; }
uint64_t push_parser::skipped_lines() const noexcept { return impl_ ? impl_->st->skipped_lines : 0; }
error_code push_parser::status() const noexcept { return impl_ ? impl_->st->status : error_code::out_of_memory; }

const parse_error& push_parser::error() const noexcept {
  static const parse_error oom{error_code::out_of_memory, 0, 1, 1, -1};
  return impl_ ? impl_->st->error : oom;
}

uint64_t push_parser::bytes_fed() const noexcept { return impl_ ? impl_->st->bytes_fed : 0; }

uint64_t push_parser::offset_of(const uint8_t* p) const noexcept {
  if (impl_ == nullptr) return 0;
  const uint8_t* w = impl_->ws.window.data();
  if (p >= w && p <= w + impl_->ws.window.capacity()) return impl_->st->w_base + uint64_t(p - w);
  return impl_->carry.c_base + uint64_t(p - impl_->carry.carry.data());
}

size_t push_parser::memory_bytes() const noexcept {
  if (impl_ == nullptr) return 0;
  return sizeof(impl) + impl_->ws.allocated() + impl_->st->allocated() + impl_->carry.allocated() +
         impl_->out.allocated();
}

}  // namespace sluice
