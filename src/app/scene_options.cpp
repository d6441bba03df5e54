#include "app/scene_options.hpp"

#include <fmt/format.h>

#include "app/cli_checks.hpp"
#include "core/error.hpp"
#include "sim/scene.hpp"
#include "sim/worker_pool.hpp"

namespace murmur::app {
namespace {

// --set KEY=VALUE: the value as TOML (sim::overrideValue), errors naming --set.
sim::SceneOverride parseSetting(const std::string& setting) {
  const std::size_t equals = setting.find('=');
  if (equals == std::string::npos || equals == 0)
    throw InputError("", 0, "--set", fmt::format("'{}' must be KEY=VALUE", setting));
  const std::string key = setting.substr(0, equals);
  return {key, sim::overrideValue(std::string_view(setting).substr(equals + 1), "--set", key), "--set", 0};
}

}  // namespace

void addSceneOptions(CLI::App& command, SceneOptions& options, bool sceneRequired) {
  CLI::Option* scene =
      command
          .add_option("--scene", options.scene,
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
  command
      .add_option("--data-dir", options.dataDirs,
                  "Where the scene's data files (maps) are looked for when not beside the scene "
                  "(then $MURMUR_DATA_DIR, then share/murmur/data beside the executable); may be repeated")
      ->type_name("DIR")
      ->expected(1)
      ->check(nonEmpty());
  command
      .add_option_function<std::vector<std::string>>(
          "--set",
          [&options](const std::vector<std::string>& settings) {
            try {
              for (const std::string& setting : settings) options.overrides.push_back(parseSetting(setting));
            } catch (const InputError& e) {
              throw CLI::ValidationError(e.what());  // a parse error: one line, exit code 2
            }
          },
          "Set a scene value over the file's: KEY=VALUE with KEY any docs/model.md key (boids.count=400, "
          "perception.neighbours=7, world.boundary=wrap), checked like the scene's own; may be repeated")
      ->type_name("KEY=VALUE")
      ->expected(1)
      ->multi_option_policy(CLI::MultiOptionPolicy::TakeAll);
  command
      .add_option("--threads", options.threads,
                  "Threads of the cpu backends (default 0: one per hardware thread)")
      ->type_name("N")
      ->check(integerIn(0, sim::kMaxThreads));
  command.add_flag(
      "--force", options.force,
      "Run even when the estimated cost (candidate tests of the neighbour search) is over the limits "
      "(docs/model.md, Limits)");
}

}  // namespace murmur::app
