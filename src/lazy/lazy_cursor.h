// A forward-only cursor over a JSON stream for openJson(): it walks the members of one container at a time (the
// "focus"), pauses where the caller needs to decide (a member's value starts, a value ends, the container ends),
// and skips everything else at stage-1 speed, counting brackets only.
//
// It validates nothing: the JS layer feeds every chunk to a push parser first and hands the cursor only bytes the
// parser accepted (a valid prefix of a JSON text), so the cursor may trust the grammar. It keeps no input either:
// one window (the current chunk) plus a few words of state; the caller keeps whatever bytes it wants to
// materialise, guided by hold_from().
//
//   cursor.feed(n);                         // after writing n bytes at input_data()
//   switch (cursor.next()) {                // to the next member's value
//     case cursor_status::need_input: ...   // feed more (or end_input()), then resume()
//     case cursor_status::paused: ...       // key_start()/key_end()/value_start() describe the member
//     case cursor_status::end: ...          // the focus container closed at value_end(); focus is its parent
//   }
//
// Positions are absolute stream offsets. Pauses happen only outside strings and tokens, so the scan restarts
// there with a fresh stage-1 state; a window boundary carries the state instead.
#ifndef SLUICE_INTERNAL_LAZY_CURSOR_H
#define SLUICE_INTERNAL_LAZY_CURSOR_H

#include <cstddef>
#include <cstdint>

#include "util/buffers.h"
#include "scan/lean_scan.h"
#include "sluice/options.h"

namespace sluice {
namespace internal {

constexpr size_t default_cursor_window = 64 * 1024;

enum class cursor_status : uint8_t {
  paused = 0,      // the operation is done
  end = 1,         // the focus container ended (value_end() is one past its closing bracket); focus moved out
  need_input = 2,  // the window is used up: feed() or end_input(), then resume()
  truncated = 3,   // the input ended in the middle of the document (the validator reports why)
  misuse = 4,      // the operation does not apply here (a bug in the caller)
};

// One completed member, as read_run() reports it. Doubles: stream offsets may exceed 4 GiB.
struct cursor_record {
  double key_start;  // objects: the key's opening quote; arrays: -1
  double key_end;
  double value_start;
  double value_end;
};

class lazy_cursor {
 public:
  explicit lazy_cursor(kernel_kind kernel = kernel_kind::best);
  lazy_cursor(const lazy_cursor&) = delete;
  lazy_cursor& operator=(const lazy_cursor&) = delete;

  // The window: write up to input_capacity() bytes at input_data(), then feed(n). Only when the last operation
  // returned need_input (or before the first one).
  uint8_t* input_data() noexcept { return window_.data(); }
  size_t input_capacity() const noexcept { return window_.capacity(); }
  bool reserve(size_t n) noexcept { return window_.reserve(n); }
  void feed(size_t n) noexcept;
  void end_input() noexcept { eof_ = true; }

  // The operations. Each returns need_input when the window runs out first; resume() continues it.
  cursor_status next() noexcept;                // to the first byte of the focus container's next member value
  cursor_status finish() noexcept;              // to the end of the member value paused at (or being read)
  cursor_status enter() noexcept;               // the focus becomes the container value paused at
  cursor_status skip(uint64_t count) noexcept;  // past `count` more members (paused right after the last one)
  cursor_status read_run(uint32_t max) noexcept;  // reads members to their end while the window lasts: run()
  cursor_status leave() noexcept;               // past the focus container's closing bracket
  cursor_status resume() noexcept;

  // Results.
  uint64_t key_start() const noexcept { return key_start_; }
  uint64_t key_end() const noexcept { return key_end_; }
  uint64_t value_start() const noexcept { return value_start_; }
  uint64_t value_end() const noexcept { return value_end_; }
  uint8_t value_byte() const noexcept { return value_byte_; }
  uint32_t depth() const noexcept { return uint32_t(frames_.size() - 1); }
  const cursor_record* run() const noexcept { return run_.data(); }
  size_t run_count() const noexcept { return run_.size(); }
  // The first stream byte the caller may still need: the start of the member in progress (its key for an object
  // member), else the current position. Bytes before it will never be reported again.
  uint64_t hold_from() const noexcept;
  uint64_t position() const noexcept { return w_base_ + at_; }
  size_t memory_bytes() const noexcept { return window_.allocated() + frames_.allocated() + run_.allocated(); }

  // What the focus level expects, and where a member value is being scanned. Public for the scanning template.
  enum class mode : uint8_t {
    first,         // after '{' or '[' (or at the document start): a key, a value, or the closing bracket
    key,           // after ',' in an object
    in_key,        // inside a key
    colon,         // after a key
    value,         // after ':', or after ',' in an array
    comma_or_end,  // after a member value
    at_value,      // paused at a member value's first byte
    in_string,     // inside a string value
    in_scalar,     // inside a number or literal
    in_container,  // inside a container value, `nesting_` brackets deep
  };
  enum class goal : uint8_t { pause_at_value, finish_value, count_members, read_run, leave };
  enum frame_kind : uint8_t { document = 0, object = 1, array = 2 };

  template <class K>
  cursor_status scan() noexcept;

 private:
  cursor_status start(goal g) noexcept;
  // A member value of the focus container ended at value_end_: decides whether the goal is reached.
  bool value_done() noexcept;

  kernel_kind kernel_;
  byte_buffer window_;
  uint64_t w_base_ = 0;  // stream offset of window_[0]
  uint32_t w_len_ = 0;
  uint32_t at_ = 0;      // the next byte to scan
  bool eof_ = false;
  uint8_t bom_matched_ = 0;
  bool bom_done_ = false;
  scan_lean_state s_;         // stage-1 carry, valid at window_[at_]
  pod_vector<uint8_t> frames_;  // frame_kind per open container, the document first; the last one is the focus
  mode m_ = mode::first;
  uint32_t nesting_ = 0;
  bool in_member_ = false;  // a member has begun (key or value) and not ended
  goal goal_ = goal::pause_at_value;
  uint64_t target_ = 0;     // count_members: how many; read_run: the most records
  uint64_t done_ = 0;
  uint64_t key_start_ = 0, key_end_ = 0, value_start_ = 0, value_end_ = 0, member_start_ = 0;
  uint8_t value_byte_ = 0;
  pod_vector<cursor_record> run_;
};

// MARK: the scanning loop

template <class K>
cursor_status lazy_cursor::scan() noexcept {
  const uint8_t* const w = window_.data();
  for (;;) {
    if (at_ >= w_len_) {
      if (!eof_) return cursor_status::need_input;
      if (m_ == mode::in_scalar) {
        // A root number or literal ends with the input.
        value_end_ = w_base_ + w_len_;
        if (value_done()) return cursor_status::paused;
        continue;
      }
      if (frames_.size() == 1 && m_ == mode::comma_or_end) return cursor_status::end;
      return cursor_status::truncated;
    }
    const unsigned len = w_len_ - at_ < 64 ? w_len_ - at_ : 64;
    const uint8_t* const p = w + at_;
    const uint64_t base = w_base_ + at_;
    const scan_lean_events b = scan_block_lean<K>(s_, p, len);
    unsigned from = 0;
    // Pausing at bit `k` of this block: the next scan starts there, outside any string or token.
    const auto pause_at = [&](unsigned k, cursor_status status) {
      at_ += k;
      s_ = scan_lean_state{};
      return status;
    };
    if (m_ == mode::at_value) {
      const uint8_t c = p[0];
      m_ = c == '"' ? mode::in_string : is_open_bracket(c) ? mode::in_container : mode::in_scalar;
      nesting_ = 1;
      from = 1;
    }
    for (;;) {
      if (m_ == mode::in_string || m_ == mode::in_key) {
        const uint64_t rest = b.quote & ~mask_below(from);
        if (rest == 0) break;
        const unsigned q = unsigned(trailing_zeroes(rest));
        from = q + 1;
        if (m_ == mode::in_key) {
          key_end_ = base + q + 1;
          m_ = mode::colon;
          continue;
        }
        value_end_ = base + q + 1;
        if (value_done()) return pause_at(from, cursor_status::paused);
        continue;
      }
      if (m_ == mode::in_scalar) {
        const uint64_t rest = ~b.scalar & mask_below(len) & ~mask_below(from);
        if (rest == 0) break;
        from = unsigned(trailing_zeroes(rest));
        value_end_ = base + from;
        if (value_done()) return pause_at(from, cursor_status::paused);
        continue;
      }
      if (m_ == mode::in_container) {
        bool closed = false;
        for (uint64_t ev = b.structural & ~mask_below(from); ev != 0; ev = clear_lowest_bit(ev)) {
          const unsigned k = unsigned(trailing_zeroes(ev));
          const uint8_t c = p[k];
          if (is_open_bracket(c)) {
            ++nesting_;
          } else if (is_close_bracket(c) && --nesting_ == 0) {
            from = k + 1;
            closed = true;
            break;
          }
        }
        if (!closed) break;
        value_end_ = base + from;
        if (value_done()) return pause_at(from, cursor_status::paused);
        continue;
      }
      // The focus container's own level.
      const uint64_t ev = b.events & ~mask_below(from);
      if (ev == 0) break;
      const unsigned k = unsigned(trailing_zeroes(ev));
      from = k + 1;
      const uint8_t c = p[k];
      const uint8_t kind = frames_[frames_.size() - 1];
      if (m_ == mode::comma_or_end || (m_ == mode::first && kind != document && is_close_bracket(c))) {
        if (c == ',') {
          m_ = kind == object ? mode::key : mode::value;
          continue;
        }
        if (kind == document) continue;  // the validator reported trailing data; never fed to us
        // The focus container closes: it was its parent's member in progress.
        frames_.pop_back();
        m_ = mode::comma_or_end;
        value_end_ = base + from;
        in_member_ = false;
        return pause_at(from, cursor_status::end);
      }
      if (m_ == mode::colon) {
        m_ = mode::value;
        continue;
      }
      if (kind == object && (m_ == mode::first || m_ == mode::key)) {
        key_start_ = base + k;
        member_start_ = key_start_;
        in_member_ = true;
        m_ = mode::in_key;
        continue;
      }
      // A member value starts.
      value_start_ = base + k;
      value_byte_ = c;
      if (kind != object) {
        member_start_ = value_start_;
        in_member_ = true;
      }
      if (goal_ == goal::pause_at_value) {
        m_ = mode::at_value;
        return pause_at(k, cursor_status::paused);
      }
      m_ = c == '"' ? mode::in_string : is_open_bracket(c) ? mode::in_container : mode::in_scalar;
      nesting_ = 1;
    }
    at_ += len;
  }
}

}  // namespace internal
}  // namespace sluice

#endif  // SLUICE_INTERNAL_LAZY_CURSOR_H
