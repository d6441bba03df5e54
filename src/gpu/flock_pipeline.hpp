#pragma once
// The flocking model of docs/model.md on the GPU: the same function as the CPU reference
// (sim::CpuSimulator, src/sim/rules.cpp), one compute pass per stage:
//
//   hash     cell of every boid (grid/CellIndex)
//   count    per-cell counts by atomics, each boid's arrival rank (grid/Count)
//   scan     exclusive prefix sum of the counts: cell starts (gpu::PrefixSum, one pass)
//   scatter  ids into their cells (grid/ScatterIds), then each boid to its stable slot (by id
//            within a cell, as sim::CellOrder) with position, group, velocity and heading
//            (grid/Reorder): the "coherent grid", neighbour reads are contiguous
//   forces   forces + integration fused, one thread per boid in cell order over the 3x3x3 (2D:
//            3x3) neighbouring cells, the next state written at the boid's sorted slot (flock/Step)
//   reduce   per-group count, centroid and mean velocity (flock/Reduce, ReduceGroups), only when
//            something reads them: not part of a step
//
// Besides the step, nearestBoids() answers the agents' query (sim/nearest_boids.hpp) from the grid
// the step built (query/NearestBoids).
//
// The state lives on the GPU in slot order (positions, velocities, and the id of each slot): the
// cell order of the last step's sort. A step moves each boid to its slot in the new sort (the sorted
// copy) and writes its next state at that slot, so that the pair (state, sorted copy) is the
// ping-pong and no pass of a step reads or writes by id. What goes by id (download(), the group
// reduction, a renderer, samples) finds each boid through slotBuffer(), mapped when first asked
// for after a step. Nothing else crosses to the CPU except the few values of the group summaries
// and the agents' query. Those come back without stalling the GPU through
// requests (requestPerception(), recentGroupSummaries(): persistently mapped memory behind a fence,
// read a step or a frame later); groupSummaries(), nearestBoids() and download() wait. Stable
// in-cell order makes every step reproducible run to run.
#include <array>
#include <cstdint>
#include <limits>
#include <map>
#include <memory>
#include <optional>
#include <span>
#include <string_view>
#include <utility>
#include <vector>

#include "gpu/context.hpp"
#include "gpu/dynamic_buffer.hpp"
#include "gpu/flock_layout.hpp"
#include "gpu/gl_objects.hpp"
#include "gpu/prefix_sum.hpp"
#include "gpu/readback.hpp"
#include "gpu/shader_library.hpp"
#include "gpu/timer.hpp"
#include "sim/flock.hpp"
#include "sim/grid.hpp"
#include "sim/metrics.hpp"
#include "sim/nearest_boids.hpp"
#include "sim/params.hpp"
#include "sim/rules.hpp"

namespace murmur::gpu {

// Threads per work group of each pass; defaults chosen by measurement (docs/gpu.md).
struct WorkGroupSizes {
  std::uint32_t grid = 256;    // hash, count, scatter: one thread per boid
  std::uint32_t forces = 128;  // forces + integration: one thread per boid
  // prefix sum: blocks of PrefixSum::kBlockValues values; a power of two
  std::uint32_t scan = PrefixSum::kGroupSize;
  std::uint32_t reduce = 256;  // group reduction: 4 boids per thread; a power of two. Its cost grows
                               // with the number of groups (a shared-memory tree per group and block)
  bool operator==(const WorkGroupSizes&) const = default;
};

// The grid of the latest step as the GPU built it (tests, debugging): the fields of
// sim::CellOrder plus the counts.
struct GridSnapshot {
  std::vector<std::uint32_t> cellOf;     // per boid id
  std::vector<std::uint32_t> cellCount;  // per cell
  std::vector<std::uint32_t> cellStart;  // per cell, plus one: cellStart[cells] = N
  std::vector<std::uint32_t> order;      // per sorted slot: the boid id
};

// How the force, grid and query programs round (the EXACT qualifier of common/Vector.glsl).
enum class Arithmetic : std::uint8_t {
  // The compiler may fuse multiply-adds and reorder, as for any shader: fewer instructions, results
  // within rounding of the CPU's (murmur compare's tolerance path). What the gpu backend runs.
  Fast,
  // Every result `precise`, as the CPU computes it: bit for bit with the CPU where the driver's
  // arithmetic is IEEE (llvmpipe). What the GL parity tests, the gpu-exact backend and
  // `murmur compare --exact` run.
  Exact,
};

// The optional terms of the force pass (a bit each): a force program is built for the set a step
// needs, on first use, and kept, so that the pass most scenes run carries none of the others'
// instructions or registers. Compiled out, a term's force is a zero vector, as the CPU's is for a
// step without it, so every set gives the same results.
enum StepFeature : std::uint32_t {
  kWallsTerm = 1u,      // map walls: their force, and solid walls in the integration
  kObstaclesTerm = 2u,  // obstacle avoidance
  kAgentsTerms = 4u,    // what agents drive: goals, flight from predators, pursuit
  kRoostTerm = 8u,      // the roost's pull
  kAllStepFeatures = 15u,
};

// The variants of the force pass: the metric rule, topological neighbours, each with the heading
// turned at a rate (boids.turn_rate) or flown as starlings ([model] kind = "starling"), and the
// lab's units ([model] kind = "lab").
enum class ForcePass : std::uint8_t {
  Metric,
  Topological,
  Turning,
  TopologicalTurning,
  Lab,
  Starling,
  TopologicalStarling
};
inline constexpr std::array<ForcePass, 7> kForcePasses = {ForcePass::Metric,
                                                          ForcePass::Topological,
                                                          ForcePass::Turning,
                                                          ForcePass::TopologicalTurning,
                                                          ForcePass::Lab,
                                                          ForcePass::Starling,
                                                          ForcePass::TopologicalStarling};

// The stages of one step, in the order they run.
enum class FlockStage : std::uint8_t { Hash, Count, Scan, Scatter, Forces, Reduce };

// One line of the byte model of the pipeline (FlockPipeline::trafficModel, bench/report.py): how a
// program of a stage moves the elements of one storage buffer it binds.
struct BufferTraffic {
  // What `accesses` counts per: each boid, each grid cell, each candidate the force pass tests
  // (the neighbour reads a cache would serve), or the step (a few values: counted as none).
  enum class Unit : std::uint8_t { Boid, Cell, Candidate, Step };
  FlockStage stage;
  std::string_view program;  // its shader, e.g. "grid/Reorder"
  std::string_view buffer;   // gpu/flock_layout.hpp's name
  std::uint32_t elementBytes;
  Unit unit;
  std::uint32_t accesses;  // elements read or written per unit (an atomic read-modify-write counts 2)
  // At an index that does not follow the threads' order (a gather or scatter by id): on a GPU each
  // access moves a whole 32-byte sector, whatever the element's size.
  bool scattered;
};

class FlockPipeline {
 public:
  // The one table of stage names, indexed by FlockStage: the timer's stages and debug groups, the
  // `run` summary, the benchmark names and their JSON context (`flock_stages`, read by the report).
  static constexpr std::array<std::string_view, 6> kStages = {"hash",    "count",  "scan",
                                                              "scatter", "forces", "reduce"};
  static constexpr std::string_view stageName(FlockStage stage) {
    return kStages[static_cast<std::size_t>(stage)];
  }
  // Hash and count run on their own only on a step after an upload, stateReplaced() or a grid
  // change: otherwise the last force pass did their work, on the positions it wrote.
  static constexpr bool foldedIntoForces(FlockStage stage) {
    return stage == FlockStage::Hash || stage == FlockStage::Count;
  }
  // The group reduction (with the slot map it reads through) runs for a reader, not in a step.
  static constexpr bool forReadersOnly(FlockStage stage) { return stage == FlockStage::Reduce; }

  // The byte model of every pass (the metric force pass without optional terms, the plain
  // reorder): one line per storage buffer each program binds, as the driver reports the program's
  // active blocks, described by the table in flock_pipeline.cpp. std::logic_error when a program
  // binds a buffer the table does not describe, or the table describes one it does not bind.
  std::vector<BufferTraffic> trafficModel() const;

  // Compiles every shader with the given arithmetic (ShaderError on failure). The context must be
  // current, and outlive the pipeline.
  FlockPipeline(const Context& context, const ShaderLibrary& shaders, Arithmetic arithmetic,
                WorkGroupSizes sizes = {});

  // Builds the force programs of every pass for a set of StepFeature bits now, where a step would
  // build them on first use (tools and tests that look at every program).
  void buildForcePrograms(std::uint32_t features);
  // The StepFeature bits a step with these parameters and (packed) inputs needs.
  static std::uint32_t stepFeatures(const sim::ModelParams& params, const sim::PackedInputs& packed);

  // The most boids one storage buffer can address (16 bytes a boid in the largest buffer).
  static std::uint64_t maxBoids(const ContextInfo& info);
  // Throws CapacityError naming the count and the limit when `boids` exceed maxBoids(info): lets a
  // command refuse a flock before building it.
  static void requireCapacity(const ContextInfo& info, std::uint64_t boids);

  // Replaces the flock (sizes and groups may change). CapacityError when the device cannot hold it;
  // std::invalid_argument for an inconsistent state (sizes differ, a group >= groups). Stored
  // headings (FlockState::heading, boids.turn_rate and the lab's units, with FlockState::spin in w)
  // go up when the state has one a boid; such a step then continues from them, else it starts them
  // from the velocities.
  void upload(const sim::FlockState& state);

  // One step of every boid. Records GPU work only (no wait): the CPU is free until something is
  // read back.
  void step(const sim::ModelParams& params, const sim::StepInputs& inputs);

  // After positionBuffer() and velocityBuffer() were written from outside with a state in id order
  // (a copy into them, as the benchmarks restore a flock): slot i holds boid i again, and the next
  // step hashes and counts the positions rather than trusting the last force pass's count.
  void stateReplaced();

  // The state in id order (waits for the GPU: three blocking reads, the slots' ids, positions and
  // velocities, and a fourth for the stored headings after a step with boids.turn_rate on).
  sim::FlockState download() const;
  // Count, centroid and mean velocity per group of the current state (waits for the GPU: one
  // blocking read of a handful of floats). The reduction runs here unless a request already ran it
  // on this state.
  std::vector<sim::GroupSummary> groupSummaries();

  // The k nearest boids of each group around each probe (sim/nearest_boids.hpp) through the grid of
  // the last step: selected by the positions that step started from (its sorted copy), reported
  // with the current positions and velocities. One work group per (probe, group); only the answers
  // are read back (waits for the GPU). Nothing is found before the first step after an upload.
  // k: 1..sim::kMaxNearestBoids (std::invalid_argument otherwise).
  sim::NearestBoids nearestBoids(std::span<const sim::BoidProbe> probes, std::uint32_t k);

  // What the agents perceive of a state: its group summaries and the nearest boids around probes.
  struct Perception {
    std::vector<sim::GroupSummary> groups;
    sim::NearestBoids boids;
  };
  // Starts reading back what the agents perceive of the current state, without a wait: the group
  // reduction and the nearest-boids query (as nearestBoids()) run now, their results are copied
  // into persistently mapped memory, and a fence follows (gpu::Readback). A new request replaces
  // one not yet read. k: as nearestBoids().
  void requestPerception(std::span<const sim::BoidProbe> probes, std::uint32_t k);
  // The answer to the last requestPerception() (std::logic_error before any). No wait when the GPU
  // has passed the request's fence, as it has a step later in practice; otherwise it waits for it
  // (a counted blocking wait), so that the answer never depends on how far the GPU lags.
  Perception perception();
  // Group summaries for display, never waiting: those of the latest request the GPU has finished
  // (empty before the first), and a new request of the current state whenever none is pending.
  // Called once a frame, the figures are a frame old (older only while the GPU lags a frame).
  const std::vector<sim::GroupSummary>& recentGroupSummaries();
  // A check of the flock's finiteness that never waits (world::FlockBackend::checkFinite): the
  // group reduction, whose means are finite exactly when every position and velocity is, read back
  // behind a fence. Answers the latest request the GPU has finished with the tag it was asked with,
  // and asks for one of the current state, tagged `tag`, when none is pending; nothing before the
  // first answer, nor for a flock replaced since the request.
  struct FiniteCheck {
    std::uint64_t tag = 0;
    bool finite = true;
  };
  std::optional<FiniteCheck> checkFinite(std::uint64_t tag);
  // How often the gpu backend checks (every this many steps): the reduction costs a fast step about
  // a tenth on llvmpipe (bench/results/llvmpipe/issue-51-finite-check.md); gpu-exact, the parity
  // backend, checks every step.
  static constexpr std::uint64_t kFastFiniteCheckEvery = 8;
  // The positions of sim::positionSampleRuns' boids (what the headless demo's following camera
  // frames): gathered by id on the GPU (query/PositionsById), then one blocking read of at most
  // 64 KiB, where download() would read the whole flock.
  std::vector<glm::vec3> positionSample();

  std::size_t size() const { return count_; }
  std::uint32_t groups() const { return groups_; }
  // For a renderer: one vec4 per boid in slot order (boid i at slotBuffer()[i]); positions xyz +
  // group in w (as float), velocities xyz + the leader flag in w (1.0 / 0.0).
  const Buffer& positionBuffer() const { return positions_; }
  const Buffer& velocityBuffer() const { return velocities_; }
  // What a bird is drawn along, as velocityBuffer() lays it out: the velocities, or after a step with
  // boids.turn_rate on the stored heading at the velocity's speed (docs/model.md, step 1).
  const Buffer& drawnVelocityBuffer() const { return headingsOf_ == state_ ? drawnVelocities_ : velocities_; }
  // Starlings' banks in w (the headings, slot order), or null where the flock's units bank not.
  const Buffer* bankBuffer() const {
    return units_ == sim::UnitModel::Starling && headingsOf_ == state_ ? &headings_ : nullptr;
  }
  // The slot of each boid, by id (uint): records the pass that maps them (grid/SlotOf) when the
  // state moved since the last map. Readers in id order go through it.
  const Buffer& slotBuffer();
  // The grid of the latest step (cells = 0 before the first).
  const sim::GridSpec& grid() const { return grid_; }
  GridSnapshot gridSnapshot() const;

  // Per-stage GPU times (kStages), collected without waiting; timer().resolve() waits.
  GpuTimer& timer() { return timer_; }

 private:
  void allocateBoids(std::size_t count);
  // headings_ for count_ boids, unless allocated (CapacityError when out of memory).
  void allocateHeadings();
  void prepareGrid(const sim::ModelParams& params);
  // Uploads the step's constants and inputs; returns the StepFeature bits the step needs.
  std::uint32_t writeStepParams(const sim::ModelParams& params, const sim::StepInputs& inputs);
  void bindStorage() const;
  void uploadWalls(const sim::WallGrid* walls);
  // 0, 1, ..., N-1: the ids of a state in id order.
  std::vector<std::uint32_t> identityIds() const;
  // grid/SlotOf into slotOf_, unless it maps the current state already.
  void mapSlotsIfStale();
  // The group reduction of the current state into summaries_, unless it holds it already.
  void reduceIfStale();
  // The reduction (reduceIfStale) copied into `readback` behind its fence; the groups it holds.
  std::uint32_t requestSummaries(Readback& readback);
  // query/NearestBoids (each probe's box cut into slices, their k best into nearestPartials_),
  // then query/NearestMerge into nearestIds_ and nearestSamples_; false (nothing recorded) when there
  // is nothing to search: no grid since the upload, no boids or no probes.
  bool dispatchNearest(std::span<const sim::BoidProbe> probes, std::uint32_t k);

  const ContextInfo& info_;
  WorkGroupSizes sizes_;
  int maxGroupsX_;
  // The force program of a pass for a set of StepFeature bits, built on first use.
  const Program& forceProgram(ForcePass pass, std::uint32_t features);

  ShaderLibrary shaders_;
  Arithmetic arithmetic_;
  // turningReorderProgram_: the reorder with stored headings (boids.turn_rate, the lab's units).
  Program hashProgram_, countProgram_, clearCountsProgram_, scatterIdsProgram_, reorderProgram_,
      turningReorderProgram_, reduceProgram_, reduceGroupsProgram_, nearestProgram_, nearestMergeProgram_,
      slotOfProgram_, positionsByIdProgram_;
  std::map<std::pair<ForcePass, std::uint32_t>, Program> forcePrograms_;
  PrefixSum prefixSum_;
  GpuTimer timer_;
  Framebuffer emptyFramebuffer_{
      "empty framebuffer"};  // bound while the stages compute (see EmptyFramebufferScope)

  std::size_t count_ = 0;
  std::uint32_t groups_ = 1;
  // The state (slot order) and the sorted copy (gpu/flock_layout.hpp); ids_ and sortedIds_ swap at
  // the end of a step.
  Buffer positions_, velocities_, ids_, cellOf_, rankInCell_, unsortedIds_, sortedIds_, sortedPositions_,
      sortedVelocities_, sortedHeadings_;
  // The caches' state in one place: every allocation, replacement and step makes a new state
  // (state_), and each cache holds the number of the state it was made from (current when equal).
  std::uint64_t state_ = 0;
  std::uint64_t flockStart_ = 0;   // the state allocateBoids() made: the flock's first
  std::uint64_t slotsOf_ = 0;      // slotOf_ maps it
  std::uint64_t summariesOf_ = 0;  // summaries_ holds its reduction
  // cellOf, rankInCell and cellCounts hash and count its positions on countedGrid_ (the last force
  // pass wrote them): the next step on that grid skips its hash and count passes.
  std::uint64_t countsOf_ = 0;
  // boids.turn_rate's stored headings (layout::kHeadings) are its (a step with the turn rate on, or
  // an upload of a state with headings, wrote them).
  std::uint64_t headingsOf_ = 0;
  std::uint64_t gridFlock_ = 0;  // the flockStart_ whose step last built the grid buffers
  Buffer slotOf_;
  Buffer identityIds_;  // identityIds(), made by the first stateReplaced() of a flock
  sim::GridSpec grid_{};
  std::uint32_t cells_ = 0;  // grid_.cellCount() the cell buffers are sized for
  // The most cells a grid may have: 2^24, or fewer where the cells + 1 counts, rounded up to whole
  // quads (grid/ClearCountsBody.glsl), would pass the device's storage block size.
  std::uint32_t maxCells_;
  Buffer cellCounts_, cellStarts_;
  Buffer stepParams_;
  UniformBlock<layout::PassParams> passParams_{"flock pass constants", layout::kPassParams};
  DynamicBuffer inputs_{"step inputs"};  // vec4 obstacles, goals, predators
  Buffer walls_;  // uint per wall cell (at least one entry, so the binding is never empty)
  const sim::WallGrid* uploadedWalls_ = nullptr;  // the grid walls_ holds
  std::uint32_t reduceBlocks_ = 0;                // work groups of flock/Reduce for count_ boids
  Buffer partials_, summaries_;
  sim::GridSpec countedGrid_{};
  // The stored headings, allocated by the first step or upload that needs them.
  Buffer headings_, drawnVelocities_;  // drawnVelocities_: drawnVelocityBuffer(), written with headings_
  // The last step's units: the lab's (headings_'s w their spin), starlings (w their bank) or boids.
  sim::UnitModel units_ = sim::UnitModel::Boids;
  DynamicBuffer nearestProbes_{"nearest-boids probes"}, nearestIds_{"nearest-boids ids"},
      nearestSamples_{"nearest-boids samples"}, nearestPartials_{"nearest-boids slices"};  // grown as needed
  // requestPerception(): summaries, then (when queried) ids and samples as nearestIds_ and
  // nearestSamples_ hold them.
  struct PerceptionRequest {
    std::size_t probes = 0;
    std::uint32_t groups = 0;
    std::uint32_t k = 0;  // 0: no request yet
    bool queried = false;
  };
  Readback perception_{"perception read-back"};
  PerceptionRequest perceptionRequest_;
  Readback sample_{"position sample read-back"};  // positionSample()
  DynamicBuffer sampleIds_{"position sample ids"}, samplePositions_{"position sample"};
  // The flock size sampleIds_ holds the sample of (they change only with it), and how many.
  std::size_t sampleIdsFor_ = std::numeric_limits<std::size_t>::max();
  std::size_t sampleSize_ = 0;
  Readback finite_{"finiteness read-back"};        // checkFinite()
  std::uint32_t finiteGroups_ = 0;                 // the groups of finite_'s request
  std::optional<std::uint64_t> finiteTag_;         // its tag; none: of a flock since replaced
  Readback display_{"group summaries read-back"};  // recentGroupSummaries()
  std::uint32_t displayGroups_ = 0;                // the groups of display_'s request
  std::vector<sim::GroupSummary> recentSummaries_;
};

}  // namespace murmur::gpu
