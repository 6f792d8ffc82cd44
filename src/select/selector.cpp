#include "select/selector.h"

#include "scan/bits.h"
#include "scan/json_string.h"

namespace sluice {
namespace internal {
namespace {

bool is_name_first(unsigned char c) {
  return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || c == '_' || c >= 0x80;
}
bool is_name_char(unsigned char c) { return is_name_first(c) || (c >= '0' && c <= '9'); }

struct path_parser {
  std::string_view p;
  size_t i = 0;
  size_t* error_at;
  filter_program* filter;

  bool fail(size_t at) {
    if (error_at) *error_at = at;
    return false;
  }
  void skip_blanks() {
    while (i < p.size() && (p[i] == ' ' || p[i] == '\t' || p[i] == '\n' || p[i] == '\r')) ++i;
  }

  // A quoted name: 'abc' or "abc", escapes as in JSON plus \' inside single quotes.
  bool quoted(std::string& out) {
    const char q = p[i++];
    for (;;) {
      if (i >= p.size()) return fail(p.size());
      const unsigned char c = static_cast<unsigned char>(p[i]);
      if (c == static_cast<unsigned char>(q)) {
        ++i;
        return true;
      }
      if (c < 0x20) return fail(i);
      if (c != '\\') {
        out.push_back(char(c));
        ++i;
        continue;
      }
      if (i + 1 >= p.size()) return fail(p.size());
      const size_t used = decode_escape(p, i, out, '\'');
      if (used == 0) return fail(p[i + 1] == 'u' ? i : i + 1);
      i += used;
    }
  }

  bool is_digit(size_t at) const { return at < p.size() && p[at] >= '0' && p[at] <= '9'; }

  // A non-negative integer without leading zeros, at most 2^53 (beyond any real array, and beyond JS integers). Out
  // of line: inlined at its three callers, it took 0.6 kB of module.
  __attribute__((noinline)) bool number(uint64_t& v) {
    if (p[i] == '0' && is_digit(i + 1)) return fail(i + 1);
    v = 0;
    while (is_digit(i)) {
      const uint64_t next = v * 10 + uint64_t(p[i] - '0');
      if (next > (uint64_t{1} << 53)) return fail(i);
      v = next;
      ++i;
    }
    return true;
  }

  // The rest of a slice after its start (or none): `:` [end] [`:` [step]], blanks between the parts.
  bool slice_rest(step& s) {
    s.kind = step::slice;
    ++i;  // the colon
    skip_blanks();
    if (is_digit(i) && !number(s.end)) return false;
    skip_blanks();
    if (i < p.size() && p[i] == ':') {
      ++i;
      skip_blanks();
      if (is_digit(i) && !number(s.stride)) return false;
    }
    return true;
  }

  // A bracketed selector, p[i] == '['.
  bool bracket(step& s) {
    ++i;
    skip_blanks();
    if (i >= p.size()) return fail(i);
    const char c = p[i];
    if (c == '*') {
      s.kind = step::wildcard;
      ++i;
    } else if (c == '\'' || c == '"') {
      s.kind = step::by_name;
      if (!quoted(s.name)) return false;
    } else if (c >= '0' && c <= '9') {
      s.kind = step::by_index;
      if (!number(s.index)) return false;
      skip_blanks();
      if (i < p.size() && p[i] == ':' && !slice_rest(s)) return false;
    } else if (c == ':') {
      if (!slice_rest(s)) return false;
    } else if (c == '?' && !s.descendant && p.back() == ']') {
      // The program runs to the path's last byte: the filter is the last step.
      s.kind = step::wildcard;
      size_t at = 0;
      if (!filter->compile(p.substr(i + 1, p.size() - 2 - i), &at)) return fail(i + 1 + at);
      i = p.size() - 1;
    } else {
      return fail(i);  // negative indices, filters, unions: not supported in a stream
    }
    skip_blanks();
    if (i >= p.size() || p[i] != ']') return fail(i);
    ++i;
    return true;
  }

  // A member name after `.` or `..`, or `*`.
  bool dotted(step& s) {
    if (i < p.size() && p[i] == '*') {
      s.kind = step::wildcard;
      ++i;
      return true;
    }
    if (i >= p.size() || !is_name_first(static_cast<unsigned char>(p[i]))) return fail(i);
    const size_t start = i;
    while (i < p.size() && is_name_char(static_cast<unsigned char>(p[i]))) ++i;
    s.kind = step::by_name;
    s.name.assign(p.substr(start, i - start));
    return true;
  }

  bool parse(selector& out) {
    if (p.empty() || p[0] != '$') return fail(0);
    i = 1;
    while (i < p.size()) {
      step s{};
      if (p[i] == '.') {
        ++i;
        if (i < p.size() && p[i] == '.') {
          s.descendant = true;
          ++i;
          if (i < p.size() && p[i] == '[') {
            if (!bracket(s)) return false;
          } else if (!dotted(s)) {
            return false;
          }
        } else if (!dotted(s)) {
          return false;
        }
      } else if (p[i] == '[') {
        if (!bracket(s)) return false;
      } else {
        return fail(i);
      }
      out.steps.push_back(std::move(s));
    }
    return true;
  }
};

}  // namespace

SLUICE_SMALL bool parse_selector(std::string_view path, selector& out, size_t* error_at) {
  out.steps.clear();
  out.filter = filter_program{};
  path_parser parser{path, 0, error_at, &out.filter};
  if (!parser.parse(out)) return false;
  if (!out.filter.empty() && out.has_descendant()) return parser.fail(path.size());
  return true;
}

}  // namespace internal
}  // namespace sluice
