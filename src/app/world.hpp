#pragma once
// What run, compare and demo share: the scene options and the world they load (scene, initial
// state, static step inputs).
#include <cstdint>
#include <filesystem>
#include <functional>
#include <limits>
#include <string>
#include <vector>

#include <CLI/CLI.hpp>

#include "app/backend.hpp"

#include "ai/director.hpp"
#include "ai/scene_agents.hpp"
#include "render/scene_view.hpp"
#include "sim/flock.hpp"
#include "sim/scene.hpp"

namespace murmur::app {

// Marks an integer option that was not given (any given value, negative ones too, is validated).
inline constexpr std::int64_t kUnset = std::numeric_limits<std::int64_t>::min();

struct SceneOptions {
  std::string scene;   // --scene
  std::string init;    // --init STATE.csv
  std::int64_t boids = kUnset;  // --boids N
  std::int64_t seed = kUnset;   // --seed S
  std::string dataDir;          // --data-dir: where a scene's relative data paths (maps) are looked for
};

// Where a scene's relative data paths are looked for after the scene's own directory, in order:
// --data-dir, $MURMUR_DATA_DIR, then the data directory the build was configured with.
std::vector<std::filesystem::path> dataDirectories(const SceneOptions& options);

void addSceneOptions(CLI::App& command, SceneOptions& options, bool sceneRequired);

struct World {
  sim::Scene scene;
  sim::FlockState initial;
  sim::StepInputs inputs;  // the scene's static goals, predators, obstacles and map walls
  ai::SceneAgents agents;                     // the scene's [navigation] and [[agents]], as loaded
  std::optional<ai::AgentDirector> director;  // those agents running, if any
  render::SceneView view;                     // the scene's [render] section (validated for every command)
};

// Loads and validates the scene (its [navigation] and [[agents]] too), applies --boids/--seed,
// reads --init or spawns. InputError on any bad input.
// checkCount, when given, sees the boid count before the flock is spawned (or after --init is read)
// and may throw (a backend's capacity).
World loadWorld(const SceneOptions& options, const std::function<void(std::uint64_t)>& checkCount = {});

// (Re)starts world.agents from their initial state: world.inputs back to the scene's static inputs
// with the navigation map's walls, a fresh director. loadWorld calls it; the demo's reset too.
void startAgents(World& world);

// Before a step: the agents perceive the flock (the backend's group summaries and nearest boids),
// decide and move,
// and write their goals and predator points into world.inputs. Nothing without agents.
void advanceAgents(World& world, FlockBackend& backend);
// The same for one director and the inputs it writes (compare runs two).
void advanceAgents(ai::AgentDirector& director, FlockBackend& backend, double dt, sim::StepInputs& inputs);

// --steps: the option when given (>= 0, else InputError), else the scene's sim.steps when > 0, else fallback.
std::uint64_t resolveSteps(std::int64_t option, const sim::Scene& scene, std::uint64_t fallback);

}  // namespace murmur::app
