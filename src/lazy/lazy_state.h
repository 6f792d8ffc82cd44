// What a lazy_index holds: the document, its container table, and the member tables enumerated so far.
#ifndef SLUICE_INTERNAL_LAZY_STATE_H
#define SLUICE_INTERNAL_LAZY_STATE_H

#include <cstddef>
#include <cstdint>
#include <string>

#include "sluice/error.h"
#include "sluice/lazy_index.h"
#include "util/buffers.h"

namespace sluice {
namespace internal {

// One object or array, by the position of its opening bracket (ids follow document order): the public record.
using lazy_container = sluice::lazy_container;

struct lazy_state {
  lazy_options options;
  byte_buffer doc;  // the document (reserve_uninitialized); its zeroed back slack lets stage 1 read past the end
  pod_vector<lazy_container> containers;
  uint32_t root_start = 0;
  uint32_t root_end = 0;
  uint32_t root_container = lazy_no_container;
  pod_vector<lazy_child*> tables;  // every member table handed out, freed with the index
  size_t table_bytes = 0;
  pod_vector<lazy_child> scratch;  // the table being enumerated
  byte_buffer text;                // keys_text() / values_text()
  std::string key_scratch;         // an escaped key, decoded for comparison
  parse_error error;
};

// The structural pass over st.doc (lazy_skeleton.h). False when the structure is broken; the caller then asks the
// push parser for the exact first error.
template <class K>
bool build_skeleton(lazy_state& st) noexcept;

// Enumerates container c into st.scratch (lazy_enumerate.h). False on an error in its text.
template <class K>
bool enumerate_members(lazy_state& st, uint32_t c) noexcept;

}  // namespace internal
}  // namespace sluice

#endif  // SLUICE_INTERNAL_LAZY_STATE_H
