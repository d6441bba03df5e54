#pragma once
// Scene builders and spawning: the one place where flocks are made, used by the demo, the tests and
// the benchmarks alike (anything benchmarked can be watched).
#include <cstdint>

#include "sim/flock.hpp"
#include "sim/scene.hpp"

namespace murmur::sim {

// Seeded, deterministic spawn of scene.count boids in scene.groups groups (boid i in group
// i % groups): positions by scene.spawn, velocities of random direction with speeds uniform in
// [min_speed, max_speed]. Positions closer than R to an obstacle's clearance (radius + body
// radius) are redrawn, up to 64 times per boid. In 2D every y is 0.
FlockState spawnFlock(const Scene& scene);

// The scene's static inputs: its obstacles, its [[targets]] as group goals, its [[predators]].
StepInputs staticInputs(const Scene& scene, std::uint32_t groups);

// The default model in a world whose size keeps the density of the default scene
// (10,000 boids in 200 x 100 x 200) for any N.
Scene defaultDensityScene(std::uint32_t count, int dims = 3);

// A wrap-around world sized so that each boid has about `neighbours` others within the
// perception radius (uniform density): the fixed-neighbour workload of OpenSteer's boids plugin.
Scene fixedNeighbourScene(std::uint32_t count, float neighbours, int dims = 3);

}  // namespace murmur::sim
