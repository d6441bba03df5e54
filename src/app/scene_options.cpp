#include "app/scene_options.hpp"

#include <algorithm>
#include <system_error>
#include <utility>

#include <fmt/format.h>

#include "app/cli_checks.hpp"
#include "app/scene_sections.hpp"
#include "core/error.hpp"
#include "core/install_dirs.hpp"
#include "sim/run_cost.hpp"
#include "sim/scene_loader.hpp"

namespace murmur::app {

void addSceneOptions(CLI::App& command, SceneOptions& options, bool sceneRequired) {
  CLI::Option* scene = command.add_option(
      "--scene", options.scene,
      "Scene: a shipped scene's name (murmur scenes lists them), e.g. maze2d, or a TOML file")
      ->type_name("NAME|FILE")
      ->check(nonEmpty());
  if (sceneRequired) scene->required();
  command.add_option("--init", options.init, "Initial state CSV (id,group,x,y,z,vx,vy,vz)")
      ->type_name("FILE")
      ->check(nonEmpty());
  command.add_option("--boids", options.boids, "Boid count (overrides boids.count)")
      ->type_name("N")
      ->check(integerIn(0, sim::kMaxBoids));
  command.add_option("--seed", options.seed, "Spawn seed (overrides sim.seed)")
      ->type_name("S")
      ->check(integerIn(0, std::numeric_limits<std::int64_t>::max()));
  command.add_option("--data-dir", options.dataDir,
                     "Where the scene's data files (maps) are looked for when not beside the scene "
                     "(then $MURMUR_DATA_DIR, then share/murmur/data beside the executable)")
      ->type_name("DIR")
      ->check(nonEmpty());
  command.add_flag("--force", options.force,
                   "Run even when the estimated cost (candidate tests of the neighbour search) is over the limits "
                   "(docs/model.md, Limits)");
}

std::vector<std::filesystem::path> dataDirectories(const SceneOptions& options) {
  std::vector<std::filesystem::path> dirs;
  if (!options.dataDir.empty()) dirs.emplace_back(options.dataDir);
  for (std::filesystem::path& dir : core::dataDirectories()) dirs.push_back(std::move(dir));
  return dirs;
}

std::filesystem::path findScene(const std::string& given, const std::vector<std::filesystem::path>& dataDirs) {
  namespace fs = std::filesystem;
  const fs::path path(given);
  std::error_code error;
  if (fs::is_regular_file(path, error) || path.is_absolute() || given.empty()) return path;
  const fs::path named = path.has_extension() ? path : fs::path(given + ".toml");
  std::vector<fs::path> tried{path};
  if (named != path) tried.push_back(named);
  tried.push_back(core::shareDir() / "scenes" / named);
  tried.push_back(core::shareDir() / named);
  for (const fs::path& dir : dataDirs) tried.push_back(dir / named);
  for (const fs::path& candidate : tried)
    if (fs::is_regular_file(candidate, error)) return candidate;
  std::string places;
  for (const fs::path& candidate : tried) places += (places.empty() ? "" : ", ") + candidate.string();
  throw InputError("", 0, "--scene", fmt::format("no scene '{}' (tried {}; murmur scenes lists the shipped ones)",
                                                 given, places));
}

std::vector<std::filesystem::path> shippedScenes() {
  std::vector<std::filesystem::path> scenes;
  std::error_code error;
  for (const auto& entry : std::filesystem::directory_iterator(core::shareDir() / "scenes", error))
    if (entry.path().extension() == ".toml") scenes.push_back(entry.path());
  std::sort(scenes.begin(), scenes.end());
  return scenes;
}

DescribedWorld describeWorld(const SceneOptions& options, bool gpuBackend) {
  DescribedWorld described;
  sim::Scene& scene = described.world.scene;
  scene = sim::loadScene(findScene(options.scene, dataDirectories(options)).string(), kSceneSections);
  if (gpuBackend && scene.gpuCount > 0) scene.count = scene.gpuCount;
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

void checkRunCost(const world::World& world, std::uint64_t steps, const SceneOptions& options) {
  if (options.force) return;
  const sim::Scene& scene = world.scene();
  sim::checkRunCost(sim::estimateRunCost(scene.model, world.initial().position, steps), scene.path, "--force");
}

std::uint64_t resolveSteps(std::int64_t option, const sim::Scene& scene, std::uint64_t fallback) {
  if (option != kUnset) {
    if (option < 0) throw InputError("", 0, "--steps", "must be >= 0");
    return static_cast<std::uint64_t>(option);
  }
  return scene.steps > 0 ? scene.steps : fallback;
}

}  // namespace murmur::app
