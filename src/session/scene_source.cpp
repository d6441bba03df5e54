#include "session/scene_source.hpp"

#include <algorithm>
#include <system_error>
#include <utility>

#include <fmt/format.h>

#include "core/error.hpp"
#include "core/install_dirs.hpp"
#include "gpu/error.hpp"
#include "session/scene_sections.hpp"
#include "sim/run_cost.hpp"
#include "sim/scene_loader.hpp"

namespace murmur::session {

std::vector<std::filesystem::path> dataDirectories(const SceneOptions& options) {
  std::vector<std::filesystem::path> dirs(options.dataDirs.begin(), options.dataDirs.end());
  for (std::filesystem::path& dir : core::dataDirectories()) dirs.push_back(std::move(dir));
  return dirs;
}

std::filesystem::path findScene(const std::string& given,
                                const std::vector<std::filesystem::path>& dataDirs) {
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
  throw InputError(
      "", 0, "--scene",
      fmt::format("no scene '{}' (tried {}; murmur scenes lists the shipped ones)", given, places));
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
  described.world.dataDirectories = dataDirectories(options);
  if (options.text.empty())
    scene = sim::loadScene(findScene(options.scene, described.world.dataDirectories).string(), kSceneSections,
                           options.overrides);
  else
    scene = sim::parseScene(options.text, options.scene, kSceneSections, options.overrides);
  if (gpuBackend && scene.gpuCount > 0 && options.boids == kUnset && options.init.empty()) {
    described.countNote = fmt::format(
        "{} boids on the gpu backend (the scene's boids.gpu_count; {} on the cpu ones, "
        "boids.count); --boids N runs N on both",
        scene.gpuCount, scene.count);
    scene.count = scene.gpuCount;
  }
  if (options.boids != kUnset) {
    if (!options.init.empty())
      throw InputError("", 0, "--boids", "cannot be combined with --init (the count comes from the file)");
    scene.count = static_cast<std::uint32_t>(options.boids);
  }
  if (options.seed != kUnset) scene.seed = static_cast<std::uint64_t>(options.seed);
  // Before the spawn: a flock far too large for its world is refused without being built.
  if (!options.force && options.init.empty())
    sim::checkSpawnCost(scene.model, scene.count, scene.path, "--force");
  described.view = render::readSceneView(scene);
  described.world.init = options.init;
  return described;
}

void checkRunCost(const world::World& world, std::uint64_t steps, const SceneOptions& options) {
  if (options.force) return;
  const sim::Scene& scene = world.scene();
  sim::checkRunCost(sim::estimateRunCost(scene.model, world.initial().position, steps), scene.path,
                    "--force");
}

std::uint64_t resolveSteps(std::int64_t option, const sim::Scene& scene, std::uint64_t fallback) {
  if (option != kUnset) {
    if (option < 0) throw InputError("", 0, "--steps", "must be >= 0");
    return static_cast<std::uint64_t>(option);
  }
  return scene.steps > 0 ? scene.steps : fallback;
}

std::unique_ptr<world::FlockBackend> makeBackendFor(const std::string& flag, std::string_view name,
                                                    int device, gpu::Context* context,
                                                    std::string* autoChoice, int threads) {
  world::AutoChoice choice;
  std::unique_ptr<world::FlockBackend> backend;
  try {
    backend = world::makeBackend(name, device, context, &choice, threads);
  } catch (const world::UnknownBackend& e) {
    throw InputError("", 0, flag, e.what());
  } catch (const gpu::ContextError& e) {
    throw InputError("", 0, flag, std::string("gpu: ") + e.what());
  }
  if (autoChoice != nullptr && name == "auto") {
    switch (choice.reason) {
      case world::AutoChoice::Reason::HardwareGpu:
        *autoChoice = fmt::format("backend gpu: a hardware GL device ({})", choice.detail);
        break;
      case world::AutoChoice::Reason::SoftwareRenderer:
        *autoChoice = fmt::format(
            "backend cpu: the GL device is a software renderer ({}), where the cpu backend "
            "is faster; {} gpu to use it anyway",
            choice.detail, flag);
        break;
      case world::AutoChoice::Reason::NoGpuContext:
        *autoChoice = fmt::format("backend cpu: no GPU backend ({}); {} gpu to insist", choice.detail, flag);
        break;
    }
  }
  return backend;
}

}  // namespace murmur::session
