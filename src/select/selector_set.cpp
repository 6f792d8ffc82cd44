#include "select/selector_set.h"

#include <cstring>

#include "scan/json_string.h"
#include "util/zeroed.h"

namespace sluice {
namespace internal {

bool selector_set::add(std::string_view path, size_t* error_at) {
  if (paths.size() >= max_selectors) {
    if (error_at) *error_at = size_t(-1);
    return false;
  }
  selector s;
  if (!parse_selector(path, s, error_at)) return false;
  paths.push_back(std::move(s));
  return true;
}

void selector_set::compile(bool ndjson) {
  if (paths.empty()) {
    paths.emplace_back();
    parse_selector(ndjson ? "$" : "$[*]", paths.back(), nullptr);
  }
  max_len = 0;
  size_t longest_name = 0;
  bool any_name = false;
  for (const selector& s : paths) {
    max_len = s.steps.size() > max_len ? uint32_t(s.steps.size()) : max_len;
    for (const step& t : s.steps) {
      if (t.kind != step::by_name) continue;
      any_name = true;
      longest_name = t.name.size() > longest_name ? t.name.size() : longest_name;
    }
  }
  max_key_bytes = any_name ? uint32_t(6 * longest_name + 2) : 0;
  all = uint32_t((uint64_t{1} << paths.size()) - 1);
  assign_zeroed(len_is, max_len + 1);
  assign_zeroed(wild_at, max_len + 1);
  assign_zeroed(name_at, max_len + 1);
  assign_zeroed(index_mask_at, max_len + 1);
  index_at_step.assign(max_len + 1, {});
  for (uint32_t p = 0; p < paths.size(); ++p) {
    const auto& steps = paths[p].steps;
    len_is[steps.size()] |= 1u << p;
    for (uint32_t j = 0; j < steps.size(); ++j) {
      switch (steps[j].kind) {
        case step::wildcard:
          wild_at[j] |= 1u << p;
          break;
        case step::by_name:
          name_at[j] |= 1u << p;
          break;
        case step::by_index:
          index_at_step[j].push_back({p, steps[j].index});
          index_mask_at[j] |= 1u << p;
          break;
      }
    }
  }
  // One past max_len: the walks clear the candidates of a container they open at depth <= max_len.
  assign_zeroed(cand_at, max_len + 2);
  assign_zeroed(index_at, max_len + 2);
  cand_at[0] = all;
}

size_t selector_set::allocated() const noexcept {
  size_t n = paths.capacity() * sizeof(selector) + key_scratch.capacity();
  for (const selector& s : paths) {
    n += s.steps.capacity() * sizeof(step);
    for (const step& t : s.steps) n += t.name.capacity();
  }
  n += (len_is.capacity() + wild_at.capacity() + name_at.capacity() + index_mask_at.capacity() + cand_at.capacity()) *
       sizeof(uint32_t);
  n += index_at.capacity() * sizeof(uint64_t) + index_at_step.capacity() * sizeof(std::vector<index_step>);
  for (const auto& v : index_at_step) n += v.capacity() * sizeof(index_step);
  return n;
}

uint32_t selector_set::match_key(uint32_t cand, uint32_t d, const uint8_t* key, size_t n) {
  const uint32_t step = d - 1;
  uint32_t matched = cand & wild_at[step];
  const uint32_t by_name = cand & name_at[step];
  if (by_name == 0) return matched;
  const uint8_t* text = key;
  size_t text_n = n;
  if (std::memchr(key, '\\', n) != nullptr) {
    key_scratch.clear();
    unescape_json_string(key, n, key_scratch);
    text = reinterpret_cast<const uint8_t*>(key_scratch.data());
    text_n = key_scratch.size();
  }
  for (uint32_t rest = by_name; rest != 0; rest &= rest - 1) {
    const uint32_t p = uint32_t(trailing_zeroes(rest));
    const std::string& name = paths[p].steps[step].name;
    if (name.size() == text_n && std::memcmp(name.data(), text, text_n) == 0) matched |= 1u << p;
  }
  return matched;
}

}  // namespace internal
}  // namespace sluice
