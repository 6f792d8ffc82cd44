// The lazy documents' half of the bindings (js/lazy/native_lazy.ts is the other; the layouts: lazy_contract.h):
// lazy_index for lazyParse(), added to the page's parser module in sluice-lazy.wasm (wasm/CMakeLists.txt:
// sluice_lazy_wasm), which init() loads in place of sluice.wasm only where lazyParse is in the bundle, and instantiates
// twice (the parsers', the index's). (openJson() runs on the push parser, wasm/bindings.cpp.)
//
// Plain C exports of a bare module, no Emscripten glue: lazyParse() crosses the boundary once per container it
// lists, and an embind call costs about 400 ns in Node 20, a raw export about 20 ns. Every argument and result is
// an i32 or an f64; results that do not fit the return value go to one static `lazy_out` record, which JS reads
// right after the call. An index holds one document while JS needs it scanned (build, listings); what JS keeps of
// a document (its bytes, container and member tables) is copied out.
//
// Where the index needs the parser's verdict on a range (broken text, a scalar root, a value JSON.parse refused),
// src/lazy/lazy_validate.cpp runs the push parser over it in the index's instance, which holds the parser's code
// anyway: the error in lazy_out is the parser's, positioned in the document.
#include <emscripten/emscripten.h>
#include <malloc.h>

#include <cstddef>
#include <cstdint>
#include <new>

#include "lazy_contract.h"
#include "sluice/lazy_index.h"

namespace {

using sluice::error_code;
using sluice::lazy_child;
using sluice::lazy_index;

// The contract's record (lazy_contract.h), which JS reads right after each call.
sluice::contract::lazy_out out;

sluice::lazy_options index_options(int max_depth) {
  sluice::lazy_options o;
  o.max_depth = max_depth > 0 ? uint32_t(max_depth) : 1024;
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

}  // namespace

extern "C" {

EMSCRIPTEN_KEEPALIVE uintptr_t lazy_out_address() { return reinterpret_cast<uintptr_t>(&out); }

// Tests: bytes malloc'ed right now (the heap returns to its baseline), and which build this is (1: SIMD128).
EMSCRIPTEN_KEEPALIVE double lazy_heap_in_use() { return double(mallinfo().uordblks); }
EMSCRIPTEN_KEEPALIVE int lazy_build_simd() {
#ifdef __wasm_simd128__
  return 1;
#else
  return 0;
#endif
}

// MARK: lazy_index

EMSCRIPTEN_KEEPALIVE lazy_index* lazy_index_new(int max_depth) {
  return new (std::nothrow) lazy_index(index_options(max_depth));
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

// The container table (3 x u32 per container: start, end, next; their count in lazy_out), valid after a
// successful build; 0 when empty. JS copies it: the document's tables live in the JS heap (js/lazy/lazy_document.ts).
EMSCRIPTEN_KEEPALIVE uintptr_t lazy_index_containers(lazy_index* index) {
  out.count = index->container_count();
  return reinterpret_cast<uintptr_t>(index->container_table());
}

// The members of container c (count in lazy_out), valid until the next call on the index: JS copies them. 0 when
// the container's text is invalid (the error in lazy_out).
EMSCRIPTEN_KEEPALIVE uintptr_t lazy_index_children(lazy_index* index, uint32_t c) {
  uint32_t count = 0;
  const lazy_child* table = index->list(c, &count);
  out.count = count;
  report(index, table == nullptr ? index->error().code : error_code::ok);
  return reinterpret_cast<uintptr_t>(table);
}

// The parser's first error in document bytes [start, end) (a value JSON.parse refused), positioned in the
// document, in lazy_out; returns its status (0: none).
EMSCRIPTEN_KEEPALIVE int lazy_index_locate(lazy_index* index, double start, double end) {
  return report(index, index->locate(uint32_t(start), uint32_t(end)));
}

}  // extern "C"
