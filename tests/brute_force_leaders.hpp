#pragma once
// The emergent leaders of a state by brute force, from the book's rule as docs/model.md (step 8)
// states it: boid i leads when no other boid, of any group, lies within the leader radius RL
// (minimum image when wrapping; field of view ignored) in its 45-degree front cone,
// dot(f_i, d_ij) >= |d_ij| cos 45, a coincident boid counting as in front. Every pair is tested,
// apart from the backends' neighbour searches (whose reach RL may exceed R).
#include <cmath>
#include <cstdint>
#include <vector>

#include <glm/geometric.hpp>

#include "sim/flock.hpp"
#include "sim/params.hpp"
#include "sim/rules.hpp"

namespace murmur::test {

inline std::vector<std::uint8_t> bruteForceLeaders(const sim::ModelParams& params,
                                                   const sim::FlockState& state) {
  const float r2 = params.leaderRadius * params.leaderRadius;
  std::vector<std::uint8_t> leader(state.size(), 1);
  for (std::size_t i = 0; i < state.size(); ++i) {
    const glm::vec3 f = sim::stateHeading(state, i);
    for (std::size_t j = 0; j < state.size() && leader[i] != 0; ++j) {
      if (j == i) continue;
      glm::vec3 d = state.position[j] - state.position[i];
      if (params.boundary == sim::Boundary::Wrap) d = sim::minimumImage(d, params.worldSize());
      const float d2 = glm::dot(d, d);
      if (!(d2 < r2)) continue;
      const float dist = std::sqrt(d2);
      if (dist < sim::kEps || glm::dot(f, d) >= dist * sim::kCos45) leader[i] = 0;
    }
  }
  return leader;
}

// Leaders per group of `leader` (one flag per boid of `state`).
inline std::vector<std::uint32_t> leadersPerGroup(const sim::FlockState& state,
                                                  const std::vector<std::uint8_t>& leader) {
  std::vector<std::uint32_t> count(state.groups, 0);
  for (std::size_t i = 0; i < state.size(); ++i) count[state.group[i]] += leader[i];
  return count;
}

}  // namespace murmur::test
