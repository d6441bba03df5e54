#pragma once
// The memory the flock shaders share with C++: binding points, the std140 block of per-step
// constants (generated from gpu/step_params.table) and the std430 structs of the reduction
// (shaders/flock/Reduce*.comp.glsl). Byte offsets are written beside each member; the
// static_asserts and tests/gl/test_flock_pipeline.cpp (which asks the driver for the offsets) keep
// the two sides equal.
//
// Per-boid storage (std430 arrays, N entries unless noted), 104 bytes a boid. The state lives in
// slot order: the cell order of the last step's sort (the force pass writes each boid's next state
// at its sorted slot), so that no pass of a step gathers or scatters by id:
//   positions        vec4  slot order: xyz position, w = group (as float; exact below 2^24)
//   velocities       vec4  slot order: xyz velocity, w = leader flag (1.0 an emergent leader in the
//                          step that wrote it, else 0.0: sim::FlockState::leader, no extra bytes)
//   boidIds          uint  slot order: the id of the boid in each slot (the identity after an upload)
//   cellOf           uint  slot order: cell index (sim::GridSpec::cellIndex)
//   rankInCell       uint  slot order: arrival order in the cell (atomic, unstable)
//   unsortedIds      uint  cell order, unstable within a cell
//   sortedIds        uint  cell order, by id within a cell (sim::CellOrder::order); becomes boidIds
//                          when the force pass has written the state in this order
//   sortedPositions  vec4  cell order: as positions
//   sortedVelocities vec4  cell order: as velocities
//   sortedHeadings   vec4  cell order: xyz heading f = norm(v) (the stored heading with
//                          boids.turn_rate), w = 0 (the lab's units: their spin)
//   slotOf           uint  id order: the slot of each boid, for readers in id order (the group
//                          reduction, the renderer, samples); built when one asks, not by a step
// Only while boids.turn_rate is on, 32 bytes more a boid:
//   headings         vec4  slot order: xyz the stored unit heading (docs/model.md, step 1), w = 0
//   drawnVelocities  vec4  slot order: xyz heading x |velocity| (what a bird is drawn along), w = the
//                          leader flag as in velocities
// Per cell: cellCounts, cellStarts (uint, cells + 1 entries; cellStarts[cells] = N).
#include <cstddef>
#include <cstdint>

#include <glad/gl.h>
#include <glm/vec4.hpp>

#include "gpu/shader_library.hpp"
#include "gpu/step_params.hpp"

namespace murmur::gpu::layout {

// The per-boid storage listed above: 5 vec4 and 6 uint arrays.
inline constexpr std::size_t kBytesPerBoid = 5 * 16 + 6 * 4;
static_assert(kBytesPerBoid == 104);

// Shader storage binding points (one space for all flock shaders: no rebinding between passes).
enum StorageBinding : GLuint {
  kPositions = 0,
  kVelocities = 1,
  kCellOf = 2,
  kRankInCell = 3,
  kCellCounts = 4,
  kCellStarts = 5,
  kUnsortedIds = 6,
  kSortedIds = 7,
  kSortedPositions = 8,
  kSortedHeadings = 9,
  kInputs = 10,     // vec4: obstacles (xyz centre, w radius), goals per group (w 1 active), predators,
                    // 3 per group of steering (sim::StepContext::steering)
  kPartials = 11,   // GroupPartial per (group, block)
  kSummaries = 12,  // GroupSummary per group
  kScanIn = 13,     // gpu::PrefixSum
  kScanOut = 14,
  kScanStatus = 15,
  kWalls = 16,  // uint per wall cell (sim::WallGrid), 1 = blocked
  // The nearest-boids query (query/NearestBoids.comp.glsl, query/NearestMerge.comp.glsl), per
  // (probe, group) in probe-major order:
  kNearestProbes = 17,    // NearestProbe per probe
  kNearestIds = 18,       // uint: the count per (probe, group), then k ids per (probe, group)
  kNearestSamples = 19,   // vec4 position, vec4 velocity per (probe, group) and rank
  kHeadings = 20,         // vec4 per boid, slot order: the stored heading (only with boids.turn_rate)
  kDrawnVelocities = 21,  // vec4 per boid, slot order: heading x speed, w leader (only with boids.turn_rate)
  kBoidIds = 22,
  kSortedVelocities = 23,
  kSlotOf = 24,
  // positionSample(): the ids asked for, and their positions (query/PositionsById.comp.glsl)
  kSampleIds = 25,
  kSamplePositions = 26,
  // uint per (probe, group) and slice of its box: the count of the slice's k best, then (squared
  // distance's bits, id) pairs, k a slice (query/NearestList.glsl)
  kNearestPartials = 27,
  kStorageBindingCount = 28,
};

// Uniform block binding points, numbered after the storage ones: GL keeps the two apart, Vulkan
// does not (the same sources compile as Vulkan GLSL for scripts/shader-stats.sh).
enum UniformBinding : GLuint {
  kStepParams = kStorageBindingCount,
  kPassParams,  // the constants of one dispatch (ScanParams, ReduceParams, NearestParams)
};

// StepParams, the std140 block of per-step constants bound at kStepParams, and makeStepParams, which
// fills it, are in gpu/step_params.hpp: generated (into the build tree) from gpu/step_params.table,
// like the block's GLSL declaration.

// std430, 32 bytes: the sums of one group over one block of boids (flock/Reduce.comp.glsl).
struct GroupPartial {
  glm::vec4 positionSum;  //  0  xyz, w = count (float: a block holds far fewer than 2^24 boids)
  glm::vec4 velocitySum;  // 16  xyz, w = leaders (the sum of velocities.w; exact in float likewise)
};
static_assert(sizeof(GroupPartial) == 32);

// std430, 48 bytes: one group's summary (flock/ReduceGroups.comp.glsl).
struct GroupSummary {
  glm::vec4 meanPosition;  //  0  xyz centroid (mean position; `centroid` is a GLSL keyword), w unused
  glm::vec4 meanVelocity;  // 16
  std::uint32_t count;     // 32
  std::uint32_t leaders;   // 36
  std::uint32_t pad[2];    // 40
};
static_assert(sizeof(GroupSummary) == 48);

// std430, 48 bytes: one probe of the nearest-boids query.
struct NearestProbe {
  glm::vec4 sphere;      //  0  xyz centre, w radius^2 (the float product, as sim::nearestBoids)
  glm::ivec4 firstCell;  // 16  xyz: sim::probeCells(...).first, w the slices its box is cut into
  glm::ivec4 lastCell;   // 32  xyz: .last
};
static_assert(sizeof(NearestProbe) == 48);

// std140, 16 bytes: the constants of one dispatch at kPassParams. The scan reads x (the count), y
// (the look-back's polls before its fallback);
// the reduction (flock/Reduction.glsl) x boids, y groups, z blocks; the nearest-boids query
// (NearestParams) x groups, y lists, z k, w the slices a list has room for (the most of any
// probe). Scalars of a std140 block lie 4 bytes apart.
using PassParams = glm::uvec4;

// BINDING_*, STEP_PARAMS_BINDING and PASS_PARAMS_BINDING defines for every flock shader, and the
// step's array bound MAX_TOPOLOGICAL_NEIGHBOURS.
Defines bindingDefines();

}  // namespace murmur::gpu::layout
