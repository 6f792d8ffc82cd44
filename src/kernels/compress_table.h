// The lookup table of a byte-shuffle compress (simdjson's "thintable"): for each 8-bit mask, the indices of its set
// bits packed from the low byte, and how many there are. A kernel with a byte shuffle packs the kept bytes of 8
// input bytes with one lookup (simd128's compress(), for compaction); 2 KiB of data in the module.
#ifndef SLUICE_KERNELS_COMPRESS_TABLE_H
#define SLUICE_KERNELS_COMPRESS_TABLE_H

#include <cstdint>

namespace sluice {
namespace internal {

struct compress_table {
  uint64_t index[256];  // byte k: the position of the k-th set bit (the bytes past the last one are 0)
  uint8_t count[256];
  constexpr compress_table() : index(), count() {
    for (unsigned m = 0; m < 256; ++m) {
      unsigned k = 0;
      for (unsigned bit = 0; bit < 8; ++bit) {
        if ((m >> bit) & 1) index[m] |= uint64_t{bit} << (8 * k++);
      }
      count[m] = uint8_t(k);
    }
  }
};
inline constexpr compress_table compress_indices{};

}  // namespace internal
}  // namespace sluice

#endif  // SLUICE_KERNELS_COMPRESS_TABLE_H
