// A buffered JSON document that is read on demand: one structural pass finds every container and its matching
// bracket, and a container's members are enumerated (and validated) only when someone asks for them.
//
//   sluice::lazy_index doc(sluice::lazy_options{});
//   std::memcpy(doc.reserve(n), bytes, n);
//   if (doc.build(n) != sluice::error_code::ok) report(doc.error());
//   uint32_t count;
//   const sluice::lazy_child* members = doc.children(0, &count);      // the root container's members
//   int64_t i = doc.find(members, count, "user", 4, false);           // last "user" member, like JSON.parse
//
// What is validated when:
// - build(): the bracket structure (every `[`/`{` closed by its kind, nothing but whitespace after the root),
//   strings closed, nesting within max_depth; a leading UTF-8 byte order mark is skipped.
// - children(c): container c's own text: separators, keys, and its strings, numbers and literals (escapes, UTF-8,
//   control characters included). Nested containers are checked when they are enumerated themselves (small ones
//   inside a 64-byte block may be checked earlier, as part of the bytes the block scanner reads).
// - Everything else is the reader's job (the JS layer parses each value it materialises with JSON.parse).
// On any error, the error reported is the push parser's first error in the part being read (the whole document
// for build(), the container for children(), or the range given to locate()), with absolute positions.
//
// Memory: the document plus 12 bytes per container after build(), plus 24 bytes per member of each container
// enumerated so far.
#ifndef SLUICE_LAZY_INDEX_H
#define SLUICE_LAZY_INDEX_H

#include <cstddef>
#include <cstdint>

#include "sluice/error.h"
#include "sluice/options.h"

namespace sluice {

namespace internal {
struct lazy_state;
}

constexpr uint32_t lazy_no_container = ~uint32_t{0};

// A member of an object or an element of an array. On wasm32 the layout is exactly the 6 x u32 record js/lazy
// reads. Offsets are absolute in the document (a byte order mark included).
struct lazy_child {
  uint32_t value_start;  // the value's first byte
  uint32_t value_end;    // one past its last byte
  uint32_t container;    // the value's container id if it is an object or array, else lazy_no_container
  uint32_t key_start;    // object members: the key's opening quote; array elements: 0
  uint32_t key_end;      // one past the key's closing quote
  uint32_t first_byte;   // the value's first byte: '{', '[', '"', 't', 'f', 'n', '-' or a digit
};

// An entry of the container table (container_table()): 3 x u32, the record js/lazy reads on wasm32.
struct lazy_container {
  uint32_t start;  // its '{' or '['
  uint32_t end;    // its matching '}' or ']'
  uint32_t next;   // the id of the first container after it (container c holds ids c+1 .. next-1)
};

struct lazy_options {
  // Deepest nesting allowed (the root value is depth 0, its children depth 1...), as in parser_options.
  uint32_t max_depth = 1024;
  kernel_kind kernel = kernel_kind::best;
};

class lazy_index {
 public:
  explicit lazy_index(const lazy_options& options = {});
  ~lazy_index();
  lazy_index(const lazy_index&) = delete;
  lazy_index& operator=(const lazy_index&) = delete;

  // Room for a document of n bytes (up to 4 GiB - 2): write it at the returned address, then call build(n).
  // nullptr when memory is exhausted or n is too large.
  uint8_t* reserve(size_t n);

  // Scans the document's structure. Containers get ids 0, 1, ... in the order their opening brackets appear.
  error_code build(size_t n);

  // The root value's extent (whitespace and a byte order mark excluded) and container id (lazy_no_container for
  // a scalar root, which build() validates whole).
  uint32_t root_start() const noexcept;
  uint32_t root_end() const noexcept;
  uint32_t root_container() const noexcept;
  uint32_t container_count() const noexcept;
  // The container_count() containers, by id, after a successful build(); stable until the next build() or the
  // index is destroyed. nullptr when there are none. Lets a caller see a container's nesting without listing it.
  const lazy_container* container_table() const noexcept;

  // The members of container c, in document order. The table lives until the index is destroyed; asking again
  // enumerates again (callers cache the pointer). nullptr on an error (see error()) or when memory is exhausted.
  const lazy_child* children(uint32_t c, uint32_t* count);
  // The same members in a table the index reuses: valid until the next list() or children() call, and kept by
  // nobody (a caller that copies it out holds the only copy). nullptr on an error, as children().
  const lazy_child* list(uint32_t c, uint32_t* count);

  // The member of an object's table whose key decodes to key[0..n) (UTF-8; lone surrogates as WTF-8, as
  // unescape_json_string writes them): the last one, as JSON.parse keeps it, or the first. -1 when absent.
  int64_t find(const lazy_child* table, uint32_t count, const uint8_t* key, size_t n, bool first);

  // `["key1","key2",...]`: the raw key literals of an object's table, for one JSON.parse. Valid until the next
  // text call; nullptr when memory is exhausted.
  const uint8_t* keys_text(const lazy_child* table, uint32_t count, size_t* size);
  // `[v_from,...,v_to-1]`: the values of table[from, to) as one JSON array text; a container longer than
  // `max_bytes` is written as `0` (the caller reads it lazily instead). Valid until the next text call.
  const uint8_t* values_text(const lazy_child* table, uint32_t from, uint32_t to, uint32_t max_bytes, size_t* size);

  // The parser's first error in document bytes [start, end), or ok. For values whose materialisation failed.
  error_code locate(uint32_t start, uint32_t end);

  const parse_error& error() const noexcept;
  const uint8_t* data() const noexcept;
  size_t size() const noexcept;
  // Native bytes held: the document, the container table, the member tables.
  size_t memory_bytes() const noexcept;

 private:
  internal::lazy_state* state_;
};

}  // namespace sluice

#endif  // SLUICE_LAZY_INDEX_H
