#pragma once
// Loading scene files (TOML). Every problem is an InputError naming file, line and key:
// unknown section or key, wrong type, out-of-range value. Defaults are model.md's.
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>

#include "core/memory.hpp"
#include "sim/scene.hpp"

namespace murmur::sim {

// Limits beyond the per-key ranges (docs/model.md, "Limits"), so that float32 arithmetic in a step
// cannot overflow and a step's cost stays bounded.
inline constexpr std::int64_t kMaxBoids = 100'000'000;
// Every coordinate, length, speed and force of a scene (and of a state CSV): |x| <= this.
inline constexpr double kMaxMagnitude = 1e9;
// The largest force a step can compute before clamping to max_force (scene validation bounds it
// from speeds, weights, radii and the boid count): its square stays finite in float32.
inline constexpr double kMaxForceBound = 1e18;
// A starling's lift at max_speed: gravity x (max_speed / cruise.speed)^2 (units/s^2) at most this.
inline constexpr double kMaxStarlingLift = 1e18;
// Positions are absolute float32: the spacing of floats at the world's farthest coordinate may be at
// most this fraction of a step's move at boids.max_speed (max_speed x dt), or boids far out would
// move in visible jumps (at 1e5 units the spacing is 5% of the default step; beyond about 2e6 a boid
// cannot move at all).
inline constexpr double kMaxPositionSpacing = 0.01;
inline constexpr std::size_t kMaxObstacles = 1024;
// [[groups]]: a group's thrust (scales max_force and max_speed) and pursuit weight.
inline constexpr float kMaxThrust = 10.0f;
inline constexpr float kMaxPursuitWeight = 1000.0f;
inline constexpr float kMaxInterceptHorizon = 3600.0f;  // [[groups]] max_intercept_seconds, s

// Bytes a run of `boids` boids needs on the host (state, grid, metrics; docs/model.md).
std::uint64_t estimateRunBytes(std::uint64_t boids);
// Throws InputError (key boids.count, with both figures) when estimateRunBytes(boids) exceeds
// `limit` (by default what this process may use: core::memoryLimit).
void checkRunMemory(std::uint64_t boids, const std::string& path,
                    const std::optional<core::MemoryLimit>& limit = core::memoryLimit());

// A top-level section of a scene file that a module above sim reads from Scene::document. Each such
// module declares its own beside its reader, and the program that composes the modules passes them
// all to the loader: sim names no section but its own.
struct SceneSection {
  std::string_view name;
  bool arrayOfTables = false;  // [[name]]; else [name]
};

// A value set over the scene's own (`murmur run --set KEY=VALUE`, a sweep's [set] and axes): key is
// a dotted key of any section ("boids.count"), value a TOML value ("400", "0.5", "\"wrap\"").
// An error about the key names source and line (the option, or the sweep file), not the scene.
struct SceneOverride {
  std::string key;
  std::string value;
  std::string source;
  std::size_t line = 0;
};

// Reads and validates the scene at path (missing or unreadable file: InputError), with overrides set
// over its values in order. The file may hold sim's sections and otherSections, the latter checked
// for type only and left unread; any other section is unknown. std::invalid_argument when
// otherSections names a section twice or one of sim's.
Scene loadScene(const std::string& path, std::span<const SceneSection> otherSections = {},
                std::span<const SceneOverride> overrides = {});

// Parses scene text as loadScene does; sourceName is used in messages (and Scene::path).
Scene parseScene(std::string_view text, const std::string& sourceName,
                 std::span<const SceneSection> otherSections = {},
                 std::span<const SceneOverride> overrides = {});

// The TOML value of `--set KEY=VALUE`'s VALUE: the text itself when it is one TOML value (400, 0.5,
// true, "wrap", [1, 2, 3]), else the text as a string (wrap); InputError naming `source` when it
// holds more than one value.
std::string overrideValue(std::string_view text, const std::string& source, const std::string& key);

// The scene's document as TOML text, its tables and keys in sorted order, the overrides included:
// two scenes that resolve alike give the same text (a sweep's run id hashes it).
std::string resolvedSceneText(const Scene& scene);

// The scene as it runs, as TOML text that loadScene reads back to the same model: its document (the
// overrides included; otherSections as loadScene was given them) with each parameter of the table,
// perception.neighbours, the weights' cohesion switch and sim.seed that `scene` has changed since
// (the demo panel edits them in place), boids.count = count and no boids.gpu_count (one flock on
// every backend), then `extra` set the same way. std::logic_error for a scene built in code (no
// document: its world and obstacles have no text).
std::string savedSceneText(const Scene& scene, std::uint32_t count,
                           std::span<const SceneSection> otherSections,
                           const std::vector<SceneOverride>& extra = {});

// Checks the cross-field limits of a scene built in code or changed after loading (e.g. --boids);
// throws InputError with the scene's path and the offending key.
void validateScene(const Scene& scene);

}  // namespace murmur::sim
