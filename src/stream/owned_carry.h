// A carry kept natively (stream/carry.h): the bytes [c_base, c_base + carry.size()) of the element in progress,
// extended with each window while it lasts, so that every element's bytes are contiguous where the batches are
// built. For push_parser (native callers), and for the binding's compact-lines parser (the command line), whose
// batch compacts elements that began in an earlier window; the JS layer keeps the carry of every other parser.
#ifndef SLUICE_STREAM_OWNED_CARRY_H
#define SLUICE_STREAM_OWNED_CARRY_H

#include <cstdint>

#include "stream/parser_state.h"
#include "util/buffers.h"

namespace sluice {
namespace internal {

struct owned_carry {
  byte_buffer carry;
  byte_buffer spare;  // the next carry, while elements of this call still point into `carry`
  uint64_t c_base = 0;
  enum class action : uint8_t { none, clear, drop_prefix, swap } pending = action::none;
  uint64_t pending_base = 0;

  // Before a call: what the last call decided, now that the caller is done with its results. `window` is the
  // working size: a carry much larger is freed after its element.
  void apply_pending(size_t window) noexcept;

  // After a call, before its records are read: the carry extended with the window as far as they need. Fails the
  // parser when memory is exhausted.
  void extend(parser_state& st) noexcept;

  // The carry's bytes for build_batches(): null when empty.
  const uint8_t* data() const noexcept { return carry.size() != 0 ? carry.data() : nullptr; }

  // The address of the stream's byte at `at`, in the window or the carry.
  const uint8_t* address(const parser_state& st, uint64_t at) const noexcept {
    if (at >= st.w_base) return st.window.data() + (at - st.w_base);
    return carry.data() + (at - c_base);
  }

  // After the batches: what the carry becomes for the next call (retain_from). Fails the parser when memory is
  // exhausted.
  void keep(parser_state& st) noexcept;

  size_t allocated() const noexcept { return carry.allocated() + spare.allocated(); }
};

}  // namespace internal
}  // namespace sluice

#endif  // SLUICE_STREAM_OWNED_CARRY_H
