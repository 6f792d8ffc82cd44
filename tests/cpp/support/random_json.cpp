#include "support/random_json.h"

#include <algorithm>
#include <cstdint>
#include <vector>

namespace sluice::test {

namespace {

const char kHex[] = "0123456789abcdef0123456789ABCDEF";

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

class generator {
 public:
  generator(rng& random, const json_shape& shape) : random_(random), shape_(shape) {}

  std::string document() {
    if (random_.chance(1, 40)) out_ += "\xEF\xBB\xBF";
    whitespace();
    // A few documents are one long chain, so that deep nesting happens at all (random trees stay shallow).
    deep_ = random_.chance(1, 20);
    root(shape_.root);
    whitespace();
    return std::move(out_);
  }

  std::string ndjson(size_t count) {
    if (random_.chance(1, 40)) out_ += "\xEF\xBB\xBF";
    bool needs_space = false;
    for (size_t i = 0; i < count; ++i) {
      if (i > 0 || random_.chance(1, 4)) {
        size_t before = out_.size();
        if (random_.chance(2, 3)) {
          whitespace();
          out_ += random_.chance(1, 5) ? "\r\n" : "\n";
          whitespace();
        } else {
          whitespace();
        }
        if (needs_space && out_.size() == before) out_ += ' ';
      }
      deep_ = random_.chance(1, 30);
      root(shape_.root);
      char last = out_.back();
      needs_space = !(last == ']' || last == '}' || last == '"');
    }
    if (random_.chance(1, 2)) out_ += '\n';
    return std::move(out_);
  }

  std::string number() {
    out_.clear();
    number_token();
    return std::move(out_);
  }

 private:
  void root(root_kind kind) {
    switch (kind) {
      case root_kind::array:
        array(1);
        break;
      case root_kind::object:
        object(1);
        break;
      case root_kind::scalar:
        scalar();
        break;
      case root_kind::any:
        value(0);
        break;
    }
  }

  bool over_budget() const { return out_.size() >= shape_.max_bytes; }

  // `nesting` counts the containers already open around this value.
  void value(size_t nesting) {
    bool can_nest = nesting < shape_.max_nesting && !over_budget();
    if (can_nest && deep_) {
      random_.chance(1, 2) ? array(nesting + 1) : object(nesting + 1);
      return;
    }
    uint64_t pick = random_.below(100);
    if (can_nest && pick < 22) {
      array(nesting + 1);
    } else if (can_nest && pick < 44) {
      object(nesting + 1);
    } else {
      scalar();
    }
  }

  void scalar() {
    uint64_t pick = random_.below(10);
    if (pick < 4) {
      string_token();
    } else if (pick < 8) {
      number_token();
    } else {
      static const char* const literals[] = {"true", "false", "null"};
      out_ += random_.pick(literals);
    }
  }

  size_t member_count(size_t nesting) {
    if (shape_.fill && nesting == 1) return SIZE_MAX;  // until over budget
    if (deep_) return random_.chance(4, 5) ? 1 : random_.between(0, 2);
    if (random_.chance(1, 8)) return 0;
    if (random_.chance(1, 20)) return random_.between(20, 120);
    return random_.skewed(10);
  }

  void array(size_t nesting) {
    out_ += '[';
    whitespace();
    size_t n = member_count(nesting);
    for (size_t i = 0; i < n && !(i > 0 && over_budget()); ++i) {
      if (i > 0) {
        whitespace();
        out_ += ',';
        whitespace();
      }
      value(nesting);
    }
    whitespace();
    out_ += ']';
  }

  void object(size_t nesting) {
    out_ += '{';
    whitespace();
    size_t n = member_count(nesting);
    for (size_t i = 0; i < n && !(i > 0 && over_budget()); ++i) {
      if (i > 0) {
        whitespace();
        out_ += ',';
        whitespace();
      }
      key();
      whitespace();
      out_ += ':';
      whitespace();
      value(nesting);
    }
    whitespace();
    out_ += '}';
  }

  void key() {
    uint64_t pick = random_.below(100);
    std::vector<std::string_view> common;
    for (size_t at = 0; at < shape_.common_keys.size();) {
      size_t comma = std::min(shape_.common_keys.find(',', at), shape_.common_keys.size());
      common.push_back(shape_.common_keys.substr(at, comma - at));
      at = comma + 1;
    }
    if (!common.empty() && pick < 45) {
      std::string_view name = common[random_.below(common.size())];
      out_ += '"';
      for (char c : name) {
        // The same name spelled with a \u escape: selectors compare decoded names.
        if (random_.chance(1, 8)) {
          out_ += "\\u00";
          out_ += kHex[(c >> 4) & 0xF];
          out_ += kHex[c & 0xF];
        } else {
          out_ += c;
        }
      }
      out_ += '"';
    } else if (pick < 50) {
      out_ += random_.chance(1, 2) ? "\"__proto__\"" : "\"constructor\"";
    } else if (pick < 55) {
      out_ += "\"\"";
    } else {
      string_token();
    }
  }

  void whitespace() {
    static const char ws[] = {' ', '\t', '\n', '\r'};
    uint64_t pick = random_.below(100);
    size_t n = pick < 70 ? 0 : pick < 93 ? 1 : pick < 99 ? random_.between(2, 8) : random_.between(60, 140);
    for (size_t i = 0; i < n; ++i) out_ += random_.pick(ws);
  }

  void hex4(uint32_t v) {
    size_t upper = random_.chance(1, 2) ? 16 : 0;
    for (int shift = 12; shift >= 0; shift -= 4) out_ += kHex[upper + ((v >> shift) & 0xF)];
  }

  void unicode_escape(uint32_t unit) {
    out_ += "\\u";
    hex4(unit);
  }

  void string_token() {
    out_ += '"';
    size_t pieces = random_.chance(1, 6) ? 0 : random_.skewed(random_.chance(1, 10) ? 60 : 8);
    for (size_t i = 0; i < pieces; ++i) string_piece();
    out_ += '"';
  }

  void string_piece() {
    switch (random_.below(12)) {
      case 0:
      case 1: {  // printable ASCII, no quote or backslash
        size_t n = random_.between(1, 12);
        for (size_t i = 0; i < n; ++i) {
          char c = static_cast<char>(random_.between(0x20, 0x7E));
          out_ += (c == '"' || c == '\\') ? 'x' : c;
        }
        break;
      }
      case 2: {  // longer than a block, so strings straddle 64-byte boundaries
        size_t n = random_.between(50, 300);
        for (size_t i = 0; i < n; ++i) out_ += static_cast<char>('a' + i % 26);
        break;
      }
      case 3: {
        static const char* const escapes[] = {"\\\"", "\\\\", "\\/", "\\b", "\\f", "\\n", "\\r", "\\t"};
        out_ += random_.pick(escapes);
        break;
      }
      case 4: {  // k escaped backslashes, then maybe an escaped quote: runs of every length before a quote
        size_t k = random_.skewed(70);
        for (size_t i = 0; i < k; ++i) out_ += "\\\\";
        if (random_.chance(1, 2)) out_ += "\\\"";
        break;
      }
      case 5: {  // \u escape of a BMP non-surrogate (controls and ASCII included)
        uint32_t unit = random_.chance(1, 3) ? random_.below(0x80) : random_.below(0xF800);
        if (unit >= 0xD800) unit += 0x800;
        unicode_escape(unit);
        break;
      }
      case 6: {  // astral pair, lone high, lone low, reversed pair
        uint32_t high = 0xD800 + random_.below(0x400), low = 0xDC00 + random_.below(0x400);
        switch (random_.below(4)) {
          case 0:
          case 1:
            unicode_escape(high);
            unicode_escape(low);
            break;
          case 2:
            unicode_escape(random_.chance(1, 2) ? high : low);
            break;
          case 3:
            unicode_escape(low);
            unicode_escape(high);
            break;
        }
        break;
      }
      case 7:
        append_utf8(out_, static_cast<uint32_t>(random_.between(0x80, 0x7FF)));
        break;
      case 8: {
        uint32_t cp = static_cast<uint32_t>(random_.between(0x800, 0xFFFF - 0x800));
        append_utf8(out_, cp >= 0xD800 ? cp + 0x800 : cp);
        break;
      }
      case 9:
        append_utf8(out_, static_cast<uint32_t>(random_.between(0x10000, 0x10FFFF)));
        break;
      case 10: {  // code points at the edges of each UTF-8 length
        static const uint32_t edges[] = {0x7F, 0x80, 0x7FF, 0x800, 0xD7FF, 0xE000, 0xFFFD, 0xFFFF, 0x10000, 0x10FFFF};
        append_utf8(out_, random_.pick(edges));
        break;
      }
      default:
        out_ += random_.chance(1, 2) ? " " : "\x7F";
        break;
    }
  }

  void digits(size_t n, bool nonzero_first) {
    for (size_t i = 0; i < n; ++i) {
      out_ += static_cast<char>(i == 0 && nonzero_first ? '1' + random_.below(9) : '0' + random_.below(10));
    }
  }

  size_t digit_count() {
    if (random_.chance(1, 30)) return random_.between(100, 400);
    return 1 + random_.skewed(24);
  }

  void number_token() {
    if (random_.chance(1, 3)) out_ += '-';
    if (random_.chance(1, 4)) {
      out_ += '0';
    } else {
      digits(digit_count(), true);
    }
    if (random_.chance(1, 3)) {
      out_ += '.';
      digits(digit_count(), false);
    }
    if (random_.chance(1, 3)) {
      out_ += random_.chance(1, 2) ? 'e' : 'E';
      uint64_t sign = random_.below(3);
      if (sign == 1) out_ += '+';
      if (sign == 2) out_ += '-';
      // Exponents past double range (1e400, 1e-400) are valid JSON; some have leading zeros.
      if (random_.chance(1, 10)) out_ += "000";
      digits(random_.chance(1, 10) ? random_.between(3, 12) : random_.between(1, 3), false);
    }
  }

  rng& random_;
  const json_shape& shape_;
  std::string out_;
  bool deep_ = false;
};

// Bytes chosen to break the grammar, the string scanner or the UTF-8 validator.
uint8_t interesting_byte(rng& random) {
  static const uint8_t structural[] = {'"', '\\', '[', ']', '{', '}', ':', ',', ' ', '\n', '-', '+',
                                       '.', 'e',  'E', '0', '1', 'u', 't', 'n', 'f', '/',  'x'};
  switch (random.below(4)) {
    case 0:
      return static_cast<uint8_t>(random.below(0x20));
    case 1:
      return static_cast<uint8_t>(random.between(0x7F, 0xFF));
    default:
      return random.pick(structural);
  }
}

const char* const kBadUtf8[] = {
    "\xC0\x80",
    "\xC1\xBF",
    "\xE0\x80\x80",
    "\xE0\x9F\xBF",
    "\xF0\x80\x80\x80",
    "\xF0\x8F\xBF\xBF",
    "\xED\xA0\x80",
    "\xED\xBF\xBF",
    "\xF4\x90\x80\x80",
    "\xF5\x80\x80\x80",
    "\xFF",
    "\xFE",
    "\x80",
    "\xBF",
    "\xE2\x82",
    "\xF0\x9F\x98",
    "\xC3",
    "\xF8\x88\x80\x80\x80",
};

}  // namespace

std::string random_json(rng& random, const json_shape& shape) { return generator(random, shape).document(); }

std::string random_ndjson(rng& random, size_t count, const json_shape& shape) {
  return generator(random, shape).ndjson(count);
}

std::string random_number(rng& random) {
  json_shape shape;
  return generator(random, shape).number();
}

std::string mutate_json(rng& random, std::string_view doc) {
  std::string out(doc);
  size_t edits = random.between(1, 3);
  for (size_t e = 0; e < edits; ++e) {
    size_t at = out.empty() ? 0 : random.below(out.size() + 1);
    switch (random.below(8)) {
      case 0:
        if (at < out.size()) out.erase(at, 1);
        break;
      case 1:
        out.insert(out.begin() + at, static_cast<char>(interesting_byte(random)));
        break;
      case 2:
        if (at < out.size()) out[at] = static_cast<char>(interesting_byte(random));
        break;
      case 3:
        out.insert(at, random.pick(kBadUtf8));
        break;
      case 4:
        out.resize(at);
        break;
      case 5: {  // duplicate a slice: repeated keys, values without commas, stray closers
        size_t n = std::min<size_t>(out.size() - std::min(at, out.size()), random.between(1, 16));
        out.insert(at, out.substr(at, n));
        break;
      }
      case 6: {  // drop a slice
        size_t n = random.between(1, 16);
        if (at < out.size()) out.erase(at, n);
        break;
      }
      default: {  // hit the most fragile bytes directly: a quote or backslash somewhere is turned into another
        for (size_t tries = 0; tries < 8 && !out.empty(); ++tries) {
          size_t i = random.below(out.size());
          if (out[i] == '"' || out[i] == '\\' || out[i] == ':' || out[i] == ',') {
            out[i] = static_cast<char>(interesting_byte(random));
            break;
          }
        }
        break;
      }
    }
  }
  return out;
}

}  // namespace sluice::test
