// What a kernel reports about one 64-byte block: one bit per byte (bit i = byte i), for the few byte classes the
// stage-1 algorithm needs. Every kernel computes exactly these masks; full_scan.h and lean_scan.h
// build everything else from them.
#ifndef SLUICE_SCAN_BLOCK_CLASSES_H
#define SLUICE_SCAN_BLOCK_CLASSES_H

#include <cstdint>

namespace sluice {
namespace internal {

struct block_classes {
  uint64_t quote;      // '"'
  uint64_t op;         // one of { } [ ] : ,
  uint64_t nonscalar;  // a byte that cannot continue a number or literal token: op, quote, or JSON whitespace
  // Rare in most blocks: a kernel may test a whole block first and skip building these masks when they are empty.
  uint64_t backslash;  // '\\'
  uint64_t control;    // below 0x20 (forbidden raw inside strings)
  uint64_t newline;    // '\n' (line numbers in errors); a subset of control, so empty when control is
  uint64_t high;       // 0x80 and above (non-ASCII: UTF-8 validation)
};

// What the skeleton pass of lazyParse (lazy_skeleton.h) needs of a block, and nothing more: strings and brackets.
struct skeleton_classes {
  uint64_t quote;      // '"'
  uint64_t backslash;  // '\\'
  // A superset of the brackets: the bytes b with (b | 0x26) == 0x7F, that is [ ] { } and Y _ y DEL. The other four
  // are never structural (outside strings they are invalid JSON, reported when their container is listed), and
  // the skeleton tells brackets apart by value anyway.
  uint64_t bracket;
};

// What compaction (stream/compact.h) needs of a block of valid JSON: strings, and the bytes that may be whitespace.
struct compact_classes {
  uint64_t quote;      // '"'
  uint64_t backslash;  // '\\'
  // Bytes below 0x21 or from 0x80 up (a signed compare): outside the strings of valid JSON, exactly the whitespace,
  // since control and non-ASCII bytes occur only inside strings.
  uint64_t space;
};

}  // namespace internal
}  // namespace sluice

#endif  // SLUICE_SCAN_BLOCK_CLASSES_H
