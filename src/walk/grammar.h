// The grammar of JSON as one automaton, shared by every walk over the events of a block (walk.h) and by the push
// parser's general path (stream/general_path.h). Inside containers it has eight states, each folding what is
// expected next with the kind of the enclosing container, so that an event is one lookup: (state, byte class) ->
// next state, or an action for the caller. Five more states lie outside the table: the root value, after it,
// and three "inside a token" states where the walk waits for a byte that is not an event.
#ifndef SLUICE_WALK_GRAMMAR_H
#define SLUICE_WALK_GRAMMAR_H

#include <cstdint>

#include "sluice/error.h"

namespace sluice {
namespace internal {

enum walk_state : uint8_t {
  // In the table: inside a container.
  s_value_in_object,  // after ':'
  s_value_in_array,   // after ',' in an array
  s_value_or_end,     // after '['
  s_key_or_end,       // after '{'
  s_key,              // after ',' in an object
  s_colon,            // after a key
  s_after_in_object,  // after a member's value: ',' or '}'
  s_after_in_array,   // after an element: ',' or ']'
  // Outside the table: the general path only.
  s_root,        // the root value (NDJSON: the next one)
  s_root_done,   // after the root value (NDJSON: before the next one)
  s_string_end,  // inside a selected string value: its closing quote ends an element
  s_key_end,     // inside a key a selector compares: its closing quote ends the key
  s_in_scalar,   // inside a number or literal cut by the end of a window
};
constexpr unsigned container_states = 8;
constexpr unsigned walk_states = 16;  // rows of the table: the states outside it lead to a_error

constexpr walk_state after_value_in(bool object) { return object ? s_after_in_object : s_after_in_array; }
constexpr bool is_value_state(uint8_t s) { return s <= s_value_or_end; }

// Byte classes of events: stage 1 reports structural characters, quotes that open strings, and the first byte of
// every number or literal (any other byte: ev_scalar, which the token DFA accepts or rejects).
enum event_class : uint8_t {
  ev_open_object,
  ev_open_array,
  ev_quote,
  ev_close_object,
  ev_close_array,
  ev_comma,
  ev_colon,
  ev_scalar,
};

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
inline constexpr event_class_table class_of_byte{};

// A table entry is the next state (bits 0..2) and an action (bits 3..5); action 0 is a plain transition, so an
// entry below 8 is the next state itself.
enum walk_action : uint8_t {
  a_plain = 0,
  a_push,          // '{' or '[' opens a container; the next state says which
  a_pop,           // '}' or ']' closes one; the next state is the parent's, from the depth stack
  a_scalar,        // a number or literal starts
  a_string,        // a string value starts
  a_key,           // an object key starts
  a_next_element,  // ',' in an array: the next element's index
  a_error,         // not allowed here (error_in(state) says which error)
};
constexpr uint8_t entry(walk_action a, walk_state next) { return uint8_t(a << 3 | next); }
constexpr walk_action action_of(uint8_t entry) { return walk_action(entry >> 3); }
constexpr walk_state state_of(uint8_t entry) { return walk_state(entry & 7); }

// Which of a_string, a_next_element and a_key are plain transitions. A walk where no selector is alive needs no
// action for them; the walk that records an object's members needs a_key only; the selecting walk and the general
// path need all three.
template <bool StringsCommasPlain, bool KeysPlain = StringsCommasPlain>
struct grammar_table {
  uint8_t next[walk_states * 8];
  constexpr grammar_table() : next() {
    constexpr bool plain = StringsCommasPlain;
    for (auto& n : next) n = entry(a_error, s_value_in_object);
    const auto set = [&](walk_state s, event_class c, uint8_t to) { next[s * 8 + c] = to; };
    for (const walk_state v : {s_value_in_object, s_value_in_array, s_value_or_end}) {
      const walk_state after = after_value_in(v == s_value_in_object);
      set(v, ev_open_object, entry(a_push, s_key_or_end));
      set(v, ev_open_array, entry(a_push, s_value_or_end));
      set(v, ev_quote, entry(plain ? a_plain : a_string, after));
      set(v, ev_scalar, entry(a_scalar, after));
    }
    set(s_value_or_end, ev_close_array, entry(a_pop, s_value_in_object));
    set(s_key_or_end, ev_quote, entry(KeysPlain ? a_plain : a_key, s_colon));
    set(s_key_or_end, ev_close_object, entry(a_pop, s_value_in_object));
    set(s_key, ev_quote, entry(KeysPlain ? a_plain : a_key, s_colon));
    set(s_colon, ev_colon, s_value_in_object);
    set(s_after_in_object, ev_comma, s_key);
    set(s_after_in_object, ev_close_object, entry(a_pop, s_value_in_object));
    set(s_after_in_array, ev_comma, entry(plain ? a_plain : a_next_element, s_value_in_array));
    set(s_after_in_array, ev_close_array, entry(a_pop, s_value_in_object));
  }
  constexpr uint8_t operator()(unsigned state, uint8_t byte) const { return next[state * 8 + class_of_byte.v[byte]]; }
};
inline constexpr grammar_table<false> grammar{};               // every action reported
inline constexpr grammar_table<true> skip_grammar{};           // strings, keys and commas plain
inline constexpr grammar_table<true, false> member_grammar{};  // strings and commas plain, keys reported

// The error of a byte the table rejects in a container state.
constexpr error_code error_in(uint8_t state) {
  switch (state) {
    case s_key_or_end:
    case s_key:
      return error_code::expected_key;
    case s_colon:
      return error_code::expected_colon;
    case s_after_in_object:
      return error_code::expected_comma_or_brace;
    case s_after_in_array:
      return error_code::expected_comma_or_bracket;
    default:
      return error_code::expected_value;
  }
}

}  // namespace internal
}  // namespace sluice

#endif  // SLUICE_WALK_GRAMMAR_H
