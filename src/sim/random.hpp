#pragma once
// A small portable PRNG (PCG32, O'Neill 2014) so that seeded spawns are identical on every
// platform and standard library (std:: distributions are implementation-defined).
#include <cstdint>

namespace murmur::sim {

class Pcg32 {
 public:
  explicit Pcg32(std::uint64_t seed, std::uint64_t stream = 0x853c49e6748fea9bULL)
      : inc_((stream << 1u) | 1u) {
    next();
    state_ += seed;
    next();
  }

  std::uint32_t next() {
    const std::uint64_t old = state_;
    state_ = old * 6364136223846793005ULL + inc_;
    const auto xorshifted = static_cast<std::uint32_t>(((old >> 18u) ^ old) >> 27u);
    const auto rot = static_cast<std::uint32_t>(old >> 59u);
    return (xorshifted >> rot) | (xorshifted << ((32u - rot) & 31u));
  }

  // Uniform in [0, 1) with 24 random bits (exactly representable in float).
  float uniform() { return static_cast<float>(next() >> 8) * (1.0f / 16777216.0f); }
  float uniform(float lo, float hi) { return lo + (hi - lo) * uniform(); }

 private:
  std::uint64_t state_ = 0;
  std::uint64_t inc_;
};

}  // namespace murmur::sim
