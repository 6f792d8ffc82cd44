// The best SIMD kernel of the target: SIMD128 in the wasm SIMD build (-msimd128), SSE2 natively on x86-64, the
// scalar kernel anywhere else. The choice is made at compile time: a wasm module that uses SIMD instructions does
// not even load on an engine without them, so the loader picks the build, not the code.
#include "internal/stage2.h"

#if defined(__wasm_simd128__)
#include "kernels/simd128/simd.h"
namespace sluice {
namespace internal {
using best_kernel = simd128::kernel;
}
}  // namespace sluice
#elif defined(__SSE2__)
#include "kernels/sse2/simd.h"
namespace sluice {
namespace internal {
using best_kernel = sse2::kernel;
}
}  // namespace sluice
#else
#include "kernels/scalar/simd.h"
namespace sluice {
namespace internal {
using best_kernel = scalar::kernel;
}
}  // namespace sluice
#endif

namespace sluice {
namespace internal {

const char* best_kernel_name() { return best_kernel::name; }
void scan_window_best(parser_state& st) { scan_window<best_kernel>(st); }
void stage1_debug_best(const uint8_t* p, size_t len, uint64_t* out) { stage1_debug<best_kernel>(p, len, out); }

}  // namespace internal
}  // namespace sluice
