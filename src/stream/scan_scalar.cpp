// The scalar kernel's instantiation of the push parser's scan: the reference, and the only kernel of the wasm
// scalar build.
#include "kernels/scalar/simd.h"
#include "stream/scan_window.h"

namespace sluice {
namespace internal {

void scan_window_scalar(parser_state& st) { scan_window<scalar::kernel>(st); }

}  // namespace internal
}  // namespace sluice
