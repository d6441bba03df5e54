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
  std::vector<glm::vec3> position;   // 12 B per boid
  std::vector<glm::vec3> velocity;   // 12 B per boid
  std::vector<std::uint32_t> group;  // 4 B per boid
  // 1 B per boid: 1 when the boid was an emergent leader (docs/model.md, step 8) in the step that
  // produced this state, else 0 (all 0 before the first step). The GPU keeps it in velocity.w.
  std::vector<std::uint8_t> leader;
  // 12 B per boid, only while boids.turn_rate is on, for the lab's units and for starlings
  // (docs/model.md, step 1): the stored unit heading each boid moves along (a lab unit: its
  // orientation). Empty otherwise, and then every heading is norm(velocity); a step with the option
  // on fills it from the velocities when it is empty, one with it off empties it.
  std::vector<glm::vec3> heading;
  // 4 B per boid, only for the lab's units and starlings ([model] kind = "lab" or "starling"): a lab
  // unit's spin, radians/s (positive turns the heading towards (-f.z, 0, f.x)), or a starling's
  // bank, radians (positive rolls its up axis toward its right). Empty otherwise; a step starts it
  // at 0.
  std::vector<float> attitude;
  std::uint32_t groups = 1;  // number of groups; every group[i] < groups

  std::size_t size() const { return position.size(); }
  void resize(std::size_t n) {
    position.resize(n);
    velocity.resize(n);
    group.resize(n);
    leader.resize(n);
  }
};

// How a group steers besides the flocking rules (docs/model.md, step 8c; a scene's [[groups]]).
enum class GroupRole : std::uint32_t {
  Flock = 0,      // the flocking rules only
  Chase = 1,      // pursuing boids steer straight at the target
  Intercept = 2,  // pursuing boids steer at the target's predicted intercept point
};

// One group's role for a step. Pursuing boids: the group's emergent leaders, or every boid of the
// group when flocking is off.
struct GroupSteering {
  GroupRole role = GroupRole::Flock;
  bool flocking = true;  // false: no separation, alignment or cohesion for the group; all pursue
  float thrust = 1.0f;   // > 0: scales max_force and max_speed for the group's boids
  float weight = 1.0f;   // >= 0: the pursuit term's weight
  // >= 0: the intercept prediction's horizon, seconds (docs/model.md, step 8c; [[groups]]
  // max_intercept_seconds); also the prediction when there is no closing speed.
  float maxInterceptSeconds = 30.0f;
  glm::vec3 target{0.0f};          // the target's position (y = 0 in 2D)
  glm::vec3 targetVelocity{0.0f};  // and velocity (0 for a fixed target)
};

// What a step takes besides the state: set before each step by the scene and the CPU agents.
struct StepInputs {
  std::vector<glm::vec3> obstacleCenter;       // obstacles o_k
  std::vector<float> obstacleRadius;           // r_k
  std::vector<std::optional<glm::vec3>> goal;  // T_g, one entry per group (nullopt: no goal)
  std::vector<glm::vec3> predators;            // P_m
  std::vector<GroupSteering> steering;         // per group; a group past the end flocks
  std::shared_ptr<const WallGrid> walls;       // blocked cells the boids steer around, or null
  // Record each boid's leader flag (FlockState::leader) also where the step does not use it
  // (leadersUsed): to measure what recording costs (bench) and in tests of the rule. A step that
  // uses its leaders records them whatever this says; one that does not leaves the flags 0.
  bool recordLeaders = false;
};

}  // namespace murmur::sim
