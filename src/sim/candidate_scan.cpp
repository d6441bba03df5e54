// Compiled once per instruction set Highway targets (foreach_target re-includes this file).
#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "sim/candidate_scan.cpp"
#include <hwy/foreach_target.h>  // IWYU pragma: keep
#include <hwy/highway.h>

#include "sim/candidate_scan.hpp"

HWY_BEFORE_NAMESPACE();
namespace murmur::sim::HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;

template <bool Imaged>
std::uint32_t scanRun(const float* x, const float* y, const float* z, std::uint32_t begin, std::uint32_t end,
                      glm::vec3 p, float radius2, glm::vec3 worldSize, CandidateOut out) {
  const hn::ScalableTag<float> df;
  const hn::RebindToUnsigned<decltype(df)> du;
  using V = hn::Vec<decltype(df)>;
  const std::size_t lanes = hn::Lanes(df);
  const V px = hn::Set(df, p.x), py = hn::Set(df, p.y), pz = hn::Set(df, p.z);
  const V r2 = hn::Set(df, radius2);
  // sim::foldComponent per lane: d - size where d >= size/2, d + size where d < -size/2.
  const auto fold = [&](V d, float size) {
    if constexpr (!Imaged) return d;
    const float half = 0.5f * size;
    const V sizes = hn::Set(df, size);
    const V folded = hn::IfThenElse(hn::Ge(d, hn::Set(df, half)), hn::Sub(d, sizes), d);
    return hn::IfThenElse(hn::Lt(d, hn::Set(df, -half)), hn::Add(d, sizes), folded);
  };
  std::uint32_t count = 0;
  for (std::uint32_t m = begin; m < end; m += static_cast<std::uint32_t>(lanes)) {
    const V dx = fold(hn::Sub(hn::LoadU(df, x + m), px), worldSize.x);
    const V dy = fold(hn::Sub(hn::LoadU(df, y + m), py), worldSize.y);
    const V dz = fold(hn::Sub(hn::LoadU(df, z + m), pz), worldSize.z);
    const V d2 = hn::Add(hn::Add(hn::Mul(dx, dx), hn::Mul(dy, dy)), hn::Mul(dz, dz));
    // Lanes past the run hold boids of other cells (or the padding): never candidates here.
    const auto within = hn::And(hn::Lt(d2, r2), hn::FirstN(df, end - m));
    if (hn::AllFalse(df, within)) continue;
    hn::CompressStore(hn::Iota(du, m), hn::RebindMask(du, within), du, out.slot + count);
    hn::CompressStore(dx, within, df, out.dx + count);
    hn::CompressStore(dy, within, df, out.dy + count);
    count += static_cast<std::uint32_t>(hn::CompressStore(dz, within, df, out.dz + count));
  }
  return count;
}

std::uint32_t ScanCandidates(const float* x, const float* y, const float* z, std::uint32_t begin, std::uint32_t end,
                             glm::vec3 p, float radius2, bool imaged, glm::vec3 worldSize, CandidateOut out) {
  return imaged ? scanRun<true>(x, y, z, begin, end, p, radius2, worldSize, out)
                : scanRun<false>(x, y, z, begin, end, p, radius2, worldSize, out);
}

const char* ScanTargetName() { return hwy::TargetName(HWY_TARGET); }

}  // namespace murmur::sim::HWY_NAMESPACE
HWY_AFTER_NAMESPACE();

#if HWY_ONCE
namespace murmur::sim {

HWY_EXPORT(ScanCandidates);
HWY_EXPORT(ScanTargetName);

std::uint32_t scanCandidates(const float* x, const float* y, const float* z, std::uint32_t begin, std::uint32_t end,
                             glm::vec3 p, float radius2, bool imaged, glm::vec3 worldSize, CandidateOut out) {
  return HWY_DYNAMIC_DISPATCH(ScanCandidates)(x, y, z, begin, end, p, radius2, imaged, worldSize, out);
}

std::string simdTargetName() { return HWY_DYNAMIC_DISPATCH(ScanTargetName)(); }

std::vector<SimdTarget> availableSimdTargets() {
  std::vector<SimdTarget> targets;
  for (const std::int64_t bits : hwy::SupportedAndGeneratedTargets()) targets.push_back({bits, hwy::TargetName(bits)});
  return targets;
}

void forceSimdTarget(std::int64_t bits) { hwy::SetSupportedTargetsForTest(bits); }

}  // namespace murmur::sim
#endif  // HWY_ONCE
