#pragma once
// Where a scene comes from and the world it describes: what the commands (run, compare, demo) and
// the library (include/murmur) share, with no command-line types.
#include <cstdint>
#include <filesystem>
#include <limits>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "render/scene_view.hpp"
#include "sim/scene.hpp"
#include "sim/scene_loader.hpp"
#include "world/backend.hpp"
#include "world/world.hpp"

namespace murmur::gpu {
class Context;
}

namespace murmur::session {

// Marks an integer option that was not given (any given value, negative ones too, is validated).
inline constexpr std::int64_t kUnset = std::numeric_limits<std::int64_t>::min();

struct SceneOptions {
  std::string scene;  // --scene: a shipped scene's name or a file
  std::string text;   // TOML text of the scene instead of a file (`scene` then names it in messages)
  std::string init;   // --init STATE.csv
  std::int64_t boids = kUnset;        // --boids N
  std::int64_t seed = kUnset;         // --seed S
  std::vector<std::string> dataDirs;  // --data-dir: where a scene's relative data paths (maps) are looked for
  std::vector<sim::SceneOverride> overrides;  // --set KEY=VALUE, a sweep's values: over the scene's, in order
  int threads = 0;                            // --threads: CPU backend threads, 0 one per hardware thread
  bool force = false;                         // --force: run even when the estimated cost is over the limits
};

// Where a scene's relative data paths are looked for after the scene's own directory, in order:
// --data-dir, $MURMUR_DATA_DIR, then share/murmur/data (core/install_dirs.hpp; in a build tree, a
// copy of the project's data).
std::vector<std::filesystem::path> dataDirectories(const SceneOptions& options);

// The scene file --scene names: the path itself when it is a file (absolute, or relative to the
// working directory); else, relative, with ".toml" added when it has no extension, in
// share/murmur/scenes (the shipped scenes, so "maze2d" and "scenes/maze2d.toml" work from any
// directory), in share/murmur, then in each data directory. InputError naming every place tried.
std::filesystem::path findScene(const std::string& given, const std::vector<std::filesystem::path>& dataDirs);

// The shipped scenes (share/murmur/scenes/*.toml), sorted by name.
std::vector<std::filesystem::path> shippedScenes();

// The world the options describe, and how its scene wants to be looked at.
struct DescribedWorld {
  world::WorldDescription world;  // the scene with its count, --seed applied, --init, dataDirectories()
  render::SceneView view;         // the scene's [render] section (checked by every command alike)
  // When the scene's boids.gpu_count set the count (the gpu backend, no --boids or --init): a line
  // saying so, for the commands to print once their checks passed; else empty.
  std::string countNote;
};

// Loads the scene with every module's sections (kSceneSections; InputError on bad input), applies
// --boids (not with --init) and --seed, reads its [render] section, and refuses a count its world
// cannot hold (sim::checkSpawnCost, unless --force). The world checks the rest when it loads
// (world::World). For a flock on the gpu backend (`gpuBackend`), the scene's boids.gpu_count,
// when it has one, is its count (unless --boids or --init says otherwise).
DescribedWorld describeWorld(const SceneOptions& options, bool gpuBackend);

// Refuses (InputError) a run of `steps` steps (0: open-ended) whose estimated cost
// (sim/run_cost.hpp) is over the limits, unless --force was given.
void checkRunCost(const world::World& world, std::uint64_t steps, const SceneOptions& options);

// --steps: the option when given (>= 0, else InputError), else the scene's sim.steps when > 0, else fallback.
std::uint64_t resolveSteps(std::int64_t option, const sim::Scene& scene, std::uint64_t fallback);

// world::makeBackend for the value of `flag` (--backend, --reference, --candidate) with `threads`
// for a CPU backend: an unknown name, or gpu without a GL context, is bad input naming the flag
// (InputError); a shader error is not (it is a bug). What auto chose and why goes to *autoChoice
// as one line for the user.
std::unique_ptr<world::FlockBackend> makeBackendFor(const std::string& flag, std::string_view name,
                                                    int device, gpu::Context* context,
                                                    std::string* autoChoice, int threads = 0);

}  // namespace murmur::session
