#include "sim/cpu_backend.hpp"

#include <omp.h>
#if defined(__SSE2__)
#include <emmintrin.h>
#endif

#include <limits>

#include "sim/rules.hpp"

namespace murmur::sim {
namespace {

// The candidates of one run of cells, slots [begin, end), folded into boid `self` (in slot
// `selfSlot`), in slot order. Positions come as separate x, y, z arrays (padded with infinities
// past the last boid, see kPadding) and every pointer is a local, so the distance test is a few
// instructions with no reloads (a lambda capturing them by reference was 30% slower). With SSE2
// the test runs on four candidates at once; a bit mask keeps them in slot order. It makes the
// operations of accumulateNeighbour's own test in the same order, so skipping the candidates that
// fail it changes no sum.
template <bool Imaged>
void gatherRun(const StepContext& ctx, const BoidView& self, std::uint32_t selfSlot, const float* x, const float* y,
               const float* z, const glm::vec3* heading, const std::uint32_t* id, const std::uint32_t* group,
               std::uint32_t begin, std::uint32_t end, NeighbourSums& sums) {
  const glm::vec3 p = self.position;
  auto visit = [&](std::uint32_t m) {
    glm::vec3 d(x[m] - p.x, y[m] - p.y, z[m] - p.z);
    if constexpr (Imaged) d = minimumImage(d, ctx.worldSize);
    if (m != selfSlot) accumulateNeighbour(ctx, self, d, heading[m], id[m], group[m], sums);
  };
#if defined(__SSE2__)
  const __m128 radius2 = _mm_set1_ps(ctx.searchRadius2);
  auto offsets = [&](const float* axis, float position, float size) {
    const __m128 d = _mm_sub_ps(_mm_loadu_ps(axis), _mm_set1_ps(position));
    if constexpr (!Imaged) return d;
    // sim::foldComponent on four lanes: d - size where d >= size/2, d + size where d < -size/2.
    const __m128 half = _mm_set1_ps(0.5f * size), sizes = _mm_set1_ps(size);
    const __m128 high = _mm_cmpge_ps(d, half);
    const __m128 low = _mm_cmplt_ps(d, _mm_sub_ps(_mm_setzero_ps(), half));
    const __m128 folded = _mm_or_ps(_mm_and_ps(high, _mm_sub_ps(d, sizes)), _mm_andnot_ps(high, d));
    return _mm_or_ps(_mm_and_ps(low, _mm_add_ps(d, sizes)), _mm_andnot_ps(low, folded));
  };
  for (std::uint32_t m = begin; m < end; m += 4) {
    const __m128 dx = offsets(x + m, p.x, ctx.worldSize.x);
    const __m128 dy = offsets(y + m, p.y, ctx.worldSize.y);
    const __m128 dz = offsets(z + m, p.z, ctx.worldSize.z);
    const __m128 d2 = _mm_add_ps(_mm_add_ps(_mm_mul_ps(dx, dx), _mm_mul_ps(dy, dy)), _mm_mul_ps(dz, dz));
    int mask = _mm_movemask_ps(_mm_cmplt_ps(d2, radius2));
    if (end - m < 4) mask &= (1 << (end - m)) - 1;  // lanes past the run belong to other cells
    for (; mask != 0; mask &= mask - 1) visit(m + static_cast<std::uint32_t>(__builtin_ctz(static_cast<unsigned>(mask))));
  }
#else
  for (std::uint32_t m = begin; m < end; ++m) {
    glm::vec3 d(x[m] - p.x, y[m] - p.y, z[m] - p.z);
    if constexpr (Imaged) d = minimumImage(d, ctx.worldSize);
    if (glm::dot(d, d) < ctx.searchRadius2) visit(m);
  }
#endif
}

}  // namespace

std::string_view toString(NeighbourSearch search) {
  return search == NeighbourSearch::Naive ? "cpu-naive" : "cpu";
}

CpuSimulator::CpuSimulator(NeighbourSearch search, int threads)
    : search_(search), threads_(threads > 0 ? threads : omp_get_max_threads()) {}

void CpuSimulator::step(const ModelParams& params, const StepInputs& inputs, FlockState& state) {
  const std::size_t n = state.size();
  heading_.resize(n);
  state.leader.resize(n);
  nextPosition_.resize(n);
  nextVelocity_.resize(n);
#pragma omp parallel for num_threads(threads_) if(n >= kParallelMinBoids) schedule(static)
  for (std::size_t i = 0; i < n; ++i) heading_[i] = heading(state.velocity[i]);
  if (search_ == NeighbourSearch::Naive)
    stepNaive(params, inputs, state);
  else
    stepGrid(params, inputs, state);
  state.position.swap(nextPosition_);
  state.velocity.swap(nextVelocity_);
}

void CpuSimulator::stepNaive(const ModelParams& params, const StepInputs& inputs, FlockState& state) {
  const PackedInputs packed = packInputs(params, inputs, state.groups);
  const StepContext ctx = makeStepContext(params, packed);
  const std::size_t n = state.size();
  sortByCell(params, state);
  const float* x = sortedX_.data();
  const float* y = sortedY_.data();
  const float* z = sortedZ_.data();
  const glm::vec3* sortedHeading = sortedHeading_.data();
  const std::uint32_t* sortedGroup = sortedGroup_.data();
  const std::uint32_t* order = cells_.order.data();
  // Every other boid is a candidate, visited in cell order: the grid search visits its candidates
  // in that same order, so the two searches agree bit for bit unless the grid misses a neighbour.
#pragma omp parallel for num_threads(threads_) if(n >= kParallelMinBoids) schedule(dynamic, 64)
  for (std::size_t k = 0; k < n; ++k) {
    const std::uint32_t i = order[k];
    const BoidView self{{x[k], y[k], z[k]}, state.velocity[i], sortedHeading[k], i, sortedGroup[k]};
    NeighbourSums sums;
    for (std::size_t m = 0; m < n; ++m) {
      if (m == k) continue;
      accumulateNeighbour(ctx, self, offset(ctx, self.position, {x[m], y[m], z[m]}), sortedHeading[m], order[m],
                          sortedGroup[m], sums);
    }
    finishNeighbours(ctx, sums);
    const BoidUpdate next = stepBoid(ctx, self, sums);
    nextPosition_[i] = next.position;
    nextVelocity_[i] = next.velocity;
    state.leader[i] = leaderFlag(ctx, sums);
  }
}

void CpuSimulator::sortByCell(const ModelParams& params, const FlockState& state) {
  const std::size_t n = state.size();
  grid_ = makeGridSpec(params);
  cells_.build(grid_, state.position, threads_);
  // Infinite padding: a block of four read past the last boid tests far away, never within R.
  sortedX_.assign(n + kPadding, std::numeric_limits<float>::infinity());
  sortedY_.assign(n + kPadding, std::numeric_limits<float>::infinity());
  sortedZ_.assign(n + kPadding, std::numeric_limits<float>::infinity());
  sortedHeading_.resize(n);
  sortedGroup_.resize(n);
  const std::uint32_t* order = cells_.order.data();
#pragma omp parallel for num_threads(threads_) if(n >= kParallelMinBoids) schedule(static)
  for (std::size_t k = 0; k < n; ++k) {
    const std::uint32_t i = order[k];
    sortedX_[k] = state.position[i].x;
    sortedY_[k] = state.position[i].y;
    sortedZ_[k] = state.position[i].z;
    sortedHeading_[k] = heading_[i];
    sortedGroup_[k] = state.group[i];
  }
}

NearestBoids CpuSimulator::nearestBoids(const FlockState& now, std::span<const BoidProbe> probes,
                                       std::uint32_t k) const {
  if (cells_.order.size() != now.size() || cells_.cellStart.empty()) return NearestBoids(probes.size(), now.groups, k);
  const std::size_t n = now.size();
  return sim::nearestBoids(grid_, cells_, std::span(sortedX_).first(n), std::span(sortedY_).first(n),
                           std::span(sortedZ_).first(n), sortedGroup_, now, probes, k);
}

void CpuSimulator::stepGrid(const ModelParams& params, const StepInputs& inputs, FlockState& state) {
  const PackedInputs packed = packInputs(params, inputs, state.groups);
  const StepContext ctx = makeStepContext(params, packed);
  const std::size_t n = state.size();
  sortByCell(params, state);
  const GridSpec& grid = grid_;
  const std::uint32_t* order = cells_.order.data();
  const float* x = sortedX_.data();
  const float* y = sortedY_.data();
  const float* z = sortedZ_.data();
  const glm::vec3* sortedHeading = sortedHeading_.data();
  const std::uint32_t* sortedGroup = sortedGroup_.data();
  // Boids are visited in cell order so that consecutive boids share cached cells; each boid's
  // candidates come in increasing slot order (forEachNeighbourRange visits cells in index order).
#pragma omp parallel for num_threads(threads_) if(n >= kParallelMinBoids) schedule(dynamic, 256)
  for (std::size_t k = 0; k < n; ++k) {
    const std::uint32_t i = order[k];
    const std::uint32_t slot = static_cast<std::uint32_t>(k);
    const BoidView self{{x[k], y[k], z[k]}, state.velocity[i], sortedHeading[k], i, sortedGroup[k]};
    NeighbourSums sums;
    forEachNeighbourRange(grid, cells_, grid.cellCoord(self.position), params.dims,
                          [&](std::uint32_t begin, std::uint32_t end, bool imaged) {
                            if (imaged)
                              gatherRun<true>(ctx, self, slot, x, y, z, sortedHeading, order, sortedGroup, begin,
                                              end, sums);
                            else
                              gatherRun<false>(ctx, self, slot, x, y, z, sortedHeading, order, sortedGroup, begin,
                                               end, sums);
                          });
    finishNeighbours(ctx, sums);
    const BoidUpdate next = stepBoid(ctx, self, sums);
    nextPosition_[i] = next.position;
    nextVelocity_[i] = next.velocity;
    state.leader[i] = leaderFlag(ctx, sums);
  }
}

}  // namespace murmur::sim
