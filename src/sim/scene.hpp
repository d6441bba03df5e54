#pragma once
// A scene: the model's parameters plus what a run needs (boid count, spawn, obstacles, static goals
// and predators). Loaded from TOML (scene_loader.hpp) or built in code (builders.hpp); the same
// builders serve the demo, the tests and the benchmarks.
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include <glm/vec3.hpp>

#include "sim/flock.hpp"
#include "sim/params.hpp"

namespace murmur::sim {

enum class Spawn : std::uint32_t {
  Box,     // uniform in the world box (inset by the margin when containing)
  Sphere,  // uniform in the ball centred in the world box, radius 0.4 x the smallest active extent
};

struct Obstacle {
  glm::vec3 center{0.0f};  // in 2D the y component is ignored (circles in the x-z plane)
  float radius = 1.0f;     // units, > 0
};

// [random_obstacles] (docs/model.md, Random obstacles): `count` circles (2D) or spheres placed at
// random by placeRandomObstacles, besides the scene's [[obstacles]].
struct RandomObstacles {
  std::uint32_t count = 0;
  std::uint64_t seed = 1;
  float minRadius = 1.0f, maxRadius = 1.0f;  // units, 0 < min <= max
  float gap = 0.0f;  // units: the least distance between an obstacle's surface and anything it keeps clear of
  // Paths (each a list of points, consecutive points joined) the obstacles keep `gap` off: a
  // scripted course, a post; a path of one point is a point.
  std::vector<std::vector<glm::vec3>> keepClear;
};

struct Target {
  std::uint32_t group = 0;  // < boids.groups
  glm::vec3 position{0.0f};
};

// [[groups]]: one group's role (docs/model.md, step 8c); groups not listed flock.
struct GroupSpec {
  std::uint32_t group = 0;  // < boids.groups, each listed once
  GroupSteering steering;   // role, flocking, thrust, weight; target: a fixed target's position
  std::string targetAgent;  // "": the fixed target; else the [[agents]] name whose position and
                            // velocity are the target, written into the step inputs every step
};

struct SceneDocument;  // the parsed TOML (scene_toml.hpp), kept for the ai and render sections

struct Scene {
  std::string path;  // file it came from, "" when built in code
  ModelParams model;
  std::uint32_t count = 10000;  // boids.count
  // boids.gpu_count: the count when the flock runs on the gpu backend (a scene sized for a GPU that
  // a CPU runs smaller); 0, the default: count. The app applies it (--boids and --init override it).
  std::uint32_t gpuCount = 0;
  std::uint32_t groups = 1;  // boids.groups, >= 1
  std::uint64_t seed = 1;    // sim.seed
  std::uint64_t steps = 0;   // sim.steps, 0: run until closed / told otherwise
  Spawn spawn = Spawn::Box;  // sim.spawn
  // sim.spawn_spacing: with spawn = "sphere", the ball's size from the count: one boid per cube (square
  // in 2D) of this side, so a flock starts equally dense at any count. 0, the default: the ball's radius
  // is 0.4 x the world's smallest extent.
  float spawnSpacing = 0.0f;
  // sim.spawn_center: where that ball is centred (in the world box); none: the world's centre.
  std::optional<glm::vec3> spawnCenter;
  // sim.heading: the way every boid starts flying, jittered (a flock arriving at its roost); 0, the
  // default: random directions.
  glm::vec3 spawnHeading{0.0f};
  std::vector<Obstacle> obstacles;
  std::vector<Target> targets;
  std::vector<glm::vec3> predators;
  std::vector<GroupSpec> groupSpecs;
  std::shared_ptr<const SceneDocument> document;  // null when built in code
};

}  // namespace murmur::sim
