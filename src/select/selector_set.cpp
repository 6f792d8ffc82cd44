#include "select/selector_set.h"

#include <cstring>

#include "scan/bits.h"
#include "scan/json_string.h"
#include "util/zeroed.h"

namespace sluice {
namespace internal {

namespace {

uint32_t positions_of(const std::vector<selector>& paths) {
  uint32_t n = 0;
  for (const selector& s : paths)
    if (s.has_descendant()) n += uint32_t(s.steps.size());
  return n;
}

// An index or slice step as a range (step 0 selects nothing: an empty one).
index_step range_of(uint32_t path, const step& t) {
  if (t.kind == step::by_index) return {path, t.index, t.index + 1, 1};
  return {path, t.index, t.stride == 0 || t.end < t.index ? t.index : t.end, t.stride == 0 ? 1 : t.stride};
}

}  // namespace

SLUICE_SMALL bool selector_set::add(std::string_view path, size_t* error_at) {
  if (paths.size() >= max_selectors) {
    if (error_at) *error_at = size_t(-1);
    return false;
  }
  selector s;
  if (!parse_selector(path, s, error_at)) return false;
  if (s.has_descendant() && positions_of(paths) + s.steps.size() > max_positions) {
    if (error_at) *error_at = size_t(-1);
    return false;
  }
  paths.push_back(std::move(s));
  return true;
}

SLUICE_SMALL void selector_set::compile(bool ndjson) {
  if (paths.empty()) {
    paths.emplace_back();
    parse_selector(ndjson ? "$" : "$[*]", paths.back(), nullptr);
  }
  max_len = 0;
  desc_paths = 0;
  filtered = 0;
  size_t longest_name = 0;
  bool any_name = false;
  for (uint32_t p = 0; p < paths.size(); ++p) {
    const selector& s = paths[p];
    if (!s.filter.empty()) filtered |= 1u << p;
    if (s.has_descendant()) {
      desc_paths |= 1u << p;
    } else {
      max_len = s.steps.size() > max_len ? uint32_t(s.steps.size()) : max_len;
    }
    for (const step& t : s.steps) {
      if (t.kind != step::by_name) continue;
      any_name = true;
      longest_name = t.name.size() > longest_name ? t.name.size() : longest_name;
    }
  }
  max_key_bytes = any_name ? uint32_t(6 * longest_name + 2) : 0;
  all = uint32_t((uint64_t{1} << paths.size()) - 1);
  live_len = max_len;
  assign_zeroed(len_is, max_len + 1);
  assign_zeroed(wild_at, max_len + 1);
  assign_zeroed(name_at, max_len + 1);
  assign_zeroed(index_mask_at, max_len + 1);
  for (uint32_t& m : index_mask_at) m = desc_paths;
  index_at_step.assign(max_len + 1, {});
  start_pos = desc_pos = wild_pos = name_pos = last_pos = 0;
  pos_indices.clear();
  uint32_t base = 0;
  for (uint32_t p = 0; p < paths.size(); ++p) {
    const auto& steps = paths[p].steps;
    if ((desc_paths >> p) & 1) {
      start_pos |= uint64_t{1} << base;
      for (uint32_t j = 0; j < steps.size(); ++j) {
        const uint32_t b = base + j;
        const uint64_t bit = uint64_t{1} << b;
        pos_path[b] = uint8_t(p);
        pos_step[b] = uint8_t(j);
        if (steps[j].descendant) desc_pos |= bit;
        if (j + 1 == steps.size()) last_pos |= bit;
        switch (steps[j].kind) {
          case step::wildcard:
            wild_pos |= bit;
            break;
          case step::by_name:
            name_pos |= bit;
            break;
          case step::by_index:
          case step::slice:
            pos_indices.push_back(range_of(b, steps[j]));
            break;
        }
      }
      base += uint32_t(steps.size());
      continue;
    }
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
        case step::slice:
          index_at_step[j].push_back(range_of(p, steps[j]));
          index_mask_at[j] |= 1u << p;
          break;
      }
    }
  }
  // One past max_len: the walks clear the candidates of a container they open at depth <= live_len.
  assign_zeroed(cand_at, max_len + 2);
  assign_zeroed(index_at, max_len + 2);
  assign_zeroed(pos_at, max_len + 2);
  cand_at[0] = all;
}

namespace {

// Out of line, one per element type: inlined in reach(), the eight resizes took 1.3 kB of module.
template <class Vector>
__attribute__((noinline)) void grow_to(Vector& v, size_t n) {
  v.resize(n);
}

}  // namespace

void selector_set::reach(uint32_t d) {
  // Deeper than max_len, only descendant selectors are alive: no linear step, and the general path decides.
  grow_to(len_is, d + 1);
  grow_to(wild_at, d + 1);
  grow_to(name_at, d + 1);
  const size_t from = index_mask_at.size();
  grow_to(index_mask_at, d + 1);
  for (size_t j = from; j <= d; ++j) index_mask_at[j] = desc_paths;
  grow_to(index_at_step, d + 1);
  grow_to(cand_at, d + 2);
  grow_to(index_at, d + 2);
  grow_to(pos_at, d + 2);
  live_len = d;
}

size_t selector_set::allocated() const noexcept {
  size_t n = paths.capacity() * sizeof(selector) + key_scratch.capacity();
  for (const selector& s : paths) {
    n += s.steps.capacity() * sizeof(step);
    for (const step& t : s.steps) n += t.name.capacity();
  }
  n += (len_is.capacity() + wild_at.capacity() + name_at.capacity() + index_mask_at.capacity() + cand_at.capacity()) *
       sizeof(uint32_t);
  n += (index_at.capacity() + pos_at.capacity()) * sizeof(uint64_t) +
       index_at_step.capacity() * sizeof(std::vector<index_step>);
  for (const auto& v : index_at_step) n += v.capacity() * sizeof(index_step);
  n += pos_indices.capacity() * sizeof(index_step);
  return n;
}

namespace {

// The key's text, decoded when it holds escapes.
std::string_view key_text(const uint8_t* key, size_t n, std::string& scratch) {
  if (std::memchr(key, '\\', n) == nullptr) return {reinterpret_cast<const char*>(key), n};
  scratch.clear();
  unescape_json_string(key, n, scratch);
  return scratch;
}

}  // namespace

uint32_t selector_set::match_key(uint32_t cand, uint32_t d, const uint8_t* key, size_t n) {
  const uint32_t step = d - 1;
  uint32_t matched = cand & wild_at[step];
  const uint32_t by_name = cand & name_at[step];
  if (by_name == 0) return matched;
  const std::string_view text = key_text(key, n, key_scratch);
  for (uint32_t rest = by_name; rest != 0; rest &= rest - 1) {
    const uint32_t p = uint32_t(trailing_zeroes(rest));
    if (paths[p].steps[step].name == text) matched |= 1u << p;
  }
  return matched;
}

uint64_t selector_set::match_key_pos(uint64_t pos, const uint8_t* key, size_t n) {
  uint64_t matched = pos & wild_pos;
  const uint64_t by_name = pos & name_pos;
  if (by_name == 0) return matched;
  const std::string_view text = key_text(key, n, key_scratch);
  for (uint64_t rest = by_name; rest != 0; rest &= rest - 1) {
    const unsigned b = unsigned(trailing_zeroes(rest));
    if (paths[pos_path[b]].steps[pos_step[b]].name == text) matched |= uint64_t{1} << b;
  }
  return matched;
}

}  // namespace internal
}  // namespace sluice
