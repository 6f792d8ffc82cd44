#include "sluice/push_parser.h"

#include <cstring>
#include <new>

#include "sluice/limits.h"
#include "stream/batches.h"
#include "stream/carry.h"
#include "stream/failure.h"
#include "stream/general_path.h"
#include "stream/parser_state.h"

namespace sluice {

using internal::parser_state;

namespace {

// The selectors and the depth stack, at the first call.
void compile(parser_state& st) {
  st.selectors.compile(st.options.ndjson);
  st.cand_top = st.selectors.all;
  st.is_object.assign(st.options.max_depth / 64 + 1, 0);
  st.compiled = true;
}

void begin_call(parser_state& st) {
  st.elements.clear();
  st.batches.clear();
  st.batch_text.clear();
}

}  // namespace

// MARK: push_parser

push_parser::push_parser(const parser_options& options) : state_(new (std::nothrow) parser_state) {
  if (state_ == nullptr) return;
  parser_options o = options;
  if (o.max_depth < 1) o.max_depth = 1;
  if (o.max_depth > max_depth_limit) o.max_depth = max_depth_limit;
  if (o.max_element_bytes < 1) o.max_element_bytes = 1;
  if (o.max_element_bytes > max_element_bytes_limit) o.max_element_bytes = max_element_bytes_limit;
  state_->options = o;
  if (!state_->window.reserve(internal::default_window_bytes)) internal::fail(*state_, error_code::out_of_memory, 0, -1);
}

push_parser::~push_parser() { delete state_; }

bool push_parser::add_path(std::string_view path, size_t* error_at) {
  if (state_ == nullptr || state_->compiled) {
    if (error_at) *error_at = size_t(-1);
    return false;
  }
  return state_->selectors.add(path, error_at);
}

bool push_parser::add_marker_path(std::string_view path, size_t* error_at) {
  if (!add_path(path, error_at)) return false;
  state_->selectors.markers |= 1u << (state_->selectors.paths.size() - 1);
  return true;
}

bool push_parser::add_start_marker_path(std::string_view path, size_t* error_at) {
  if (!add_marker_path(path, error_at)) return false;
  state_->selectors.start_markers |= 1u << (state_->selectors.paths.size() - 1);
  return true;
}

uint8_t* push_parser::input_data() noexcept { return state_ ? state_->window.data() : nullptr; }
size_t push_parser::input_capacity() const noexcept { return state_ ? state_->window.capacity() : 0; }

bool push_parser::reserve(size_t n) {
  if (state_ == nullptr || n > max_element_bytes_limit) return false;
  return state_->window.reserve(n);
}

error_code push_parser::feed(size_t n) {
  if (state_ == nullptr) return error_code::out_of_memory;
  parser_state& st = *state_;
  begin_call(st);
  if (st.status != error_code::ok) return st.status;
  if (n > st.window.capacity()) n = st.window.capacity();
  if (!st.compiled) compile(st);
  st.w_base = st.bytes_fed;
  st.w_len = unsigned(n);
  if (!prepare_carry(st, n)) {
    internal::fail(st, error_code::out_of_memory, st.w_base, -1);
    return st.status;
  }
  st.bytes_fed += n;
  uint8_t* w = st.window.data();
  // A UTF-8 byte order mark at the very start is skipped: its bytes become spaces (they keep their offsets).
  size_t i = 0;
  while (!st.bom_done && i < n) {
    static const uint8_t bom[3] = {0xEF, 0xBB, 0xBF};
    if (w[i] != bom[st.bom_matched]) {
      if (st.bom_matched != 0) {
        internal::fail(st, error_code::expected_value, 0, 0xEF);
        return st.status;
      }
      st.bom_done = true;
      break;
    }
    w[i++] = ' ';
    if (++st.bom_matched == 3) st.bom_done = true;
  }
  if (st.options.kernel == kernel_kind::scalar) {
    internal::scan_window_scalar(st);
  } else {
    internal::scan_window_best(st);
  }
  retain_tail(st);
  build_batches(st);
  return st.status;
}

error_code push_parser::finish() {
  if (state_ == nullptr) return error_code::out_of_memory;
  parser_state& st = *state_;
  begin_call(st);
  if (st.status != error_code::ok) return st.status;
  if (!st.compiled) compile(st);
  st.w_base = st.bytes_fed;
  st.w_len = 0;
  st.block_base = st.bytes_fed;
  st.block_newline = 0;
  if (!prepare_carry(st, 0)) {
    internal::fail(st, error_code::out_of_memory, st.bytes_fed, -1);
    return st.status;
  }
  const uint64_t end = st.bytes_fed;
  if (!st.bom_done && st.bom_matched != 0) {
    internal::fail(st, error_code::expected_value, 0, 0xEF);
  } else if (st.scan.prev_in_string != 0) {
    internal::fail(st, error_code::unexpected_end, end, -1);  // inside a string, whether its end mattered or not
  } else if (st.state == internal::s_in_scalar) {
    // A token cut by the end of input is complete only at the top level: inside an unterminated container the
    // document is truncated anyway, and `[1,2,31` may well have been `[1,2,314]`.
    if (st.depth == 0 && internal::token_accepting(st.token)) {
      internal::end_value(st, end);
    } else {
      internal::fail(st, error_code::unexpected_end, end, -1);
    }
  }
  if (st.status == error_code::ok) {
    const bool complete =
        st.depth == 0 && (st.state == internal::s_root_done || (st.options.ndjson && st.state == internal::s_root));
    if (!complete) internal::fail(st, error_code::unexpected_end, end, -1);
  }
  build_batches(st);
  // Nothing more can arrive: the carry is released at the next call (the elements above may point into it).
  st.pending = parser_state::carry_action::clear;
  return st.status;
}

const element* push_parser::elements() const noexcept { return state_ ? state_->elements.data() : nullptr; }
size_t push_parser::element_count() const noexcept { return state_ ? state_->elements.size() : 0; }
const batch* push_parser::batches() const noexcept { return state_ ? state_->batches.data() : nullptr; }
size_t push_parser::batch_count() const noexcept { return state_ ? state_->batches.size() : 0; }
error_code push_parser::status() const noexcept { return state_ ? state_->status : error_code::out_of_memory; }

const parse_error& push_parser::error() const noexcept {
  static const parse_error oom{error_code::out_of_memory, 0, 1, 1, -1};
  return state_ ? state_->error : oom;
}

uint64_t push_parser::bytes_fed() const noexcept { return state_ ? state_->bytes_fed : 0; }

push_parser::address_map push_parser::addresses() const noexcept {
  if (state_ == nullptr) return {nullptr, 0, nullptr, 0};
  return {state_->window.data(), state_->w_base, state_->carry.data(), state_->c_base};
}

uint64_t push_parser::offset_of(const uint8_t* p) const noexcept {
  const address_map a = addresses();
  if (state_ == nullptr) return 0;
  const uint8_t* w_end = a.window + state_->window.capacity();
  if (p >= a.window && p <= w_end) return a.window_offset + uint64_t(p - a.window);
  return a.carry_offset + uint64_t(p - a.carry);
}

size_t push_parser::memory_bytes() const noexcept {
  if (state_ == nullptr) return 0;
  const parser_state& st = *state_;
  return sizeof(parser_state) + st.window.allocated() + st.carry.allocated() + st.spare.allocated() +
         st.batch_text.allocated() + st.elements.allocated() + st.batches.allocated() +
         st.is_object.capacity() * sizeof(uint64_t);
}

}  // namespace sluice
