#pragma once
// Flock measurements shared by `murmur run/compare`, the behaviour tests and the demo panel.
#include <cstddef>
#include <cstdint>
#include <optional>
#include <vector>

#include <glm/vec3.hpp>

#include "sim/flock.hpp"
#include "sim/params.hpp"

namespace murmur::sim {

// What the CPU agents read each step (on the GPU: a reduction read back as a few floats).
struct GroupSummary {
  std::uint32_t count = 0;
  glm::vec3 centroid{0.0f};  // plain mean of positions (no minimum image when wrapping)
  glm::vec3 meanVelocity{0.0f};
  std::uint32_t leaders = 0;  // boids of the group that were emergent leaders in the last step
};

std::vector<GroupSummary> summarizeGroups(const FlockState& state);

// Whether every position, velocity, stored heading and spin of `state` is finite (a pass over its
// bits, cheap enough for every step); and the lowest id of a boid that is not, or none.
bool allFinite(const FlockState& state);
std::optional<std::size_t> firstNonFinite(const FlockState& state);

// A sample of a flock to frame it by (the demo's following camera): up to 64 runs of 64 consecutive
// ids, spread evenly over [0, boids) (all of them below 4,096 boids). Ids carry no place, and a
// group's boids are spawned consecutively, so every group is sampled in proportion; runs, not single
// ids, so that the GPU copies them in a few commands.
struct IdRun {
  std::size_t first = 0;
  std::size_t count = 0;
};
std::vector<IdRun> positionSampleRuns(std::size_t boids);
// The positions of those boids, run by run.
std::vector<glm::vec3> samplePositions(const FlockState& state);

struct FlockMetrics {
  // Mean, over boids with at least one same-group boid within R (fov ignored), of |mean heading of
  // the boid and those neighbours|: 1 when every local neighbourhood moves as one, about
  // 1/sqrt(k+1) for k neighbours with random headings. Isolated boids are left out (a lone boid
  // is trivially aligned with itself); 0 when no boid has a neighbour.
  double localPolarization = 0.0;
  std::size_t boidsWithNeighbours = 0;  // the boids the polarization averages over
  double meanSpeed = 0.0;
  double minSpeed = 0.0;
  double maxSpeed = 0.0;
  double meanNearestDistance = 0.0;  // mean over boids of the distance to the nearest other boid
  double minPairDistance = 0.0;      // the closest pair
  // The nearest neighbour's bearing: the mean, over boids with another within R, of |cos| of the
  // angle between the boid's heading and the offset to its nearest: 0.5 for neighbours in every
  // direction alike, below it where they lie beside rather than ahead or behind (STARFLAG's
  // anisotropy); 0 when no boid has one.
  double nearestAlongHeading = 0.0;
  std::uint64_t nonFinite = 0;  // boids with a NaN or infinite component
};

// Uses a uniform grid of cells at least R wide and at most 8 cells a boid; a boid with nobody within
// R has its nearest boid searched in growing rings of cells, so the cost stays about O(N) for dense
// and sparse flocks alike (an exhaustive scan made a 1e5-boid sparse world take 100 times a step).
FlockMetrics measureFlock(const ModelParams& params, const FlockState& state);

// The shape of the largest flock, a murmuration's measures (scenes/murmuration.toml): flocks are the
// connected components of the graph joining every pair of boids (any groups) closer than R
// (minimum image when wrapping).
struct FlockShape {
  std::size_t flocks = 0;        // connected components, lone boids included
  std::size_t largest = 0;       // boids in the largest flock
  double largestFraction = 0.0;  // largest / N
  double polarization = 0.0;     // |mean heading| over the largest flock: 1 all one way
  // Standard deviations of the largest flock's positions along its principal axes, longest first
  // (plain positions: in a wrap world a flock across the seam measures as if cut in two).
  glm::dvec3 extents{0.0};
  double thinness = 0.0;    // extents.z / extents.x: 1 a ball, near 0 a sheet
  double widthRatio = 0.0;  // extents.y / extents.x
  // Degrees between the shortest principal axis and the vertical (y): 0 a level sheet, 90 an
  // upright one (docs/model.md, Measures: a rod's and a ball's).
  double thinAxisTilt = 0.0;
};
FlockShape measureFlockShape(const ModelParams& params, const FlockState& state);

}  // namespace murmur::sim
