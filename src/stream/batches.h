#ifndef SLUICE_STREAM_BATCHES_H
#define SLUICE_STREAM_BATCHES_H

#include "stream/parser_state.h"

namespace sluice {
namespace internal {

// Builds the batches of the call's elements as options.batches asks (batch_mode).
void build_batches(parser_state& st);

}  // namespace internal
}  // namespace sluice

#endif  // SLUICE_STREAM_BATCHES_H
