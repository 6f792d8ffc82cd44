// The wasm SIMD build in place of src/stream/scan_scalar.cpp: parser_options::kernel = scalar runs the SIMD128
// kernel. The bindings never ask for the scalar kernel (both give the same results: tests/node/kernels.test.ts),
// and compiling its scan into the SIMD module would add a sixth to what a page downloads.
#include "stream/parser_state.h"

namespace sluice {
namespace internal {

void scan_window_scalar(parser_state& st) { scan_window_best(st); }

}  // namespace internal
}  // namespace sluice
