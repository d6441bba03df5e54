#pragma once
// What a run will cost, known before it starts (docs/model.md, "Limits"): the neighbour search tests
// every boid in the 3x3x3 cells (3x3 in 2D) around each boid, so its cost per step is the sum over
// cells of (boids in the cell) x (boids in the cells around it), counted here on the starting flock
// (with topological neighbours, the cells around it weighted by the odds that the sweep's reach
// takes them in, plus the own cell's first pass: an estimate, not a count).
// A flock at the model's spacing tests tens to a few hundred candidates per boid; one spawned packed
// into a small region (a huge count in a map's rooms) tests thousands to millions, every step, and a
// run that passes every other limit could take days. The count at the start stands for the run: a
// flock that spreads costs less later, one that gathers more. Checked by run, compare and demo (exceeded:
// InputError naming the key to change; the commands' --force goes ahead anyway).
#include <cstdint>
#include <span>
#include <string>

#include <glm/vec3.hpp>

#include "sim/params.hpp"

namespace murmur::sim {

// Candidate tests of one step beyond this (about 40 s a step on one core): refused, whatever the
// length of the run (the demo's window runs open-ended).
inline constexpr double kMaxStepCandidateTests = 1e10;
// Candidate tests of a whole run (boids x steps x candidates per boid) beyond this (about an hour on
// one core): refused.
inline constexpr double kMaxRunCandidateTests = 1e12;
// Candidate tests a second on one core of the reference machine (AMD EPYC, the cpu backend's
// neighbours18 benchmark at one thread, bench/README.md: 2.8e8 at 16k and 64k boids, 2.0e8 at
// 256k, with the vector sweep of 2026-11): turns the counts into a time people read.
inline constexpr double kReferenceTestsPerSecond = 2.5e8;

// A step's fixed work besides its candidate tests (the grid's reset, the passes, the agents), in
// candidate tests of the reference machine (docs/model.md, Limits): a run of many steps of few or no
// boids is bounded too.
inline constexpr double kStepOverheadTests = 3000.0;

struct RunCost {
  std::uint64_t boids = 0;
  double candidatesPerBoid = 0.0;  // at the start, per step
  std::uint64_t steps = 0;         // 0: open-ended (the demo's window)

  double testsPerStep() const { return double(boids) * candidatesPerBoid; }
  double totalTests() const { return (testsPerStep() + kStepOverheadTests) * double(steps); }
};

// The cost of `steps` steps of the flock at `positions` under params (the grid both backends use).
RunCost estimateRunCost(const ModelParams& params, std::span<const glm::vec3> positions, std::uint64_t steps);

// Before the flock is spawned: `boids` boids in the grid's cells test at least boids^2 / cells
// candidates a step (each tests the boids of its own cell; spread evenly over every cell, they test
// the fewest). Over kMaxStepCandidateTests: checkRunCost's refusal of a packed flock, before the
// flock is built.
void checkSpawnCost(const ModelParams& params, std::uint64_t boids, const std::string& path,
                    const std::string& forceFlag);

// InputError (file `path`; key boids.count when one step is over kMaxStepCandidateTests, else
// sim.steps when the run is over kMaxRunCandidateTests) with the figures; `forceFlag` is named as the
// way to go ahead.
void checkRunCost(const RunCost& cost, const std::string& path, const std::string& forceFlag);

}  // namespace murmur::sim
