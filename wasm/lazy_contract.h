// The binding contract of the lazy index, C++ half: the lazy_out record its exports report through, and the member
// and container records JS copies out. The JS half is js/lazy/lazy_contract.ts, with the same names in upper case
// (tests/node/lazy_contract.test.ts compares the two files, as contract.test.ts does for the parser's half); the
// static_asserts below tie each constant to the layout it describes. HACKING.md documents both.
#ifndef SLUICE_WASM_LAZY_CONTRACT_H
#define SLUICE_WASM_LAZY_CONTRACT_H

#include <cstddef>
#include <cstdint>

#include "sluice/lazy_index.h"

namespace sluice {
namespace contract {

static_assert(sizeof(void*) == 4, "the binding contract assumes wasm32");

// MARK: lazy_out
// One for the module, written by each call whose result does not fit its return value. Read by JS with a
// Uint32Array and a Float64Array over memory.buffer: u32 and f64 word indices below.
struct lazy_out {
  uint32_t status;      // the error_code of the call
  uint32_t error_byte;  // the offending byte, 256 = end of input
  uint32_t count;       // containers (lazy_index_containers), members (lazy_index_children)
  uint32_t pad3;
  uint32_t root_start;  // lazy_index_build: the root value's extent and container id
  uint32_t root_end;
  uint32_t root_container;
  uint32_t pad7;
  double error_offset;
  double error_line;
  double error_column;
};
constexpr uint32_t out_status = 0;
constexpr uint32_t out_error_byte = 1;
constexpr uint32_t out_count = 2;
constexpr uint32_t out_root_start = 4;
constexpr uint32_t out_root_end = 5;
constexpr uint32_t out_root_container = 6;
// f64 indices
constexpr uint32_t out_error_offset = 4;
constexpr uint32_t out_error_line = 5;
constexpr uint32_t out_error_column = 6;
constexpr uint32_t out_bytes = 56;

static_assert(offsetof(lazy_out, status) == out_status * 4);
static_assert(offsetof(lazy_out, error_byte) == out_error_byte * 4);
static_assert(offsetof(lazy_out, count) == out_count * 4);
static_assert(offsetof(lazy_out, root_start) == out_root_start * 4);
static_assert(offsetof(lazy_out, root_end) == out_root_end * 4);
static_assert(offsetof(lazy_out, root_container) == out_root_container * 4);
static_assert(offsetof(lazy_out, error_offset) == out_error_offset * 8);
static_assert(offsetof(lazy_out, error_line) == out_error_line * 8);
static_assert(offsetof(lazy_out, error_column) == out_error_column * 8);
static_assert(sizeof(lazy_out) == out_bytes);

// MARK: member record (sluice::lazy_child): u32 words
constexpr uint32_t child_words = 6;
constexpr uint32_t child_value_start = 0;
constexpr uint32_t child_value_end = 1;
constexpr uint32_t child_container = 2;
constexpr uint32_t child_key_start = 3;
constexpr uint32_t child_key_end = 4;
constexpr uint32_t child_first_byte = 5;
constexpr uint32_t no_container = 4294967295;  // a member that is not a container

static_assert(sizeof(lazy_child) == child_words * 4);
static_assert(offsetof(lazy_child, value_start) == child_value_start * 4);
static_assert(offsetof(lazy_child, value_end) == child_value_end * 4);
static_assert(offsetof(lazy_child, container) == child_container * 4);
static_assert(offsetof(lazy_child, key_start) == child_key_start * 4);
static_assert(offsetof(lazy_child, key_end) == child_key_end * 4);
static_assert(offsetof(lazy_child, first_byte) == child_first_byte * 4);
static_assert(no_container == lazy_no_container);

// MARK: container record (sluice::lazy_container): u32 words
constexpr uint32_t container_words = 3;
constexpr uint32_t container_start = 0;
constexpr uint32_t container_end = 1;
constexpr uint32_t container_next = 2;

static_assert(sizeof(lazy_container) == container_words * 4);
static_assert(offsetof(lazy_container, start) == container_start * 4);
static_assert(offsetof(lazy_container, end) == container_end * 4);
static_assert(offsetof(lazy_container, next) == container_next * 4);

}  // namespace contract
}  // namespace sluice

#endif  // SLUICE_WASM_LAZY_CONTRACT_H
