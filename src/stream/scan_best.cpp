// The push parser's scanner instantiated for the build's best kernel (internal/best_kernel.h).
#include "walk/stage2.h"

#include "kernels/best_kernel.h"

namespace sluice {
namespace internal {

const char* best_kernel_name() { return best_kernel::name; }
void scan_window_best(parser_state& st) { scan_window<best_kernel>(st); }
void stage1_debug_best(const uint8_t* p, size_t len, uint64_t* out) { stage1_debug<best_kernel>(p, len, out); }

}  // namespace internal
}  // namespace sluice
