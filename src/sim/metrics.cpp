#include "sim/metrics.hpp"

#include <omp.h>

#include <cmath>
#include <limits>

#include "sim/grid.hpp"
#include "sim/rules.hpp"

namespace murmur::sim {

std::vector<GroupSummary> summarizeGroups(const FlockState& state) {
  std::vector<GroupSummary> groups(state.groups);
  std::vector<glm::dvec3> positionSum(state.groups, glm::dvec3(0.0)), velocitySum(state.groups, glm::dvec3(0.0));
  for (std::size_t i = 0; i < state.size(); ++i) {
    const std::uint32_t g = state.group[i];
    ++groups[g].count;
    positionSum[g] += glm::dvec3(state.position[i]);
    velocitySum[g] += glm::dvec3(state.velocity[i]);
  }
  for (std::uint32_t g = 0; g < state.groups; ++g) {
    if (groups[g].count == 0) continue;
    groups[g].centroid = glm::vec3(positionSum[g] / double(groups[g].count));
    groups[g].meanVelocity = glm::vec3(velocitySum[g] / double(groups[g].count));
  }
  return groups;
}

FlockMetrics measureFlock(const ModelParams& params, const FlockState& state) {
  FlockMetrics m;
  const std::size_t n = state.size();
  if (n == 0) return m;
  const bool wrap = params.boundary == Boundary::Wrap;
  const glm::vec3 size = params.worldSize();
  const float r2 = params.perceptionRadius * params.perceptionRadius;
  const GridSpec grid = makeGridSpec(params);
  CellOrder cells;
  cells.build(grid, state.position, omp_get_max_threads());

  std::vector<glm::vec3> headings(n);
  for (std::size_t i = 0; i < n; ++i) headings[i] = heading(state.velocity[i]);
  std::vector<double> polarization(n), nearest(n);
  std::uint64_t nonFinite = 0;
#pragma omp parallel for schedule(dynamic, 256) reduction(+ : nonFinite) if(n >= kParallelMinBoids)
  for (std::size_t i = 0; i < n; ++i) {
    const glm::vec3 pi = state.position[i];
    const glm::vec3 vi = state.velocity[i];
    if (!std::isfinite(pi.x + pi.y + pi.z + vi.x + vi.y + vi.z)) ++nonFinite;
    glm::dvec3 headingSum(headings[i]);
    std::size_t count = 1;
    float best2 = std::numeric_limits<float>::infinity();
    auto distance2 = [&](std::size_t j) {
      glm::vec3 d = state.position[j] - pi;
      if (wrap) d = minimumImage(d, size);
      return glm::dot(d, d);
    };
    forEachNeighbourRange(grid, cells, grid.cellCoord(pi), params.dims,
                          [&](std::uint32_t begin, std::uint32_t end, bool) {
                            for (std::uint32_t s = begin; s < end; ++s) {
                              const std::uint32_t j = cells.order[s];
                              if (j == i) continue;
                              const float d2 = distance2(j);
                              best2 = std::min(best2, d2);
                              if (d2 < r2 && state.group[j] == state.group[i]) {
                                headingSum += glm::dvec3(headings[j]);
                                ++count;
                              }
                            }
                          });
    if (!(best2 < r2))  // nothing within R: the nearest boid may lie beyond the adjacent cells
      for (std::size_t j = 0; j < n; ++j)
        if (j != i) best2 = std::min(best2, distance2(j));
    polarization[i] = count > 1 ? glm::length(headingSum / double(count)) : -1.0;  // -1: isolated
    nearest[i] = std::sqrt(double(best2));
  }
  double polarizationSum = 0.0, speedSum = 0.0, nearestSum = 0.0;
  std::size_t withNeighbours = 0;
  m.minSpeed = std::numeric_limits<double>::infinity();
  m.maxSpeed = 0.0;
  m.minPairDistance = std::numeric_limits<double>::infinity();
  for (std::size_t i = 0; i < n; ++i) {
    const double speed = glm::length(glm::dvec3(state.velocity[i]));
    if (polarization[i] >= 0.0) {
      polarizationSum += polarization[i];
      ++withNeighbours;
    }
    speedSum += speed;
    nearestSum += nearest[i];
    m.minSpeed = std::min(m.minSpeed, speed);
    m.maxSpeed = std::max(m.maxSpeed, speed);
    m.minPairDistance = std::min(m.minPairDistance, nearest[i]);
  }
  m.localPolarization = withNeighbours > 0 ? polarizationSum / double(withNeighbours) : 0.0;
  m.boidsWithNeighbours = withNeighbours;
  m.meanSpeed = speedSum / double(n);
  m.meanNearestDistance = n > 1 ? nearestSum / double(n) : 0.0;
  if (n < 2) m.minPairDistance = 0.0;
  m.nonFinite = nonFinite;
  return m;
}

}  // namespace murmur::sim
