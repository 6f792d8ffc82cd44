// The batches of a call: the elements prepared for the caller as a few units, so that materialising them costs one
// decode and one JSON.parse (json_array), or one copy (cover), per call rather than per element; or one write
// (compact_lines, stream/compact_lines.cpp).
#include "stream/batches.h"

#include "stream/ascii_json.h"
#include "stream/compact_lines.h"
#include "stream/failure.h"

namespace sluice {
namespace internal {
namespace {

// Each mode out of line (once per call): V8 tiers up only the one a parser runs, not build_batches with all three.

// One JSON array text per call (`[e1,e2,...]`), so the caller materialises all the elements of a chunk with one
// TextDecoder.decode and one JSON.parse. The text is written as ASCII (see ascii_json.h): a copy, which pays for
// itself several times over in the decoder and the parser.
SLUICE_NOINLINE void build_json_batches(parser_state& st, const element_bytes& at) {
  const size_t count = st.elements.size();
  const raw_element* e = st.elements.data();
  size_t bound = 2;
  for (size_t i = 0; i < count; ++i) bound += e[i].size * ascii_json_max_growth + 2;
  if (!st.batch_text.reserve(bound)) return fail(st, error_code::out_of_memory, st.w_base, -1);
  uint8_t* const text = st.batch_text.data();
  uint8_t* out = text;
  *out++ = '[';
  for (size_t i = 0; i < count; ++i) {
    if (i != 0) *out++ = ',';
    const uint8_t* p = e[i].size == 0 ? nullptr : at.start(e[i]);
    if (p == nullptr) {
      *out++ = '0';  // a marker (add_marker_path): no bytes of its own; or bytes the caller keeps
    } else {
      out = write_ascii_json(out, p, e[i].size);
    }
  }
  *out++ = ']';
  st.batch_text.resize_unchecked(size_t(out - text));
  if (!st.batches.push_back({text, uint32_t(out - text), 0, uint32_t(count)}))
    fail(st, error_code::out_of_memory, st.w_base, -1);
}

// One address range per run of elements in the same buffer (the window or the carry), so the caller copies a run
// out at once.
SLUICE_NOINLINE void build_cover_batches(parser_state& st, const element_bytes& at) {
  const size_t count = st.elements.size();
  const raw_element* e = st.elements.data();
  const uint8_t* const w = st.window.data();
  const auto in_window = [&](const uint8_t* p) { return p >= w && p <= w + st.w_len; };
  size_t i = 0;
  while (i < count) {
    const uint8_t* begin = at.start(e[i]);
    if (begin == nullptr) {
      // In the caller's carry: a batch of its own.
      if (!st.batches.push_back({nullptr, e[i].size, uint32_t(i), 1}))
        return fail(st, error_code::out_of_memory, st.w_base, -1);
      ++i;
      continue;
    }
    const bool window = in_window(begin);
    const uint8_t* end = begin + e[i].size;
    size_t j = i + 1;
    for (; j < count; ++j) {
      const uint8_t* p = at.start(e[j]);
      if (p == nullptr || in_window(p) != window || p < begin) break;
      if (p + e[j].size > end) end = p + e[j].size;
    }
    if (!st.batches.push_back({begin, uint32_t(end - begin), uint32_t(i), uint32_t(j - i)}))
      return fail(st, error_code::out_of_memory, st.w_base, -1);
    i = j;
  }
}

}  // namespace

void build_batches(parser_state& st, const uint8_t* carry, uint64_t c_base) {
  if (st.elements.size() == 0) return;
  const element_bytes at{st.window.data(), st.w_base, carry, c_base};
  switch (st.options.batches) {
    case batch_mode::none:
      break;
    case batch_mode::json_array:
      build_json_batches(st, at);
      break;
    case batch_mode::cover:
      build_cover_batches(st, at);
      break;
    case batch_mode::compact_lines:
#ifndef SLUICE_NO_COMPACT_LINES  // the page's wasm modules have none (their bindings refuse a compact-lines parser)
      if (!write_compact_lines(st, at)) fail(st, error_code::out_of_memory, st.w_base, -1);
#endif
      break;
  }
}

}  // namespace internal
}  // namespace sluice
