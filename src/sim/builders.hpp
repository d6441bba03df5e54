#pragma once
// Scene builders and spawning: the one place where flocks are made, used by the demo, the tests and
// the benchmarks alike (anything benchmarked can be watched).
#include <cstdint>
#include <vector>

#include "sim/flock.hpp"
#include "sim/scene.hpp"
#include "sim/walls.hpp"

namespace murmur::sim {

// Seeded, deterministic spawn of scene.count boids in scene.groups groups (boid i in group
// i % groups): positions by scene.spawn, velocities of random direction with speeds uniform in
// [min_speed, max_speed]. Positions closer than R to an obstacle's clearance (radius + body
// radius) are redrawn, up to 64 times per boid, and so are positions in a blocked cell of `walls`
// (a map world). In 2D every y is 0.
FlockState spawnFlock(const Scene& scene, const WallGrid* walls = nullptr);
// The radii along x, y and z of the ball (an ellipsoid where the world is thin) that spawn =
// "sphere" fills: sim.spawn_spacing's volume for the count, each radius at most 0.4 of the world's
// extent; without a spacing, a ball of 0.4 x the smallest extent.
glm::vec3 spawnBallRadii(const Scene& scene);

// The obstacles of `spec`, placed by PCG32 from spec.seed, each drawn (radius uniform in
// [minRadius, maxRadius], centre uniform in the world, inside the containment band's inner edge when
// containing) until it lies at least spec.gap clear of: every obstacle already in scene.obstacles
// and placed before it, every segment of spec.keepClear, and the spawn ball when scene.spawn is
// Sphere (a box spawn fills the world; boids start clear of every obstacle anyway, spawnFlock).
// Distances are minimum images when wrapping; in 2D every y is 0. Fewer than spec.count when one
// found no place in kRandomObstacleTries draws (the scene loader refuses that scene).
inline constexpr int kRandomObstacleTries = 10000;
std::vector<Obstacle> placeRandomObstacles(const Scene& scene, const RandomObstacles& spec);

// The scene's static inputs: its obstacles, its [[targets]] as group goals, its [[predators]].
StepInputs staticInputs(const Scene& scene, std::uint32_t groups);

// The default model in a world whose spawn interior (inside the containment band) keeps the
// density of the default scene, 10,000 boids in 180 x 80 x 180, for any N.
Scene defaultDensityScene(std::uint32_t count, int dims = 3);

// A wrap-around world sized so that each boid has about `neighbours` others within the
// perception radius (uniform density): the fixed-neighbour workload of OpenSteer's boids plugin.
Scene fixedNeighbourScene(std::uint32_t count, float neighbours, int dims = 3);

// A wrap-around cube (2D: square) world of k x k x k grid cells, each one perception radius wide
// (R (1 + 1e-4), so that sim::makeGridSpec makes exactly k cells per axis), with k chosen so that
// a boid's 3x3x3 (2D: 3x3) neighbouring cells hold about `candidates` boids (candidates tested per
// boid per step by the grid search; about 0.155 x candidates of them within R in 3D); fov 360 as in
// fixedNeighbourScene. k rounds, so the mean (27 count / k^3; 9 count / k^2 in 2D) is within
// 15 per cent of `candidates` from 10,000 boids and within 3 per cent from a million (3D).
// candidates = 200 at a million boids is the dense fixed-density case of the GPU benchmarks.
Scene fixedCandidateScene(std::uint32_t count, float candidates, int dims = 3);

// A flock packed as scenes/murmuration.toml's: a ball (spawn = "sphere") of one boid per cube of
// side 0.233 R (the scene's spacing 1.4 at R = 6), about 330 others within R of each, separation
// within R / 4 and fov 300 (the scene's), in a containing cube that holds the ball clear of its
// band: the dense case of the topological rule, whose sweep then leaves out most cells.
Scene packedFlockScene(std::uint32_t count);

// The default model and world (200 x 100 x 200, containing) with `count` boids: the fixed-world
// workload, where density (and the candidates per boid) grows with N.
Scene defaultWorldScene(std::uint32_t count, int dims = 3);

}  // namespace murmur::sim
