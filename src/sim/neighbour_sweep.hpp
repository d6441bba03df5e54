#pragma once
// The grid search's inner loop: every candidate of a boid's 3x3x3 cells (3x3 in 2D) tested a
// vector at a time (Google Highway, dispatched at run time: one binary runs SSE2-only machines and
// uses SSSE3, SSE4, AVX2 or AVX-512 where present), and the ones within the search radius (R, or
// the leader radius where larger) folded into the boid's sums one by one, in slot order. Each lane
// makes exactly the operations of the scalar test (sim::offset, then d.d = (dx dx + dy dy) + dz dz
// against the radius squared) in the same order with no fused multiply-add, so every instruction
// set gives the same bytes as the all-pairs search.
#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include <glm/vec3.hpp>

#include "sim/grid.hpp"
#include "sim/rules.hpp"

namespace murmur::sim {

// Reads may run this many floats past a run's end (the widest vector: AVX-512, 16 lanes); the
// position arrays carry that much padding of infinities past the last boid.
inline constexpr std::size_t kSweepPadding = 16;

// The topological rule's sweep offers a boid's own cell first, and then leaves out the cells
// beyond the reach that leaves, only when that cell holds more than this many boids per neighbour
// (K): fewer seldom bring the reach much below R, and the whole block is swept instead.
inline constexpr std::uint32_t kSeedingCellPerNeighbour = 2;

// The flock in cell order (slot k = the k-th boid of CellOrder::order), positions padded by
// kSweepPadding infinities and groups by kSweepPadding entries of any value.
struct SortedFlock {
  const float* x;
  const float* y;
  const float* z;
  const glm::vec3* heading;
  const std::uint32_t* group;
  const std::uint32_t* id;  // the boid of each slot
};

// The boids a sweep takes at once: consecutive boids of one cell share its runs, and each vector
// of candidates is then loaded and each run's loop run once for all of them (docs/architecture.md,
// Tuning constants).
inline constexpr std::size_t kSweepBatch = 8;
// In a sparse flock a batch of the metric rule goes on along its row: where the boids left in its
// first cell are at most kSweepSparseCell, it takes those of up to kSweepBatchSpan cells more along
// x (sim::plainRowSpanEnd; still kSweepBatch boids at most), swept as one box whose rows are runs of
// the span's cells and two more. A boid then tests a few more candidates (a vector of them costs
// about the same however many lanes it fills) but the runs are built and each vector loaded once
// for all of them: sparse flocks gain, fuller cells would lose (docs/architecture.md, Tuning
// constants).
inline constexpr int kSweepBatchSpan = 16;
inline constexpr std::size_t kSweepSparseCell = 2;
// Whether the sweep takes a batch's boids as one box (the metric rule) rather than boid by boid
// (the topological rule, the lab's units): only such a batch gains from spanning cells.
inline bool sweepsBatchAsBox(const StepContext& ctx) {
  return ctx.topological == 0 && !ctx.labUnits;
}

// The metric sweep's candidates within the search radius of one boid, gathered from its runs in
// slot order: their offsets and slots, packed by a vector's compress (d.d is made again from the
// offsets: a compress and a store less on every vector of candidates). Read up to a vector past
// the last.
inline constexpr std::uint32_t kWithinCapacity = 256;
inline constexpr std::size_t kWithinAlignment = 64;  // the widest vector's
struct WithinCandidates {
  alignas(kWithinAlignment) float dx[kWithinCapacity + kSweepPadding];
  alignas(kWithinAlignment) float dy[kWithinCapacity + kSweepPadding];
  alignas(kWithinAlignment) float dz[kWithinCapacity + kSweepPadding];
  alignas(kWithinAlignment) std::uint32_t slot[kWithinCapacity + kSweepPadding];  // kSameGroup (sweep) or not
};
// A batch's buffers (35 KB), kept by the caller for its loop rather than on the stack of every
// call: under AddressSanitizer, which gives every local a slot of its own and poisons and clears
// the frame on each call, the sweep's frame held one set for each batch size (180 KB).
struct SweepScratch {
  WithinCandidates within[kSweepBatch];
};

struct AdaptiveRange;  // sim/fine_grid.hpp

// Folds every candidate within the search radius of each boid of `selves` (of one cell, at most
// kSweepBatch, in consecutive sorted slots from firstSlot) into its sums (sums[b] for selves[b]),
// in slot order; the caller then finishes the sums (finishNeighbours). around: the runs of the
// last boids' cell (sim::CellRuns), reused while boids share a cell. With the topological rule,
// `adaptive` (or null) tries each boid's adaptive range first; returned: how many boids it settled.
std::uint32_t sweepNeighbours(const StepContext& ctx, const GridSpec& grid, const CellOrder& cells, int dims,
                              const SortedFlock& flock, std::uint32_t firstSlot,
                              std::span<const BoidView> selves, std::span<NeighbourSums> sums,
                              CellRuns& around, SweepScratch& scratch,
                              const AdaptiveRange* adaptive = nullptr);

// The instruction set the sweep dispatches to now ("AVX2", "SSE4", "EMU128", ...).
std::string simdTargetName();

// For tests and benchmarks: the instruction sets compiled into this binary that this CPU runs
// (Highway's target bits and names, widest first; while one is forced, that one only), a way to
// make the sweep use only one of them (0 restores the widest), and the one forced last (0: none),
// to restore after forcing another.
struct SimdTarget {
  std::int64_t bits;
  std::string name;
};
std::vector<SimdTarget> availableSimdTargets();
void forceSimdTarget(std::int64_t bits);
std::int64_t forcedSimdTarget();

}  // namespace murmur::sim
