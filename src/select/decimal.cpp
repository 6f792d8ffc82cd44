#include "select/decimal.h"

#include <cstring>

namespace sluice {
namespace internal {

namespace {

// An unsigned integer of up to 4,480 bits, little-endian 32-bit limbs: enough for 780 digits times 2^1076, or a
// 54-bit mantissa times 10^1105, the largest products the comparisons below form.
struct big {
  static constexpr uint32_t max_limbs = 140;
  uint32_t limb[max_limbs];
  uint32_t n = 0;

  void set(uint64_t v) {
    n = 0;
    for (; v != 0; v >>= 32) limb[n++] = uint32_t(v);
  }
  SLUICE_SMALL void mul_add(uint32_t m, uint32_t add) {
    uint64_t carry = add;
    for (uint32_t i = 0; i < n; ++i) {
      const uint64_t t = uint64_t(limb[i]) * m + carry;
      limb[i] = uint32_t(t);
      carry = t >> 32;
    }
    if (carry != 0) limb[n++] = uint32_t(carry);
  }
  void mul_pow10(uint32_t e) {
    static const uint32_t small[] = {1, 10, 100, 1000, 10000, 100000, 1000000, 10000000, 100000000};
    for (; e >= 9; e -= 9) mul_add(1000000000, 0);
    if (e != 0) mul_add(small[e], 0);
  }
  SLUICE_SMALL void shift_left(uint32_t bits) {
    if (n == 0) return;
    const uint32_t words = bits / 32, rest = bits % 32;
    if (rest != 0) {
      uint32_t carry = 0;
      for (uint32_t i = 0; i < n; ++i) {
        const uint32_t v = limb[i];
        limb[i] = (v << rest) | carry;
        carry = v >> (32 - rest);
      }
      if (carry != 0) limb[n++] = carry;
    }
    if (words != 0) {
      std::memmove(limb + words, limb, n * sizeof(uint32_t));
      std::memset(limb, 0, words * sizeof(uint32_t));
      n += words;
    }
  }
  SLUICE_SMALL int compare(const big& o) const {
    if (n != o.n) return n < o.n ? -1 : 1;
    for (uint32_t i = n; i-- > 0;)
      if (limb[i] != o.limb[i]) return limb[i] < o.limb[i] ? -1 : 1;
    return 0;
  }
};

constexpr uint32_t max_digits = 780;  // beyond, the rest only matters as "not zero" (a sticky digit)

double from_bits(uint64_t b) {
  double d;
  std::memcpy(&d, &b, 8);
  return d;
}

}  // namespace

const double exact_powers_of_ten[23] = {1e0,  1e1,  1e2,  1e3,  1e4,  1e5,  1e6,  1e7,  1e8,  1e9,  1e10, 1e11,
                                        1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22};

// Clinger's AlgorithmR: an estimate, then exact comparisons of the decimal with the halfway points around it, one
// step of a unit in the last place at a time until it lies between them (ties to even).
SLUICE_SMALL double decimal_to_double(const uint8_t* p, const uint8_t* e) {
  const bool negative = p < e && *p == '-';
  if (negative) ++p;
  // The significant digits (leading zeros dropped), at most max_digits of them, and the power of ten they scale by.
  uint8_t digits[max_digits + 1];
  uint32_t nd = 0;
  int64_t exponent = 0;
  bool point = false, sticky = false;
  for (; p < e; ++p) {
    const uint8_t c = *p;
    if (c == '.') {
      point = true;
      continue;
    }
    if (c < '0' || c > '9') break;
    if (nd == 0 && c == '0') {
      if (point) --exponent;
      continue;
    }
    if (nd < max_digits) {
      digits[nd++] = uint8_t(c - '0');
      if (point) --exponent;
    } else {
      sticky |= c != '0';
      if (!point) ++exponent;
    }
  }
  if (p < e && (*p == 'e' || *p == 'E')) {
    ++p;
    const bool minus = p < e && *p == '-';
    if (p < e && (*p == '-' || *p == '+')) ++p;
    int64_t x = 0;
    for (; p < e && *p >= '0' && *p <= '9'; ++p)
      if (x < 100000) x = x * 10 + (*p - '0');
    exponent += minus ? -x : x;
  }
  if (sticky) {
    digits[nd++] = 1;  // below the last kept digit, above zero: rounds as the dropped digits would
    --exponent;
  }
  const double sign = negative ? -1.0 : 1.0;
  if (nd == 0 || int64_t(nd) + exponent < -324) return sign * 0.0;
  if (int64_t(nd) + exponent > 310) return sign * __builtin_inf();
  // The estimate: the first 19 digits, scaled in steps that neither overflow nor underflow on the way.
  uint64_t head = 0;
  const uint32_t nh = nd < 19 ? nd : 19;
  for (uint32_t i = 0; i < nh; ++i) head = head * 10 + digits[i];
  int64_t scale = exponent + int64_t(nd - nh);
  double z = double(head);
  while (scale > 0) {
    const int64_t s = scale > 22 ? 22 : scale;
    z *= exact_powers_of_ten[s];
    scale -= s;
  }
  while (scale < 0) {
    const int64_t s = scale < -22 ? 22 : -scale;
    z /= exact_powers_of_ten[s];
    scale += s;
  }
  // The decimal as an integer D times 10^exponent.
  big d, left, right;
  d.set(0);
  for (uint32_t i = 0; i < nd; i += 9) {
    uint32_t chunk = 0, mul = 1;
    for (uint32_t j = i; j < nd && j < i + 9; ++j) {
      chunk = chunk * 10 + digits[j];
      mul *= 10;
    }
    if (d.n == 0) {
      d.set(chunk);
    } else {
      d.mul_add(mul, chunk);
    }
  }
  uint64_t bits;
  std::memcpy(&bits, &z, 8);
  if (bits >= 0x7ff0000000000000ull) bits = 0x7ff0000000000000ull - 1;  // the estimate overflowed: start at max
  // x compared with c * 2^j.
  auto compare = [&](uint64_t c, int64_t j) {
    left = d;
    right.set(c);
    if (exponent >= 0) {
      left.mul_pow10(uint32_t(exponent));
    } else {
      right.mul_pow10(uint32_t(-exponent));
    }
    if (j >= 0) {
      right.shift_left(uint32_t(j));
    } else {
      left.shift_left(uint32_t(-j));
    }
    return left.compare(right);
  };
  for (int step = 0; step < 4096; ++step) {
    const uint64_t exp_bits = bits >> 52, frac = bits & ((uint64_t{1} << 52) - 1);
    const uint64_t m = exp_bits == 0 ? frac : frac | (uint64_t{1} << 52);
    const int64_t k = exp_bits == 0 ? -1074 : int64_t(exp_bits) - 1075;
    const int above = compare(2 * m + 1, k - 1);
    if (above > 0 || (above == 0 && (m & 1) != 0)) {
      ++bits;  // past the largest finite double: infinity
      if (bits >= 0x7ff0000000000000ull) return sign * __builtin_inf();
      continue;
    }
    if (bits == 0) break;
    // The halfway point below: half a unit, or a quarter where m is a power of two (the unit below is half).
    const bool narrow = frac == 0 && exp_bits > 1;
    const int below = narrow ? compare(4 * m - 1, k - 2) : compare(2 * m - 1, k - 1);
    if (below < 0 || (below == 0 && (m & 1) != 0)) {
      --bits;
      continue;
    }
    break;
  }
  return sign * from_bits(bits);
}

}  // namespace internal
}  // namespace sluice
