// libFuzzer target for lazyParse's core (sluice/lazy_index.h).
// Input: the 4 configuration bytes of fuzz_push_parser (README.md here; only bits that apply are read), then the
// JSON text, so both targets share their seeds. For each input it aborts (a crash libFuzzer keeps) unless:
//   - the best and scalar kernels build the same index (or fail with the same error) and list every container
//     identically;
//   - a failed build() reports exactly the push parser's error for the whole document;
//   - lazy validation is complete: reading everything (every container listed, every scalar member located)
//     finds an error exactly when the push parser rejects the document, never before the parser's first error;
//   - on a valid document: every member table equals the reference walk's, container ids name the container at
//     each value, and find() returns the last (or the first) member whose key decodes to the same bytes;
//   - memory_bytes() stays linear in the document: the document, 12 bytes per container, 24 per member listed, and
//     the scratch of the largest container listed (at most one member per two bytes).
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <string_view>
#include <unordered_map>
#include <utility>
#include <vector>

#include "scan/json_string.h"
#include "sluice/lazy_index.h"
#include "support/collect.h"
#include "support/lazy_reference.h"

namespace {

using namespace sluice;
using namespace sluice::test;

std::string_view g_input;

[[noreturn]] void fail(const std::string& what) {
  std::fprintf(stderr, "fuzz_lazy_index: %s\n  input: \"%s\"\n", what.c_str(), printable(g_input, 2000).c_str());
  std::abort();
}

void expect(bool ok, const std::string& what) {
  if (!ok) fail(what);
}

void check_kernels_agree(std::string_view doc, uint32_t max_depth) {
  lazy_options best, scalar;
  best.max_depth = scalar.max_depth = max_depth;
  scalar.kernel = kernel_kind::scalar;
  lazy_index a(best), b(scalar);
  const error_code ea = build_index(a, doc), eb = build_index(b, doc);
  expect(ea == eb && same_error(a.error(), b.error()), "the kernels disagree on build()");
  if (ea != error_code::ok) return;
  expect(a.container_count() == b.container_count(), "the kernels find different containers");
  for (uint32_t c = 0; c < a.container_count(); ++c) {
    uint32_t na = 0, nb = 0;
    const lazy_child* ta = a.children(c, &na);
    const lazy_child* tb = b.children(c, &nb);
    expect((ta == nullptr) == (tb == nullptr), "the kernels disagree on listing container " + std::to_string(c));
    if (ta == nullptr) {
      expect(same_error(a.error(), b.error()),
             "the kernels report different errors for container " + std::to_string(c));
    } else {
      expect(members_of(ta, na) == members_of(tb, nb),
             "the kernels list container " + std::to_string(c) + " differently");
    }
  }
}

// The decoded key of a member, as find() compares it.
std::string decoded_key(std::string_view doc, const lazy_child& m) {
  std::string out;
  internal::unescape_json_string(reinterpret_cast<const uint8_t*>(doc.data()) + m.key_start + 1,
                                 m.key_end - m.key_start - 2, out);
  return out;
}

void check_valid_document(std::string_view doc, lazy_index& index) {
  const reference_walk walk(doc);
  expect(index.root_start() == walk.root_start && index.root_end() == walk.root_end, "the root's extent differs");
  expect(index.container_count() == walk.containers.size(), "the container count differs from the reference walk");
  for (uint32_t c = 0; c < walk.containers.size(); ++c) {
    uint32_t count = 0;
    const lazy_child* table = index.children(c, &count);
    expect(table != nullptr, "a container of a valid document does not list: " + describe(index.error()));
    expect(members_of(table, count) == walk.containers[c].members,
           "container " + std::to_string(c) + " lists wrong spans");
    for (uint32_t i = 0; i < count; ++i) {
      const char first = doc[table[i].value_start];
      expect(table[i].first_byte == uint8_t(first), "a member's first byte is wrong");
      const bool nested = first == '{' || first == '[';
      expect(nested ? table[i].container < walk.containers.size() &&
                          walk.containers[table[i].container].start == table[i].value_start
                    : table[i].container == lazy_no_container,
             "a member's container id is wrong");
    }
    if (doc[walk.containers[c].start] != '{') continue;
    // find(): the last member whose key decodes to the same bytes, or the first. find() scans the table, so a
    // sample of the keys (the first 64, then every 16th) keeps huge objects from being quadratic here.
    std::vector<std::string> keys(count);
    std::unordered_map<std::string, std::pair<int64_t, int64_t>> where;  // key -> first and last member
    for (uint32_t i = 0; i < count; ++i) {
      keys[i] = decoded_key(doc, table[i]);
      auto [it, added] = where.try_emplace(keys[i], i, i);
      if (!added) it->second.second = i;
    }
    for (uint32_t i = 0; i < count; i += i < 64 ? 1 : 16) {
      const auto* k = reinterpret_cast<const uint8_t*>(keys[i].data());
      const auto [first_at, last] = where.at(keys[i]);
      expect(index.find(table, count, k, keys[i].size(), false) == last, "find() misses the last member of a key");
      expect(index.find(table, count, k, keys[i].size(), true) == first_at, "find() misses the first member of a key");
    }
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size < 4) return 0;
  const uint32_t max_depth = (data[0] & 2) ? 1 + (data[1] & 63) : 1024;
  const std::string_view doc(reinterpret_cast<const char*>(data + 4), size - 4);
  g_input = doc;

  check_kernels_agree(doc, max_depth);

  lazy_options o;
  o.max_depth = max_depth;
  lazy_index index(o);
  const parse_error truth = parser_verdict(doc, max_depth, kernel_kind::best);
  if (build_index(index, doc) != error_code::ok) {
    expect(same_error(index.error(), truth),
           "build() reports " + describe(index.error()) + ", the parser " + describe(truth));
    return 0;
  }
  size_t members = 0;
  const parse_error lazy = read_everything(index, &members);
  expect((lazy.code == error_code::ok) == (truth.code == error_code::ok),
         "reading everything gives " + describe(lazy) + ", the parser " + describe(truth));
  expect(lazy.code == error_code::ok || lazy.offset >= truth.offset,
         "an error before the parser's first: " + describe(lazy) + " vs " + describe(truth));
  // The document and the container table (capacities may double), the member tables (exact), and the scratch
  // that lists one container at a time (a container that failed to list included): at most one member per two
  // bytes, its capacity doubled.
  const size_t containers = index.container_count();
  const size_t bound = 2 * (doc.size() + 64 + 12 * containers) + 24 * (members + containers) + 24 * (doc.size() + 2);
  expect(index.memory_bytes() <= bound + 4096, "memory_bytes() " + std::to_string(index.memory_bytes()) +
                                                   " is over the bound for " + std::to_string(members) + " members");
  if (truth.code != error_code::ok) return 0;

  check_valid_document(doc, index);
  return 0;
}
