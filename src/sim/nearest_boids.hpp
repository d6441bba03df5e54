#pragma once
// The nearest few boids of each group around a few probes (the CPU agents' eyes and ears): what the
// agents perceive instead of a group's centroid (docs/ai.md, Perception). Both backends answer it
// through the grid their last step built (CpuSimulator::nearestBoids, gpu::FlockPipeline::nearestBoids);
// nearestBoids below is the brute-force reference, usable on any state.
//
// Selection: a boid is a candidate of a probe when its squared distance to the probe, computed in
// float32 as (dx*dx + dy*dy) + dz*dz, is <= radius*radius (the float product); candidates are
// ranked by that squared distance, ties by id. Both backends compute the same floats, so they agree
// exactly. Straight-line distance, no minimum image: agents live in the world box and do not look
// across a wrap seam.
#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

#include <glm/vec3.hpp>

#include "sim/flock.hpp"
#include "sim/grid.hpp"

namespace murmur::sim {

// The most boids per probe and group a query returns (the GPU pass keeps that many per thread).
inline constexpr std::uint32_t kMaxNearestBoids = 8;

struct BoidProbe {
  glm::vec3 position{0.0f};
  float radius = 0.0f;  // >= 0
};

struct BoidSample {
  std::uint32_t id = 0;
  glm::vec3 position{0.0f};
  glm::vec3 velocity{0.0f};
  friend bool operator==(const BoidSample&, const BoidSample&) = default;
};

// The answer to a query: for each probe and group, up to k samples, nearest first.
struct NearestBoids {
  std::uint32_t groups = 0;
  std::uint32_t k = 0;
  std::vector<std::uint32_t> counts;  // per (probe, group), probe-major: samples found, <= k
  std::vector<BoidSample> samples;    // per (probe, group): k slots, the first counts[] used

  // Sized for probes x groups, nothing found. k: 1..kMaxNearestBoids (std::invalid_argument otherwise).
  NearestBoids(std::size_t probes, std::uint32_t groups, std::uint32_t k);
  NearestBoids() = default;

  // The samples of one probe and group, nearest first; empty when either is out of range (an empty
  // answer, e.g. before a backend's first step, finds nothing anywhere).
  std::span<const BoidSample> of(std::size_t probe, std::uint32_t group) const;
  friend bool operator==(const NearestBoids&, const NearestBoids&) = default;
};

// The cells a probe's search visits: every cell overlapping the probe's bounding cube, [first, last]
// per axis (clamped to the grid like GridSpec::cellCoord, so boids clamped into edge cells are found).
struct CellBox {
  glm::ivec3 first{0};
  glm::ivec3 last{0};
};
CellBox probeCells(const GridSpec& grid, const BoidProbe& probe);

// The squared distance of the selection rule above.
inline float selectionDistance2(const glm::vec3& boid, const glm::vec3& probe) {
  const glm::vec3 d = boid - probe;
  return (d.x * d.x + d.y * d.y) + d.z * d.z;
}

// Brute force over every boid: selected by selectBy (id order, as many as now has boids), reported
// with now's position and velocity. k as NearestBoids'.
NearestBoids nearestBoids(const FlockState& now, std::span<const glm::vec3> selectBy,
                          std::span<const BoidProbe> probes, std::uint32_t k);

// The grid search: the boids in the cells of probeCells, slots of `cells` (built by CellOrder from
// the positions selectBy holds in slot order, with their groups slotGroup and their ids slotId),
// reported with now's position and velocity by id. Same answer as the brute force over the same
// positions.
NearestBoids nearestBoids(const GridSpec& grid, const CellOrder& cells, std::span<const float> selectX,
                          std::span<const float> selectY, std::span<const float> selectZ,
                          std::span<const std::uint32_t> slotGroup, std::span<const std::uint32_t> slotId,
                          const FlockState& now, std::span<const BoidProbe> probes, std::uint32_t k);

}  // namespace murmur::sim
