// Lists the members of one container of a lazy_index, validating its own text on the way: stage 1 with all its
// checks (scan_block_full: escapes, control characters, UTF-8) over the bytes it reads, the grammar of the container's
// level (keys, colons, commas), and each scalar member with the token DFA.
//
// Nested containers are not read: the container table gives their end, so a nested container that ends in the
// block being scanned is masked out of the block's events, and a longer one is jumped over (the scan restarts
// after it with a fresh stage-1 state, right outside any string). In an array, consecutive container members are
// taken from the table one after the other, checking only the commas and whitespace between them (rows of
// numbers, lists of records: canada.json's rings list about 5x faster). Enumerating every container of a document
// therefore reads each byte about once.
#ifndef SLUICE_INTERNAL_LAZY_ENUMERATE_H
#define SLUICE_INTERNAL_LAZY_ENUMERATE_H

#include "lazy/lazy_state.h"
#include "scan/full_scan.h"
#include "scan/lean_scan.h"
#include "walk/token_dfa.h"

namespace sluice {
namespace internal {

template <class K>
bool enumerate_members(lazy_state& st, uint32_t c) noexcept {
  const uint8_t* const d = st.doc.data();
  const lazy_container box = st.containers[c];
  const bool object = d[box.start] == '{';
  const uint32_t e = box.end;  // the closing bracket, the last byte scanned
  pod_vector<lazy_child>& out = st.scratch;
  out.clear();

  // What the container's grammar expects next.
  enum class want : uint8_t { first, key, colon, value, comma_or_end };
  want m = want::first;
  // A key or string value whose closing quote lies in a later block.
  enum class open_string : uint8_t { none, key, value };
  open_string pending = open_string::none;
  lazy_child cur{0, 0, lazy_no_container, 0, 0, 0};
  uint32_t next_id = c + 1;  // the id of the next nested container to be met
  scan_full_state s1;
  uint32_t pos = box.start + 1;

  for (;;) {
    if (pos > e) return false;  // unreachable for a table built by build_skeleton
    const unsigned len = e + 1 - pos < 64 ? e + 1 - pos : 64;
    const scan_full_events b = scan_block_full<K>(s1, d + pos, len);
    uint64_t events = b.events;
    uint64_t quotes = b.quote;
    // Where stage 1 found a string-content error: nothing at or after it may complete.
    const uint32_t error_pos = b.error_at >= 0 ? pos + unsigned(b.error_at) : ~uint32_t{0};
    if (b.error_at >= 0) {
      events &= mask_below(unsigned(b.error_at));
      quotes &= mask_below(unsigned(b.error_at));
    }
    if (pending != open_string::none) {
      if (quotes == 0) {
        if (b.error_at >= 0) return false;
        pos += len;
        continue;
      }
      const uint32_t end = pos + unsigned(trailing_zeroes(quotes)) + 1;
      if (pending == open_string::key) {
        cur.key_end = end;
        m = want::colon;
      } else {
        cur.value_end = end;
        if (!out.push_back(cur)) return false;
        m = want::comma_or_end;
      }
      pending = open_string::none;
    }
    bool jumped = false;
    while (events != 0) {
      const unsigned i = unsigned(trailing_zeroes(events));
      events = clear_lowest_bit(events);
      const uint32_t p = pos + i;
      const uint8_t ch = d[p];
      if (m == want::comma_or_end) {
        if (ch == ',') {
          m = object ? want::key : want::value;
          continue;
        }
        if (p == e) return true;  // the container's own closing bracket (the skeleton matched its kind)
        return false;
      }
      if (m == want::colon) {
        if (ch != ':') return false;
        m = want::value;
        continue;
      }
      if (object && (m == want::first || m == want::key)) {
        if (ch == '"') {
          cur.key_start = p;
          const uint64_t rest = quotes & ~mask_below(i + 1);
          if (rest == 0) {
            pending = open_string::key;
          } else {
            cur.key_end = pos + unsigned(trailing_zeroes(rest)) + 1;
            m = want::colon;
          }
          continue;
        }
        if (m == want::first && p == e) return true;  // {}
        return false;
      }
      // A value (m is first in an array, or value).
      if (m == want::first && p == e) return true;  // []
      cur.value_start = p;
      cur.first_byte = ch;
      cur.container = lazy_no_container;
      if (ch == '{' || ch == '[') {
        const uint32_t k = next_id;
        if (k >= st.containers.size() || st.containers[k].start != p) return false;
        const uint32_t close = st.containers[k].end;
        cur.container = k;
        cur.value_end = close + 1;
        if (!out.push_back(cur)) return false;
        next_id = st.containers[k].next;
        m = want::comma_or_end;
        // An array of containers (rows of numbers, records): as long as the next member is another container
        // right after a comma, it comes from the container table, with no scan of the bytes in between: they are
        // whitespace, one comma, whitespace, checked here. Anything else ends the run; the scan resumes after it.
        uint32_t run_end = close;
        if (!object) {
          for (;;) {
            // d[e] is this array's closing bracket: neither loop runs past it.
            uint32_t q = run_end + 1;
            while (is_json_space(d[q])) ++q;
            if (d[q] != ',') break;
            uint32_t r = q + 1;
            while (is_json_space(d[r])) ++r;
            if (!is_open_bracket(d[r])) break;
            const uint32_t next = next_id;
            if (next >= st.containers.size() || st.containers[next].start != r) return false;
            cur.value_start = r;
            cur.first_byte = d[r];
            cur.container = next;
            cur.value_end = st.containers[next].end + 1;
            if (!out.push_back(cur)) return false;
            next_id = st.containers[next].next;
            run_end = st.containers[next].end;
          }
        }
        if (run_end == close && close < pos + len && close < error_pos) {
          // Ends in this block: drop its events, the stage-1 state stays right.
          events &= ~mask_below(close - pos + 1);
          quotes &= ~mask_below(close - pos + 1);
        } else {
          pos = run_end + 1;
          s1 = scan_full_state{};
          jumped = true;
          break;
        }
        continue;
      }
      if (ch == '"') {
        const uint64_t rest = quotes & ~mask_below(i + 1);
        if (rest == 0) {
          pending = open_string::value;
        } else {
          cur.value_end = pos + unsigned(trailing_zeroes(rest)) + 1;
          if (!out.push_back(cur)) return false;
          m = want::comma_or_end;
        }
        continue;
      }
      // A number or literal: the DFA validates it and finds its end (the closing bracket at the latest).
      uint8_t state = token_dfa.next[t_start][ch];
      if (state <= t_done) return false;
      const unsigned end = token_run(state, d, p + 1, e + 1);
      if (end > e || token_dfa.next[state][d[end]] != t_done) return false;
      cur.value_end = end;
      if (!out.push_back(cur)) return false;
      m = want::comma_or_end;
    }
    if (jumped) continue;
    if (b.error_at >= 0) return false;
    pos += len;
  }
}

}  // namespace internal
}  // namespace sluice

#endif  // SLUICE_INTERNAL_LAZY_ENUMERATE_H
