// The push parser's scan instantiated for the build's best kernel (kernels/best_kernel.h).
#include <type_traits>

#include "kernels/best_kernel.h"
#include "kernels/scalar/simd.h"
#include "stream/scan_window.h"

namespace sluice {
namespace internal {

const char* best_kernel_name() { return best_kernel::name; }

void scan_window_best(parser_state& st) {
  if constexpr (std::is_same_v<best_kernel, scalar::kernel>) {
    scan_window_scalar(st);  // the wasm scalar build: one instantiation of the scan (see scan_scalar.cpp)
  } else {
    // compact_lines has a scan of its own, which also tracks spaces_end: the other modes run without that work.
    if (st.options.batches == batch_mode::compact_lines) return scan_window<best_kernel, true>(st);
    scan_window<best_kernel>(st);
  }
}

}  // namespace internal
}  // namespace sluice
