// libFuzzer target for the push parser. Input: 4 configuration bytes, then the JSON text (see README.md here).
// For each input it aborts (a crash libFuzzer keeps) unless:
//   - the best and scalar kernels give identical results (elements, status, error position);
//   - random chunks and one byte at a time give exactly what one-shot parsing gives, and so do random chunks fed as
//     the wasm binding and the JS layer feed them (support/binding_client.h: a shared workspace, the state saved
//     and restored at every call, the carry kept by the caller);
//   - the verdict matches simdjson's (support/simdjson_oracle.h, differences mapped there): accepted inputs are
//     valid and within max_depth, with the reference splitter's elements; syntax errors only on invalid input;
//     DEPTH_LIMIT exactly where nesting first exceeds max_depth; ELEMENT_TOO_LARGE only below the input size;
//   - the error position (line, column, byte) agrees with the input, and the error is sticky;
//   - batches keep the batch_mode contract (support/collect.cpp, check_batches); compact_lines elements are the
//     cover-mode elements compacted (support/canonical_json.h, compact_json);
//   - memory_bytes() stays within a bound set by the chunk size, the element limit and max_depth, not the input;
//   - marker selectors (end and start) on the same paths, in a random chunking, report exactly where each ordinary
//     element ends and starts (offset_of), with its key, and change neither the ordinary elements nor the error;
//   - with 1 to 3 queries with `..` and slices added among the paths (descendant_paths.h, drawn from bytes 1-3),
//     chunkings agree, the error is the one without them, accepted input gives the descendant oracle's elements,
//     and the markers check above holds on those paths too.
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <string_view>
#include <vector>

#include "sluice/push_parser.h"
#include "support/binding_client.h"
#include "support/canonical_json.h"
#include "support/collect.h"
#include "support/reference_splitter.h"
#include "support/rng.h"
#include "support/simdjson_oracle.h"
#include "util/buffers.h"

#include "descendant_paths.h"

namespace {

using namespace sluice;
using namespace sluice::test;

[[noreturn]] void fail(std::string_view input, const std::string& what) {
  std::fprintf(stderr, "fuzz_push_parser: %s\n  input: \"%s\"\n", what.c_str(), printable(input, 2000).c_str());
  std::abort();
}

const std::vector<std::string> kPathSets[] = {
    {}, {"$"}, {"$[*]"}, {"$.*"}, {"$[0]", "$[2]"}, {"$.a", "$.b[*]"}, {"$[*].a", "$[*]"}, {"$.*.*", "$['a']", "$[1]"},
};

struct config {
  parse_setup setup;
  uint8_t chunk_seed = 0;
};

// byte 0: bit 0 ndjson, bit 1 small max_depth (byte 1), bit 2 small max_element_bytes (byte 2), bits 3-4 batch
// mode (0 none, 1 json_array, 2 cover, 3 compact_lines), bits 5-7 path set. byte 3: seed of the random chunking.
config read_config(const uint8_t* data) {
  config c;
  parser_options& o = c.setup.options;
  o.ndjson = data[0] & 1;
  if (data[0] & 2) o.max_depth = 1 + (data[1] & 63);
  if (data[0] & 4) o.max_element_bytes = 1 + data[2];
  switch ((data[0] >> 3) & 3) {
    case 1:
      o.batches = batch_mode::json_array;
      break;
    case 2:
      o.batches = batch_mode::cover;
      break;
    case 3:
      o.batches = batch_mode::compact_lines;
      break;
    default:
      o.batches = batch_mode::none;
      break;
  }
  c.setup.paths = kPathSets[(data[0] >> 5) & 7];
  c.chunk_seed = data[3];
  return c;
}

void check_same(std::string_view input, const parse_outcome& expected, const parse_outcome& actual, const char* what) {
  std::string diff = describe_difference(expected, actual);
  if (!diff.empty()) fail(input, std::string(what) + ": " + diff);
  if (!actual.batch_problem.empty()) fail(input, std::string(what) + ": " + actual.batch_problem);
}

// Longest string token in the input (quotes included): an upper bound on any key a selector keeps to compare.
size_t longest_string(std::string_view input) {
  size_t longest = 0, start = 0;
  bool in_string = false;
  for (size_t i = 0; i < input.size(); ++i) {
    if (in_string && input[i] == '\\') {
      ++i;
    } else if (input[i] == '"') {
      if (in_string) longest = std::max(longest, i + 1 - start);
      in_string = !in_string;
      start = i;
    }
  }
  return in_string ? std::max(longest, input.size() - start) : longest;
}

// What the parser may hold on top of a fresh, compiled parser (about 70 KB: the default window, the open elements'
// table): window growth for a chunk larger than it (1.5x), the carry and its spare (the largest element or compared
// key in progress, 1.5x growth), per-call element and batch records (at most one element per byte fed, 48-byte
// records, doubling growth) and copied batch text (nested elements of several selectors complete together), the
// depth stack, 2 KiB of slack, and the fixed slack of each buffer allocated (the carry and its spare among them,
// even when maxElementBytes is 1). None of it may grow with the input: a parser that kept consumed bytes fails this
// on inputs of a few KiB fed in small chunks.
void check_memory(std::string_view input, const parse_setup& setup, const parse_outcome& outcome) {
  // Fresh but compiled (feed(0)): compiling reserves the open elements' table (one per selector), input or not.
  push_parser compiled(setup.options);
  compiled.feed(0);
  const size_t fresh = compiled.memory_bytes();
  uint64_t carry = std::min<uint64_t>(setup.options.max_element_bytes, input.size());
  if (outcome.status == error_code::ok) {
    size_t largest = 0;
    for (const collected_element& e : outcome.elements) largest = std::max(largest, e.bytes.size());
    carry = std::min<uint64_t>(carry, std::max(largest, longest_string(input)) + 64);
  }
  const uint64_t paths = std::max<size_t>(setup.paths.size(), 1);
  const uint64_t bound = fresh + 2 * outcome.largest_chunk + 4 * (paths + 1) * carry +
                         128 * (outcome.largest_chunk + 2) + setup.options.max_depth / 4 + 2048 +
                         8 * (internal::byte_buffer::front_slack + internal::byte_buffer::back_slack);
  if (outcome.peak_memory > bound) {
    fail(input, "memory_bytes() " + std::to_string(outcome.peak_memory) + " over the bound " + std::to_string(bound));
  }
}

void check_error_position(std::string_view input, const parse_error& error) {
  if (error.offset > input.size()) fail(input, "error offset past the input: " + describe(error));
  uint64_t line = 1, line_start = 0;
  for (uint64_t i = 0; i < error.offset; ++i) {
    if (input[i] == '\n') {
      ++line;
      line_start = i + 1;
    }
  }
  const int byte = error.offset < input.size() ? static_cast<unsigned char>(input[error.offset]) : -1;
  if (error.line != line || error.column != error.offset - line_start + 1 || error.byte != byte) {
    fail(input, "error position disagrees with the input: " + describe(error));
  }
}

void check_against_oracle(std::string_view input, const parse_setup& setup, const parse_outcome& outcome) {
  const parser_options& o = setup.options;
  const error_code status = outcome.status;
  if (status == error_code::out_of_memory) fail(input, "OUT_OF_MEMORY on a small input");
  if (status == error_code::element_too_large) {
    if (o.max_element_bytes >= input.size()) fail(input, "ELEMENT_TOO_LARGE with a limit above the input size");
    return;  // which element or key overflowed is not something the oracle can tell
  }
  if (status == error_code::depth_limit) {
    // Reported at the bracket that opens level max_depth + 1, and nothing deeper was opened before it.
    if (outcome.error.offset >= input.size()) fail(input, "DEPTH_LIMIT at the end of input");
    const char c = input[outcome.error.offset];
    if ((c != '[' && c != '{') || nesting_of(input.substr(0, outcome.error.offset + 1)) != o.max_depth + 1) {
      fail(input, "DEPTH_LIMIT not at the bracket that exceeds max_depth: " + describe(outcome.error));
    }
    return;
  }
  oracle_verdict verdict = oracle_judge(input, o.ndjson);
  if (status == error_code::ok) {
    if (!verdict.valid) fail(input, "accepted, the oracle rejects: " + verdict.simdjson_error);
    if (verdict.nesting > o.max_depth) fail(input, "accepted though nesting exceeds max_depth");
    // With a small element limit, an accepted input still has the elements the reference finds.
    std::vector<collected_element> expected;
    if (!reference_split(input, setup.paths, o.ndjson, expected)) fail(input, "the reference splitter rejects it");
    std::string diff = describe_difference(expected, outcome.elements);
    if (!diff.empty()) fail(input, "elements differ from the reference splitter: " + diff);
    return;
  }
  if (verdict.valid && verdict.nesting <= o.max_depth) {
    fail(input, "rejected (" + describe(outcome.error) + "), the oracle accepts");
  }
}

// One element of the marker run, with the absolute offset of its data (offset_of), taken while it is valid.
struct located {
  collected_element element;
  uint64_t offset = 0;
};

// The setup's paths three times over: ordinary (path indices 0..k-1), end markers (k..2k-1), start markers
// (2k..3k-1), fed in random chunks. Markers keep no bytes and add no validation, so the ordinary elements and the
// status must be exactly those of the ordinary run; every ordinary element has its end marker (in the same order:
// both are reported when the value ends) and its start marker (reported in the order values start), each at the
// element's offsets and with its key.
void check_markers(std::string_view input, const parse_setup& setup, const parse_outcome& expected, rng& random) {
  const size_t k = setup.paths.size();
  if (k == 0) return;
  push_parser parser(setup.options);
  for (const std::string& path : setup.paths) {
    if (!parser.add_path(path)) fail(input, "marker run: add_path refused " + path);
  }
  for (const std::string& path : setup.paths) {
    if (!parser.add_marker_path(path)) fail(input, "marker run: add_marker_path refused " + path);
  }
  for (const std::string& path : setup.paths) {
    if (!parser.add_start_marker_path(path)) fail(input, "marker run: add_start_marker_path refused " + path);
  }
  std::vector<located> ordinary, ends, starts;
  const auto collect = [&] {
    for (size_t i = 0; i < parser.element_count(); ++i) {
      const element& e = parser.elements()[i];
      located l;
      l.offset = parser.offset_of(e.data);
      l.element.bytes.assign(reinterpret_cast<const char*>(e.data), e.size);
      l.element.path_index = uint32_t(e.path_index % k);
      l.element.key = e.key;
      if (e.key == key_kind::name && e.key_data != nullptr) {
        l.element.key_bytes.assign(reinterpret_cast<const char*>(e.key_data), e.key_size);
      }
      if (e.key == key_kind::index) l.element.index = e.index();
      if (e.path_index >= k && e.size != 0) fail(input, "a marker carries bytes");
      (e.path_index < k ? ordinary : e.path_index < 2 * k ? ends : starts).push_back(std::move(l));
    }
  };
  const std::vector<size_t> chunks = chunks_random(input.size(), random, 1 + random.skewed(300));
  error_code status = error_code::ok;
  uint64_t at = 0;
  for (size_t n : chunks) {
    if (status != error_code::ok) break;
    if (n > parser.input_capacity() && !parser.reserve(n)) fail(input, "marker run: reserve failed");
    std::memcpy(parser.input_data(), input.data() + at, n);
    at += n;
    status = parser.feed(n);
    collect();
  }
  if (status == error_code::ok) {
    status = parser.finish();
    collect();
  }

  const parse_error& error = parser.error();
  if (status != expected.status || error.offset != expected.error.offset || error.line != expected.error.line ||
      error.column != expected.error.column || error.byte != expected.error.byte) {
    fail(input, "marker run: expected status " + describe(expected.error) + ", got " + describe(error));
  }
  std::vector<collected_element> plain;
  for (const located& l : ordinary) {
    if (l.offset + l.element.bytes.size() > input.size() ||
        input.substr(size_t(l.offset), l.element.bytes.size()) != l.element.bytes) {
      fail(input, "marker run: offset_of(" + std::to_string(l.offset) + ") does not locate an element's bytes");
    }
    plain.push_back(l.element);
  }
  const std::string diff = describe_difference(expected.elements, plain);
  if (!diff.empty()) fail(input, "marker run: ordinary elements differ: " + diff);

  // End markers: one per completed value, in the same order, just past its last byte, with its index key.
  if (ends.size() != ordinary.size()) {
    fail(input, "marker run: " + std::to_string(ends.size()) + " end markers for " + std::to_string(ordinary.size()) +
                    " elements");
  }
  for (size_t i = 0; i < ends.size(); ++i) {
    const located& o = ordinary[i];
    const located& e = ends[i];
    if (e.offset != o.offset + o.element.bytes.size() || e.element.path_index != o.element.path_index ||
        e.element.key != o.element.key || e.element.index != o.element.index || !e.element.key_bytes.empty()) {
      fail(input, "marker run: end marker " + std::to_string(i) + " at " + std::to_string(e.offset) +
                      " does not match the element ending at " + std::to_string(o.offset + o.element.bytes.size()));
    }
  }
  // Start markers: every completed value's start, with its key; after an error, also values that never ended,
  // which must at least start a value (and lie before the error).
  std::vector<const located*> by_start;
  for (const located& o : ordinary) by_start.push_back(&o);
  std::stable_sort(by_start.begin(), by_start.end(), [](const located* a, const located* b) {
    return a->offset != b->offset ? a->offset < b->offset : a->element.path_index < b->element.path_index;
  });
  size_t next = 0;
  for (const located& s : starts) {
    if (next < by_start.size() && by_start[next]->offset == s.offset &&
        by_start[next]->element.path_index == s.element.path_index) {
      const collected_element& o = by_start[next]->element;
      if (s.element.key != o.key || s.element.index != o.index || s.element.key_bytes != o.key_bytes) {
        fail(input, "marker run: the start marker at " + std::to_string(s.offset) + " has another key");
      }
      ++next;
      continue;
    }
    // (At the error's own offset too: a bracket past max_depth starts a value, then fails.)
    const bool starts_value =
        s.offset < input.size() &&
        std::string_view("{[\"-0123456789tfn").find(input[size_t(s.offset)]) != std::string_view::npos;
    if (status == error_code::ok || !starts_value || s.offset > error.offset) {
      fail(input, "marker run: a start marker at " + std::to_string(s.offset) + " matches no element");
    }
  }
  if (next != by_start.size()) {
    fail(input, "marker run: no start marker for the element at " + std::to_string(by_start[next]->offset));
  }
}

// The setup's paths with queries with `..` and slices among them (descendant_paths.h): chunkings as above, then
// the verdict of the run without them, the descendant oracle's elements and the markers.
void check_descendant_paths(std::string_view input, const parse_setup& source, const parse_outcome& plain,
                            const uint8_t* data, rng& random) {
  const descendant_setup d = with_descendant_paths(source, data);
  std::string paths;
  for (const std::string& p : d.setup.paths) paths += " " + p;
  const parse_outcome one_shot = parse_one_shot(input, d.setup);
  if (!one_shot.paths_ok) fail(input, "a path was refused:" + paths);
  const std::string what = "paths" + paths + ": ";
  if (!one_shot.batch_problem.empty()) fail(input, what + one_shot.batch_problem);
  check_same(input, one_shot,
             parse_chunked(input, d.setup, chunks_random(input.size(), random, 1 + random.skewed(300))),
             (what + "random chunks vs one-shot").c_str());
  check_same(input, one_shot,
             parse_chunked_like_binding(input, d.setup, chunks_random(input.size(), random, 1 + random.skewed(300))),
             (what + "random chunks driven as the wasm binding drives them vs one-shot").c_str());
  if (input.size() <= 1024) {
    parse_setup scalar = d.setup;
    scalar.options.kernel = kernel_kind::scalar;
    check_same(input, one_shot, parse_chunked(input, scalar, chunks_bytewise(input.size())),
               (what + "one byte at a time, scalar kernel vs one-shot").c_str());
  }
  const std::string problem = judge_descendant_run(input, d, one_shot, plain);
  if (!problem.empty()) fail(input, what + problem);
  check_markers(input, d.setup, one_shot, random);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size < 4) return 0;
  config c = read_config(data);
  const std::string_view input(reinterpret_cast<const char*>(data + 4), size - 4);

  parse_setup best = c.setup, scalar = c.setup;
  best.options.kernel = kernel_kind::best;
  scalar.options.kernel = kernel_kind::scalar;

  const parse_outcome one_shot = parse_one_shot(input, best);
  if (!one_shot.paths_ok) fail(input, "a fixed path was refused");
  if (!one_shot.batch_problem.empty()) fail(input, "one-shot: " + one_shot.batch_problem);
  check_same(input, one_shot, parse_one_shot(input, scalar), "scalar kernel vs best kernel");

  rng random(c.chunk_seed * 0x9E3779B97F4A7C15ULL + size);
  const parse_outcome chunked = parse_chunked(input, best, chunks_random(input.size(), random, 1 + random.skewed(300)));
  check_same(input, one_shot, chunked, "random chunks vs one-shot");
  const std::vector<size_t> binding_chunks = chunks_random(input.size(), random, 1 + random.skewed(300));
  // The binding's compact-lines parser keeps its carry natively, as push_parser does: the JS protocol is for the
  // other modes.
  if (best.options.batches != batch_mode::compact_lines) {
    check_same(input, one_shot, parse_chunked_like_binding(input, best, binding_chunks),
               "random chunks driven as the wasm binding drives them vs one-shot");
  }
  parse_outcome bytewise;
  if (input.size() <= 4096) {
    bytewise = parse_chunked(input, scalar, chunks_bytewise(input.size()));
    check_same(input, one_shot, bytewise, "one byte at a time vs one-shot");
  }

  if (one_shot.status != error_code::ok) {
    check_error_position(input, one_shot.error);
    if (one_shot.status_after_error != one_shot.status || one_shot.elements_after_error != 0) {
      fail(input, "the error is not sticky");
    }
  }
  check_memory(input, best, one_shot);
  check_memory(input, best, chunked);
  if (input.size() <= 4096) check_memory(input, scalar, bytewise);
  // Compacted elements have no source offsets: the oracle and the marker run get the cover-mode run, whose
  // elements compacted must be exactly the compact_lines elements.
  parse_setup source = best;
  parse_outcome source_run = one_shot;
  if (best.options.batches == batch_mode::compact_lines) {
    source.options.batches = batch_mode::cover;
    source_run = parse_one_shot(input, source);
    std::vector<collected_element> compacted = source_run.elements;
    for (collected_element& e : compacted) e.bytes = compact_json(e.bytes);
    if (source_run.status != one_shot.status || describe(source_run.error) != describe(one_shot.error)) {
      fail(input, "compact_lines and cover end differently: " + describe(one_shot.error));
    }
    const std::string diff = describe_difference(compacted, one_shot.elements);
    if (!diff.empty()) fail(input, "compact_lines elements are not the cover elements compacted: " + diff);
  }
  check_against_oracle(input, source, source_run);
  check_markers(input, source, source_run, random);
  check_descendant_paths(input, source, source_run, data, random);
  return 0;
}
