#include "support/lazy_reference.h"

#include <cstring>

#include "support/collect.h"

namespace sluice::test {

reference_walk::reference_walk(std::string_view text) : t_(text) {
  if (t_.size() >= 3 && t_.substr(0, 3) == "\xEF\xBB\xBF") i_ = 3;
  space();
  root_start = i_;
  value();
  root_end = i_;
}

void reference_walk::space() {
  while (i_ < t_.size() && (t_[i_] == ' ' || t_[i_] == '\t' || t_[i_] == '\n' || t_[i_] == '\r')) ++i_;
}

void reference_walk::string() {
  ++i_;
  while (t_[i_] != '"') i_ += t_[i_] == '\\' ? 2 : 1;
  ++i_;
}

void reference_walk::value() {
  const char c = t_[i_];
  if (c == '"') return string();
  if (c != '{' && c != '[') {
    while (i_ < t_.size() && std::strchr(" \t\r\n,]}", t_[i_]) == nullptr) ++i_;
    return;
  }
  const size_t id = containers.size();
  containers.push_back({i_, 0, {}});
  ++i_;
  space();
  while (t_[i_] != '}' && t_[i_] != ']') {
    ref_member m;
    if (c == '{') {
      m.key_start = i_;
      string();
      m.key_end = i_;
      space();
      ++i_;  // ':'
      space();
    }
    m.value_start = i_;
    value();
    m.value_end = i_;
    containers[id].members.push_back(m);
    space();
    if (t_[i_] == ',') {
      ++i_;
      space();
    }
  }
  containers[id].end = i_;
  ++i_;
}

parse_error parser_verdict(std::string_view bytes, uint32_t max_depth, kernel_kind kernel) {
  parse_setup setup;
  setup.options.max_depth = max_depth;
  setup.options.kernel = kernel;
  setup.paths = {"$[9007199254740992]"};
  return parse_one_shot(bytes, setup).error;
}

bool same_error(const parse_error& a, const parse_error& b) {
  return a.code == b.code && a.offset == b.offset && a.line == b.line && a.column == b.column && a.byte == b.byte;
}

error_code build_index(lazy_index& index, std::string_view text) {
  uint8_t* at = index.reserve(text.size());
  if (text.size() != 0) {
    if (at == nullptr) return error_code::out_of_memory;
    std::memcpy(at, text.data(), text.size());
  }
  return index.build(text.size());
}

std::vector<ref_member> members_of(const lazy_child* table, uint32_t count) {
  std::vector<ref_member> out;
  for (uint32_t i = 0; i < count; ++i) {
    out.push_back({table[i].key_start, table[i].key_end, table[i].value_start, table[i].value_end});
  }
  return out;
}

parse_error read_everything(lazy_index& index, size_t* members) {
  size_t listed = 0;
  if (members != nullptr) *members = 0;
  if (index.root_container() == lazy_no_container) return parse_error{};
  for (uint32_t c = 0; c < index.container_count(); ++c) {
    uint32_t count = 0;
    const lazy_child* table = index.children(c, &count);
    if (table == nullptr) return index.error();
    listed += count;
    if (members != nullptr) *members = listed;
    for (uint32_t i = 0; i < count; ++i) {
      if (table[i].container != lazy_no_container) continue;
      if (index.locate(table[i].value_start, table[i].value_end) != error_code::ok) return index.error();
    }
  }
  return parse_error{};
}

}  // namespace sluice::test
