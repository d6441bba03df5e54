#pragma once
// A sweep file (docs/sweeps.md) and the plans it expands to: every combination of its axes' values,
// for every scene, replicate (seed) and backend, each a run identified by the hash of what it
// resolves to. Every problem of the file is an InputError naming file, line and key, raised before
// any run starts.
#include <cstddef>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "sim/scene_loader.hpp"

namespace murmur::sweep {

// Runs a sweep may hold, and what all of them together may cost (candidate tests of the neighbour
// search, sim/run_cost.hpp: about 110 hours on one core of the reference machine) without --force.
inline constexpr std::size_t kMaxPlans = 1'000'000;
inline constexpr double kMaxSweepCandidateTests = 1e14;

struct Axis {
  std::string key;                  // a scene key ("perception.neighbours"), or "scene"
  std::vector<std::string> values;  // TOML values ("7", "0.5", "\"wrap\"")
  std::size_t line = 0;
};

struct LogSpec {
  std::uint64_t every = 0;   // measures every K steps (0: the final state only)
  bool dump = false;         // the final state CSV, runs/<id>.csv
  std::uint64_t record = 0;  // an H5MD trajectory every K steps, runs/<id>.h5 (0: none)
};

struct SweepFile {
  std::string path;
  std::string text;  // the sweep as it runs ([reduced] applied, scene files by absolute path), kept in DIR
  std::vector<std::string> scenes;  // shipped names or paths, as written
  std::int64_t steps = 0;           // 0: the scene's sim.steps, else 600
  std::uint32_t replicates = 1;
  std::uint64_t seed = 1;  // replicate r runs with sim.seed = seed + r
  std::vector<std::string> backends;
  bool zip = false;  // combine = "zip": the i-th values of every axis together; else their product
  std::vector<sim::SceneOverride> set;
  std::vector<Axis> axes;  // in the file's order
  LogSpec log;
};

// Reads and checks the sweep file; `reduced` applies its [reduced] table over the top level. Its
// scenes are looked for as --scene's, then in dataDirs.
SweepFile loadSweep(const std::string& path, bool reduced, const std::vector<std::string>& dataDirs);

struct Plan {
  std::size_t index = 0;
  std::string scene;
  std::vector<std::string> values;  // one per SweepFile::axes
  std::uint32_t replicate = 0;
  std::uint64_t seed = 0;
  std::string backend;
  std::vector<sim::SceneOverride> overrides;  // [set], then the axes' values, then sim.seed
  std::uint64_t steps = 0;
  std::uint64_t boids = 0;
  std::string id;               // 16 hex digits: the scene hash, backend, steps, log and build together
  std::string sceneHash;        // 16 hex digits of the resolved scene (sim::resolvedSceneText)
  std::string invalid;          // why this combination's scene is refused ("" when it loads)
  double candidateTests = 0.0;  // the run's estimated cost (sim/run_cost.hpp)
};

struct Expansion {
  std::vector<Plan> plans;
  double candidateTests = 0.0;    // of every valid plan
  std::uint64_t outputBytes = 0;  // estimated size of the run files
};

// Every plan of the sweep, in order: scenes, then the axes' combinations (the last axis fastest),
// replicates, backends. A value refused with the base scene alone refuses the sweep (InputError at
// its line); a combination refused only together is a plan marked invalid, recorded as failed.
Expansion expandPlans(const SweepFile& sweep, const std::vector<std::string>& dataDirs);

// The run file's name inside DIR/runs.
std::string runFileName(const Plan& plan, std::string_view extension);

}  // namespace murmur::sweep
