#include "app/scene_options.hpp"

#include "app/cli_checks.hpp"
#include "sim/scene.hpp"
#include "sim/worker_pool.hpp"

namespace murmur::app {

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
