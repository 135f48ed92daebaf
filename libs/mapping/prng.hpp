// SplitMix64 (Steele, Lea, Flood 2014): a tiny generator whose output depends only on the seed, so
// random mappings are identical across compilers and standard libraries (std:: distributions
// are not specified bit-for-bit and differ between libstdc++ and libc++).
#pragma once
#include <cstdint>

namespace haec::mapping {

class SplitMix64 {
public:
  explicit SplitMix64(uint64_t seed) : state_(seed) {}

  uint64_t next()
  {
    uint64_t z = (state_ += 0x9E3779B97F4A7C15ULL);
    z          = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z          = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
  }

  // Unbiased integer in [0, n), n > 0: draws below 2^64 mod n are rejected so that every residue
  // has exactly the same number of accepted draws.
  uint64_t below(uint64_t n)
  {
    const uint64_t reject_under = (0 - n) % n; // == 2^64 mod n
    uint64_t x;
    do
      x = next();
    while (x < reject_under);
    return x % n;
  }

private:
  uint64_t state_;
};

} // namespace haec::mapping
