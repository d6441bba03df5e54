#include "sim/cpu_simulator.hpp"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <limits>
#include <new>

#include "sim/fine_grid.hpp"
#include "sim/integrate_batch.hpp"
#include "sim/neighbour_sweep.hpp"
#include "sim/rules.hpp"

namespace murmur::sim {
namespace {

// Boids a thread claims at a time in the force loop: a 16th of a thread's share, so that a thread
// the scheduler holds back delays the step by little, and at least kForceChunk, so that claiming
// costs nothing. Not smaller: each thread streams the sorted arrays, and chunks of 128 boids
// handed out in turn broke every stream each 1.5 KiB (docs/architecture.md, Tuning constants).
constexpr std::size_t kForceChunk = 128;
constexpr std::size_t kForceChunksPerThread = 16;
std::size_t forceChunk(std::size_t n, int threads) {
  return boidChunk(n, std::max(kForceChunk, n / (kForceChunksPerThread * std::size_t(threads))));
}

// How many boids ahead the gathers between id order and cell order (sortByCell, storeInIdOrder)
// ask for the position and velocity they will read: at large flocks those reads miss the caches,
// and asked for early they come sooner (docs/architecture.md, Tuning constants).
constexpr std::size_t kGatherAhead = 16;

}  // namespace

std::string_view toString(NeighbourSearch search) {
  return search == NeighbourSearch::Naive ? "cpu-naive" : "cpu";
}

CpuSimulator::CpuSimulator(NeighbourSearch search, int threads)
    : search_(search), pool_(threads), threadChoice_(pool_.threads()) {}

void CpuSimulator::step(const ModelParams& params, const StepInputs& inputs, FlockState& state) {
  // The resident flock, if any, is dropped: the scratch it lives beside is this step's.
  resident_ = FlockState{};
  residentById_ = true;
  const auto start = std::chrono::steady_clock::now();
  beginStep(params, state);
  sortAndStep(params, inputs, state, {});
  storeInIdOrder(params, state);
  endStep(start);
}

void CpuSimulator::setState(const FlockState& state) {
  resident_ = state;  // into the arrays' capacity where it fits
  residentById_ = true;
}

void CpuSimulator::step(const ModelParams& params, const StepInputs& inputs) {
  const auto start = std::chrono::steady_clock::now();
  beginStep(params, resident_);
  if (residentById_) {
    sortAndStep(params, inputs, resident_, {});
  } else {
    // The flock's ids by slot are the last sort's: this sort writes its own.
    std::swap(sortedIds_, previousIds_);
    sortAndStep(params, inputs, resident_, previousIds_);
  }
  // The next state, in this step's cell order, becomes the flock: nothing moves.
  const std::size_t n = resident_.size();
  std::swap(resident_.position, nextPosition_);
  std::swap(resident_.velocity, nextVelocity_);
  std::swap(resident_.leader, nextLeader_);
  if (params.storesHeading()) std::swap(resident_.heading, nextHeading_);
  if (params.storesAttitude()) std::swap(resident_.attitude, nextAttitude_);
  // Copied, not swapped: nearestBoids reads the sorted groups of the last step.
  std::copy_n(sortedGroup_.begin(), n, resident_.group.begin());
  residentById_ = false;
  endStep(start);
}

void CpuSimulator::copyState(FlockState& out) {
  if (residentById_) {
    out = resident_;
    return;
  }
  out.groups = resident_.groups;
  const std::size_t n = resident_.size();
  out.resize(n);
  const bool stored = !resident_.heading.empty(), attitude = !resident_.attitude.empty();
  out.heading.resize(stored ? n : 0);
  out.attitude.resize(attitude ? n : 0);
  const std::uint32_t* ids = sortedIds_.data();
  pool_.forChunks(n, boidChunk(n, 4096), [&](std::size_t begin, std::size_t end) {
    for (std::size_t k = begin; k < end; ++k) {
      const std::uint32_t i = ids[k];
      out.position[i] = resident_.position[k];
      out.velocity[i] = resident_.velocity[k];
      out.group[i] = resident_.group[k];
      out.leader[i] = resident_.leader[k];
      if (stored) out.heading[i] = resident_.heading[k];
      if (attitude) out.attitude[i] = resident_.attitude[k];
    }
  });
}

void CpuSimulator::beginStep(const ModelParams& params, FlockState& state) {
  times_.grid = 0.0;
  pool_.setSerial(threadChoice_.serial());
  times_.threads = threadChoice_.serial() ? 1 : pool_.threads();
  waitedBefore_ = pool_.waitedSeconds();
  const std::size_t n = state.size();
  state.leader.resize(n);
  nextPosition_.resize(n);
  nextVelocity_.resize(n);
  nextLeader_.resize(n);
  // The stored heading exists only while the turn rate is on or the units are the lab's or
  // starlings: it starts as the velocity's. A lab unit's spin and a starling's bank start at 0.
  const bool stored = params.storesHeading();
  if (!stored) {
    state.heading.clear();
  } else if (state.heading.size() != n) {
    state.heading.resize(n);
    for (std::size_t i = 0; i < n; ++i) state.heading[i] = heading(state.velocity[i]);
  }
  const bool attitude = params.storesAttitude();
  if (!attitude)
    state.attitude.clear();
  else if (state.attitude.size() != n)
    state.attitude.assign(n, 0.0f);
  nextHeading_.resize(stored ? n : 0);
  nextAttitude_.resize(attitude ? n : 0);
}

void CpuSimulator::sortAndStep(const ModelParams& params, const StepInputs& inputs, const FlockState& from,
                               std::span<const std::uint32_t> ids) {
  sortByCell(params, from, ids);
  if (search_ == NeighbourSearch::Naive)
    stepNaive(params, inputs, from);
  else
    stepGrid(params, inputs, from);
}

void CpuSimulator::endStep(std::chrono::steady_clock::time_point start) {
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  times_.forces = seconds - times_.grid;
  times_.waited = pool_.waitedSeconds() - waitedBefore_;
  threadChoice_.record(seconds);
}

void CpuSimulator::storeStep(const StepContext& ctx, const BoidView& self, std::size_t slot,
                             const NeighbourSums& sums) {
  if (ctx.labUnits) {
    const LabUnit next = stepLabUnit(ctx, self, sortedAttitude_[slot], sums);
    nextPosition_[slot] = next.position;
    nextVelocity_[slot] = next.velocity;
    nextHeading_[slot] = next.heading;
    nextAttitude_[slot] = next.spin;
  } else if (ctx.starlings) {
    const BoidUpdate next = stepStarling(ctx, self, sortedAttitude_[slot], sums);
    nextPosition_[slot] = next.position;
    nextVelocity_[slot] = next.velocity;
    nextHeading_[slot] = next.heading;
    nextAttitude_[slot] = next.bank;
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
  glm::vec3 forces[kStepBatch];
  for (std::size_t b = 0; b < selves.size(); ++b)
    forces[b] = weightedForce(ctx, selves[b], computeForces(ctx, selves[b], sums[b]));
  integrateBatch(ctx, selves.data(), forces, selves.size(), &nextPosition_[firstSlot],
                 &nextVelocity_[firstSlot]);
}

void CpuSimulator::storeInIdOrder(const ModelParams& params, FlockState& state) {
  const auto start = std::chrono::steady_clock::now();
  const bool stored = params.storesHeading(), attitude = params.storesAttitude();
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
      if (attitude) state.attitude[i] = nextAttitude_[k];
    }
  });
  times_.grid += std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

void CpuSimulator::stepNaive(const ModelParams& params, const StepInputs& inputs, const FlockState& from) {
  const PackedInputs packed = packInputs(params, inputs, from.groups);
  const StepContext ctx = makeStepContext(params, packed);
  const std::size_t n = from.size();
  const float* x = sortedX_.data();
  const float* y = sortedY_.data();
  const float* z = sortedZ_.data();
  const glm::vec3* sortedVelocity = sortedVelocity_.data();
  const glm::vec3* sortedHeading = sortedHeading_.data();
  const std::uint32_t* sortedGroup = sortedGroup_.data();
  const std::uint32_t* ids = sortedIds_.data();
  // Every other boid is a candidate, visited in cell order: the grid search visits its candidates
  // in that same order, so the two searches agree bit for bit unless the grid misses a neighbour.
  pool_.forChunks(n, boidChunk(n, 16), [&](std::size_t first, std::size_t last) {
    for (std::size_t k = first; k < last; ++k) {
      const BoidView self{{x[k], y[k], z[k]}, sortedVelocity[k], sortedHeading[k], ids[k], sortedGroup[k]};
      NeighbourSums sums;
      for (std::size_t m = 0; m < n; ++m) {
        if (m == k) continue;
        accumulateNeighbour(ctx, self, offset(ctx, self.position, {x[m], y[m], z[m]}), sortedHeading[m],
                            ids[m], sortedGroup[m], sums);
      }
      finishNeighbours(ctx, sums);
      storeStep(ctx, self, k, sums);
    }
  });
}

void CpuSimulator::sortByCell(const ModelParams& params, const FlockState& from,
                              std::span<const std::uint32_t> ids) {
  const auto start = std::chrono::steady_clock::now();
  const std::size_t n = from.size();
  grid_ = makeGridSpec(params);
  cells_.build(grid_, from.position, pool_, ids);
  // Infinite padding: a vector read past the last boid tests far away, never within R.
  for (std::vector<float>* axis : {&sortedX_, &sortedY_, &sortedZ_}) {
    axis->resize(n + kSweepPadding);
    std::fill(axis->begin() + std::ptrdiff_t(n), axis->end(), std::numeric_limits<float>::infinity());
  }
  sortedVelocity_.resize(n);
  sortedHeading_.resize(n);
  sortedGroup_.resize(n + kSweepPadding);
  sortedIds_.resize(n);
  const bool attitude = params.storesAttitude();
  sortedAttitude_.resize(attitude ? n : 0);
  const std::uint32_t* order = cells_.order.data();
  const bool stored = params.storesHeading();  // f_i is the stored heading (docs/model.md, step 1)
  pool_.forChunks(n, boidChunk(n, 4096), [&](std::size_t begin, std::size_t end) {
    for (std::size_t k = begin; k < end; ++k) {
      if (k + kGatherAhead < end) {
        const std::uint32_t ahead = order[k + kGatherAhead];
        __builtin_prefetch(&from.position[ahead]);
        __builtin_prefetch(&from.velocity[ahead]);
      }
      const std::uint32_t i = order[k];
      sortedX_[k] = from.position[i].x;
      sortedY_[k] = from.position[i].y;
      sortedZ_[k] = from.position[i].z;
      sortedVelocity_[k] = from.velocity[i];
      sortedHeading_[k] = stored ? from.heading[i] : heading(sortedVelocity_[k]);
      sortedGroup_[k] = from.group[i];
      sortedIds_[k] = ids.empty() ? i : ids[i];
      if (attitude) sortedAttitude_[k] = from.attitude[i];
    }
  });
  rangeSettled_ = 0;
  if (search_ == NeighbourSearch::Grid && adaptiveRange_ && usesAdaptiveRange(params, grid_)) {
    fine_.build({sortedX_.data(), sortedY_.data(), sortedZ_.data(), sortedHeading_.data(),
                 sortedGroup_.data(), sortedIds_.data()},
                n, params.perceptionRadius, params.dims);
    range_.resize(n, 0.0f);
  }
  times_.grid = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

NearestBoids CpuSimulator::nearestBoids(const FlockState& now, std::span<const BoidProbe> probes,
                                        std::uint32_t k) const {
  if (sortedIds_.size() != now.size() || cells_.cellStart.empty())
    return NearestBoids(probes.size(), now.groups, k);
  const std::size_t n = now.size();
  return sim::nearestBoids(grid_, cells_, std::span(sortedX_).first(n), std::span(sortedY_).first(n),
                           std::span(sortedZ_).first(n), std::span(sortedGroup_).first(n), sortedIds_, now,
                           probes, k);
}

void CpuSimulator::stepGrid(const ModelParams& params, const StepInputs& inputs, const FlockState& from) {
  const PackedInputs packed = packInputs(params, inputs, from.groups);
  const StepContext ctx = makeStepContext(params, packed);
  const std::size_t n = from.size();
  const GridSpec& grid = grid_;
  const std::uint32_t* ids = sortedIds_.data();
  const float* x = sortedX_.data();
  const float* y = sortedY_.data();
  const float* z = sortedZ_.data();
  const glm::vec3* sortedVelocity = sortedVelocity_.data();
  const glm::vec3* sortedHeading = sortedHeading_.data();
  const std::uint32_t* sortedGroup = sortedGroup_.data();
  // Boids are visited in cell order so that consecutive boids share cached cells; each boid's
  // candidates come in increasing slot order (sim/neighbour_sweep), as the all-pairs search has them.
  const SortedFlock flock{x, y, z, sortedHeading, sortedGroup, ids};
  const bool spanBatches = sweepsBatchAsBox(ctx);
  const bool vectorIntegration = integrateBatchServes(ctx);
  const bool vectorForces = stepBatchServes(ctx);
  const AdaptiveRange adaptive{&fine_, range_.data(), kRangeMargin * params.maxSpeed * params.dt};
  const AdaptiveRange* adaptiveRange =
      adaptiveRange_ && usesAdaptiveRange(params, grid) ? &adaptive : nullptr;
  std::atomic<std::size_t> settledTotal{0};
  pool_.forChunks(n, forceChunk(n, times_.threads), [&](std::size_t first, std::size_t last) {
    std::size_t settled = 0;
    CellRuns around;
    SweepScratch scratch;
    // The swept boids whose steps wait for a batch of kStepBatch: consecutive slots from
    // pendingFirst.
    BoidView selves[kStepBatch];
    NeighbourSums sums[kStepBatch];
    std::size_t pendingFirst = first, pending = 0;
    const auto storePending = [&] {
      if (pending > 0)
        storeBatch(ctx, vectorForces, std::span(selves, pending), pendingFirst, std::span(sums, pending));
      pending = 0;
    };
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
      if (pending + batch > kStepBatch) storePending();
      if (pending == 0) pendingFirst = k;
      BoidView* batchSelves = selves + pending;
      NeighbourSums* batchSums = sums + pending;
      for (std::size_t b = 0; b < batch; ++b) {
        const std::size_t slot = k + b;
        batchSelves[b] = {{x[slot], y[slot], z[slot]},
                          sortedVelocity[slot],
                          sortedHeading[slot],
                          ids[slot],
                          sortedGroup[slot]};
        ::new (static_cast<void*>(batchSums + b)) NeighbourSums;  // the nearest list left unwritten
      }
      settled += sweepNeighbours(ctx, grid, cells_, params.dims, flock, static_cast<std::uint32_t>(k),
                                 std::span(batchSelves, batch), std::span(batchSums, batch), around, scratch,
                                 adaptiveRange);
      for (std::size_t b = 0; b < batch; ++b) finishNeighbours(ctx, batchSums[b]);
      if (vectorIntegration) {
        pending += batch;
      } else {
        for (std::size_t b = 0; b < batch; ++b) storeStep(ctx, batchSelves[b], k + b, batchSums[b]);
      }
      k += batch;
    }
    storePending();
    settledTotal += settled;
  });
  rangeSettled_ = settledTotal;
}

}  // namespace murmur::sim
