#include "stream/compact_lines.h"

#include <cstring>

#include "kernels/best_kernel.h"
#include "kernels/scalar/simd.h"
#include "stream/batches.h"
#include "stream/compact.h"
#include "stream/parser_state.h"

namespace sluice {
namespace internal {

static_assert(byte_buffer::back_slack >= compact_overshoot, "compaction stores whole blocks past the text's end");
static_assert(byte_buffer::back_slack >= 64, "write_lines copies whole 64-byte blocks, loads and stores");

namespace {

// The record now names the compacted text at `start`; its key stays where it was, key_gap bytes before the new start
// in 32-bit address arithmetic (the binding contract's, wasm32). A key that began before the window is in the carry,
// though its value starts in the window: found by its stream offset (`at`: the element's).
SLUICE_INLINE bool point_key(const parser_state& st, const element_bytes& bytes, raw_element& e, uint64_t at,
                             const uint8_t* start) noexcept {
  if (e.key != key_kind::name) return true;
  const uint64_t key_at = at - e.key_gap;
  if (key_at < st.w_base && bytes.carry == nullptr) return false;
  const uint8_t* const key =
      key_at >= st.w_base ? st.window.data() + (key_at - st.w_base) : bytes.carry + (key_at - bytes.c_base);
  e.key_gap = uint32_t(uintptr_t(start) - uintptr_t(key));
  return true;
}

// Share: options.share_repeats, a parameter so that the loop without it stays as it was.
template <class K, bool Share>
SLUICE_NOINLINE bool write_lines(parser_state& st, const element_bytes& bytes) noexcept {
  const size_t count = st.elements.size();
  raw_element* const e = st.elements.data();
  size_t bound = 0;
  for (size_t i = 0; i < count; ++i) bound += size_t(e[i].size) + 1;
  if (!st.batch_text.reserve(bound)) return false;
  uint8_t* const text = st.batch_text.data();
  const uint8_t* const window = st.window.data();
  uint8_t* out = text;
  // Share: the element before as scanned (its record is re-pointed), and where its compacted text starts.
  const uint8_t* last_end = nullptr;
  uint32_t last_size = 0;
  uint8_t* last_start = nullptr;
  for (size_t i = 0; i < count; ++i) {
    uint8_t* start = out;
    const uint64_t at = st.w_base + uint64_t(e[i].end - window) - e[i].size;
    if constexpr (Share) {
      // The same end and size: the same node (markers have size 0 and keep their empty lines).
      if (i != 0 && e[i].size != 0 && e[i].end == last_end && e[i].size == last_size) {
        if (!point_key(st, bytes, e[i], at, last_start)) return false;
        e[i].end = e[i - 1].end;
        e[i].size = e[i - 1].size;
        continue;
      }
      last_end = e[i].end;
      last_size = e[i].size;
      last_start = start;
    }
    // The caller of a compact_lines parser keeps no carry of its own (owned_carry.h): every element is at hand.
    const uint8_t* const p = bytes.start(e[i]);
    if (p == nullptr) return false;
    // An element that starts after the last whitespace stage 2 saw outside strings has none: copied as it is.
    if (at >= st.spaces_end) {
      // 64 bytes at a time, past the end into the buffers' slack (80 bytes: byte_buffer): std::memcpy of a variable
      // size is a call to a byte loop in wasm without bulk memory. The size in a local: the stores could alias the
      // record, and V8 reloaded it at every step. 10.4 MB of articles: 0.72 -> 0.3 instructions a byte (callgrind).
      const uint32_t size = e[i].size;
      for (uint32_t k = 0; k < size; k += 64) std::memcpy(out + k, p + k, 64);
      out += size;
    } else {
      out = compact_value<K>(p, e[i].size, out);
    }
    if (!point_key(st, bytes, e[i], at, start)) return false;
    e[i].end = out;
    e[i].size = uint32_t(out - start);
    *out++ = '\n';
  }
  st.batch_text.resize_unchecked(size_t(out - text));
  return st.batches.push_back({text, uint32_t(out - text), 0, uint32_t(count)});
}

}  // namespace

bool write_compact_lines(parser_state& st, const element_bytes& bytes) noexcept {
#ifdef SLUICE_ONE_KERNEL
  // A wasm module compiles its build's kernel only (wasm/CMakeLists.txt): nothing there asks for the other.
  return st.options.share_repeats ? write_lines<best_kernel, true>(st, bytes)
                                  : write_lines<best_kernel, false>(st, bytes);
#else
  if (st.options.kernel == kernel_kind::scalar) {
    return st.options.share_repeats ? write_lines<scalar::kernel, true>(st, bytes)
                                    : write_lines<scalar::kernel, false>(st, bytes);
  }
  return st.options.share_repeats ? write_lines<best_kernel, true>(st, bytes)
                                  : write_lines<best_kernel, false>(st, bytes);
#endif
}

}  // namespace internal
}  // namespace sluice
