// The page's parser module (sluice.wasm) has no compaction: only the command line's `select` writes compact lines,
// from its own module (sluice-cli.wasm, which links stream/compact_lines.cpp instead of this file). Defined here,
// the linker never takes compact_lines.cpp from sluice_core, and 1.7 kB (gzip) of compaction stays out of every
// page. Never called: bindings.cpp refuses a compact-lines parser in this module (SLUICE_NO_COMPACT_LINES).
#include "stream/compact_lines.h"

namespace sluice {
namespace internal {

bool write_compact_lines(parser_state&, const element_bytes&) noexcept { return false; }

}  // namespace internal
}  // namespace sluice
