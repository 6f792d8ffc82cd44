// Runs a push_parser over a whole input with a given chunking and copies out everything it reports, so that two
// runs (two chunkings, two kernels) compare with ==. Shared by the GoogleTest suites and the fuzz target, hence no
// gtest here.
#ifndef SLUICE_TESTS_SUPPORT_COLLECT_H
#define SLUICE_TESTS_SUPPORT_COLLECT_H

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "sluice/error.h"
#include "sluice/options.h"
#include "sluice/push_parser.h"
#include "support/rng.h"

namespace sluice::test {

struct collected_element {
  std::string bytes;
  uint32_t path_index = 0;
  key_kind key = key_kind::none;
  std::string key_bytes;  // key == name: the raw JSON key, quotes included
  uint64_t index = 0;     // key == index

  // When it was reported: bytes_fed() after the call, and whether that call was finish(). Not part of ==: chunking
  // changes it legitimately.
  uint64_t reported_at = 0;
  bool at_finish = false;

  bool operator==(const collected_element& other) const {
    return bytes == other.bytes && path_index == other.path_index && key == other.key && key_bytes == other.key_bytes &&
           index == other.index;
  }
  bool operator!=(const collected_element& other) const { return !(*this == other); }
};

struct parse_setup {
  parser_options options;
  std::vector<std::string> paths;  // none: the parser's default selector
};

struct parse_outcome {
  bool paths_ok = true;
  std::vector<collected_element> elements;
  error_code status = error_code::ok;
  parse_error error;
  // After an error, one more finish(): the status must stay (sticky) and report nothing new.
  error_code status_after_error = error_code::ok;
  size_t elements_after_error = 0;
  size_t calls = 0;        // feed() and finish() calls made
  size_t peak_memory = 0;  // largest memory_bytes() seen after any call
  size_t largest_chunk = 0;
  // "" unless a call's batches broke the batch_mode contract (see check_batches in collect.cpp); the first problem.
  std::string batch_problem;
  // compact_lines with share_repeats: records that shared the line of the record before them.
  size_t shared_lines = 0;
};

// Elements, status and error (code, offset, line, column, byte) all equal.
bool same_outcome(const parse_outcome& a, const parse_outcome& b);
// "" when same_outcome(expected, actual), else a readable account of the first difference.
std::string describe_difference(const parse_outcome& expected, const parse_outcome& actual);
// The same for element lists alone.
std::string describe_difference(const std::vector<collected_element>& expected,
                                const std::vector<collected_element>& actual);
std::string describe(const parse_error& error);
// C-style escaped, cut to `limit` bytes: for failure messages about binary inputs.
std::string printable(std::string_view bytes, size_t limit = 160);

// Chunkings: the sizes of the successive feed() calls; they add up to the input size (zero-sized chunks allowed).
std::vector<size_t> chunks_one_shot(size_t size);
std::vector<size_t> chunks_bytewise(size_t size);
std::vector<size_t> chunks_split(size_t size, size_t at);
// Random sizes, log-uniform up to max_chunk, with the odd empty chunk.
std::vector<size_t> chunks_random(size_t size, rng& random, size_t max_chunk);

// Feeds `input` in the given chunks (growing the input window with reserve() when a chunk is larger), then calls
// finish() unless a feed failed.
parse_outcome parse_chunked(std::string_view input, const parse_setup& setup, const std::vector<size_t>& chunks);
inline parse_outcome parse_one_shot(std::string_view input, const parse_setup& setup) {
  return parse_chunked(input, setup, chunks_one_shot(input.size()));
}

}  // namespace sluice::test

#endif  // SLUICE_TESTS_SUPPORT_COLLECT_H
