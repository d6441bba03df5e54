// The float lanes the model's vector code (sim/neighbour_sweep, sim/integrate_batch) works in,
// compiled once per instruction set: included after <hwy/highway.h> by a file that foreach_target
// re-includes, so this header has Highway's per-target guard instead of #pragma once.
#if defined(MURMUR_SIM_SIMD_LANES_HPP_) == defined(HWY_TARGET_TOGGLE)
#ifdef MURMUR_SIM_SIMD_LANES_HPP_
#undef MURMUR_SIM_SIMD_LANES_HPP_
#else
#define MURMUR_SIM_SIMD_LANES_HPP_
#endif

#include <cstddef>

#include <hwy/highway.h>

HWY_BEFORE_NAMESPACE();
namespace murmur::sim::HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;
using FloatTag = hn::ScalableTag<float>;
using FloatVec = hn::Vec<FloatTag>;
constexpr std::size_t kMaxLanes = HWY_MAX_BYTES / sizeof(float);

// glm::dot(a, b) on every lane, in its order ((ax bx + ay by) + az bz, no fused multiply-add): the
// vector code's sums and tests are then the same floats as the scalar rules'.
HWY_INLINE FloatVec dotLanes(FloatVec ax, FloatVec ay, FloatVec az, FloatVec bx, FloatVec by, FloatVec bz) {
  return hn::Add(hn::Add(hn::Mul(ax, bx), hn::Mul(ay, by)), hn::Mul(az, bz));
}

}  // namespace murmur::sim::HWY_NAMESPACE
HWY_AFTER_NAMESPACE();

#endif  // MURMUR_SIM_SIMD_LANES_HPP_ per target
