#pragma once
// The CPU reference of the model: exact float32 rules (rules.hpp) with two neighbour searches,
// comparable side by side: all pairs (O(N^2)) and the uniform grid (cell order rebuilt each step,
// sim::WorkerPool threads, candidates tested a vector at a time: sim/neighbour_sweep). Both visit candidates
// in cell order, so they give bit-identical results: any difference is a neighbour the grid missed.
#include <chrono>
#include <cstdint>
#include <span>
#include <string_view>
#include <vector>

#include <glm/vec3.hpp>

#include "sim/fine_grid.hpp"
#include "sim/flock.hpp"
#include "sim/grid.hpp"
#include "sim/metrics.hpp"
#include "sim/nearest_boids.hpp"
#include "sim/neighbour_sweep.hpp"
#include "sim/params.hpp"
#include "sim/rules.hpp"
#include "sim/worker_pool.hpp"

namespace murmur::sim {

enum class NeighbourSearch { Naive, Grid };

std::string_view toString(NeighbourSearch search);

class CpuSimulator {
 public:
  // threads <= 0: one per hardware thread.
  explicit CpuSimulator(NeighbourSearch search, int threads = 0);

  // One synchronous step of every boid (state is read whole, then replaced). Drops the resident
  // flock (below).
  void step(const ModelParams& params, const StepInputs& inputs, FlockState& state);

  // The resident flock: a run's state, kept between steps in the cell order of its last step, as
  // the GPU pipeline keeps it (docs/architecture.md). A step then gathers each boid from near its
  // last slot where one from id order gathers it from its id, a cache miss each at large flocks,
  // and puts nothing back in id order until state() asks. The same bytes as steps in id order.
  void setState(const FlockState& state);
  void step(const ModelParams& params, const StepInputs& inputs);
  // The resident flock in id order, into `out` (its arrays' capacity reused).
  void copyState(FlockState& out);
  // Whether the resident flock is finite (sim::allFinite, in whatever order it is kept).
  bool residentFinite() const { return allFinite(resident_); }
  FlockState state() {
    FlockState out;
    copyState(out);
    return out;
  }

  // The k nearest boids of each group around each probe (sim/nearest_boids.hpp) through the grid of
  // the last step (both searches build it): selected by the positions that step started from,
  // reported from now (the state that step produced; nothing is found when its size differs from the
  // grid's, as before any step). The GPU pipeline answers the same from its own grid.
  NearestBoids nearestBoids(const FlockState& now, std::span<const BoidProbe> probes, std::uint32_t k) const;

  // Where the last step's wall time went: building the grid (cell order, the cell-ordered copies
  // and, for a step in id order, the results gathered back into it) and the rest (forces,
  // integration, the heading pass), seconds; of that, the time the calling thread waited for late threads
  // (WorkerPool::waitedSeconds); and the threads it ran on (the pool's, or 1 where
  // sim::ThreadChoice found one faster).
  struct StepTimes {
    double grid = 0.0;
    double forces = 0.0;
    double waited = 0.0;
    int threads = 1;
  };
  StepTimes lastStepTimes() const { return times_; }
  // The boids whose neighbours the adaptive range settled in the last step (sim/fine_grid; the
  // grid search with the topological rule), the others searched over R.
  std::size_t lastStepRangeSettled() const { return rangeSettled_; }
  // For benchmarks: the adaptive range off searches every boid over R (the same results).
  void setAdaptiveRange(bool on) { adaptiveRange_ = on; }

  NeighbourSearch search() const { return search_; }
  int threads() const { return pool_.threads(); }
  // The threads the steps run on now: threads(), or 1 where sim::ThreadChoice found one faster.
  int threadsInUse() const { return threadChoice_.chosenSerial() ? 1 : pool_.threads(); }

 private:
  // A step's parts: its counters started and the state's optional arrays sized (beginStep); the
  // sort from `from` (its index s is boid ids[s], or boid s where ids is empty) and the step into
  // the next buffers (sortAndStep); the counters finished (endStep).
  void beginStep(const ModelParams& params, FlockState& state);
  void sortAndStep(const ModelParams& params, const StepInputs& inputs, const FlockState& from,
                   std::span<const std::uint32_t> ids);
  void endStep(std::chrono::steady_clock::time_point start);
  void stepNaive(const ModelParams& params, const StepInputs& inputs, const FlockState& from);
  void stepGrid(const ModelParams& params, const StepInputs& inputs, const FlockState& from);
  // Boid self's new state from its sums (a boid's step, a lab unit's or a starling's) and its leader flag
  // into the next buffers at its sorted slot.
  void storeStep(const StepContext& ctx, const BoidView& self, std::size_t slot, const NeighbourSums& sums);
  // The boids whose steps are made at once (storeBatch): the sweep's batches (kSweepBatch at most,
  // fewer in a sparse flock) gathered up to a vector of the widest instruction set's lanes, 16.
  // A batch at a time, AVX-512's vectors were half empty or worse (docs/architecture.md, Tuning
  // constants).
  static constexpr std::size_t kStepBatch = 2 * kSweepBatch;
  // Where integrateBatch serves the step: the leader flags of the boids of a batch (of kStepBatch
  // at most, in consecutive sorted slots from firstSlot), and their steps into the next buffers:
  // the forces and the integration a vector at a time where vectorForces (stepBatchServes, then
  // stepBatch), else the forces one by one and the integration a vector at a time. The all-pairs
  // search keeps storeStep's scalar functions, so the searches' parity checks the vectors' bit for
  // bit.
  void storeBatch(const StepContext& ctx, bool vectorForces, std::span<const BoidView> selves,
                  std::size_t firstSlot, std::span<const NeighbourSums> sums);
  // The next buffers (cell order) gathered into state (id order).
  void storeInIdOrder(const ModelParams& params, FlockState& state);
  // Builds cells_ from `from` (ids as sortAndStep's) and the cell-ordered copies of its position,
  // velocity, heading, group, attitude and ids.
  void sortByCell(const ModelParams& params, const FlockState& from, std::span<const std::uint32_t> ids);

  NeighbourSearch search_;
  WorkerPool pool_;
  ThreadChoice threadChoice_;  // after pool_, whose threads it is made with
  StepTimes times_;
  // Scratch reused between steps (no allocation per step once sized). The step's results in cell
  // order (slot k: boid sortedIds_[k]), gathered into id order at its end (storeInIdOrder) or made
  // the resident flock: written by id from the force loop, a cache miss each at large flocks, they
  // held the loop up (docs/architecture.md).
  std::vector<glm::vec3> nextPosition_, nextVelocity_,
      nextHeading_;                  // nextHeading_: only with stored headings
  std::vector<float> nextAttitude_;  // only for the lab's units and starlings
  std::vector<std::uint8_t> nextLeader_;
  GridSpec grid_;  // of the last step
  CellOrder cells_;
  // The adaptive range (sim/fine_grid): the fine grid of the step, each boid's range by id (kept
  // between steps), and how many boids it settled.
  FineGrid fine_;
  std::vector<float> range_;
  std::size_t rangeSettled_ = 0;
  bool adaptiveRange_ = true;
  // Positions and groups in cell order, the positions one array per axis, each with kSweepPadding
  // entries past the last boid (the positions' infinities) so that the neighbour sweep may read a
  // vector past it.
  std::vector<float> sortedX_, sortedY_, sortedZ_;
  // Velocities too, so that the force loop reads its boids' in order: gathered from id order a
  // second time they cost a quarter of a step at 1M boids (a cache miss each).
  std::vector<glm::vec3> sortedVelocity_, sortedHeading_;
  std::vector<std::uint32_t> sortedGroup_;
  std::vector<std::uint32_t> sortedIds_;  // the boid of each slot (the ids the sums are ordered by)
  std::vector<float> sortedAttitude_;     // only for the lab's units and starlings
  // The resident flock: in id order after setState (residentById_), else in the last step's cell
  // order, the ids of its slots in sortedIds_. previousIds_: the step's copy of those while the
  // sort writes its own.
  FlockState resident_;
  bool residentById_ = true;
  std::vector<std::uint32_t> previousIds_;
  double waitedBefore_ = 0.0;  // the pool's waitedSeconds() when the step began
};

}  // namespace murmur::sim
