#include "stream/compact_lines.h"

#include <cstring>

#include "kernels/best_kernel.h"
#include "kernels/scalar/simd.h"
#include "stream/compact.h"
#include "stream/parser_state.h"

namespace sluice {
namespace internal {

static_assert(byte_buffer::back_slack >= compact_overshoot, "compaction stores whole blocks past the text's end");

namespace {

template <class K>
bool write_lines(parser_state& st) noexcept {
  const size_t count = st.elements.size();
  element* const e = st.elements.data();
  size_t bound = 0;
  for (size_t i = 0; i < count; ++i) bound += size_t(e[i].size) + 1;
  if (!st.batch_text.reserve(bound)) return false;
  uint8_t* const text = st.batch_text.data();
  const uint8_t* const window = st.window.data();
  uint8_t* out = text;
  for (size_t i = 0; i < count; ++i) {
    uint8_t* const start = out;
    // An element that starts after the last whitespace stage 2 saw outside strings has none: copied as it is.
    const uint8_t* const p = e[i].data;
    const uint64_t at = p >= window && p <= window + st.w_len ? st.w_base + uint64_t(p - window)
                                                              : st.c_base + uint64_t(p - st.carry.data());
    if (at >= st.spaces_end) {
      // 16 bytes at a time, past the end into the buffers' slack: std::memcpy of a variable size is a call to a
      // byte loop in wasm without bulk memory.
      for (uint32_t k = 0; k < e[i].size; k += 16) std::memcpy(out + k, p + k, 16);
      out += e[i].size;
    } else {
      out = compact_value<K>(p, e[i].size, out);
    }
    e[i].data = start;
    e[i].size = uint32_t(out - start);
    *out++ = '\n';
  }
  st.batch_text.resize_unchecked(size_t(out - text));
  return st.batches.push_back({text, uint32_t(out - text), 0, uint32_t(count)});
}

}  // namespace

bool write_compact_lines(parser_state& st) noexcept {
#ifdef SLUICE_ONE_KERNEL
  // The wasm SIMD build compiles its SIMD128 kernel only (wasm/one_kernel.cpp): nothing there asks for the other.
  return write_lines<best_kernel>(st);
#else
  return st.options.kernel == kernel_kind::scalar ? write_lines<scalar::kernel>(st) : write_lines<best_kernel>(st);
#endif
}

}  // namespace internal
}  // namespace sluice
