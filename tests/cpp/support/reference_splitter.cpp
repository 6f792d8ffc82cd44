#include "support/reference_splitter.h"

#include <cstring>

namespace sluice::test {

namespace {

int hex_value(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

bool read_hex4(std::string_view s, size_t at, uint32_t& unit) {
  if (at + 4 > s.size()) return false;
  unit = 0;
  for (size_t i = 0; i < 4; ++i) {
    int v = hex_value(s[at + i]);
    if (v < 0) return false;
    unit = unit * 16 + static_cast<uint32_t>(v);
  }
  return true;
}

void append_utf8(std::string& out, uint32_t cp) {
  if (cp < 0x80) {
    out += static_cast<char>(cp);
  } else if (cp < 0x800) {
    out += static_cast<char>(0xC0 | (cp >> 6));
    out += static_cast<char>(0x80 | (cp & 0x3F));
  } else if (cp < 0x10000) {
    out += static_cast<char>(0xE0 | (cp >> 12));
    out += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
    out += static_cast<char>(0x80 | (cp & 0x3F));
  } else {
    out += static_cast<char>(0xF0 | (cp >> 18));
    out += static_cast<char>(0x80 | ((cp >> 12) & 0x3F));
    out += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
    out += static_cast<char>(0x80 | (cp & 0x3F));
  }
}

struct step {
  bool is_index;
  uint64_t index;
  std::string_view raw_key;
  std::string key;
};

class splitter {
 public:
  splitter(std::string_view input, const std::vector<std::vector<path_segment>>& paths, bool ndjson,
           std::vector<collected_element>& out, std::vector<size_t>* ends)
      : in_(input), paths_(paths), ndjson_(ndjson), out_(out), ends_(ends) {}

  bool run() {
    if (in_.substr(0, 3) == "\xEF\xBB\xBF") pos_ = 3;
    skip_ws();
    if (!ndjson_) {
      if (!value()) return false;
      skip_ws();
      return pos_ == in_.size();
    }
    while (skip_ws(), pos_ < in_.size()) {
      if (!value()) return false;
      ++root_number_;
    }
    return true;
  }

 private:
  void skip_ws() {
    while (pos_ < in_.size() && std::strchr(" \t\n\r", in_[pos_]) != nullptr && in_[pos_] != '\0') ++pos_;
  }
  bool eat(char c) {
    skip_ws();
    if (pos_ < in_.size() && in_[pos_] == c) {
      ++pos_;
      return true;
    }
    return false;
  }

  bool value() {
    skip_ws();
    if (pos_ >= in_.size()) return false;
    size_t begin = pos_;
    bool ok;
    switch (in_[pos_]) {
      case '{':
        ok = object();
        break;
      case '[':
        ok = array();
        break;
      case '"':
        ok = string();
        break;
      case 't':
        ok = literal("true");
        break;
      case 'f':
        ok = literal("false");
        break;
      case 'n':
        ok = literal("null");
        break;
      default:
        ok = number();
        break;
    }
    if (ok) record(begin, pos_);
    return ok;
  }

  bool object() {
    ++pos_;
    if (eat('}')) return true;
    for (uint64_t i = 0;; ++i) {
      skip_ws();
      size_t key_begin = pos_;
      if (pos_ >= in_.size() || in_[pos_] != '"' || !string()) return false;
      std::string_view raw = in_.substr(key_begin, pos_ - key_begin);
      if (!eat(':')) return false;
      steps_.push_back(step{false, 0, raw, decode_json_string(raw)});
      bool ok = value();
      steps_.pop_back();
      if (!ok) return false;
      if (eat('}')) return true;
      if (!eat(',')) return false;
    }
  }

  bool array() {
    ++pos_;
    if (eat(']')) return true;
    for (uint64_t i = 0;; ++i) {
      steps_.push_back(step{true, i, {}, {}});
      bool ok = value();
      steps_.pop_back();
      if (!ok) return false;
      if (eat(']')) return true;
      if (!eat(',')) return false;
    }
  }

  bool string() {
    ++pos_;
    while (pos_ < in_.size()) {
      char c = in_[pos_++];
      if (c == '"') return true;
      if (c == '\\') ++pos_;
    }
    return false;
  }

  bool literal(const char* word) {
    size_t n = std::strlen(word);
    if (in_.substr(pos_, n) != word) return false;
    pos_ += n;
    return true;
  }

  bool number() {
    size_t begin = pos_;
    while (pos_ < in_.size() && std::strchr("0123456789+-.eE", in_[pos_]) != nullptr && in_[pos_] != '\0') ++pos_;
    return pos_ > begin;
  }

  static bool segment_matches(const path_segment& seg, const step& s) {
    switch (seg.type) {
      case path_segment::kind::wildcard:
        return true;
      case path_segment::kind::index:
        return s.is_index && s.index == seg.index;
      case path_segment::kind::name:
        return !s.is_index && s.key == seg.name;
    }
    return false;
  }

  void record(size_t begin, size_t end) {
    for (size_t p = 0; p < paths_.size(); ++p) {
      const auto& segs = paths_[p];
      if (segs.size() != steps_.size()) continue;
      bool match = true;
      for (size_t i = 0; i < segs.size() && match; ++i) match = segment_matches(segs[i], steps_[i]);
      if (!match) continue;
      collected_element e;
      e.bytes.assign(in_.substr(begin, end - begin));
      e.path_index = static_cast<uint32_t>(p);
      if (steps_.empty()) {
        if (ndjson_) {
          e.key = key_kind::index;
          e.index = root_number_;
        }
      } else if (steps_.back().is_index) {
        e.key = key_kind::index;
        e.index = steps_.back().index;
      } else {
        e.key = key_kind::name;
        e.key_bytes.assign(steps_.back().raw_key);
      }
      out_.push_back(std::move(e));
      if (ends_ != nullptr) ends_->push_back(end);
    }
  }

  std::string_view in_;
  const std::vector<std::vector<path_segment>>& paths_;
  bool ndjson_;
  std::vector<collected_element>& out_;
  std::vector<size_t>* ends_;
  size_t pos_ = 0;
  uint64_t root_number_ = 0;
  std::vector<step> steps_;
};

}  // namespace

std::string decode_json_string(std::string_view raw) {
  std::string out;
  for (size_t i = 1; i + 1 < raw.size(); ++i) {
    char c = raw[i];
    if (c != '\\') {
      out += c;
      continue;
    }
    char e = raw[++i];
    switch (e) {
      case 'b':
        out += '\b';
        break;
      case 'f':
        out += '\f';
        break;
      case 'n':
        out += '\n';
        break;
      case 'r':
        out += '\r';
        break;
      case 't':
        out += '\t';
        break;
      case 'u': {
        uint32_t unit = 0, low = 0;
        if (!read_hex4(raw, i + 1, unit)) return out;
        i += 4;
        if (unit >= 0xD800 && unit < 0xDC00 && raw.substr(i + 1, 2) == "\\u" && read_hex4(raw, i + 3, low) &&
            low >= 0xDC00 && low < 0xE000) {
          unit = 0x10000 + ((unit - 0xD800) << 10) + (low - 0xDC00);
          i += 6;
        }
        append_utf8(out, unit);
        break;
      }
      default:
        out += e;
        break;  // \" \\ \/
    }
  }
  return out;
}

bool parse_reference_path(std::string_view path, std::vector<path_segment>& segments) {
  segments.clear();
  if (path.empty() || path[0] != '$') return false;
  size_t i = 1;
  while (i < path.size()) {
    path_segment seg{path_segment::kind::wildcard, {}, 0};
    if (path[i] == '.') {
      ++i;
      if (i < path.size() && path[i] == '*') {
        ++i;
      } else {
        size_t begin = i;
        while (i < path.size() && path[i] != '.' && path[i] != '[') ++i;
        if (i == begin) return false;
        seg.type = path_segment::kind::name;
        seg.name.assign(path.substr(begin, i - begin));
      }
    } else if (path[i] == '[') {
      ++i;
      if (i >= path.size()) return false;
      if (path[i] == '*') {
        ++i;
      } else if (path[i] == '"' || path[i] == '\'') {
        char quote = path[i];
        size_t begin = i++;
        while (i < path.size() && path[i] != quote) i += path[i] == '\\' ? 2 : 1;
        if (i >= path.size()) return false;
        ++i;
        std::string raw(path.substr(begin, i - begin));
        raw.front() = raw.back() = '"';  // single-quoted names decode like JSON strings
        seg.type = path_segment::kind::name;
        seg.name = decode_json_string(raw);
      } else {
        size_t begin = i;
        while (i < path.size() && path[i] >= '0' && path[i] <= '9') seg.index = seg.index * 10 + (path[i++] - '0');
        if (i == begin) return false;
        seg.type = path_segment::kind::index;
      }
      if (i >= path.size() || path[i] != ']') return false;
      ++i;
    } else {
      return false;
    }
    segments.push_back(std::move(seg));
  }
  return true;
}

bool reference_split(std::string_view input, const std::vector<std::string>& paths, bool ndjson,
                     std::vector<collected_element>& elements, std::vector<size_t>* ends) {
  std::vector<std::vector<path_segment>> parsed;
  std::vector<std::string> effective = paths;
  if (effective.empty()) effective.push_back(ndjson ? "$" : "$[*]");
  for (const std::string& p : effective) {
    parsed.emplace_back();
    if (!parse_reference_path(p, parsed.back())) return false;
  }
  elements.clear();
  if (ends != nullptr) ends->clear();
  return splitter(input, parsed, ndjson, elements, ends).run();
}

}  // namespace sluice::test
