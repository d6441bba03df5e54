#pragma once
// Boid state, structure of arrays, indexed by id (the boid's index at creation).
#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <vector>

#include <glm/vec3.hpp>
#include <glm/vec4.hpp>

#include "sim/walls.hpp"

namespace murmur::sim {

struct FlockState {
  std::vector<glm::vec3> position;  // 12 B per boid
  std::vector<glm::vec3> velocity;  // 12 B per boid
  std::vector<std::uint32_t> group; // 4 B per boid
  std::uint32_t groups = 1;         // number of groups; every group[i] < groups

  std::size_t size() const { return position.size(); }
  void resize(std::size_t n) {
    position.resize(n);
    velocity.resize(n);
    group.resize(n);
  }
};

// What a step takes besides the state: set before each step by the scene and the CPU agents.
struct StepInputs {
  std::vector<glm::vec3> obstacleCenter;      // obstacles o_k
  std::vector<float> obstacleRadius;          // r_k
  std::vector<std::optional<glm::vec3>> goal;  // T_g, one entry per group (nullopt: no goal)
  std::vector<glm::vec3> predators;           // P_m
  std::shared_ptr<const WallGrid> walls;      // blocked cells the boids steer around, or null
};

}  // namespace murmur::sim
