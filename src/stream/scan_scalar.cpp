// The scalar kernel's instantiation of the push parser's scan: the reference, and the only kernel of the wasm
// scalar build.
#include "kernels/scalar/simd.h"
#include "stream/scan_window.h"

namespace sluice {
namespace internal {

void scan_window_scalar(parser_state& st) {
  scan_window<scalar::kernel>(st);
  // No whitespace tracking here (a second instantiation of the scan would add 11 kB to the wasm scalar build, whose
  // users are browsers without SIMD, not the CLI): every element of a compact_lines call is compacted.
  if (st.options.batches == batch_mode::compact_lines) st.spaces_end = st.w_base + st.w_len;
}

}  // namespace internal
}  // namespace sluice
