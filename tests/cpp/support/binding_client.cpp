#include "support/binding_client.h"

#include <algorithm>
#include <cstring>
#include <memory>
#include <string>

#include "stream/batches.h"
#include "stream/parser_state.h"
#include "stream/saved_state.h"
#include "stream/stream_parser.h"
#include "support/canonical_json.h"
#include "support/reference_splitter.h"

namespace sluice::test {

namespace {

using internal::no_position;
using internal::parser_state;
using internal::raw_element;

// The caller's carry, as js/native/session.ts keeps it: the stream's bytes [base, base + bytes.size()).
struct caller_carry {
  std::string bytes;
  uint64_t base = 0;
  // What the last call's records read: a copy of the carry as extended for them.
  std::string result;
  uint64_t result_base = 0;

  // After a call; "" or what breaks the protocol.
  std::string after_call(const parser_state& st) {
    const uint64_t w_base = st.w_base;
    const uint64_t w_end = w_base + st.w_len;
    const char* window = reinterpret_cast<const char*>(st.window.data());
    const uint64_t keep = st.retain_from;
    const bool continues = keep != no_position && keep < w_base;
    result.clear();
    if ((continues || st.carry_through != 0) && bytes.empty()) return "the records read a carry the caller has not";
    if (!bytes.empty()) {
      if (base + bytes.size() != w_base) return "the carry does not end where the window starts";
      const uint64_t through = continues ? w_end : st.carry_through;
      if (through != 0) {
        if (through < w_base || through > w_end) return "carry_through outside the window";
        bytes.append(window, size_t(through - w_base));
        result = bytes;
        result_base = base;
      }
    }
    if (keep == no_position) {
      bytes.clear();
    } else if (continues) {
      if (keep < base) return "retain_from before the carry";
      bytes.erase(0, size_t(keep - base));
      base = keep;
    } else {
      if (keep > w_end) return "retain_from past the window";
      bytes.assign(window + (keep - w_base), size_t(w_end - keep));
      base = keep;
    }
    return "";
  }

  // The stream's bytes [start, start + n) of the last call's results, or false.
  bool read(const parser_state& st, uint64_t start, uint64_t n, std::string& out) const {
    if (start >= st.w_base) {
      if (start + n > st.w_base + st.w_len) return false;
      out.assign(reinterpret_cast<const char*>(st.window.data()) + (start - st.w_base), size_t(n));
      return true;
    }
    if (start < result_base || start + n > result_base + result.size()) return false;
    out.assign(result, size_t(start - result_base), size_t(n));
    return true;
  }
};

// The batches of one call against their contract, the carried elements included.
std::string check_batches(const parser_state& st, const std::vector<collected_element>& elements,
                          const std::vector<bool>& carried) {
  const size_t count = st.elements.size();
  const batch_mode mode = st.options.batches;
  if (mode == batch_mode::none || count == 0) return st.batches.size() == 0 ? "" : "unexpected batches";
  size_t next = 0;
  for (size_t b = 0; b < st.batches.size(); ++b) {
    const batch& bt = st.batches[b];
    const std::string at = "batch " + std::to_string(b) + ": ";
    if (bt.first_element != next || bt.element_count == 0 || bt.first_element + bt.element_count > count) {
      return at + "does not continue the partition of the elements";
    }
    next += bt.element_count;
    if (mode == batch_mode::json_array) {
      const std::string_view text(reinterpret_cast<const char*>(bt.data), bt.size);
      std::vector<collected_element> members;
      if (!reference_split(text, {"$[*]"}, false, members) || members.size() != bt.element_count) {
        return at + "not a JSON array of its elements: " + printable(text);
      }
      for (size_t i = 0; i < members.size(); ++i) {
        const size_t e = bt.first_element + i;
        const bool placeholder = elements[e].bytes.empty() || carried[e];
        if (placeholder ? members[i].bytes != "0"
                        : canonical_json(members[i].bytes) != canonical_json(elements[e].bytes)) {
          return at + "member " + std::to_string(i) + " differs from its element: " + printable(text);
        }
      }
    } else if (bt.data == nullptr) {
      if (bt.element_count != 1 || !carried[bt.first_element]) return at + "null data for elements in the window";
    } else {
      for (size_t e = bt.first_element; e < bt.first_element + bt.element_count; ++e) {
        if (carried[e]) return at + "a carried element in a window batch";
        const uint8_t* p = st.elements[e].end - st.elements[e].size;
        if (p < bt.data || st.elements[e].end > bt.data + bt.size) return at + "does not cover its elements";
      }
    }
  }
  return next == count ? "" : "batches leave elements out";
}

}  // namespace

parse_outcome parse_chunked_like_binding(std::string_view input, const parse_setup& setup,
                                         const std::vector<size_t>& chunks) {
  parse_outcome out;
  internal::workspace shared;
  if (!shared.init()) std::abort();
  // The other parser: NDJSON, so it can be fed the same text forever; it selects, so the tables fill.
  std::unique_ptr<parser_state> noise(
      internal::new_parser(parser_options{1024, 1 << 20, true, batch_mode::cover}, shared));
  const std::string noise_text = "[1,\"noise\",{\"a\":[true,null]}] 7 {\"k\":\"v\"}\n";

  std::unique_ptr<parser_state> st(internal::new_parser(setup.options, shared));
  for (const std::string& path : setup.paths) {
    if (!internal::add_selector(*st, path, internal::selector_role::value, nullptr)) {
      out.paths_ok = false;
      return out;
    }
  }
  internal::byte_buffer saved;
  caller_carry carry;
  const auto problem = [&](const std::string& what) {
    if (out.batch_problem.empty()) out.batch_problem = what;
  };

  // One call: the other parser runs, this one is restored, fed (or finished), read and saved.
  const auto call = [&](const char* bytes, size_t n, bool finish) -> error_code {
    std::memcpy(shared.window.data(), noise_text.data(), noise_text.size());
    internal::feed(*noise, noise_text.size());
    internal::build_batches(*noise, nullptr, 0);
    if (!internal::save_state(*st, saved)) std::abort();
    st.reset(internal::load_state(saved.data(), saved.size(), shared));
    if (!st) {
      problem("a saved state did not load");
      std::abort();
    }
    if (n != 0) std::memcpy(shared.window.data(), bytes, n);
    const error_code status = finish ? internal::finish(*st) : internal::feed(*st, n);
    internal::build_batches(*st, nullptr, 0);
    const std::string breach = carry.after_call(*st);
    if (!breach.empty()) problem(breach);
    std::vector<collected_element> got;
    std::vector<bool> carried;
    uint32_t carried_count = 0;
    for (size_t i = 0; i < st->elements.size(); ++i) {
      const raw_element& r = st->elements[i];
      const uint64_t start = st->w_base + uint64_t(r.end - st->window.data()) - r.size;
      collected_element c;
      if (!carry.read(*st, start, r.size, c.bytes)) problem("an element's bytes are neither in the window nor kept");
      if (r.size != 0 && start < st->w_base) ++carried_count;
      carried.push_back(r.size != 0 && start < st->w_base);
      c.path_index = r.path_index;
      c.key = r.key;
      if (r.key == key_kind::name && r.key_size != 0 && !carry.read(*st, start - r.key_gap, r.key_size, c.key_bytes)) {
        problem("a key's bytes are neither in the window nor kept");
      }
      if (r.key == key_kind::index) c.index = (uint64_t{r.index_hi} << 32) | r.index_lo;
      c.reported_at = st->bytes_fed;
      c.at_finish = finish;
      got.push_back(c);
    }
    if (carried_count != st->carried) problem("carried_count differs from the elements that began before the window");
    const std::string batches = check_batches(*st, got, carried);
    if (!batches.empty()) problem(batches);
    for (collected_element& c : got) out.elements.push_back(std::move(c));
    out.peak_memory = std::max(out.peak_memory, st->allocated());
    ++out.calls;
    return status;
  };

  size_t at = 0;
  error_code status = error_code::ok;
  for (size_t n : chunks) {
    n = std::min(n, input.size() - at);
    out.largest_chunk = std::max(out.largest_chunk, n);
    // Window-sized pieces, as the JS layer feeds a larger chunk.
    do {
      const size_t piece = std::min(n, shared.window.capacity());
      status = call(input.data() + at, piece, false);
      at += piece;
      n -= piece;
    } while (n != 0 && status == error_code::ok);
    if (status != error_code::ok) break;
  }
  if (status == error_code::ok) {
    if (at != input.size()) std::abort();  // the chunking does not cover the input: a bug in the test
    status = call(nullptr, 0, true);
  }
  out.status = st->status;
  out.error = st->error;
  if (out.status != error_code::ok) {
    out.status_after_error = internal::finish(*st);
    out.elements_after_error = st->elements.size();
  }
  return out;
}

}  // namespace sluice::test
