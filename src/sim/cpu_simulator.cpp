#include "sim/cpu_simulator.hpp"

#include <chrono>
#include <limits>

#include "sim/integrate_batch.hpp"
#include "sim/neighbour_sweep.hpp"
#include "sim/rules.hpp"

namespace murmur::sim {
namespace {

// Boids a thread claims at a time in the force loop: small enough that a thread the scheduler
// holds back delays the step by little, large enough that claiming costs nothing.
constexpr std::size_t kForceChunk = 128;

// How many boids ahead the gathers between id order and cell order (sortByCell, storeInIdOrder)
// ask for the position and velocity they will read: at large flocks those reads miss the caches,
// and asked for early they come sooner (density at 1M boids: about 6% of a one-thread step).
constexpr std::size_t kGatherAhead = 16;

}  // namespace

std::string_view toString(NeighbourSearch search) {
  return search == NeighbourSearch::Naive ? "cpu-naive" : "cpu";
}

CpuSimulator::CpuSimulator(NeighbourSearch search, int threads)
    : search_(search), pool_(threads), threadChoice_(pool_.threads()) {}

void CpuSimulator::step(const ModelParams& params, const StepInputs& inputs, FlockState& state) {
  const auto start = std::chrono::steady_clock::now();
  times_.grid = 0.0;
  pool_.setSerial(threadChoice_.serial());
  times_.threads = threadChoice_.serial() ? 1 : pool_.threads();
  const double waitedBefore = pool_.waitedSeconds();
  const std::size_t n = state.size();
  state.leader.resize(n);
  nextPosition_.resize(n);
  nextVelocity_.resize(n);
  nextLeader_.resize(n);
  // The stored heading exists only while the turn rate is on or the units are the lab's: it starts
  // as the velocity's. A lab unit's spin starts at 0.
  const bool stored = params.storesHeading();
  if (!stored) {
    state.heading.clear();
  } else if (state.heading.size() != n) {
    state.heading.resize(n);
    for (std::size_t i = 0; i < n; ++i) state.heading[i] = heading(state.velocity[i]);
  }
  const bool lab = params.unitModel == UnitModel::Lab;
  if (!lab) state.spin.clear();
  else if (state.spin.size() != n) state.spin.assign(n, 0.0f);
  nextHeading_.resize(stored ? n : 0);
  nextSpin_.resize(lab ? n : 0);
  if (search_ == NeighbourSearch::Naive)
    stepNaive(params, inputs, state);
  else
    stepGrid(params, inputs, state);
  storeInIdOrder(stored, lab, state);
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  times_.forces = seconds - times_.grid;
  times_.waited = pool_.waitedSeconds() - waitedBefore;
  threadChoice_.record(seconds);
}

void CpuSimulator::storeStep(const StepContext& ctx, const BoidView& self, std::size_t slot, const FlockState& state,
                             const NeighbourSums& sums) {
  if (ctx.labUnits) {
    const LabUnit next = stepLabUnit(ctx, self, state.spin[self.id], sums);
    nextPosition_[slot] = next.position;
    nextVelocity_[slot] = next.velocity;
    nextHeading_[slot] = next.heading;
    nextSpin_[slot] = next.spin;
  } else {
    const BoidUpdate next = stepBoid(ctx, self, sums);
    nextPosition_[slot] = next.position;
    nextVelocity_[slot] = next.velocity;
    if (ctx.turning) nextHeading_[slot] = next.heading;
  }
  nextLeader_[slot] = leaderFlag(ctx, sums);
}

void CpuSimulator::storeBatch(const StepContext& ctx, bool vectorForces, std::span<const BoidView> selves,
                              std::size_t firstSlot, std::span<const NeighbourSums> sums) {
  for (std::size_t b = 0; b < selves.size(); ++b) nextLeader_[firstSlot + b] = leaderFlag(ctx, sums[b]);
  if (vectorForces) {
    stepBatch(ctx, selves.data(), sums.data(), selves.size(), &nextPosition_[firstSlot],
              &nextVelocity_[firstSlot]);
    return;
  }
  glm::vec3 forces[kSweepBatch];
  for (std::size_t b = 0; b < selves.size(); ++b)
    forces[b] = weightedForce(ctx, selves[b], computeForces(ctx, selves[b], sums[b]));
  integrateBatch(ctx, selves.data(), forces, selves.size(), &nextPosition_[firstSlot], &nextVelocity_[firstSlot]);
}

void CpuSimulator::storeInIdOrder(bool stored, bool lab, FlockState& state) {
  const auto start = std::chrono::steady_clock::now();
  const std::size_t n = state.size();
  const std::uint32_t* slotOf = cells_.slotOf.data();
  pool_.forChunks(n, boidChunk(n, 4096), [&](std::size_t begin, std::size_t end) {
    for (std::size_t i = begin; i < end; ++i) {
      if (i + kGatherAhead < end) {
        const std::uint32_t ahead = slotOf[i + kGatherAhead];
        __builtin_prefetch(&nextPosition_[ahead]);
        __builtin_prefetch(&nextVelocity_[ahead]);
      }
      const std::uint32_t k = slotOf[i];
      state.position[i] = nextPosition_[k];
      state.velocity[i] = nextVelocity_[k];
      state.leader[i] = nextLeader_[k];
      if (stored) state.heading[i] = nextHeading_[k];
      if (lab) state.spin[i] = nextSpin_[k];
    }
  });
  times_.grid += std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

void CpuSimulator::stepNaive(const ModelParams& params, const StepInputs& inputs, FlockState& state) {
  const PackedInputs packed = packInputs(params, inputs, state.groups);
  const StepContext ctx = makeStepContext(params, packed);
  const std::size_t n = state.size();
  sortByCell(params, state);
  const float* x = sortedX_.data();
  const float* y = sortedY_.data();
  const float* z = sortedZ_.data();
  const glm::vec3* sortedVelocity = sortedVelocity_.data();
  const glm::vec3* sortedHeading = sortedHeading_.data();
  const std::uint32_t* sortedGroup = sortedGroup_.data();
  const std::uint32_t* order = cells_.order.data();
  // Every other boid is a candidate, visited in cell order: the grid search visits its candidates
  // in that same order, so the two searches agree bit for bit unless the grid misses a neighbour.
  pool_.forChunks(n, boidChunk(n, 16), [&](std::size_t first, std::size_t last) {
    for (std::size_t k = first; k < last; ++k) {
      const std::uint32_t i = order[k];
      const BoidView self{{x[k], y[k], z[k]}, sortedVelocity[k], sortedHeading[k], i, sortedGroup[k]};
      NeighbourSums sums;
      for (std::size_t m = 0; m < n; ++m) {
        if (m == k) continue;
        accumulateNeighbour(ctx, self, offset(ctx, self.position, {x[m], y[m], z[m]}), sortedHeading[m], order[m],
                            sortedGroup[m], sums);
      }
      finishNeighbours(ctx, sums);
      storeStep(ctx, self, k, state, sums);
    }
  });
}

void CpuSimulator::sortByCell(const ModelParams& params, const FlockState& state) {
  const auto start = std::chrono::steady_clock::now();
  const std::size_t n = state.size();
  grid_ = makeGridSpec(params);
  cells_.build(grid_, state.position, pool_);
  // Infinite padding: a vector read past the last boid tests far away, never within R.
  for (std::vector<float>* axis : {&sortedX_, &sortedY_, &sortedZ_}) {
    axis->resize(n + kSweepPadding);
    std::fill(axis->begin() + std::ptrdiff_t(n), axis->end(), std::numeric_limits<float>::infinity());
  }
  sortedVelocity_.resize(n);
  sortedHeading_.resize(n);
  sortedGroup_.resize(n + kSweepPadding);
  const std::uint32_t* order = cells_.order.data();
  const bool stored = params.storesHeading();  // f_i is the stored heading (docs/model.md, step 1)
  pool_.forChunks(n, boidChunk(n, 4096), [&](std::size_t begin, std::size_t end) {
    for (std::size_t k = begin; k < end; ++k) {
      if (k + kGatherAhead < end) {
        const std::uint32_t ahead = order[k + kGatherAhead];
        __builtin_prefetch(&state.position[ahead]);
        __builtin_prefetch(&state.velocity[ahead]);
      }
      const std::uint32_t i = order[k];
      sortedX_[k] = state.position[i].x;
      sortedY_[k] = state.position[i].y;
      sortedZ_[k] = state.position[i].z;
      sortedVelocity_[k] = state.velocity[i];
      sortedHeading_[k] = stored ? state.heading[i] : heading(sortedVelocity_[k]);
      sortedGroup_[k] = state.group[i];
    }
  });
  times_.grid = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

NearestBoids CpuSimulator::nearestBoids(const FlockState& now, std::span<const BoidProbe> probes,
                                       std::uint32_t k) const {
  if (cells_.order.size() != now.size() || cells_.cellStart.empty()) return NearestBoids(probes.size(), now.groups, k);
  const std::size_t n = now.size();
  return sim::nearestBoids(grid_, cells_, std::span(sortedX_).first(n), std::span(sortedY_).first(n),
                           std::span(sortedZ_).first(n), std::span(sortedGroup_).first(n), now, probes, k);
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
  const glm::vec3* sortedVelocity = sortedVelocity_.data();
  const glm::vec3* sortedHeading = sortedHeading_.data();
  const std::uint32_t* sortedGroup = sortedGroup_.data();
  // Boids are visited in cell order so that consecutive boids share cached cells; each boid's
  // candidates come in increasing slot order (sim/neighbour_sweep), as the all-pairs search has them.
  const SortedFlock flock{x, y, z, sortedHeading, sortedGroup, order};
  const bool spanBatches = sweepsBatchAsBox(ctx);
  const bool vectorIntegration = integrateBatchServes(ctx);
  const bool vectorForces = stepBatchServes(ctx);
  pool_.forChunks(n, boidChunk(n, kForceChunk), [&](std::size_t first, std::size_t last) {
    CellRuns around;
    SweepScratch scratch;
    for (std::size_t k = first; k < last;) {
      // The boids from k on in k's cell (kSweepBatch at most) swept together; where they are few,
      // with those of the next cells along its row (kSweepBatchSpan).
      const std::uint32_t cell = cells_.cellOfSlot[k];
      const std::size_t limit = std::min(last, k + kSweepBatch);
      std::size_t end = std::min<std::size_t>(cells_.cellStart[cell + 1], limit);
      if (spanBatches && end < limit && end - k <= kSweepSparseCell) {
        const std::uint32_t spanEnd = plainRowSpanEnd(grid, cell, params.dims, kSweepBatchSpan);
        end = std::min<std::size_t>(cells_.cellStart[spanEnd + 1], limit);
      }
      const std::size_t batch = end - k;
      BoidView selves[kSweepBatch];
      NeighbourSums sums[kSweepBatch];
      for (std::size_t b = 0; b < batch; ++b)
        selves[b] = {{x[k + b], y[k + b], z[k + b]}, sortedVelocity[k + b], sortedHeading[k + b], order[k + b],
                     sortedGroup[k + b]};
      sweepNeighbours(ctx, grid, cells_, params.dims, flock, static_cast<std::uint32_t>(k), std::span(selves, batch),
                      std::span(sums, batch), around, scratch);
      for (std::size_t b = 0; b < batch; ++b) finishNeighbours(ctx, sums[b]);
      if (vectorIntegration) {
        storeBatch(ctx, vectorForces, std::span(selves, batch), k, std::span(sums, batch));
      } else {
        for (std::size_t b = 0; b < batch; ++b) storeStep(ctx, selves[b], k + b, state, sums[b]);
      }
      k += batch;
    }
  });
}

}  // namespace murmur::sim
