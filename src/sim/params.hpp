#pragma once
// The parameters of the flocking model (docs/model.md), with their scene keys, units and limits.
// Defaults are the model's. Scene loading validates the limits; code may assume them.
#include <cstdint>

#include <glm/vec3.hpp>

namespace murmur::sim {

enum class Boundary : std::uint32_t { Contain = 0, Wrap = 1 };
enum class GoalMode : std::uint32_t { Front = 0, All = 1 };

// [weights]: dimensionless multipliers of the eight forces, each >= 0.
struct Weights {
  float separation = 1.5f;
  float alignment = 1.0f;
  float cohesion = 1.0f;
  float avoidance = 3.0f;
  float bounds = 2.0f;
  float goal = 0.5f;
  float flee = 3.0f;
  float cruise = 3.0f;
  float walls = 3.0f;  // the wall term (map worlds; docs/model.md step 6b), not in model v1's table
};

struct ModelParams {
  // [world]
  int dims = 3;                                   // 2 (x-z plane, y = 0) or 3
  glm::vec3 worldMin{-100.0f, -50.0f, -100.0f};   // units; min < max on every active axis
  glm::vec3 worldMax{100.0f, 50.0f, 100.0f};
  Boundary boundary = Boundary::Contain;
  float margin = 10.0f;                           // units, >= 0: width of the containment band
  // [sim]
  float dt = 1.0f / 60.0f;                        // seconds, > 0
  // [boids]
  float mass = 1.0f;                              // > 0
  float maxSpeed = 10.0f;                         // units/s, > 0
  float minSpeed = 2.0f;                          // units/s, 0 <= min_speed <= max_speed
  float maxForce = 20.0f;                         // mass * units/s^2, > 0
  float radius = 0.5f;                            // units, >= 0: body radius (obstacle clearance)
  // [perception]
  float perceptionRadius = 5.0f;                  // R, units, > 0
  float separationRadius = 2.0f;                  // Rs, units, 0 <= Rs <= R
  float fovDegrees = 270.0f;                      // (0, 360]; 360 sees all around
  float minDistance = 0.25f;                      // d_min, units, > 0
  // [avoidance]
  float lookahead = 1.0f;                         // seconds of travel, >= 0
  // [goal]
  GoalMode goalMode = GoalMode::Front;
  float slowRadius = 10.0f;                       // units, > 0
  // [flee]
  float fleeRadius = 15.0f;                       // Rf, units, >= 0
  // [cruise]
  float cruiseSpeed = 8.0f;                       // units/s, >= 0
  Weights weights;

  glm::vec3 worldSize() const { return worldMax - worldMin; }
};

}  // namespace murmur::sim
