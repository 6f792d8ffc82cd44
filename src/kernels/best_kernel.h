// The best SIMD kernel of the target: SIMD128 in the wasm SIMD build (-msimd128), SSE2 natively on x86-64, the
// scalar kernel anywhere else. The choice is made at compile time: a wasm module that uses SIMD instructions does
// not even load on an engine without them, so the loader picks the build, not the code. Included by the two
// translation units that instantiate the scanners (scan_best.cpp, lazy_index.cpp).
#ifndef SLUICE_KERNELS_BEST_KERNEL_H
#define SLUICE_KERNELS_BEST_KERNEL_H

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

#endif  // SLUICE_KERNELS_BEST_KERNEL_H
