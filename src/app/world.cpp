#include "app/world.hpp"

#include <utility>

#include "app/cli_checks.hpp"
#include "sim/install_dirs.hpp"
#include "sim/error.hpp"
#include "sim/scene_loader.hpp"

namespace murmur::app {

void addSceneOptions(CLI::App& command, SceneOptions& options, bool sceneRequired) {
  CLI::Option* scene =
      command.add_option("--scene", options.scene, "Scene file (TOML), e.g. scenes/free.toml")->check(nonEmpty());
  if (sceneRequired) scene->required();
  command.add_option("--init", options.init, "Initial state CSV (id,group,x,y,z,vx,vy,vz)")->check(nonEmpty());
  command.add_option("--boids", options.boids, "Boid count (overrides boids.count)")
      ->check(integerIn(0, sim::kMaxBoids));
  command.add_option("--seed", options.seed, "Spawn seed (overrides sim.seed)")
      ->check(integerIn(0, std::numeric_limits<std::int64_t>::max()));
  command.add_option("--data-dir", options.dataDir,
                     "Where the scene's data files (maps) are looked for when not beside the scene "
                     "(then $MURMUR_DATA_DIR, then share/murmur/data beside the executable)")
      ->check(nonEmpty());
}

std::vector<std::filesystem::path> dataDirectories(const SceneOptions& options) {
  std::vector<std::filesystem::path> dirs;
  if (!options.dataDir.empty()) dirs.emplace_back(options.dataDir);
  for (std::filesystem::path& dir : sim::dataDirectories()) dirs.push_back(std::move(dir));
  return dirs;
}

DescribedWorld describeWorld(const SceneOptions& options) {
  DescribedWorld described;
  sim::Scene& scene = described.world.scene;
  scene = sim::loadScene(options.scene);
  if (options.boids != kUnset) {
    if (!options.init.empty())
      throw InputError("", 0, "--boids", "cannot be combined with --init (the count comes from the file)");
    scene.count = static_cast<std::uint32_t>(options.boids);
  }
  if (options.seed != kUnset) scene.seed = static_cast<std::uint64_t>(options.seed);
  described.view = render::readSceneView(scene);
  described.world.init = options.init;
  described.world.dataDirectories = dataDirectories(options);
  return described;
}

std::uint64_t resolveSteps(std::int64_t option, const sim::Scene& scene, std::uint64_t fallback) {
  if (option != kUnset) {
    if (option < 0) throw InputError("", 0, "--steps", "must be >= 0");
    return static_cast<std::uint64_t>(option);
  }
  return scene.steps > 0 ? scene.steps : fallback;
}

}  // namespace murmur::app
