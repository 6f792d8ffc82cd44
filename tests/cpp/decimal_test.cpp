// decimal_to_double (select/decimal.h) against strtod, the correctly rounded reading: hand-picked hard cases
// (halfway points, the ends of the range, long digit strings) and random numbers of every length and scale.
#include "select/decimal.h"

#include <gtest/gtest.h>

#include <cstdlib>
#include <cstring>
#include <string>

#include "support/rng.h"

namespace sluice::test {
namespace {

uint64_t bits_of(double d) {
  uint64_t b;
  std::memcpy(&b, &d, 8);
  return b;
}

void expect_as_strtod(const std::string& text) {
  const auto* p = reinterpret_cast<const uint8_t*>(text.data());
  EXPECT_EQ(bits_of(internal::decimal_to_double(p, p + text.size())), bits_of(std::strtod(text.c_str(), nullptr)))
      << text;
}

TEST(Decimal, HardCases) {
  for (const char* text :
       {"0",
        "-0",
        "0.0e5",
        "1",
        "9007199254740993",
        "9007199254740995",
        "9007199254740992.5",
        "2.2250738585072011e-308",
        "2.2250738585072014e-308",
        "4.9406564584124654e-324",
        "2.4703282292062327e-324",
        "2.4703282292062328e-324",
        "1.7976931348623157e308",
        "1.7976931348623158e308",
        "1.7976931348623159e308",
        "1e309",
        "1e-400",
        "123e-2",
        "0.1",
        "0.30000000000000004",
        "8.98846567431158e307",
        "5e-324",
        "3e-324",
        "1e23",
        "8.589973e9",
        "179769313486231580793728971405303415079934132710037826936173778980444968292764750946649017977587207096330286"
        "416692887910946555547851940402630657488671505820681908902000708383676273854845817711531764475730270069855571"
        "366959622842914819860834936475292719074168444365510704342711559699508093042880177904174497791."
        "9999999999999"}) {
    expect_as_strtod(text);
  }
  std::string long_one = "0." + std::string(1000, '0') + "1e1000";  // 1e-1, written with 1,001 digits
  expect_as_strtod(long_one);
  std::string halfway = "9007199254740993" + std::string(800, '0') + "1e-800";  // just above a tie
  expect_as_strtod(halfway);
}

TEST(Decimal, RandomNumbers) {
  test::rng r(0xdec);
  for (int i = 0; i < 200000; ++i) {
    std::string text = r.chance(1, 2) ? "-" : "";
    const int digits = 1 + int(r.below(r.chance(1, 10) ? 40 : 20));
    text += char('1' + r.below(9));
    for (int k = 1; k < digits; ++k) text += char('0' + r.below(10));
    if (r.chance(1, 2)) text.insert(text.size() - size_t(r.below(uint64_t(digits))), ".");
    if (text.back() == '.') text += '0';
    text += "e" + std::to_string(int(r.below(700)) - 350);
    expect_as_strtod(text);
  }
}

}  // namespace
}  // namespace sluice::test
