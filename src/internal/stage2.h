// Stage 2: walks the events of each block right after stage 1 classified it. A pushdown automaton validates the
// grammar (with a bit per depth level for the container kind), the token DFA validates numbers and literals, and
// the selector automaton decides which values are elements. O(1) per event; values deeper than the longest path
// cost no selector work at all.
//
// Error positions are chunking-independent: within a block the events before the first string-content error are
// handled first, so the error reported is always the first in stream order.
#ifndef SLUICE_INTERNAL_STAGE2_H
#define SLUICE_INTERNAL_STAGE2_H

#include <cstring>

#include "internal/parser_state.h"
#include "internal/stage1.h"
#include "internal/token_dfa.h"

namespace sluice {
namespace internal {

// MARK: positions and errors

// Line and column of `pos`, which lies in the current block or later in the window (a token that ran on), or at
// the end of the input. Only called on errors.
inline void locate(const parser_state& st, uint64_t pos, uint64_t& line, uint64_t& column) noexcept {
  uint64_t lines = st.lines_before;
  uint64_t start = st.line_start;
  if (pos >= st.block_base) {
    uint64_t nl = st.block_newline;
    if (pos < st.block_base + 64) nl &= mask_below(unsigned(pos - st.block_base));
    if (nl != 0) {
      lines += uint64_t(count_ones(nl));
      start = st.block_base + uint64_t(63 - leading_zeroes(nl)) + 1;
    }
    // Beyond the block (a token that ran on): scan the window bytes in between; a token holds no newline, but
    // the rest of the block may.
    const uint64_t from = st.block_base + 64;
    if (pos > from && st.w_len != 0) {
      const uint64_t w_end = st.w_base + st.w_len;
      for (uint64_t q = from; q < pos && q < w_end; ++q) {
        if (q >= st.w_base && st.window.data()[q - st.w_base] == '\n') {
          ++lines;
          start = q + 1;
        }
      }
    }
  }
  line = lines + 1;
  column = pos - start + 1;
}

// Records the first error; the parser is dead afterwards. `byte` is the offending byte, -1 for end of input.
SLUICE_NOINLINE inline void fail(parser_state& st, error_code code, uint64_t pos, int byte) noexcept {
  if (st.status != error_code::ok) return;
  // An open element (or key) that already outgrew the limit at an earlier position reports that instead.
  if (pos > st.limit_pos && code != error_code::element_too_large) {
    code = error_code::element_too_large;
    pos = st.limit_pos;
    byte = (pos >= st.w_base && pos < st.w_base + st.w_len) ? st.window.data()[pos - st.w_base] : -1;
  }
  st.status = code;
  st.error.code = code;
  st.error.offset = pos;
  st.error.byte = byte;
  locate(st, pos, st.error.line, st.error.column);
}

inline int byte_at(const parser_state& st, uint64_t pos) noexcept {
  return (pos >= st.w_base && pos < st.w_base + st.w_len) ? st.window.data()[pos - st.w_base] : -1;
}

// The outermost open element whose bytes are kept: markers (add_marker_path) keep none, so neither the carry nor
// the size limit starts at them.
inline const open_element* first_retained(const parser_state& st) noexcept {
  for (uint32_t i = 0; i < st.open_count; ++i)
    if ((st.open[i].paths & ~st.marker_paths) != 0) return &st.open[i];
  return nullptr;
}

inline void update_limit(parser_state& st) noexcept {
  uint64_t limit = no_position;
  const uint64_t max = st.options.max_element_bytes;
  if (const open_element* o = first_retained(st)) limit = o->start + max;
  if (st.key_reading && st.key_start + max < limit) limit = st.key_start + max;
  st.limit_pos = limit;
}

// MARK: retained bytes

// Makes [start, end) contiguous in memory and returns its address. Bytes before the window live in the carry,
// which covers [c_base, w_base) at the start of a feed and is extended with window bytes on demand; feed() reserved
// room for the whole window, so this never reallocates while pointers of this feed are out.
inline const uint8_t* resolve(parser_state& st, uint64_t start, uint64_t end) noexcept {
  if (start >= st.w_base) return st.window.data() + (start - st.w_base);
  const uint64_t c_end = st.c_base + st.carry.size();
  if (end > c_end) st.carry.append_unchecked(st.window.data() + (c_end - st.w_base), size_t(end - c_end));
  return st.carry.data() + (start - st.c_base);
}

// MARK: selection

inline uint32_t match_name(parser_state& st, uint32_t cand, uint32_t step, uint64_t key_start, uint64_t key_end) {
  const uint8_t* key = resolve(st, key_start, key_end) + 1;
  const size_t n = size_t(key_end - key_start - 2);
  const uint8_t* text = key;
  size_t text_n = n;
  if (std::memchr(key, '\\', n) != nullptr) {
    st.key_scratch.clear();
    unescape_json_string(key, n, st.key_scratch);
    text = reinterpret_cast<const uint8_t*>(st.key_scratch.data());
    text_n = st.key_scratch.size();
  }
  uint32_t matched = 0;
  for (uint32_t rest = cand; rest != 0; rest &= rest - 1) {
    const uint32_t p = uint32_t(trailing_zeroes(rest));
    const std::string& name = st.paths[p].steps[step].name;
    if (name.size() == text_n && std::memcmp(name.data(), text, text_n) == 0) matched |= 1u << p;
  }
  return matched;
}

inline bool open_element_at(parser_state& st, uint64_t p, uint32_t selected, key_kind key, uint64_t index) {
  open_element& o = st.open[st.open_count++];
  o.start = p;
  o.level = st.depth;
  o.paths = selected;
  o.key = key;
  o.index = index;
  o.retain_from = p;
  if (key == key_kind::name) {
    o.key_start = st.key_start;
    o.key_end = st.key_end;
    o.retain_from = st.key_start;
  }
  return true;
}

// Start markers (add_start_marker_path) matched the value starting at p (in the window): reported at once, as
// size-0 elements pointing at its first byte, with its key (still held: key_pending keeps it until here).
SLUICE_NOINLINE inline void start_marker(parser_state& st, uint64_t p, uint32_t paths, key_kind key, uint64_t index) {
  const uint8_t* data = st.window.data() + (p - st.w_base);
  const uint8_t* key_data = key == key_kind::name ? resolve(st, st.key_start, st.key_end) : nullptr;
  for (uint32_t rest = paths; rest != 0; rest &= rest - 1) {
    element e;
    e.data = data;
    e.size = 0;
    e.path_index = uint32_t(trailing_zeroes(rest));
    e.key = key;
    e.key_data = key_data;
    e.key_size = key_data ? uint32_t(st.key_end - st.key_start) : 0;
    e.index_lo = uint32_t(index);
    e.index_hi = uint32_t(index >> 32);
    if (!st.elements.push_back(e)) fail(st, error_code::out_of_memory, p, -1);
  }
}

// A value starts at p. Decides which selectors continue into it (next_cand) and which select it.
inline void begin_value(parser_state& st, uint64_t p) noexcept {
  if (st.cand_top == 0) {
    st.next_cand = 0;
    return;
  }
  const uint32_t d = st.depth;
  uint32_t matched;
  key_kind key = key_kind::none;
  uint64_t index = 0;
  if (d == 0) {
    matched = st.all_paths;
    if (st.options.ndjson) {
      key = key_kind::index;
      index = st.root_index;
    }
  } else if (st.is_object_at(d)) {
    matched = st.member_match;
    key = key_kind::name;
  } else {
    index = st.index_at[d];
    key = key_kind::index;
    matched = st.cand_top & st.wild_at[d - 1];
    for (const index_step& s : st.index_at_step[d - 1])
      if (s.index == index) matched |= st.cand_top & (1u << s.path);
  }
  uint32_t selected = matched & st.len_is[d];
  st.next_cand = matched & ~st.len_is[d];
  if ((selected & st.start_markers) != 0) {
    start_marker(st, p, selected & st.start_markers, key, index);
    selected &= ~st.start_markers;
  }
  if (selected != 0) open_element_at(st, p, selected, key, index);
  if (st.key_pending) st.key_pending = false;
  update_limit(st);
}

inline void after_value(parser_state& st) noexcept {
  if (st.depth == 0) {
    st.m = mode::done;
    ++st.root_index;
  } else {
    st.m = mode::comma_or_end;
  }
}

// A value ended just before `end`; the depth is back to the value's own level.
inline void end_value(parser_state& st, uint64_t end) noexcept {
  if (st.open_count != 0 && st.open[st.open_count - 1].level == st.depth) {
    const open_element& o = st.open[--st.open_count];
    // A marker-only element kept no bytes: it is reported as the position just past its end.
    const bool retained = (o.paths & ~st.marker_paths) != 0;
    const uint8_t* data = retained ? resolve(st, o.start, end) : st.window.data() + (end - st.w_base);
    const uint8_t* key = retained && o.key == key_kind::name ? resolve(st, o.key_start, o.key_end) : nullptr;
    for (uint32_t rest = o.paths; rest != 0; rest &= rest - 1) {
      element e;
      const uint32_t bit = rest & (0u - rest);
      const bool marker = (bit & st.marker_paths) != 0;
      e.data = marker ? st.window.data() + (end - st.w_base) : data;
      e.size = marker ? 0 : uint32_t(end - o.start);
      e.path_index = uint32_t(trailing_zeroes(rest));
      e.key = o.key;
      e.key_data = marker ? nullptr : key;
      e.key_size = key && !marker ? uint32_t(o.key_end - o.key_start) : 0;
      e.index_lo = uint32_t(o.index);
      e.index_hi = uint32_t(o.index >> 32);
      if (!st.elements.push_back(e)) fail(st, error_code::out_of_memory, end, -1);
    }
    update_limit(st);
  }
  after_value(st);
}

// The closing quote of a string whose end matters is at absolute offset q.
SLUICE_NOINLINE inline bool close_string(parser_state& st, uint64_t q) noexcept {
  if (q + 1 > st.limit_pos) {
    fail(st, error_code::element_too_large, st.limit_pos, byte_at(st, st.limit_pos));
    return false;
  }
  if (st.m == mode::key_end) {
    st.key_end = q + 1;
    st.key_reading = false;
    update_limit(st);
    const uint32_t step = st.depth - 1;
    const uint32_t by_name = st.cand_top & st.name_at[step];
    st.member_match = (st.cand_top & st.wild_at[step]) |
                      (by_name != 0 ? match_name(st, by_name, step, st.key_start, st.key_end) : 0);
    st.m = mode::colon;
    return true;
  }
  end_value(st, q + 1);
  return st.status == error_code::ok;
}

// A string whose end matters opened at window index i: its closing quote is the next unescaped quote, in this
// block or a later one (then scan_window finds it before that block's events).
inline bool find_string_end(parser_state& st, unsigned i, mode waiting) noexcept {
  st.m = waiting;
  const uint64_t rest = st.block_quote & ~mask_below(i - st.block_off + 1);
  if (rest == 0) return true;
  return close_string(st, st.block_base + unsigned(trailing_zeroes(rest)));
}

// MARK: grammar

inline bool push_container(parser_state& st, uint64_t p, bool object) noexcept {
  if (st.depth >= st.options.max_depth) {
    fail(st, error_code::depth_limit, p, object ? '{' : '[');
    return false;
  }
  const uint32_t d = ++st.depth;
  const uint64_t bit = uint64_t{1} << (d & 63);
  if (object) {
    st.is_object[d >> 6] |= bit;
  } else {
    st.is_object[d >> 6] &= ~bit;
  }
  st.cand_top = st.next_cand;
  if (d <= st.max_len) {
    st.cand_at[d] = st.next_cand;
    st.index_at[d] = 0;
  }
  st.m = object ? mode::key_or_end_object : mode::value_or_end_array;
  return true;
}

inline void pop_container(parser_state& st, uint64_t p) noexcept {
  const uint32_t d = --st.depth;
  st.cand_top = d <= st.max_len ? st.cand_at[d] : 0;
  end_value(st, p + 1);
}

// Runs the token DFA from window index i. Returns false on error. Leaves m == in_scalar when the window ran out.
SLUICE_NOINLINE inline bool run_token(parser_state& st, uint64_t token_start, unsigned i) noexcept {
  uint8_t s = st.token;
  const uint8_t* w = st.window.data();
  const unsigned end = token_run(s, w, i, st.w_len);
  if (end == st.w_len) {
    st.token = s;
    st.m = mode::in_scalar;
    return true;
  }
  const uint64_t pos = st.w_base + end;
  if (token_dfa.next[s][w[end]] == t_error) {
    fail(st, token_is_number(s) ? error_code::invalid_number : error_code::invalid_literal, pos, w[end]);
    return false;
  }
  (void)token_start;
  if (pos > st.limit_pos) {
    fail(st, error_code::element_too_large, st.limit_pos, byte_at(st, st.limit_pos));
    return false;
  }
  end_value(st, pos);
  return st.status == error_code::ok;
}

inline bool start_value(parser_state& st, uint64_t p, unsigned i, uint8_t c) noexcept {
  switch (c) {
    case '{':
      begin_value(st, p);
      return push_container(st, p, true);
    case '[':
      begin_value(st, p);
      return push_container(st, p, false);
    case '"':
      begin_value(st, p);
      // Only a selected string needs its end (the next unescaped quote); any other is complete as far as the
      // grammar goes: stage 1 validated its contents and reports no event inside it.
      if (st.open_count != 0 && st.open[st.open_count - 1].start == p) return find_string_end(st, i, mode::string_end);
      after_value(st);
      return true;
    default: {
      const uint8_t s = token_dfa.next[t_start][c];
      if (s <= t_done) {
        fail(st, error_code::expected_value, p, c);
        return false;
      }
      begin_value(st, p);
      st.token = s;
      return run_token(st, p, i + 1);
    }
  }
}

// One event: byte c at window index i (absolute offset p).
SLUICE_NOINLINE inline bool handle_event(parser_state& st, unsigned i, uint8_t c) noexcept {
  const uint64_t p = st.w_base + i;
  if (p >= st.limit_pos) {
    fail(st, error_code::element_too_large, st.limit_pos, byte_at(st, st.limit_pos));
    return false;
  }
  switch (st.m) {
    case mode::value:
      if (c == ']' || c == '}' || c == ',' || c == ':') break;
      return start_value(st, p, i, c);
    case mode::value_or_end_array:
      if (c == ']') {
        pop_container(st, p);
        return true;
      }
      if (c == '}' || c == ',' || c == ':') break;
      return start_value(st, p, i, c);
    case mode::comma_or_end: {
      const bool object = st.is_object_at(st.depth);
      if (c == ',') {
        if (object) {
          st.m = mode::key;
        } else {
          st.m = mode::value;
          if (st.cand_top != 0) ++st.index_at[st.depth];
        }
        return true;
      }
      if (c == (object ? '}' : ']')) {
        pop_container(st, p);
        return true;
      }
      fail(st, object ? error_code::expected_comma_or_brace : error_code::expected_comma_or_bracket, p, c);
      return false;
    }
    case mode::key_or_end_object:
      if (c == '}') {
        pop_container(st, p);
        return true;
      }
      [[fallthrough]];
    case mode::key:
      if (c != '"') {
        fail(st, error_code::expected_key, p, c);
        return false;
      }
      if (st.cand_top != 0) {
        // A selector may compare this key, or report it with the element: keep its bytes and find its end.
        st.key_pending = true;
        st.key_reading = true;
        st.key_start = p;
        update_limit(st);
        return find_string_end(st, i, mode::key_end);
      }
      st.m = mode::colon;
      return true;
    case mode::colon:
      if (c != ':') {
        fail(st, error_code::expected_colon, p, c);
        return false;
      }
      st.m = mode::value;
      return true;
    case mode::done:
      if (!st.options.ndjson) {
        fail(st, error_code::trailing_data, p, c);
        return false;
      }
      if (c == ']' || c == '}' || c == ',' || c == ':') break;
      return start_value(st, p, i, c);
    case mode::string_end:
    case mode::key_end:
    case mode::in_scalar:
      break;  // unreachable: strings and tokens hold no events
  }
  fail(st, error_code::expected_value, p, c);
  return false;
}

// MARK: the loop

// Emits a string or scalar element of a live array directly, without opening it: its bytes are all in the window.
// Returns false (nothing done) when the general path must handle it (the element is over the size limit, or the
// table cannot grow).
SLUICE_INLINE bool emit_direct(parser_state& st, const uint8_t* data, unsigned size, uint32_t sel, uint32_t depth) noexcept {
  if (size > st.options.max_element_bytes) return false;
  element e;
  e.data = data;
  e.size = size;
  e.path_index = uint32_t(trailing_zeroes(sel));
  e.key = key_kind::index;
  e.key_data = nullptr;
  e.key_size = 0;
  const uint64_t index = st.index_at[depth];
  e.index_lo = uint32_t(index);
  e.index_hi = uint32_t(index >> 32);
  return st.elements.push_back(e);
}

// The common element of a streamed array, a container chosen by one wildcard alone (`$.rows[*]`, nothing selected
// inside it), opened and closed without the general path: what begin_value/push_container and end_value do for it,
// minus everything that cannot apply. Both return false (nothing done) when the general path must handle the event.

// The container starting at absolute offset p is an element of the live array at `depth`.
SLUICE_INLINE bool open_direct(parser_state& st, uint64_t p, uint32_t depth, uint32_t cand) noexcept {
  // No element open around it (the size limit starts here) and no key in flight: array elements only.
  if (depth == 0 || st.open_count != 0 || st.key_pending || st.key_reading) return false;
  if ((st.index_mask_at[depth - 1] & cand) != 0) return false;
  const uint32_t matched = cand & st.wild_at[depth - 1];
  const uint32_t sel = matched & st.len_is[depth];
  // One plain selector chose it, and no selector continues into it.
  if (sel == 0 || (sel & (sel - 1)) != 0 || (sel & st.marker_paths) != 0 || matched != sel) return false;
  open_element& o = st.open[st.open_count++];
  o.start = p;
  o.retain_from = p;
  o.level = depth;
  o.paths = sel;
  o.key = key_kind::index;
  o.index = st.index_at[depth];
  st.next_cand = 0;
  st.limit_pos = p + st.options.max_element_bytes;
  return true;
}

// The container opened by open_direct ends at `end` (just past its closing bracket).
SLUICE_INLINE bool close_direct(parser_state& st, uint64_t end) noexcept {
  if (st.open_count != 1 || st.key_reading) return false;
  const open_element& o = st.open[0];
  if ((o.paths & (o.paths - 1)) != 0 || (o.paths & st.marker_paths) != 0 || o.key != key_kind::index) return false;
  element e;
  e.data = resolve(st, o.start, end);
  e.size = uint32_t(end - o.start);
  e.path_index = uint32_t(trailing_zeroes(o.paths));
  e.key = key_kind::index;
  e.key_data = nullptr;
  e.key_size = 0;
  e.index_lo = uint32_t(o.index);
  e.index_hi = uint32_t(o.index >> 32);
  if (!st.elements.push_back(e)) return false;  // the general path reports out_of_memory
  st.open_count = 0;
  st.limit_pos = no_position;
  return true;
}

// Validates the number p[i..e) of one block (e < 64, p[e] a delimiter) with the block's digit mask: each digit run
// is one count-trailing-zeroes. Agrees with the token DFA; on false the general path finds the error position.
SLUICE_INLINE bool number_in_block(const uint8_t* p, uint64_t digits, unsigned i, unsigned e) noexcept {
  const auto is_digit = [&](unsigned k) { return ((digits >> k) & 1) != 0; };
  const auto skip_digits = [&](unsigned k) { return k + unsigned(trailing_zeroes(~digits >> k)); };
  if (p[i] == '-') ++i;
  if (i == e) return false;
  if (p[i] == '0') {
    ++i;
  } else {
    if (!is_digit(i)) return false;
    i = skip_digits(i);
  }
  if (i == e) return true;
  if (p[i] == '.') {
    ++i;
    if (i == e || !is_digit(i)) return false;
    i = skip_digits(i);
    if (i == e) return true;
  }
  if ((p[i] | 0x20) == 'e') {
    ++i;
    if (i < e && (p[i] == '+' || p[i] == '-')) ++i;
    if (i == e || !is_digit(i)) return false;
    i = skip_digits(i);
  }
  return i == e;
}

// Byte classes for the fast path's dispatch.
enum : uint8_t { ev_open_object, ev_open_array, ev_quote, ev_close_object, ev_close_array, ev_comma, ev_colon, ev_scalar };

struct event_class_table {
  uint8_t v[256];
  constexpr event_class_table() : v() {
    for (int b = 0; b < 256; ++b) v[b] = ev_scalar;
    v[uint8_t('{')] = ev_open_object;
    v[uint8_t('[')] = ev_open_array;
    v[uint8_t('"')] = ev_quote;
    v[uint8_t('}')] = ev_close_object;
    v[uint8_t(']')] = ev_close_array;
    v[uint8_t(',')] = ev_comma;
    v[uint8_t(':')] = ev_colon;
  }
};
inline constexpr event_class_table event_class{};

// What the skipping loop needs to know about the current block, and the grammar state it advances.
struct skip_context {
  const uint8_t* window;
  unsigned off;        // the block's index in the window
  unsigned len;        // its length
  unsigned n;          // the window's length (a token may run past the block)
  uint64_t rel_limit;  // window index where an open element outgrows its limit
  uint64_t scalar;     // the block's scalar-token bytes
  uint64_t digits;     // its digits, computed on first use
  bool have_digits;
  uint64_t* object_bits;
  uint32_t* cand_at;
  uint32_t max_depth;
  uint32_t max_len;
  mode m;
  uint32_t depth;
  bool object;
};

// A literal of n bytes starting with c ('t', 'n' or 'f') at p: true, null or false exactly. Byte loads and one
// compare instead of std::memcmp, which clang leaves as a call in wasm even for a constant length.
inline uint32_t bytes4(const uint8_t* p) noexcept {
  return uint32_t(p[0]) | uint32_t(p[1]) << 8 | uint32_t(p[2]) << 16 | uint32_t(p[3]) << 24;
}
inline constexpr uint32_t bytes4(const char (&s)[5]) noexcept {
  return uint32_t(uint8_t(s[0])) | uint32_t(uint8_t(s[1])) << 8 | uint32_t(uint8_t(s[2])) << 16 |
         uint32_t(uint8_t(s[3])) << 24;
}
SLUICE_INLINE bool literal_token(const uint8_t* p, uint8_t c, unsigned n) noexcept {
  if (c == 'f') return n == 5 && bytes4(p) == bytes4("fals") && p[4] == 'e';
  return n == 4 && bytes4(p) == (c == 't' ? bytes4("true") : bytes4("null"));
}

// A number or literal starting at window index i (block index bi): true if it is valid and ends in the window
// (then *end is the index of its delimiter). False sends it to the general path, which reports the error or waits
// for the next chunk.
template <class K>
SLUICE_INLINE bool scalar_token(skip_context& x, unsigned bi, uint8_t c, unsigned* end) noexcept {
  const uint8_t* w = x.window;
  const unsigned i = x.off + bi;
  const uint64_t delimiters = ~x.scalar & ~mask_below(bi + 1);
  const unsigned end_bi = delimiters != 0 ? unsigned(trailing_zeroes(delimiters)) : 64;
  if (end_bi >= x.len) {
    // It runs into the next block: the DFA finds its end, if the window holds it.
    uint8_t state = token_dfa.next[t_start][c];
    if (state <= t_done) return false;
    const unsigned e = token_run(state, w, i + 1, x.n);
    *end = e;
    return e < x.n && token_dfa.next[state][w[e]] == t_done;
  }
  *end = x.off + end_bi;
  const unsigned n_tok = end_bi - bi;
  if (c == 't' || c == 'n' || c == 'f') return literal_token(w + i, c, n_tok);
  if (!x.have_digits) {
    x.digits = K::digits(w + x.off);
    x.have_digits = true;
  }
  return number_in_block(w + x.off, x.digits, bi, end_bi);
}

// The skipping loop's grammar automaton: the state folds the mode and the container kind into 3 bits, so that
// most events are one table lookup (state x byte class -> next state).
enum skip_state : uint8_t {
  s_value_in_object,   // after ':'
  s_value_in_array,    // after ',' in an array
  s_value_or_end,      // after '['
  s_key_or_end,        // after '{'
  s_key,               // after ',' in an object
  s_colon,             // after a key
  s_after_in_object,   // after a member's value
  s_after_in_array,    // after an element
  // actions
  a_push_object = 8,
  a_push_array,
  a_pop,
  a_scalar_in_object,
  a_scalar_in_array,
  a_out,               // the caller handles this event
};

struct skip_table {
  uint8_t next[8 * 8];
  constexpr skip_table() : next() {
    for (auto& n : next) n = a_out;
    const auto set = [&](int state, int cls, uint8_t to) { next[state * 8 + cls] = to; };
    for (const int v : {s_value_in_object, s_value_in_array, s_value_or_end}) {
      const bool in_object = v == s_value_in_object;
      set(v, ev_open_object, a_push_object);
      set(v, ev_open_array, a_push_array);
      set(v, ev_quote, in_object ? s_after_in_object : s_after_in_array);
      set(v, ev_scalar, in_object ? a_scalar_in_object : a_scalar_in_array);
    }
    set(s_value_or_end, ev_close_array, a_pop);
    set(s_key_or_end, ev_quote, s_colon);
    set(s_key_or_end, ev_close_object, a_pop);
    set(s_key, ev_quote, s_colon);
    set(s_colon, ev_colon, s_value_in_object);
    set(s_after_in_object, ev_comma, s_key);
    set(s_after_in_object, ev_close_object, a_pop);
    set(s_after_in_array, ev_comma, s_value_in_array);
    set(s_after_in_array, ev_close_array, a_pop);
  }
};
inline constexpr skip_table skip_transitions{};

// The events of one block where no selector is alive: inside a selected element, or in a part of the document no
// path leads into. Only the grammar matters there; this small loop handles it. Returns the events it did not
// handle; the first of them needs the caller.
template <class K>
SLUICE_NOINLINE uint64_t skip_events(skip_context& x, uint64_t events) noexcept {
  uint8_t state;
  switch (x.m) {
    case mode::value: state = x.object ? s_value_in_object : s_value_in_array; break;
    case mode::value_or_end_array: state = s_value_or_end; break;
    case mode::key_or_end_object: state = s_key_or_end; break;
    case mode::key: state = s_key; break;
    case mode::colon: state = s_colon; break;
    case mode::comma_or_end: state = x.object ? s_after_in_object : s_after_in_array; break;
    default: return events;
  }
  const uint8_t* const block = x.window + x.off;
  uint64_t* const object_bits = x.object_bits;
  uint32_t depth = x.depth;
  while (events != 0) {
    unsigned bi;
    uint8_t c;
    uint8_t next;
    // Plain transitions (strings, colons, commas) in a loop of their own: few live values, no spills.
    for (;;) {
      bi = unsigned(trailing_zeroes(events));
      c = block[bi];
      next = skip_transitions.next[state * 8 + event_class.v[c]];
      if (next >= 8) break;
      state = next;
      events = clear_lowest_bit(events);
      if (events == 0) goto out;
    }
    if (next <= a_push_array) {
      if (depth >= x.max_depth) break;
      ++depth;
      const uint64_t bit = uint64_t{1} << (depth & 63);
      uint64_t& word = object_bits[depth >> 6];
      word = next == a_push_object ? word | bit : word & ~bit;
      if (depth <= x.max_len) x.cand_at[depth] = 0;
      state = next == a_push_object ? s_key_or_end : s_value_or_end;
    } else if (next == a_pop) {
      // Back at a level where a selector may be alive (or an element ends): the caller decides.
      if (depth - 1 <= x.max_len) break;
      --depth;
      state = ((object_bits[depth >> 6] >> (depth & 63)) & 1) ? s_after_in_object : s_after_in_array;
    } else if (next != a_out) {
      unsigned end;
      if (!scalar_token<K>(x, bi, c, &end) || end > x.rel_limit) break;
      state = next == a_scalar_in_object ? s_after_in_object : s_after_in_array;
    } else {
      break;
    }
    events = clear_lowest_bit(events);
  }
out:
  x.depth = depth;
  switch (state) {
    case s_value_in_object: x.m = mode::value; x.object = true; break;
    case s_value_in_array: x.m = mode::value; x.object = false; break;
    case s_value_or_end: x.m = mode::value_or_end_array; x.object = false; break;
    case s_key_or_end: x.m = mode::key_or_end_object; x.object = true; break;
    case s_key: x.m = mode::key; x.object = true; break;
    case s_colon: x.m = mode::colon; x.object = true; break;
    case s_after_in_object: x.m = mode::comma_or_end; x.object = true; break;
    default: x.m = mode::comma_or_end; x.object = false; break;
  }
  return events;
}

// Scans window[0, w_len). One stage-1 block at a time, its events handled at once while the block is in cache.
//
// Most events lie where no selector is alive (inside a selected element, or in a part of the document no path
// leads into): there only the grammar matters, and the loop below handles them with the hot state in locals, in a
// dozen instructions. Everything else (values a selector may choose, keys it compares, element ends, errors) goes
// through handle_event() with the state in `st`.
template <class K>
void scan_window(parser_state& st) noexcept {
  const uint8_t* const w = st.window.data();
  const unsigned n = st.w_len;
  if (st.m == mode::in_scalar && n != 0) {
    // A token cut by the previous chunk: it holds no newline and no event, so it can run before stage 1.
    st.block_base = st.w_base;
    st.block_off = 0;
    st.block_newline = 0;
    if (!run_token(st, st.w_base, 0)) return;
  }
  uint64_t* const object_bits = st.is_object.data();
  uint32_t* const cand_at = st.cand_at.data();
  const uint32_t max_len = st.max_len;
  const uint32_t max_depth = st.options.max_depth;
  // Hot state, mirrored from st; `st` is authoritative again whenever handle_event runs.
  mode m;
  uint32_t depth, cand, open_level;
  bool object;
  uint64_t limit;
  uint64_t rel_limit;  // window index from which the limit applies: such events take the general path
  const auto load = [&] {
    m = st.m;
    depth = st.depth;
    cand = st.cand_top;
    object = depth != 0 && st.is_object_at(depth);
    open_level = st.open_count != 0 ? st.open[st.open_count - 1].level : ~uint32_t{0};
    limit = st.limit_pos;
    rel_limit = limit - st.w_base;
  };
  const auto store = [&] {
    st.m = m;
    st.depth = depth;
    st.cand_top = cand;
  };
  load();
  skip_context x;  // what does not change from block to block is set once
  x.window = w;
  x.n = n;
  x.digits = 0;
  x.object_bits = object_bits;
  x.cand_at = cand_at;
  x.max_depth = max_depth;
  x.max_len = max_len;
  for (unsigned off = 0; off < n; off += 64) {
    const unsigned len = n - off < 64 ? n - off : 64;
    const block_events b = len == 64 ? scan_block<K, true>(st.s1, w + off, 64) : scan_block<K>(st.s1, w + off, len);
    st.block_base = st.w_base + off;
    st.block_off = off;
    st.block_newline = b.newline;
    st.block_quote = b.quote;
    // Whitespace outside strings: every byte that is neither in a string, nor a quote, a token or an event.
    if (const uint64_t spaces = ~(b.in_string | b.quote | b.scalar | b.events) & mask_below(len))
      st.spaces_end = st.block_base + 64 - unsigned(leading_zeroes(spaces));
    uint64_t events = b.events;
    if (b.error_at >= 0) {
      // Nothing at or after the error may complete: not an event, not the end of a string.
      events &= mask_below(unsigned(b.error_at));
      st.block_quote &= mask_below(unsigned(b.error_at));
    }
    if ((m == mode::string_end || m == mode::key_end) && st.block_quote != 0) {
      store();
      if (!close_string(st, st.block_base + unsigned(trailing_zeroes(st.block_quote)))) return;
      load();
    }
    x.off = off;
    x.len = len;
    x.scalar = b.scalar;
    x.have_digits = false;
    while (events != 0) {
      if (cand == 0 && off + len <= rel_limit) {
        x.rel_limit = rel_limit;
        x.m = m;
        x.depth = depth;
        x.object = object;
        events = skip_events<K>(x, events);
        m = x.m;
        depth = x.depth;
        object = x.object;
        if (events == 0) break;
      }
      const unsigned bi = unsigned(trailing_zeroes(events));
      const unsigned i = off + bi;
      events = clear_lowest_bit(events);
      const uint8_t c = w[i];
      if (i < rel_limit) {
        // One jump on (what the grammar expects, what the byte is); every case either completes the event or
        // breaks to the general path.
        switch (unsigned(m) * 8 + event_class.v[c]) {
          case unsigned(mode::value) * 8 + ev_open_object:
          case unsigned(mode::value_or_end_array) * 8 + ev_open_object:
          case unsigned(mode::value) * 8 + ev_open_array:
          case unsigned(mode::value_or_end_array) * 8 + ev_open_array: {
            if (depth >= max_depth) break;
            if (cand != 0) {
              // An element of a live array: opened here when one wildcard alone chose it.
              if (object || !open_direct(st, st.w_base + i, depth, cand)) break;
              open_level = depth;
              limit = st.limit_pos;
              rel_limit = limit - st.w_base;
              cand = 0;
            }
            const bool obj = c == '{';
            ++depth;
            const uint64_t bit = uint64_t{1} << (depth & 63);
            object_bits[depth >> 6] = obj ? object_bits[depth >> 6] | bit : object_bits[depth >> 6] & ~bit;
            if (depth <= max_len) cand_at[depth] = 0;
            object = obj;
            m = obj ? mode::key_or_end_object : mode::value_or_end_array;
            continue;
          }
          case unsigned(mode::value) * 8 + ev_quote:
          case unsigned(mode::value_or_end_array) * 8 + ev_quote: {
            if (cand == 0) {
              m = mode::comma_or_end;  // depth > 0: at depth 0 the root is always alive
              continue;
            }
            // An element of a live array, chosen by wildcards alone: emitted here when it ends in this block.
            if (object || depth == 0 || (st.index_mask_at[depth - 1] & cand) != 0) break;
            const uint32_t sel = cand & st.wild_at[depth - 1] & st.len_is[depth];
            if (sel == 0) {
              m = mode::comma_or_end;
              continue;
            }
            const uint64_t rest = st.block_quote & ~mask_below(bi + 1);
            if ((sel & (sel - 1)) != 0 || (sel & st.marker_paths) != 0 || rest == 0) break;
            const unsigned end = off + unsigned(trailing_zeroes(rest)) + 1;
            if (end > rel_limit || !emit_direct(st, w + i, end - i, sel, depth)) break;
            m = mode::comma_or_end;
            continue;
          }
          case unsigned(mode::key) * 8 + ev_quote:
          case unsigned(mode::key_or_end_object) * 8 + ev_quote:
            if (cand != 0) break;  // a key a selector may compare
            m = mode::colon;
            continue;
          case unsigned(mode::comma_or_end) * 8 + ev_close_object:
          case unsigned(mode::comma_or_end) * 8 + ev_close_array:
          case unsigned(mode::key_or_end_object) * 8 + ev_close_object:
          case unsigned(mode::value_or_end_array) * 8 + ev_close_array: {
            if (m == mode::comma_or_end && object != (c == '}')) break;
            const uint32_t d = depth - 1;
            // The root ends: the general path moves to `done`.
            if (d == 0) break;
            if (d == open_level) {
              // A selected element ends: emitted here if open_direct opened it, else by the general path.
              if (!close_direct(st, st.w_base + i + 1)) break;
              open_level = ~uint32_t{0};
              limit = no_position;
              rel_limit = limit - st.w_base;
            }
            depth = d;
            object = (object_bits[d >> 6] >> (d & 63)) & 1;
            if (d <= max_len) cand = cand_at[d];
            m = mode::comma_or_end;
            continue;
          }
          case unsigned(mode::comma_or_end) * 8 + ev_comma:
            if (object) {
              m = mode::key;
            } else {
              if (cand != 0) ++st.index_at[depth];
              m = mode::value;
            }
            continue;
          case unsigned(mode::colon) * 8 + ev_colon:
            m = mode::value;
            continue;
          case unsigned(mode::value) * 8 + ev_scalar:
          case unsigned(mode::value_or_end_array) * 8 + ev_scalar: {
            // A number or literal whose extent the stage-1 masks give, unless it runs to the end of the block.
            const uint64_t delimiters = ~b.scalar & ~mask_below(bi + 1);
            const unsigned end_bi = delimiters != 0 ? unsigned(trailing_zeroes(delimiters)) : 64;
            unsigned n_tok;
            bool ok;
            if (end_bi >= len) {
              // It runs into the next block: the DFA finds its end, if the window holds it.
              uint8_t state = token_dfa.next[t_start][c];
              if (state <= t_done) break;
              const unsigned end = token_run(state, w, i + 1, n);
              ok = end < n && token_dfa.next[state][w[end]] == t_done;
              n_tok = end - i;
            } else if (c == 't' || c == 'n' || c == 'f') {
              n_tok = end_bi - bi;
              ok = literal_token(w + i, c, n_tok);
            } else {
              n_tok = end_bi - bi;
              if (!x.have_digits) {
                x.digits = K::digits(w + off);
                x.have_digits = true;
              }
              ok = number_in_block(w + off, x.digits, bi, end_bi);
            }
            if (!ok || i + n_tok > rel_limit) break;  // the general path reports the error
            if (cand != 0) {
              if (object || depth == 0 || (st.index_mask_at[depth - 1] & cand) != 0) break;
              const uint32_t sel = cand & st.wild_at[depth - 1] & st.len_is[depth];
              if (sel != 0 && ((sel & (sel - 1)) != 0 || (sel & st.marker_paths) != 0 ||
                               !emit_direct(st, w + i, n_tok, sel, depth)))
                break;
            }
            m = mode::comma_or_end;
            continue;
          }
          default:
            break;
        }
      }
      store();
      if (!handle_event(st, i, c)) return;
      load();
    }
    if (b.error_at >= 0) {
      store();
      fail(st, b.error, st.block_base + unsigned(b.error_at), w[off + unsigned(b.error_at)]);
      return;
    }
    if (st.block_base + len > limit) {
      store();
      fail(st, error_code::element_too_large, st.limit_pos, byte_at(st, st.limit_pos));
      return;
    }
    if (b.newline != 0) {
      st.lines_before += uint64_t(count_ones(b.newline));
      st.line_start = st.block_base + uint64_t(63 - leading_zeroes(b.newline)) + 1;
    }
  }
  store();
  st.block_base = st.w_base + n;
  st.block_off = n;
  st.block_newline = 0;
  st.block_quote = 0;
}

template <class K>
void stage1_debug(const uint8_t* p, size_t len, uint64_t* out) noexcept {
  stage1_state s;
  for (size_t off = 0; off < len; off += 64) {
    const unsigned n = len - off < 64 ? unsigned(len - off) : 64;
    const block_events b = scan_block<K>(s, p + off, n);
    // The string-interior shortcut of full blocks (scan_block<K, true>) rests on K::string_interior agreeing with
    // K::classify: its verdict, and the rare classes it reports. Checked here (bit 63 of the error word, which
    // the tests compare across kernels) rather than by instantiating scan_block<K, true> a second time: that
    // would ship another copy of stage 1 in every build for the tests' sake.
    uint64_t disagrees = 0;
    if (K::own_string_interior && n == 64) {
      block_classes quick;
      const bool interior = K::string_interior(p + off, quick);
      if (interior != b.no_quote_or_backslash ||
          (interior && (quick.control != b.control || quick.newline != b.newline || quick.high != b.high)))
        disagrees = uint64_t{1} << 63;
    }
    *out++ = b.events;
    *out++ = b.in_string;
    *out++ = b.quote;
    *out++ = uint64_t(uint32_t(b.error_at + 1)) | (uint64_t(b.error) << 32) | disagrees;
  }
}

}  // namespace internal
}  // namespace sluice

#endif  // SLUICE_INTERNAL_STAGE2_H
