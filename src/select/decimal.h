// A JSON number's text as the double JSON.parse reads it (correctly rounded, ties to even), without strtod: in
// wasm, musl's strtod brings its software long double (about 30 kB of module) and costs a microsecond a number.
#ifndef SLUICE_SELECT_DECIMAL_H
#define SLUICE_SELECT_DECIMAL_H

#include <cstdint>

#include "scan/bits.h"

namespace sluice {
namespace internal {

// 10^0 to 10^22: the powers of ten a double holds exactly.
extern const double exact_powers_of_ten[23];

// The number in [p, e), valid JSON number syntax.
double decimal_to_double(const uint8_t* p, const uint8_t* e);

}  // namespace internal
}  // namespace sluice

#endif  // SLUICE_SELECT_DECIMAL_H
