// Compiled once per instruction set Highway targets (foreach_target re-includes this file).
#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "sim/neighbour_sweep.cpp"
#include <hwy/foreach_target.h>  // IWYU pragma: keep
#include <hwy/highway.h>

#include "sim/neighbour_sweep.hpp"

#include <cstring>

HWY_BEFORE_NAMESPACE();
namespace murmur::sim::HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;

// The candidates of one run of cells, slots [begin, end), folded into `self` (in slot selfSlot).
// Inlined into the boid's loop (as a call it cost 30%: the sums went through memory).
template <bool Imaged>
HWY_INLINE void sweepRun(const StepContext& ctx, const BoidView& self, std::uint32_t selfSlot, const SortedFlock& flock,
              std::uint32_t begin, std::uint32_t end, NeighbourSums& sums) {
  const hn::ScalableTag<float> df;
  using V = hn::Vec<decltype(df)>;
  constexpr std::size_t kMaxLanes = HWY_MAX_BYTES / sizeof(float);
  const std::size_t lanes = hn::Lanes(df);
  const glm::vec3 p = self.position;
  const V px = hn::Set(df, p.x), py = hn::Set(df, p.y), pz = hn::Set(df, p.z);
  const V r2 = hn::Set(df, ctx.searchRadius2);
  // sim::foldComponent per lane: d - size where d >= size/2, d + size where d < -size/2.
  const auto fold = [&](V d, float size) {
    if constexpr (!Imaged) return d;
    const float half = 0.5f * size;
    const V sizes = hn::Set(df, size);
    const V folded = hn::IfThenElse(hn::Ge(d, hn::Set(df, half)), hn::Sub(d, sizes), d);
    return hn::IfThenElse(hn::Lt(d, hn::Set(df, -half)), hn::Add(d, sizes), folded);
  };
  HWY_ALIGN float ox[kMaxLanes], oy[kMaxLanes], oz[kMaxLanes];
  for (std::uint32_t m = begin; m < end; m += static_cast<std::uint32_t>(lanes)) {
    const V dx = fold(hn::Sub(hn::LoadU(df, flock.x + m), px), ctx.worldSize.x);
    const V dy = fold(hn::Sub(hn::LoadU(df, flock.y + m), py), ctx.worldSize.y);
    const V dz = fold(hn::Sub(hn::LoadU(df, flock.z + m), pz), ctx.worldSize.z);
    const V d2 = hn::Add(hn::Add(hn::Mul(dx, dx), hn::Mul(dy, dy)), hn::Mul(dz, dz));
    // Lanes past the run hold boids of other cells (or the padding): never candidates here.
    const auto within = hn::And(hn::Lt(d2, r2), hn::FirstN(df, end - m));
    std::uint8_t maskBytes[8] = {};
    hn::StoreMaskBits(df, within, maskBytes);
    std::uint64_t bits;
    std::memcpy(&bits, maskBytes, sizeof bits);
    if (bits == 0) continue;
    hn::Store(dx, df, ox);
    hn::Store(dy, df, oy);
    hn::Store(dz, df, oz);
    for (; bits != 0; bits &= bits - 1) {
      const unsigned lane = static_cast<unsigned>(__builtin_ctzll(bits));
      const std::uint32_t j = m + lane;
      if (j != selfSlot)
        accumulateNeighbour(ctx, self, {ox[lane], oy[lane], oz[lane]}, flock.heading[j], flock.id[j], flock.group[j],
                            sums);
    }
  }
}

void SweepNeighbours(const StepContext& ctx, const GridSpec& grid, const CellOrder& cells, int dims,
                     const SortedFlock& flock, std::uint32_t selfSlot, const BoidView& self, NeighbourSums& sums) {
  const glm::ivec3 cell = grid.cellCoord(self.position);
  forEachNeighbourRange(
      grid, cells, cell, dims,
      [&](std::uint32_t begin, std::uint32_t end, bool imaged) {
        if (imaged)
          sweepRun<true>(ctx, self, selfSlot, flock, begin, end, sums);
        else
          sweepRun<false>(ctx, self, selfSlot, flock, begin, end, sums);
      },
      RowReach(grid, cell, self.position, std::sqrt(ctx.searchRadius2), dims));
}

const char* SweepTargetName() { return hwy::TargetName(HWY_TARGET); }

}  // namespace murmur::sim::HWY_NAMESPACE
HWY_AFTER_NAMESPACE();

#if HWY_ONCE
namespace murmur::sim {

HWY_EXPORT(SweepNeighbours);
HWY_EXPORT(SweepTargetName);

void sweepNeighbours(const StepContext& ctx, const GridSpec& grid, const CellOrder& cells, int dims,
                     const SortedFlock& flock, std::uint32_t selfSlot, const BoidView& self, NeighbourSums& sums) {
  HWY_DYNAMIC_DISPATCH(SweepNeighbours)(ctx, grid, cells, dims, flock, selfSlot, self, sums);
}

std::string simdTargetName() { return HWY_DYNAMIC_DISPATCH(SweepTargetName)(); }

std::vector<SimdTarget> availableSimdTargets() {
  std::vector<SimdTarget> targets;
  for (const std::int64_t bits : hwy::SupportedAndGeneratedTargets()) targets.push_back({bits, hwy::TargetName(bits)});
  return targets;
}

void forceSimdTarget(std::int64_t bits) { hwy::SetSupportedTargetsForTest(bits); }

}  // namespace murmur::sim
#endif  // HWY_ONCE
