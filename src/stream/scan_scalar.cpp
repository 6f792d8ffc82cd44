// The scalar kernel's instantiation of the scanning loop: the reference, and the only kernel of the wasm scalar
// build.
#include "walk/stage2.h"
#include "kernels/scalar/simd.h"

namespace sluice {
namespace internal {

void scan_window_scalar(parser_state& st) { scan_window<scalar::kernel>(st); }
void stage1_debug_scalar(const uint8_t* p, size_t len, uint64_t* out) { stage1_debug<scalar::kernel>(p, len, out); }

}  // namespace internal
}  // namespace sluice
