// The push parser's scan instantiated for the build's best kernel (kernels/best_kernel.h).
#include "kernels/best_kernel.h"
#include "stream/scan_window.h"

namespace sluice {
namespace internal {

const char* best_kernel_name() { return best_kernel::name; }
void scan_window_best(parser_state& st) { scan_window<best_kernel>(st); }

}  // namespace internal
}  // namespace sluice
