#pragma once
// The CPU reference of the model: exact float32 rules (rules.hpp) with two neighbour searches,
// comparable side by side: all pairs (O(N^2)) and the uniform grid (cell order rebuilt each step,
// sim::WorkerPool threads, candidates tested a vector at a time: sim/neighbour_sweep). Both visit candidates in cell order, so they give bit-identical results: any
// difference is a neighbour the grid missed.
#include <cstdint>
#include <span>
#include <string_view>
#include <vector>

#include <glm/vec3.hpp>

#include "sim/flock.hpp"
#include "sim/grid.hpp"
#include "sim/nearest_boids.hpp"
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

  // One synchronous step of every boid (state is read whole, then replaced).
  void step(const ModelParams& params, const StepInputs& inputs, FlockState& state);

  // The k nearest boids of each group around each probe (sim/nearest_boids.hpp) through the grid of
  // the last step (both searches build it): selected by the positions that step started from,
  // reported from now (the state that step produced; nothing is found when its size differs from the
  // grid's, as before any step). The GPU pipeline answers the same from its own grid.
  NearestBoids nearestBoids(const FlockState& now, std::span<const BoidProbe> probes, std::uint32_t k) const;

  // Where the last step's wall time went: building the grid (cell order, the cell-ordered copies
  // and the results gathered back into id order) and the rest (forces, integration, the heading
  // pass), seconds; of that, the time the calling thread waited for late threads
  // (WorkerPool::waitedSeconds); and the threads it ran on (the pool's, or 1 where
  // sim::ThreadChoice found one faster).
  struct StepTimes {
    double grid = 0.0;
    double forces = 0.0;
    double waited = 0.0;
    int threads = 1;
  };
  StepTimes lastStepTimes() const { return times_; }

  NeighbourSearch search() const { return search_; }
  int threads() const { return pool_.threads(); }
  // The threads the steps run on now: threads(), or 1 where sim::ThreadChoice found one faster.
  int threadsInUse() const { return threadChoice_.chosenSerial() ? 1 : pool_.threads(); }

 private:
  void stepNaive(const ModelParams& params, const StepInputs& inputs, FlockState& state);
  void stepGrid(const ModelParams& params, const StepInputs& inputs, FlockState& state);
  // Boid self's new state from its sums (a boid's step, or a lab unit's) and its leader flag into
  // the next buffers at its sorted slot.
  void storeStep(const StepContext& ctx, const BoidView& self, std::size_t slot, const FlockState& state,
                 const NeighbourSums& sums);
  // Where integrateBatch serves the step: the leader flags of the boids of a batch (of kSweepBatch
  // at most, in consecutive sorted slots from firstSlot), and their steps into the next buffers:
  // the forces and the integration a vector at a time where vectorForces (stepBatchServes, then
  // stepBatch), else the forces one by one and the integration a vector at a time. The all-pairs
  // search keeps storeStep's scalar functions, so the searches' parity checks the vectors' bit for
  // bit.
  void storeBatch(const StepContext& ctx, bool vectorForces, std::span<const BoidView> selves,
                  std::size_t firstSlot, std::span<const NeighbourSums> sums);
  // The next buffers (cell order) gathered into state (id order).
  void storeInIdOrder(bool stored, bool lab, FlockState& state);
  // Builds cells_ and the cell-ordered copies of position, velocity, heading and group.
  void sortByCell(const ModelParams& params, const FlockState& state);

  NeighbourSearch search_;
  WorkerPool pool_;
  ThreadChoice threadChoice_;  // after pool_, whose threads it is made with
  StepTimes times_;
  // Scratch reused between steps (no allocation per step once sized). The step's results in cell
  // order (slot k: boid cells_.order[k]), gathered into id order at its end (storeInIdOrder):
  // written by id from the force loop, a cache miss each at large flocks, they held the loop up
  // (docs/architecture.md).
  std::vector<glm::vec3> nextPosition_, nextVelocity_, nextHeading_;  // nextHeading_: only with stored headings
  std::vector<float> nextSpin_;                                        // only for the lab's units
  std::vector<std::uint8_t> nextLeader_;
  GridSpec grid_;  // of the last step
  CellOrder cells_;
  // Positions and groups in cell order, the positions one array per axis, each with kSweepPadding
  // entries past the last boid (the positions' infinities) so that the neighbour sweep may read a
  // vector past it.
  std::vector<float> sortedX_, sortedY_, sortedZ_;
  // Velocities too, so that the force loop reads its boids' in order: gathered in id order a
  // second time they cost a quarter of a step at 1M boids (a cache miss each).
  std::vector<glm::vec3> sortedVelocity_, sortedHeading_;
  std::vector<std::uint32_t> sortedGroup_;
};

}  // namespace murmur::sim
