// A seeded random generator for tests. Our own (splitmix64) rather than <random>'s distributions, whose outputs
// differ between standard libraries: a failing seed must reproduce on every machine.
#ifndef SLUICE_TESTS_SUPPORT_RNG_H
#define SLUICE_TESTS_SUPPORT_RNG_H

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>

namespace sluice::test {

class rng {
 public:
  explicit rng(uint64_t seed) noexcept : state_(seed) {}

  uint64_t next() noexcept {
    uint64_t z = (state_ += 0x9E3779B97F4A7C15ULL);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
  }
  // Uniform in [0, n); n > 0. The modulo bias (< 2^-40 for the n used here) does not matter to tests.
  uint64_t below(uint64_t n) noexcept { return next() % n; }
  // Uniform in [lo, hi].
  uint64_t between(uint64_t lo, uint64_t hi) noexcept { return lo + below(hi - lo + 1); }
  // True with probability num/den.
  bool chance(uint64_t num, uint64_t den) noexcept { return below(den) < num; }
  // Small values much more often than large ones: sizes that exercise both the first 64-byte block and many.
  // Log-uniform in [0, max]: small values much more often than large ones, so that sizes exercise the first
  // 64-byte block as often as many blocks.
  uint64_t skewed(uint64_t max) noexcept {
    uint64_t bits = 0;
    while (bits < 63 && (uint64_t{1} << bits) <= max) ++bits;
    uint64_t cap = (uint64_t{1} << below(bits + 1)) - 1;
    return below((cap < max ? cap : max) + 1);
  }
  template <typename T, size_t N>
  const T& pick(const T (&items)[N]) noexcept {
    return items[below(N)];
  }

 private:
  uint64_t state_;
};

// A count for a randomized test: `fallback` unless the environment variable `name` holds a number (soak runs:
// SLUICE_RANDOM_DOCS=1000000 ctest ...).
inline uint64_t env_count(const char* name, uint64_t fallback) {
  const char* value = std::getenv(name);
  if (value == nullptr || *value == '\0') return fallback;
  return std::strtoull(value, nullptr, 10);
}

// The base seed of every randomized test; SLUICE_TEST_SEED (the variable the Vitest suites read too) overrides it
// to explore other inputs, and failures print the seed of the case.
inline uint64_t base_seed() { return env_count("SLUICE_TEST_SEED", 0x5111CE); }

}  // namespace sluice::test

#endif  // SLUICE_TESTS_SUPPORT_RNG_H
