#include "sim/cpu_backend.hpp"

#include <omp.h>

#include "sim/rules.hpp"

namespace murmur::sim {

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
  const glm::vec3* sortedPosition = sortedPosition_.data();
  const glm::vec3* sortedHeading = sortedHeading_.data();
  const std::uint32_t* sortedGroup = sortedGroup_.data();
  const std::uint32_t* order = cells_.order.data();
  // Every other boid is a candidate, visited in cell order: the grid search visits its candidates
  // in that same order, so the two searches agree bit for bit unless the grid misses a neighbour.
#pragma omp parallel for num_threads(threads_) schedule(dynamic, 64)
  for (std::size_t k = 0; k < n; ++k) {
    const std::uint32_t i = order[k];
    const BoidView self{sortedPosition[k], state.velocity[i], sortedHeading[k], i, sortedGroup[k]};
    NeighbourSums sums;
    for (std::size_t m = 0; m < n; ++m) {
      if (m == k) continue;
      accumulateNeighbour(ctx, self, offset(ctx, self.position, sortedPosition[m]), sortedHeading[m], order[m],
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
  sortedPosition_.resize(n);
  sortedHeading_.resize(n);
  sortedGroup_.resize(n);
  const std::uint32_t* order = cells_.order.data();
#pragma omp parallel for num_threads(threads_) schedule(static)
  for (std::size_t k = 0; k < n; ++k) {
    const std::uint32_t i = order[k];
    sortedPosition_[k] = state.position[i];
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
  const glm::vec3* sortedPosition = sortedPosition_.data();
  const glm::vec3* sortedHeading = sortedHeading_.data();
  const std::uint32_t* sortedGroup = sortedGroup_.data();
  // Boids are visited in cell order so that consecutive boids share cached cells; each boid's
  // candidates come in increasing slot order (forEachNeighbourRange visits cells in index order).
#pragma omp parallel for num_threads(threads_) schedule(dynamic, 256)
  for (std::size_t k = 0; k < n; ++k) {
    const std::uint32_t i = order[k];
    const BoidView self{sortedPosition[k], state.velocity[i], sortedHeading[k], i, sortedGroup[k]};
    NeighbourSums sums;
    forEachNeighbourRange(grid, cells_, grid.cellCoord(self.position), params.dims,
                          [&](std::uint32_t begin, std::uint32_t end, bool imaged) {
                            for (std::uint32_t m = begin; m < end; ++m) {
                              if (m == k) continue;  // the boid's own slot
                              glm::vec3 d = sortedPosition[m] - self.position;
                              if (imaged) d = minimumImage(d, ctx.worldSize);
                              accumulateNeighbour(ctx, self, d, sortedHeading[m], order[m],
                                                  sortedGroup[m], sums);
                            }
                          });
    const BoidUpdate next = stepBoid(ctx, self, sums);
    nextPosition_[i] = next.position;
    nextVelocity_[i] = next.velocity;
  }
}

}  // namespace murmur::sim
