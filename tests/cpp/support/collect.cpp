#include "support/collect.h"

#include "support/canonical_json.h"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>

#include "support/reference_splitter.h"

namespace sluice::test {

namespace {

// The batches of one call against batch_mode: they partition the call's elements in order; a json_array batch is
// the text of a JSON array whose members are exactly its elements' bytes (whitespace between them allowed); a
// cover batch is the smallest address range holding all its elements; a compact_lines batch is its elements'
// texts end to end, each followed by a newline (with share_repeats, a record may point at the line before it).
std::string check_batches(const push_parser& parser, const parser_options& options, size_t& shared) {
  const batch_mode mode = options.batches;
  const element* elements = parser.elements();
  const size_t count = parser.element_count();
  if (mode == batch_mode::none) return parser.batch_count() == 0 ? "" : "batches without a batch mode";
  size_t next = 0;
  for (size_t b = 0; b < parser.batch_count(); ++b) {
    const batch& batch = parser.batches()[b];
    const std::string at = "batch " + std::to_string(b) + ": ";
    if (batch.first_element != next || batch.element_count == 0 || batch.first_element + batch.element_count > count) {
      return at + "does not continue the partition of the elements";
    }
    next += batch.element_count;
    std::string_view text(reinterpret_cast<const char*>(batch.data), batch.size);
    if (mode == batch_mode::json_array) {
      std::vector<collected_element> members;
      if (!reference_split(text, {"$[*]"}, false, members) || text.front() != '[') {
        return at + "not a JSON array: " + printable(text);
      }
      if (members.size() != batch.element_count) return at + "member count differs: " + printable(text);
      if (!is_ascii(text)) return at + "not ASCII: " + printable(text);
      for (size_t i = 0; i < members.size(); ++i) {
        const element& e = elements[batch.first_element + i];
        if (canonical_json(members[i].bytes) !=
            canonical_json(std::string_view(reinterpret_cast<const char*>(e.data), e.size))) {
          return at + "member " + std::to_string(i) + " differs from its element: " + printable(text);
        }
      }
    } else if (mode == batch_mode::compact_lines) {
      // Each element's text followed by a newline, end to end, the element records pointing into the batch.
      const uint8_t* at_element = batch.data;
      for (size_t i = batch.first_element; i < batch.first_element + batch.element_count; ++i) {
        const element& e = elements[i];
        if (options.share_repeats && i > batch.first_element && e.size != 0 && e.data == elements[i - 1].data &&
            e.size == elements[i - 1].size) {
          ++shared;
          continue;
        }
        if (e.data != at_element || e.data + e.size >= batch.data + batch.size || e.data[e.size] != '\n') {
          return at + "element " + std::to_string(i) + " is not the next line: " + printable(text);
        }
        at_element = e.data + e.size + 1;
      }
      if (at_element != batch.data + batch.size) return at + "text after the last line: " + printable(text);
    } else {
      const uint8_t* lo = elements[batch.first_element].data;
      const uint8_t* hi = lo;
      for (size_t i = batch.first_element; i < batch.first_element + batch.element_count; ++i) {
        lo = std::min(lo, elements[i].data);
        hi = std::max(hi, elements[i].data + elements[i].size);
      }
      if (batch.data != lo || batch.data + batch.size != hi) return at + "not the smallest range covering its elements";
    }
  }
  return next == count ? "" : "batches leave elements out";
}

void copy_out(const push_parser& parser, bool at_finish, parse_outcome& out, const parser_options& options) {
  if (out.batch_problem.empty()) out.batch_problem = check_batches(parser, options, out.shared_lines);
  for (size_t i = 0; i < parser.element_count(); ++i) {
    const element& e = parser.elements()[i];
    collected_element c;
    c.bytes.assign(reinterpret_cast<const char*>(e.data), e.size);
    c.path_index = e.path_index;
    c.key = e.key;
    if (e.key == key_kind::name) c.key_bytes.assign(reinterpret_cast<const char*>(e.key_data), e.key_size);
    if (e.key == key_kind::index) c.index = e.index();
    c.reported_at = parser.bytes_fed();
    c.at_finish = at_finish;
    out.elements.push_back(std::move(c));
  }
  out.peak_memory = std::max(out.peak_memory, parser.memory_bytes());
  ++out.calls;
}

std::string describe_element(const collected_element& e) {
  std::string s = "{bytes=\"" + printable(e.bytes) + "\" path=" + std::to_string(e.path_index);
  switch (e.key) {
    case key_kind::none:
      s += " key=none";
      break;
    case key_kind::index:
      s += " index=" + std::to_string(e.index);
      break;
    case key_kind::name:
      s += " key=" + printable(e.key_bytes);
      break;
  }
  return s + "}";
}

}  // namespace

bool same_outcome(const parse_outcome& a, const parse_outcome& b) {
  return a.paths_ok == b.paths_ok && a.elements == b.elements && a.status == b.status && a.error.code == b.error.code &&
         a.error.offset == b.error.offset && a.error.line == b.error.line && a.error.column == b.error.column &&
         a.error.byte == b.error.byte;
}

std::string describe(const parse_error& error) {
  if (error.code == error_code::ok) return "ok";
  return std::string(error_name(error.code)) + " at offset " + std::to_string(error.offset) + " (line " +
         std::to_string(error.line) + ", column " + std::to_string(error.column) + ", byte " +
         std::to_string(error.byte) + ")";
}

std::string describe_difference(const std::vector<collected_element>& expected,
                                const std::vector<collected_element>& actual) {
  size_t common = std::min(expected.size(), actual.size());
  for (size_t i = 0; i < common; ++i) {
    if (expected[i] != actual[i]) {
      return "element " + std::to_string(i) + ": expected " + describe_element(expected[i]) + ", got " +
             describe_element(actual[i]);
    }
  }
  if (expected.size() != actual.size()) {
    const auto& longer = expected.size() > common ? expected : actual;
    return "expected " + std::to_string(expected.size()) + " elements, got " + std::to_string(actual.size()) +
           "; first extra: " + describe_element(longer[common]);
  }
  return "";
}

std::string describe_difference(const parse_outcome& expected, const parse_outcome& actual) {
  if (same_outcome(expected, actual)) return "";
  if (expected.paths_ok != actual.paths_ok) return "add_path() outcome differs";
  std::string elements = describe_difference(expected.elements, actual.elements);
  if (!elements.empty()) return elements;
  return "expected status " + describe(expected.error) + ", got " + describe(actual.error);
}

std::string printable(std::string_view bytes, size_t limit) {
  std::string s;
  for (size_t i = 0; i < bytes.size() && i < limit; ++i) {
    unsigned char c = static_cast<unsigned char>(bytes[i]);
    if (c == '\\' || c == '"') {
      s += '\\';
      s += static_cast<char>(c);
    } else if (c >= 0x20 && c < 0x7F) {
      s += static_cast<char>(c);
    } else {
      char buf[5];
      std::snprintf(buf, sizeof buf, "\\x%02X", c);
      s += buf;
    }
  }
  if (bytes.size() > limit) s += "...(" + std::to_string(bytes.size()) + " bytes)";
  return s;
}

std::vector<size_t> chunks_one_shot(size_t size) { return {size}; }

std::vector<size_t> chunks_bytewise(size_t size) { return std::vector<size_t>(size, 1); }

std::vector<size_t> chunks_split(size_t size, size_t at) {
  at = std::min(at, size);
  return {at, size - at};
}

std::vector<size_t> chunks_random(size_t size, rng& random, size_t max_chunk) {
  std::vector<size_t> chunks;
  size_t left = size;
  while (left > 0) {
    size_t n = random.chance(1, 50) ? 0 : std::min<size_t>(left, 1 + random.skewed(max_chunk - 1));
    chunks.push_back(n);
    left -= n;
  }
  return chunks;
}

parse_outcome parse_chunked(std::string_view input, const parse_setup& setup, const std::vector<size_t>& chunks) {
  parse_outcome out;
  push_parser parser(setup.options);
  for (const std::string& path : setup.paths) {
    if (!parser.add_path(path)) {
      out.paths_ok = false;
      return out;
    }
  }
  size_t at = 0;
  for (size_t n : chunks) {
    n = std::min(n, input.size() - at);
    if (n > parser.input_capacity() && !parser.reserve(n)) std::abort();  // test inputs are small
    if (n > 0) std::memcpy(parser.input_data(), input.data() + at, n);
    at += n;
    out.largest_chunk = std::max(out.largest_chunk, n);
    error_code status = parser.feed(n);
    copy_out(parser, false, out, setup.options);
    if (status != error_code::ok) break;
  }
  if (parser.status() == error_code::ok) {
    if (at != input.size()) std::abort();  // the chunking does not cover the input: a bug in the test
    parser.finish();
    copy_out(parser, true, out, setup.options);
  }
  out.status = parser.status();
  out.error = parser.error();
  if (out.status != error_code::ok) {
    out.status_after_error = parser.finish();
    out.elements_after_error = parser.element_count();
  }
  return out;
}

}  // namespace sluice::test
