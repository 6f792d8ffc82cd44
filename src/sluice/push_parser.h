// The incremental push parser: feed it chunks, get the spans of complete selected elements.
//
//   sluice::push_parser parser(sluice::parser_options{});
//   parser.add_path("$.data[*]");
//   while (more) {
//     size_t n = read_into(parser.input_data(), parser.input_capacity());
//     if (parser.feed(n) != sluice::error_code::ok) { report(parser.error()); break; }
//     for (size_t i = 0; i < parser.element_count(); ++i) use(parser.elements()[i]);
//   }
//   parser.finish();  // reports truncated input, and the elements that end with it (a root number)
//
// Memory: the input window, the carry (the bytes of the selected element in progress, and of a key a selector
// must compare, never more than max_element_bytes), a depth stack of max_depth bits, and the element table. None
// of it grows with the document; nothing is allocated per element once the tables reached their working size.
// (The wasm binding shares one window and one set of tables among all parsers, and leaves the carry to the JS
// layer: stream/stream_parser.h.)
#ifndef SLUICE_PUSH_PARSER_H
#define SLUICE_PUSH_PARSER_H

#include <cstddef>
#include <cstdint>
#include <string_view>

#include "sluice/error.h"
#include "sluice/limits.h"
#include "sluice/options.h"

namespace sluice {

namespace internal {
enum class selector_role : uint8_t;
}

enum class key_kind : uint32_t { none = 0, index = 1, name = 2 };

// A complete selected element. On wasm32 the layout is exactly the 8 x u32 record of the binding contract.
struct element {
  const uint8_t* data;  // the element's exact bytes
  uint32_t size;
  uint32_t path_index;      // which add_path() selector matched (in the order they were added)
  key_kind key;             // none: the root value; index: an array element (or the value's number in NDJSON)
  const uint8_t* key_data;  // key == name: the member's key as raw JSON text, quotes included
  uint32_t key_size;
  uint32_t index_lo;  // key == index: the index, split in two halves for the wasm32 layout
  uint32_t index_hi;

  uint64_t index() const noexcept { return (uint64_t{index_hi} << 32) | index_lo; }
};

// A run of elements prepared for the caller as one unit (see batch_mode).
struct batch {
  const uint8_t* data;
  uint32_t size;
  uint32_t first_element;
  uint32_t element_count;
};

// A line parser_options::skip_invalid skipped: its error and its first bytes. Positions are doubles (exact below
// 2^53) so that the wasm binding's JS reads the record as it is.
constexpr uint32_t skipped_text_bytes = 80;
struct skipped_line {
  uint32_t code;           // error_code
  uint32_t byte;           // the offending byte, 256 for the end of the line or of the input
  uint32_t element_index;  // elements of the same call that came before it
  uint32_t text_len;       // bytes in text: the line's first bytes, at most skipped_text_bytes, no newline
  double offset;           // absolute byte offset of the error
  double line;             // 1-based
  double column;           // 1-based, in bytes
  uint8_t text[skipped_text_bytes];
};

class push_parser {
 public:
  explicit push_parser(const parser_options& options = {});
  ~push_parser();
  push_parser(const push_parser&) = delete;
  push_parser& operator=(const push_parser&) = delete;

  // Adds a selector (JSONPath subset, see select/selector.h) before the first feed. Returns false, with *error_at
  // set to the index of the offending character if the path is invalid, or to size_t(-1) after the first feed or
  // beyond max_selectors (sluice/limits.h) paths. Without any path the parser selects `$[*]` (`$` with ndjson).
  bool add_path(std::string_view path, size_t* error_at = nullptr);
  // Adds a marker selector: each value it matches is reported when it ends, as an element of size 0 whose data
  // points just past the value's last byte (a name key is not reported: key_data null, key_size 0). Its bytes are
  // never kept and max_element_bytes does not apply, so a marker on a huge container costs no memory: it tells
  // the caller where the container ends (openJson uses it to end an iteration and to know a member is absent).
  // Counts towards max_selectors.
  bool add_marker_path(std::string_view path, size_t* error_at = nullptr);
  // The same, reported where each matched value starts: data points at its first byte, and the key is reported
  // (a name key's raw JSON text). openJson uses it to know which members of an object it has passed.
  bool add_start_marker_path(std::string_view path, size_t* error_at = nullptr);

  // The input window: write up to input_capacity() bytes at input_data(), then call feed(n).
  uint8_t* input_data() noexcept;
  size_t input_capacity() const noexcept;
  // Makes input_capacity() >= n. Returns false if memory is exhausted.
  bool reserve(size_t n);

  // Scans the n bytes just written into the window. Returns the (sticky) status; elements completed before an
  // error are still reported.
  error_code feed(size_t n);
  // End of input: reports truncated input; completes a root scalar that ended with the input.
  error_code finish();

  // Results of the last feed() or finish(); valid until the next call on this parser.
  const element* elements() const noexcept;
  size_t element_count() const noexcept;
  const batch* batches() const noexcept;
  size_t batch_count() const noexcept;
  // The lines the last call skipped (parser_options::skip_invalid), in stream order, and how many so far.
  const skipped_line* skipped() const noexcept;
  size_t skipped_count() const noexcept;
  uint64_t skipped_lines() const noexcept;

  error_code status() const noexcept;
  const parse_error& error() const noexcept;
  uint64_t bytes_fed() const noexcept;
  // The absolute stream offset of an address of the last call's results (an element's data, data + size): the
  // addresses lie in the input window or in the carry.
  uint64_t offset_of(const uint8_t* p) const noexcept;
  // Bytes of native memory this parser holds right now (window, carry, tables, stack).
  size_t memory_bytes() const noexcept;

 private:
  struct impl;
  bool add(std::string_view path, internal::selector_role role, size_t* error_at);
  impl* impl_;
};

}  // namespace sluice

#endif  // SLUICE_PUSH_PARSER_H
