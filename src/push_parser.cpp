#include "sluice/push_parser.h"

#include <cstring>
#include <new>

#include "internal/ascii_json.h"
#include "internal/parser_state.h"
#include "internal/stage2.h"
#include "stream/compact_lines.h"

namespace sluice {

using internal::byte_buffer;
using internal::mode;
using internal::parser_state;

namespace {

constexpr uint32_t max_depth_limit = 1000000;
constexpr uint64_t max_element_limit = (uint64_t{1} << 32) - 1;

// MARK: selectors

bool compile(parser_state& st) {
  if (st.paths.empty()) {
    st.paths.emplace_back();
    internal::parse_selector(st.options.ndjson ? "$" : "$[*]", st.paths.back(), nullptr);
    st.path_texts.emplace_back(st.options.ndjson ? "$" : "$[*]");
  }
  uint32_t max_len = 0;
  for (const internal::selector& s : st.paths) max_len = s.steps.size() > max_len ? uint32_t(s.steps.size()) : max_len;
  st.max_len = max_len;
  st.all_paths = uint32_t((uint64_t{1} << st.paths.size()) - 1);
  st.len_is.assign(max_len + 1, 0);
  st.wild_at.assign(max_len + 1, 0);
  st.name_at.assign(max_len + 1, 0);
  st.index_mask_at.assign(max_len + 1, 0);
  st.index_at_step.assign(max_len + 1, {});
  for (uint32_t p = 0; p < st.paths.size(); ++p) {
    const auto& steps = st.paths[p].steps;
    st.len_is[steps.size()] |= 1u << p;
    for (uint32_t j = 0; j < steps.size(); ++j) {
      switch (steps[j].kind) {
        case internal::step::wildcard: st.wild_at[j] |= 1u << p; break;
        case internal::step::by_name: st.name_at[j] |= 1u << p; break;
        case internal::step::by_index:
          st.index_at_step[j].push_back({p, steps[j].index});
          st.index_mask_at[j] |= 1u << p;
          break;
      }
    }
  }
  st.cand_at.assign(max_len + 2, 0);
  st.index_at.assign(max_len + 2, 0);
  st.cand_at[0] = st.all_paths;
  st.cand_top = st.all_paths;
  st.is_object.assign(st.options.max_depth / 64 + 1, 0);
  st.compiled = true;
  return true;
}

// MARK: carry

// Applies what the previous call decided for the carry, now that the caller is done with its results, and makes
// room for `n` more bytes so resolve() never reallocates during the coming scan.
bool prepare_carry(parser_state& st, size_t n) {
  switch (st.pending) {
    case parser_state::carry_action::none: break;
    case parser_state::carry_action::clear:
      st.carry.clear();
      // After a huge element, give its memory back: the window is the working size.
      if (st.carry.capacity() > 4 * st.window.capacity()) st.carry.release();
      if (st.spare.capacity() > 4 * st.window.capacity()) st.spare.release();
      break;
    case parser_state::carry_action::drop_prefix: {
      const size_t drop = size_t(st.pending_base - st.c_base);
      std::memmove(st.carry.data(), st.carry.data() + drop, st.carry.size() - drop);
      st.carry.resize_unchecked(st.carry.size() - drop);
      st.c_base = st.pending_base;
      break;
    }
    case parser_state::carry_action::swap:
      st.carry.swap(st.spare);
      st.spare.clear();
      st.c_base = st.pending_base;
      // After a huge element, do not keep a second huge buffer around.
      if (st.spare.capacity() > 4 * st.window.capacity()) st.spare.release();
      break;
  }
  st.pending = parser_state::carry_action::none;
  if (st.carry.size() != 0 && !st.carry.reserve(st.carry.size() + n + 1)) return false;
  return true;
}

// Keeps the bytes of the open element (or key) for the next chunk; forgets everything else.
void retain_tail(parser_state& st) {
  uint64_t keep = internal::no_position;
  if (const internal::open_element* o = internal::first_retained(st)) keep = o->retain_from;
  if (st.key_pending && st.key_start < keep) keep = st.key_start;
  const uint64_t w_end = st.w_base + st.w_len;
  if (keep == internal::no_position) {
    st.pending = st.carry.size() != 0 ? parser_state::carry_action::clear : parser_state::carry_action::none;
    return;
  }
  if (keep < st.w_base) {
    // Open since an earlier chunk: the carry already holds its start; append the rest of this window.
    internal::resolve(st, st.c_base, w_end);
    if (keep > st.c_base) {
      st.pending = parser_state::carry_action::drop_prefix;
      st.pending_base = keep;
    }
    return;
  }
  const uint8_t* tail = st.window.data() + (keep - st.w_base);
  const size_t n = size_t(w_end - keep);
  if (st.carry.size() == 0) {
    // Nothing of this call points into the carry: fill it directly.
    if (!st.carry.append(tail, n)) return internal::fail(st, error_code::out_of_memory, keep, -1);
    st.c_base = keep;
    return;
  }
  st.spare.clear();
  if (!st.spare.append(tail, n)) return internal::fail(st, error_code::out_of_memory, keep, -1);
  st.pending = parser_state::carry_action::swap;
  st.pending_base = keep;
}

// MARK: batches

// One JSON array text per call (`[e1,e2,...]`), so the caller materialises all the elements of a chunk with one
// TextDecoder.decode and one JSON.parse. The text is written as ASCII (see ascii_json.h): a copy, which pays for
// itself several times over in the decoder and the parser.
void build_json_batches(parser_state& st) {
  const size_t count = st.elements.size();
  const element* e = st.elements.data();
  size_t bound = 2;
  for (size_t i = 0; i < count; ++i) bound += e[i].size * internal::ascii_json_max_growth + 2;
  if (!st.batch_text.reserve(bound)) return internal::fail(st, error_code::out_of_memory, st.w_base, -1);
  uint8_t* const text = st.batch_text.data();
  uint8_t* out = text;
  *out++ = '[';
  for (size_t i = 0; i < count; ++i) {
    if (i != 0) *out++ = ',';
    if (e[i].size == 0) {
      *out++ = '0';  // a marker (add_marker_path): no bytes of its own
    } else {
      out = internal::write_ascii_json(out, e[i].data, e[i].size);
    }
  }
  *out++ = ']';
  st.batch_text.resize_unchecked(size_t(out - text));
  if (!st.batches.push_back({text, uint32_t(out - text), 0, uint32_t(count)}))
    internal::fail(st, error_code::out_of_memory, st.w_base, -1);
}

// One address range per run of elements in the same buffer (the window or the carry), so the caller copies a run
// out at once.
void build_cover_batches(parser_state& st) {
  const size_t count = st.elements.size();
  const element* e = st.elements.data();
  const uint8_t* const w = st.window.data();
  const auto in_window = [&](const uint8_t* p) { return p >= w && p <= w + st.w_len; };
  size_t i = 0;
  while (i < count) {
    const bool window = in_window(e[i].data);
    const uint8_t* begin = e[i].data;
    const uint8_t* end = e[i].data + e[i].size;
    size_t j = i + 1;
    while (j < count && in_window(e[j].data) == window && e[j].data >= begin) {
      if (e[j].data + e[j].size > end) end = e[j].data + e[j].size;
      ++j;
    }
    if (!st.batches.push_back({begin, uint32_t(end - begin), uint32_t(i), uint32_t(j - i)}))
      return internal::fail(st, error_code::out_of_memory, st.w_base, -1);
    i = j;
  }
}

void build_batches(parser_state& st) {
  if (st.elements.size() == 0) return;
  switch (st.options.batches) {
    case batch_mode::none: break;
    case batch_mode::json_array: build_json_batches(st); break;
    case batch_mode::cover: build_cover_batches(st); break;
    case batch_mode::compact_lines:
      if (!internal::write_compact_lines(st)) internal::fail(st, error_code::out_of_memory, st.w_base, -1);
      break;
  }
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
  if (o.max_element_bytes > max_element_limit) o.max_element_bytes = max_element_limit;
  state_->options = o;
  if (!state_->window.reserve(internal::default_window_bytes)) internal::fail(*state_, error_code::out_of_memory, 0, -1);
}

push_parser::~push_parser() { delete state_; }

bool push_parser::add_path(std::string_view path, size_t* error_at) {
  if (state_ == nullptr || state_->compiled || state_->paths.size() >= internal::max_paths) {
    if (error_at) *error_at = size_t(-1);
    return false;
  }
  internal::selector s;
  if (!internal::parse_selector(path, s, error_at)) return false;
  state_->paths.push_back(std::move(s));
  state_->path_texts.emplace_back(path);
  return true;
}

bool push_parser::add_marker_path(std::string_view path, size_t* error_at) {
  if (!add_path(path, error_at)) return false;
  state_->marker_paths |= 1u << (state_->paths.size() - 1);
  return true;
}

bool push_parser::add_start_marker_path(std::string_view path, size_t* error_at) {
  if (!add_marker_path(path, error_at)) return false;
  state_->start_markers |= 1u << (state_->paths.size() - 1);
  return true;
}

uint8_t* push_parser::input_data() noexcept { return state_ ? state_->window.data() : nullptr; }
size_t push_parser::input_capacity() const noexcept { return state_ ? state_->window.capacity() : 0; }

bool push_parser::reserve(size_t n) {
  if (state_ == nullptr || n > max_element_limit) return false;
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
  } else if (st.s1.prev_in_string != 0) {
    internal::fail(st, error_code::unexpected_end, end, -1);  // inside a string, whether its end mattered or not
  } else if (st.m == mode::in_scalar) {
    // A token cut by the end of input is complete only at the top level: inside an unterminated container the
    // document is truncated anyway, and `[1,2,31` may well have been `[1,2,314]`.
    if (st.depth == 0 && internal::token_accepting(st.token)) {
      internal::end_value(st, end);
    } else {
      internal::fail(st, error_code::unexpected_end, end, -1);
    }
  }
  if (st.status == error_code::ok) {
    const bool complete = st.depth == 0 && (st.m == mode::done || (st.options.ndjson && st.m == mode::value));
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
