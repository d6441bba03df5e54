#include "app/world.hpp"

#include <algorithm>
#include <cstdlib>

#include "ai/scene_agents.hpp"
#include "app/cli_checks.hpp"
#include "sim/builders.hpp"
#include "sim/error.hpp"
#include "sim/scene_loader.hpp"
#include "sim/state_csv.hpp"

namespace murmur::app {

void addSceneOptions(CLI::App& command, SceneOptions& options, bool sceneRequired) {
  CLI::Option* scene = command.add_option("--scene", options.scene, "Scene file (TOML), e.g. scenes/free.toml");
  if (sceneRequired) scene->required();
  command.add_option("--init", options.init, "Initial state CSV (id,group,x,y,z,vx,vy,vz)");
  command.add_option("--boids", options.boids, "Boid count (overrides boids.count)")
      ->check(integerIn(0, sim::kMaxBoids));
  command.add_option("--seed", options.seed, "Spawn seed (overrides sim.seed)")
      ->check(integerIn(0, std::numeric_limits<std::int64_t>::max()));
  command.add_option("--data-dir", options.dataDir,
                     "Where the scene's data files (maps) are looked for when not beside the scene "
                     "(default: $MURMUR_DATA_DIR, then " MURMUR_DEFAULT_DATA_DIR ")");
}

std::vector<std::filesystem::path> dataDirectories(const SceneOptions& options) {
  std::vector<std::filesystem::path> dirs;
  if (!options.dataDir.empty()) dirs.emplace_back(options.dataDir);
  if (const char* env = std::getenv("MURMUR_DATA_DIR"); env != nullptr && *env != '\0') dirs.emplace_back(env);
  dirs.emplace_back(MURMUR_DEFAULT_DATA_DIR);
  return dirs;
}

World loadWorld(const SceneOptions& options, const std::function<void(std::uint64_t)>& checkCount) {
  World world;
  world.scene = sim::loadScene(options.scene);
  if (options.boids != kUnset) {
    if (!options.init.empty())
      throw InputError("", 0, "--boids", "cannot be combined with --init (the count comes from the file)");
    world.scene.count = static_cast<std::uint32_t>(options.boids);
  }
  if (options.seed != kUnset) {
    world.scene.seed = static_cast<std::uint64_t>(options.seed);
  }
  sim::validateScene(world.scene);
  world.view = render::readSceneView(world.scene);
  world.agents = ai::loadSceneAgents(world.scene, dataDirectories(options));
  if (options.init.empty()) {
    sim::checkRunMemory(world.scene.count, world.scene.path);
    if (checkCount) checkCount(world.scene.count);
    world.initial = sim::spawnFlock(world.scene, world.agents.walls.get());
  } else {
    world.initial = sim::readStateCsv(options.init, world.scene.model);
    if (checkCount) checkCount(world.initial.size());
    world.scene.count = static_cast<std::uint32_t>(world.initial.size());
    world.scene.groups = std::max(world.scene.groups, world.initial.groups);
    world.initial.groups = world.scene.groups;
  }
  startAgents(world);
  return world;
}

void startAgents(World& world) {
  world.inputs = sim::staticInputs(world.scene, world.initial.groups);
  // The boids avoid a navigation map's walls whether or not agents run.
  world.inputs.walls = world.agents.walls;
  world.director = ai::AgentDirector::create(world.scene, world.agents);
}

void advanceAgents(World& world, FlockBackend& backend) {
  if (world.director) advanceAgents(*world.director, backend, world.scene.model.dt, world.inputs);
}

void advanceAgents(ai::AgentDirector& director, FlockBackend& backend, double dt, sim::StepInputs& inputs) {
  const std::vector<sim::GroupSummary> flock = backend.groupSummaries();
  const sim::NearestBoids boids = backend.nearestBoids(director.probes(), ai::AgentDirector::kPerceivedBoids);
  director.update(dt, flock, boids, inputs);
}

std::uint64_t resolveSteps(std::int64_t option, const sim::Scene& scene, std::uint64_t fallback) {
  if (option != kUnset) {
    if (option < 0) throw InputError("", 0, "--steps", "must be >= 0");
    return static_cast<std::uint64_t>(option);
  }
  return scene.steps > 0 ? scene.steps : fallback;
}

}  // namespace murmur::app
