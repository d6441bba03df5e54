#include "sim/cpu_backend.hpp"

#include <omp.h>

#include "sim/rules.hpp"

namespace murmur::sim {
namespace {

// The candidates of one run of cells, slots [begin, end), folded into boid `self` (in slot
// `selfSlot`), in slot order. Positions come as separate x, y, z arrays and every pointer is a
// local, so the distance test is a few instructions with no reloads (a lambda capturing them by
// reference was 30% slower); it is the test accumulateNeighbour makes, so skipping the candidates
// that fail it changes no sum. (A branch-free first pass over blocks measured slower.)
template <bool Imaged>
void gatherRun(const StepContext& ctx, const BoidView& self, std::uint32_t selfSlot, const float* x, const float* y,
               const float* z, const glm::vec3* heading, const std::uint32_t* id, const std::uint32_t* group,
               std::uint32_t begin, std::uint32_t end, NeighbourSums& sums) {
  const float px = self.position.x, py = self.position.y, pz = self.position.z;
  const float radius2 = ctx.radius2;
  for (std::uint32_t m = begin; m < end; ++m) {
    glm::vec3 d(x[m] - px, y[m] - py, z[m] - pz);
    if constexpr (Imaged) d = minimumImage(d, ctx.worldSize);
    if (!(glm::dot(d, d) < radius2) || m == selfSlot) continue;
    accumulateNeighbour(ctx, self, d, heading[m], id[m], group[m], sums);
  }
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
  nextPosition_.resize(n);
  nextVelocity_.resize(n);
#pragma omp parallel for num_threads(threads_) schedule(static)
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
#pragma omp parallel for num_threads(threads_) schedule(dynamic, 64)
  for (std::size_t k = 0; k < n; ++k) {
    const std::uint32_t i = order[k];
    const BoidView self{{x[k], y[k], z[k]}, state.velocity[i], sortedHeading[k], i, sortedGroup[k]};
    NeighbourSums sums;
    for (std::size_t m = 0; m < n; ++m) {
      if (m == k) continue;
      accumulateNeighbour(ctx, self, offset(ctx, self.position, {x[m], y[m], z[m]}), sortedHeading[m], order[m],
                          sortedGroup[m], sums);
    }
    const BoidUpdate next = stepBoid(ctx, self, sums);
    nextPosition_[i] = next.position;
    nextVelocity_[i] = next.velocity;
  }
}

void CpuSimulator::sortByCell(const ModelParams& params, const FlockState& state) {
  const std::size_t n = state.size();
  cells_.build(makeGridSpec(params), state.position, threads_);
  sortedX_.resize(n);
  sortedY_.resize(n);
  sortedZ_.resize(n);
  sortedHeading_.resize(n);
  sortedGroup_.resize(n);
  const std::uint32_t* order = cells_.order.data();
#pragma omp parallel for num_threads(threads_) schedule(static)
  for (std::size_t k = 0; k < n; ++k) {
    const std::uint32_t i = order[k];
    sortedX_[k] = state.position[i].x;
    sortedY_[k] = state.position[i].y;
    sortedZ_[k] = state.position[i].z;
    sortedHeading_[k] = heading_[i];
    sortedGroup_[k] = state.group[i];
  }
}

void CpuSimulator::stepGrid(const ModelParams& params, const StepInputs& inputs, FlockState& state) {
  const PackedInputs packed = packInputs(params, inputs, state.groups);
  const StepContext ctx = makeStepContext(params, packed);
  const GridSpec grid = makeGridSpec(params);
  const std::size_t n = state.size();
  sortByCell(params, state);
  const std::uint32_t* order = cells_.order.data();
  const float* x = sortedX_.data();
  const float* y = sortedY_.data();
  const float* z = sortedZ_.data();
  const glm::vec3* sortedHeading = sortedHeading_.data();
  const std::uint32_t* sortedGroup = sortedGroup_.data();
  // Boids are visited in cell order so that consecutive boids share cached cells; each boid's
  // candidates come in increasing slot order (forEachNeighbourRange visits cells in index order).
#pragma omp parallel for num_threads(threads_) schedule(dynamic, 256)
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
    const BoidUpdate next = stepBoid(ctx, self, sums);
    nextPosition_[i] = next.position;
    nextVelocity_[i] = next.velocity;
  }
}

}  // namespace murmur::sim
