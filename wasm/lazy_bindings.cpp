// The lazy documents' half of the binding contract (js/lazy/native_lazy.ts is the other): lazy_index for
// lazyParse() and lazy_cursor for openJson().
//
// Plain C exports, not embind: lazyParse() crosses the boundary once per member lookup and openJson() once per
// member it pauses at, and an embind call costs about 400 ns in Node 20 (argument wiring through JS closures,
// -sDYNAMIC_EXECUTION=0 forbids the generated fast invokers), a raw export about 20 ns. Emscripten's glue exposes
// each as `Module._lazy_*`. Every argument and result is an i32 or an f64; results that do not fit the return
// value go to one static `lazy_out` record, which JS reads right after the call.
#include <emscripten/emscripten.h>

#include <cstddef>
#include <cstdint>
#include <new>

#include "util/buffers.h"
#include "lazy/lazy_cursor.h"
#include "sluice/lazy_index.h"

namespace {

using sluice::error_code;
using sluice::lazy_child;
using sluice::lazy_index;
using sluice::internal::cursor_status;
using sluice::internal::lazy_cursor;

static_assert(sizeof(void*) == 4, "the binding contract assumes wasm32");
static_assert(sizeof(lazy_child) == 24, "member record: 6 x u32");
static_assert(sizeof(sluice::lazy_container) == 12, "container record: 3 x u32");
static_assert(sizeof(sluice::internal::cursor_record) == 32, "run record: 4 x f64");

// u32 words 0..11, then f64 words 6..13 (byte offsets 48..111).
struct lazy_out {
  uint32_t status;       // 0: error_code of the index call / cursor_status of the cursor call
  uint32_t error_byte;   // 1: the offending byte, 256 = end of input
  uint32_t count;        // 2: members (children), bytes (texts), records (read_run)
  uint32_t ptr;          // 3: the table, text or run records
  uint32_t root_start;   // 4
  uint32_t root_end;     // 5
  uint32_t root_container;  // 6
  uint32_t value_byte;   // 7: cursor: the member value's first byte
  uint32_t depth;        // 8: cursor: open containers
  uint32_t pad[3];
  double error_offset;   // f64 6
  double error_line;     // f64 7
  double error_column;   // f64 8
  double key_start;      // f64 9
  double key_end;        // f64 10
  double value_start;    // f64 11
  double value_end;      // f64 12
  double hold_from;      // f64 13
};
static_assert(sizeof(lazy_out) == 112, "lazy_out layout");

lazy_out out;
// Where JS writes a key for lazy_index_lookup().
sluice::internal::byte_buffer key_buffer;

sluice::lazy_options index_options(int max_depth, int scalar) {
  sluice::lazy_options o;
  o.max_depth = max_depth > 0 ? uint32_t(max_depth) : 1024;
  o.kernel = scalar ? sluice::kernel_kind::scalar : sluice::kernel_kind::best;
  return o;
}

int report(lazy_index* index, error_code code) {
  out.status = uint32_t(code);
  if (code != error_code::ok) {
    const sluice::parse_error& e = index->error();
    out.error_byte = e.byte < 0 ? 256 : uint32_t(e.byte);
    out.error_offset = double(e.offset);
    out.error_line = double(e.line);
    out.error_column = double(e.column);
  }
  return int(code);
}

int report(lazy_cursor* cursor, cursor_status status) {
  out.status = uint32_t(status);
  out.value_byte = cursor->value_byte();
  out.depth = cursor->depth();
  out.count = uint32_t(cursor->run_count());
  out.ptr = uint32_t(reinterpret_cast<uintptr_t>(cursor->run()));
  out.key_start = double(cursor->key_start());
  out.key_end = double(cursor->key_end());
  out.value_start = double(cursor->value_start());
  out.value_end = double(cursor->value_end());
  out.hold_from = double(cursor->hold_from());
  return int(status);
}

}  // namespace

extern "C" {

EMSCRIPTEN_KEEPALIVE uintptr_t lazy_out_address() { return reinterpret_cast<uintptr_t>(&out); }

EMSCRIPTEN_KEEPALIVE uintptr_t lazy_key_buffer(double n) {
  if (n < 0 || !key_buffer.reserve(size_t(n))) return 0;
  return reinterpret_cast<uintptr_t>(key_buffer.data());
}

// MARK: lazy_index

EMSCRIPTEN_KEEPALIVE lazy_index* lazy_index_new(int max_depth, int scalar) {
  return new (std::nothrow) lazy_index(index_options(max_depth, scalar));
}

EMSCRIPTEN_KEEPALIVE void lazy_index_delete(lazy_index* index) { delete index; }

EMSCRIPTEN_KEEPALIVE uintptr_t lazy_index_reserve(lazy_index* index, double n) {
  return n < 0 ? 0 : reinterpret_cast<uintptr_t>(index->reserve(size_t(n)));
}

EMSCRIPTEN_KEEPALIVE int lazy_index_build(lazy_index* index, double n) {
  const error_code code = index->build(size_t(n));
  out.root_start = index->root_start();
  out.root_end = index->root_end();
  out.root_container = index->root_container();
  return report(index, code);
}

// The container table (3 x u32 per container: start, end, next), valid after a successful build; 0 when empty.
EMSCRIPTEN_KEEPALIVE uintptr_t lazy_index_containers(lazy_index* index) {
  return reinterpret_cast<uintptr_t>(index->container_table());
}

EMSCRIPTEN_KEEPALIVE uintptr_t lazy_index_children(lazy_index* index, uint32_t c) {
  uint32_t count = 0;
  const lazy_child* table = index->children(c, &count);
  out.count = count;
  report(index, table == nullptr ? index->error().code : error_code::ok);
  return reinterpret_cast<uintptr_t>(table);
}

// The member of object `c` whose key is the key_len bytes in key_buffer (the last one with it), -1 when absent. A
// first lookup passes table 0: the object is enumerated first (its table and count go to lazy_out, as for
// lazy_index_children), so that touching a member of an object not yet listed costs one call, not two; -2 when
// its text is invalid (the error in lazy_out).
EMSCRIPTEN_KEEPALIVE int lazy_index_lookup(lazy_index* index, uint32_t c, const lazy_child* table, uint32_t count,
                                           uint32_t key_len) {
  if (table == nullptr) {
    table = index->children(c, &count);
    out.count = count;
    out.ptr = uint32_t(reinterpret_cast<uintptr_t>(table));
    if (table == nullptr) {
      report(index, index->error().code);
      return -2;
    }
  }
  return int(index->find(table, count, key_buffer.data(), key_len, false));
}

EMSCRIPTEN_KEEPALIVE uintptr_t lazy_index_keys_text(lazy_index* index, const lazy_child* table, uint32_t count) {
  size_t size = 0;
  const uint8_t* text = index->keys_text(table, count, &size);
  out.count = uint32_t(size);
  return reinterpret_cast<uintptr_t>(text);
}

EMSCRIPTEN_KEEPALIVE uintptr_t lazy_index_values_text(lazy_index* index, const lazy_child* table, uint32_t from,
                                                      uint32_t to, uint32_t max_bytes) {
  size_t size = 0;
  const uint8_t* text = index->values_text(table, from, to, max_bytes, &size);
  out.count = uint32_t(size);
  return reinterpret_cast<uintptr_t>(text);
}

EMSCRIPTEN_KEEPALIVE int lazy_index_locate(lazy_index* index, uint32_t start, uint32_t end) {
  return report(index, index->locate(start, end));
}

EMSCRIPTEN_KEEPALIVE double lazy_index_memory(lazy_index* index) { return double(index->memory_bytes()); }

// MARK: lazy_cursor

EMSCRIPTEN_KEEPALIVE lazy_cursor* lazy_cursor_new(int scalar) {
  return new (std::nothrow) lazy_cursor(scalar ? sluice::kernel_kind::scalar : sluice::kernel_kind::best);
}

EMSCRIPTEN_KEEPALIVE void lazy_cursor_delete(lazy_cursor* cursor) { delete cursor; }

EMSCRIPTEN_KEEPALIVE uintptr_t lazy_cursor_input(lazy_cursor* cursor) {
  return reinterpret_cast<uintptr_t>(cursor->input_data());
}

EMSCRIPTEN_KEEPALIVE double lazy_cursor_capacity(lazy_cursor* cursor) { return double(cursor->input_capacity()); }

EMSCRIPTEN_KEEPALIVE void lazy_cursor_feed(lazy_cursor* cursor, double n) { cursor->feed(size_t(n)); }

EMSCRIPTEN_KEEPALIVE void lazy_cursor_end_input(lazy_cursor* cursor) { cursor->end_input(); }

// op: 0 next, 1 finish, 2 enter, 3 skip(arg), 4 read_run(arg), 5 leave, 6 resume.
EMSCRIPTEN_KEEPALIVE int lazy_cursor_op(lazy_cursor* cursor, int op, double arg) {
  cursor_status s;
  switch (op) {
    case 0: s = cursor->next(); break;
    case 1: s = cursor->finish(); break;
    case 2: s = cursor->enter(); break;
    case 3: s = cursor->skip(uint64_t(arg)); break;
    case 4: s = cursor->read_run(uint32_t(arg)); break;
    case 5: s = cursor->leave(); break;
    case 6: s = cursor->resume(); break;
    default: s = cursor_status::misuse; break;
  }
  return report(cursor, s);
}

EMSCRIPTEN_KEEPALIVE double lazy_cursor_memory(lazy_cursor* cursor) { return double(cursor->memory_bytes()); }

}  // extern "C"
