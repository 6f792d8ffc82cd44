#include "select/filter.h"

#include "select/decimal.h"
#include "select/filter_scan.h"

#include <cstring>

namespace sluice {
namespace internal {

namespace {

constexpr uint32_t max_filter_stack = 64;  // js/query/filter_program.ts refuses deeper expressions

// UTF-16 units reordered as their code points order (surrogates above U+E000-FFFF), as js/query/compare.ts does.
int32_t scalar_order(int32_t u) {
  if (u >= 0xd800 && u <= 0xdfff) return u + 0x2000;
  return u >= 0xe000 ? u - 0x800 : u;
}

// <0, 0, >0 as the strings (opening quotes at a and b) order by code points.
SLUICE_SMALL int compare_strings(const uint8_t* a, const uint8_t* ae, const uint8_t* b, const uint8_t* be) {
  units x(a, ae), y(b, be);
  for (;;) {
    const int32_t u = x.next(), v = y.next();
    if (u != v) {
      if (u < 0) return -1;
      if (v < 0) return 1;
      return scalar_order(u) < scalar_order(v) ? -1 : 1;
    }
    if (u < 0) return 0;
  }
}

// Clinger's fast path: a mantissa below 2^53 scaled by a power of ten below 10^23 is exact in a double, so one
// multiplication or division rounds it correctly. False for other numbers (decimal.h reads them). The digits are
// read without a check each: nineteen of them cannot overflow 64 bits, and more go to decimal.h.
inline bool fast_number(const uint8_t* p, const uint8_t* e, double& out) {
  const bool negative = p < e && *p == '-';
  if (negative) ++p;
  const uint8_t* const first = p;
  uint64_t m = 0;
  for (; p < e && uint8_t(*p - '0') <= 9; ++p) m = m * 10 + (*p - '0');
  int64_t digits = p - first, exponent = 0;
  if (p < e && *p == '.') {
    const uint8_t* const fraction = ++p;
    for (; p < e && uint8_t(*p - '0') <= 9; ++p) m = m * 10 + (*p - '0');
    exponent = -(p - fraction);
    digits -= exponent;
  }
  if (digits > 19) return false;
  if (p < e && (*p == 'e' || *p == 'E')) {
    ++p;
    const bool minus = p < e && *p == '-';
    if (p < e && (*p == '-' || *p == '+')) ++p;
    int64_t x = 0;
    for (; p < e && *p >= '0' && *p <= '9'; ++p) {
      if (x > 1000) return false;
      x = x * 10 + (*p - '0');
    }
    exponent += minus ? -x : x;
  }
  if (m > (uint64_t{1} << 53) || exponent < -22 || exponent > 22) return m == 0 ? (out = 0, true) : false;
  const double v =
      exponent < 0 ? double(m) / exact_powers_of_ten[-exponent] : double(m) * exact_powers_of_ten[exponent];
  out = negative ? -v : v;
  return true;
}

__attribute__((noinline)) double number_at(const uint8_t* p, const uint8_t* e) {
  double fast;
  return fast_number(p, e, fast) ? fast : decimal_to_double(p, e);
}

// A value a comparison reads: a JSON value's text [p, e), or Nothing (p == nullptr).
// An aggregate without member initialisers: accepts()'s stack of 64 is left uninitialised, not zeroed per candidate.
struct value {
  const uint8_t* p;
  const uint8_t* e;
  const double* number;  // a number literal's value, read at compile, or null
};

double number_of(const value& v) { return v.number != nullptr ? *v.number : number_at(v.p, v.e); }

bool equal(value a, value b);

// Deep equality of two objects: as many members (names unique, as JSON.parse keeps them), each of a's also in b.
SLUICE_SMALL bool equal_objects(value a, value b) {
  uint32_t na = 0, nb = 0;
  const uint8_t* p = skip_blanks(a.p + 1, a.e);
  while (p < a.e && *p == '"') {
    const uint8_t* key_end = skip_string(p, a.e);
    const uint8_t* v = skip_blanks(skip_blanks(key_end, a.e) + 1, a.e);
    const uint8_t* v_end = skip_value(v, a.e);
    ++na;
    // The member of b with the same name, the last one as JSON.parse keeps it.
    value found{};
    const uint8_t* q = skip_blanks(b.p + 1, b.e);
    while (q < b.e && *q == '"') {
      const uint8_t* k_end = skip_string(q, b.e);
      const uint8_t* w = skip_blanks(skip_blanks(k_end, b.e) + 1, b.e);
      const uint8_t* w_end = skip_value(w, b.e);
      if (compare_strings(p, key_end, q, k_end) == 0) found = value{w, w_end, nullptr};
      q = skip_blanks(w_end, b.e);
      if (q < b.e && *q == ',') q = skip_blanks(q + 1, b.e);
    }
    if (found.p == nullptr || !equal(value{v, v_end, nullptr}, found)) return false;
    p = skip_blanks(v_end, a.e);
    if (p < a.e && *p == ',') p = skip_blanks(p + 1, a.e);
  }
  const uint8_t* q = skip_blanks(b.p + 1, b.e);
  while (q < b.e && *q == '"') {
    ++nb;
    q = skip_blanks(skip_value(skip_blanks(skip_blanks(skip_string(q, b.e), b.e) + 1, b.e), b.e), b.e);
    if (q < b.e && *q == ',') q = skip_blanks(q + 1, b.e);
  }
  return na == nb;
}

SLUICE_SMALL bool equal_arrays(value a, value b) {
  const uint8_t* p = skip_blanks(a.p + 1, a.e);
  const uint8_t* q = skip_blanks(b.p + 1, b.e);
  for (;;) {
    const bool a_done = p >= a.e || *p == ']';
    const bool b_done = q >= b.e || *q == ']';
    if (a_done || b_done) return a_done && b_done;
    const uint8_t* pe = skip_value(p, a.e);
    const uint8_t* qe = skip_value(q, b.e);
    if (!equal(value{p, pe, nullptr}, value{q, qe, nullptr})) return false;
    p = skip_blanks(pe, a.e);
    if (p < a.e && *p == ',') p = skip_blanks(p + 1, a.e);
    q = skip_blanks(qe, b.e);
    if (q < b.e && *q == ',') q = skip_blanks(q + 1, b.e);
  }
}

bool is_number(uint8_t c) { return c == '-' || (c >= '0' && c <= '9'); }

// Whether the key [key, key_end) is the name [name, name + size) (both raw JSON strings). Two first characters that
// differ and are not escapes: different names (the common case, tested inline).
bool may_be_name(const uint8_t* key, const uint8_t* name) {
  return key[1] == name[1] || key[1] == '\\' || name[1] == '\\';
}
// Whether the key at `key` (a JSON string within [key, e)) is the name [name, name + size), and in *key_end the
// key's end. Byte for byte while the two texts agree, which settles most keys: the same text is the same name.
// Where they first differ, with neither an escape there nor one begun before, the names differ; otherwise they are
// compared by code points (escapes may spell one name in several ways).
inline bool same_name(const uint8_t* key, const uint8_t* e, const uint8_t* name, size_t size, const uint8_t** key_end) {
  size_t k = 1;
  while (k < size && key[k] == name[k]) ++k;
  if (k == size) {
    *key_end = key + size;
    return true;
  }
  if (key[k] != '\\' && name[k] != '\\' && std::memchr(name + 1, '\\', k - 1) == nullptr) return false;
  *key_end = skip_string(key, e);
  return compare_strings(key, *key_end, name, name + size) == 0;
}

// The value of the last of the object's recorded members (keys at object + members.keys[k]; the object ends at e)
// named [name, name + size), as JSON.parse keeps the last: its first byte, and in *value_end its end, found back
// from the next key (or the closing brace) rather than by skipping it. Null when no member is so named.
__attribute__((noinline)) const uint8_t* recorded_member(const uint8_t* object, const uint8_t* e, member_list members,
                                                         const uint8_t* name, size_t size, const uint8_t** value_end) {
  uint32_t at = members.count;
  const uint8_t* key_end = nullptr;
  for (uint32_t k = 0; k < members.count; ++k) {
    const uint8_t* key = object + members.keys[k];
    const uint8_t* end;
    if (may_be_name(key, name) && same_name(key, e, name, size, &end)) {
      at = k;
      key_end = end;
    }
  }
  if (at == members.count) return nullptr;
  const uint8_t* t = e - 1;
  if (at + 1 < members.count) {
    t = object + members.keys[at + 1];
    while (blank(t[-1])) --t;
    --t;  // the comma
  }
  while (blank(t[-1])) --t;
  *value_end = t;
  return skip_blanks(skip_blanks(key_end, e) + 1, e);
}

__attribute__((noinline)) bool equal(value a, value b) {
  if (a.p == nullptr || b.p == nullptr) return a.p == b.p;
  const uint8_t x = *a.p, y = *b.p;
  if (is_number(x)) return is_number(y) && number_of(a) == number_of(b);
  if (x != y) return false;
  switch (x) {
    case '"':
      return compare_strings(a.p, a.e, b.p, b.e) == 0;
    case '{':
      return equal_objects(a, b);
    case '[':
      return equal_arrays(a, b);
    default:
      return true;  // true, false, null: the first byte tells
  }
}

__attribute__((noinline)) bool less(value a, value b) {
  if (a.p == nullptr || b.p == nullptr) return false;
  const uint8_t x = *a.p, y = *b.p;
  if (is_number(x)) return is_number(y) && number_of(a) < number_of(b);
  return x == '"' && y == '"' && compare_strings(a.p, a.e, b.p, b.e) < 0;
}

}  // namespace

SLUICE_SMALL bool filter_program::compile(std::string_view text, size_t* error_at) {
  ops.clear();
  source.assign(text.data(), text.size());
  const auto* t = reinterpret_cast<const uint8_t*>(source.data());
  const uint8_t* const e = t + source.size();
  const uint8_t* p = t;
  uint32_t values = 0, truths = 0;  // what the stack holds, by kind, to check each instruction's operands
  auto fail = [&](const uint8_t* at) {
    ops.clear();
    if (error_at) *error_at = size_t(at - t);
    return false;
  };
  // A JSON string at q: its end, or null.
  auto json_string = [&](const uint8_t* q) -> const uint8_t* {
    if (q >= e || *q != '"') return nullptr;
    const uint8_t* end = skip_string(q, e);
    return end[-1] == '"' && end - q >= 2 ? end : nullptr;
  };
  while (p < e) {
    const uint8_t* const at = p;
    const uint8_t c = *p++;
    op o{query, uint32_t(p - t), 0, 0};
    if (c == '@') {
      while (p < e && *p != ';') {
        if (*p == '.') {
          p = json_string(p + 1);
          if (p == nullptr) return fail(at);
        } else if (*p == '#' && p + 1 < e && p[1] >= '0' && p[1] <= '9') {
          for (++p; p < e && *p >= '0' && *p <= '9';) ++p;
        } else {
          return fail(p);
        }
      }
      if (p >= e) return fail(p);
      o.end = uint32_t(p++ - t);
      ++values;
    } else if (c == 'L') {
      const uint8_t* end = nullptr;
      if (p < e && *p == '"') {
        end = json_string(p);
      } else if (p < e && is_number(*p)) {
        for (end = p; end < e && (is_number(*end) || *end == '.' || *end == 'e' || *end == 'E' || *end == '+');) ++end;
        o.number = number_at(p, end);
      } else {
        for (const char* word : {"true", "false", "null"}) {
          const size_t n = std::strlen(word);
          if (size_t(e - p) >= n && std::memcmp(p, word, n) == 0) end = p + n;
        }
      }
      if (end == nullptr) return fail(p);
      o.code = literal;
      o.end = uint32_t(end - t);
      p = end;
      ++values;
    } else {
      static const char codes[] = "E=n<l>g&|~";
      const char* k = static_cast<const char*>(std::memchr(codes, c, sizeof codes - 1));
      if (k == nullptr) return fail(at);
      o.code = op_code(exists + (k - codes));
      if (o.code == exists) {
        if (ops.empty() || ops.back().code != query) return fail(at);
        --values;
        ++truths;
      } else if (o.code == not_) {
        if (truths < 1) return fail(at);
      } else if (o.code == and_ || o.code == or_) {
        if (truths < 2) return fail(at);
        --truths;
      } else {
        if (values < 2) return fail(at);
        values -= 2;
        ++truths;
      }
    }
    ops.push_back(o);
    if (values + truths > max_filter_stack) return fail(p);
  }
  if (values != 0 || truths != 1) return fail(e);
  return true;
}

__attribute__((noinline)) bool filter_program::accepts(const uint8_t* begin, const uint8_t* end,
                                                       member_list members) const noexcept {
  // Values (text or Nothing) and, after a comparison or test, truth values, at one height.
  value stack[max_filter_stack];
  bool truth[max_filter_stack];
  uint32_t n = 0;
  const auto* text = reinterpret_cast<const uint8_t*>(source.data());
  for (const op& o : ops) {
    switch (o.code) {
      case literal:
        stack[n++] = value{text + o.begin, text + o.end, is_number(text[o.begin]) ? &o.number : nullptr};
        break;
      case query: {
        // The candidate is one value: its end is `end` (less any blanks), not found by a scan.
        const uint8_t* p = skip_blanks(begin, end);
        const uint8_t* v_end = end;
        while (v_end > p && blank(v_end[-1])) --v_end;
        const uint8_t* s = text + o.begin;
        const uint8_t* const s_end = text + o.end;
        const uint32_t* recorded = members.keys;  // the candidate's members, for the first step only
        while (s < s_end && p != nullptr) {
          const bool by_name = *s == '.';
          const uint8_t* name = s + 1;
          uint64_t wanted = 0;
          if (by_name) {
            // A name of the program (compile() checked it), mostly a few bytes: byte by byte, no SIMD set-up.
            for (s = name + 1; *s != '"';) s += *s == '\\' ? 2 : 1;
            ++s;
          } else {
            for (++s; s < s_end && *s >= '0' && *s <= '9'; ++s) wanted = wanted * 10 + uint64_t(*s - '0');
          }
          const size_t size = size_t(s - name);
          if (p >= v_end || *p != (by_name ? '{' : '[')) {
            p = nullptr;
            break;
          }
          const uint8_t* q = skip_blanks(p + 1, v_end);
          const uint8_t* found = nullptr;
          const uint8_t* found_end = nullptr;
          uint64_t index = 0;
          if (by_name && recorded != nullptr) {
            // The candidate's members recorded: only their keys are read, the scan below has nothing to do.
            found = recorded_member(begin, v_end, members, name, size, &found_end);
            q = v_end;
          }
          recorded = nullptr;
          while (q < v_end && *q != '}' && *q != ']') {
            const uint8_t* key = q;
            const uint8_t* key_end = nullptr;
            if (by_name) {
              key_end = skip_string(q, v_end);
              q = skip_blanks(skip_blanks(key_end, v_end) + 1, v_end);
            }
            const uint8_t* w_end = skip_value(q, v_end);
            if (by_name) {
              const uint8_t* ignored;
              if (may_be_name(key, name) && same_name(key, key_end, name, size, &ignored)) {
                found = q;  // the last member of the name, as JSON.parse keeps it
                found_end = w_end;
              }
            } else if (index++ == wanted) {
              found = q;
              found_end = w_end;
              break;
            }
            q = skip_blanks(w_end, v_end);
            if (q < v_end && *q == ',') q = skip_blanks(q + 1, v_end);
          }
          p = found;
          v_end = found_end;
        }
        stack[n++] = p == nullptr ? value{} : value{p, v_end, nullptr};
        break;
      }
      case exists:
        truth[n - 1] = stack[n - 1].p != nullptr;
        break;
      case not_:
        truth[n - 1] = !truth[n - 1];
        break;
      case and_:
        --n;
        truth[n - 1] = truth[n - 1] && truth[n];
        break;
      case or_:
        --n;
        truth[n - 1] = truth[n - 1] || truth[n];
        break;
      default: {
        --n;
        const value a = stack[n - 1], b = stack[n];
        bool r;
        switch (o.code) {
          case eq:
            r = equal(a, b);
            break;
          case ne:
            r = !equal(a, b);
            break;
          case lt:
            r = less(a, b);
            break;
          case le:
            r = less(a, b) || equal(a, b);
            break;
          case gt:
            r = less(b, a);
            break;
          default:
            r = less(b, a) || equal(a, b);
            break;
        }
        truth[n - 1] = r;
        break;
      }
    }
  }
  return n == 1 && truth[0];
}

}  // namespace internal
}  // namespace sluice
