#pragma once
// The ai sections of a scene file: [navigation] (a grid for A*, from a MovingAI map or rasterised
// from the scene's obstacles) and [[agents]] (leaders and predators with their state machines).
// docs/ai.md documents the keys. The sim loader accepts these sections unread when it is given
// kSceneSections (the program passes them with the other modules': session/scene_sections.hpp) and keeps
// the parsed document in Scene::document; this loader reads them with the same strict TableReader, so
// every mistake is a murmur::InputError naming the file, the line and the key.
#include <filesystem>
#include <memory>
#include <optional>
#include <span>
#include <string_view>
#include <vector>

#include "ai/agents.hpp"
#include "ai/nav.hpp"
#include "sim/scene.hpp"
#include "sim/scene_loader.hpp"
#include "sim/walls.hpp"

namespace murmur::ai {

// The top-level sections of a scene file that loadSceneAgents reads: sim::loadScene accepts them
// when given these.
inline constexpr sim::SceneSection kSceneSections[] = {{"navigation", false}, {"agents", true}};

// A grid in the world: what the agents plan paths on and perceive walls with.
struct NavigationGrid {
  GridMap map;
  GridPlacement placement;
  Connectivity connectivity = Connectivity::Eight;
  Heuristic heuristic = Heuristic::Octile;  // admissible for connectivity (the loader checks)
  // True when the blocked cells are walls of a map: they occlude sight and the boids avoid them. False
  // when they are the scene's spheres inflated by the clearance: only paths go around them (sight
  // tests the spheres themselves, and the model avoids spheres on its own).
  bool wallsFromMap = false;

  // What the agents' A* searches use: the scene's connectivity and heuristic.
  SearchOptions searchOptions() const {
    SearchOptions options;
    options.connectivity = connectivity;
    options.heuristic = heuristic;
    return options;
  }
};

struct SceneAgents {
  std::shared_ptr<const NavigationGrid> navigation;  // null: no [navigation]
  // The walls for the boids (StepInputs::walls): a map's blocked cells, same placement; null without
  // a map (no [navigation], or a grid rasterised from obstacles).
  std::shared_ptr<const sim::WallGrid> walls;
  std::vector<AgentSpec> agents;  // in file order
};

// Reads [navigation] and [[agents]] of a loaded scene (sim::loadScene with kSceneSections). A scene
// built in code (no document) has neither. A relative map path is looked for beside the scene file,
// then in each of dataDirectories in order (the caller's search path); the error names every place
// tried. Throws murmur::InputError for any bad value, unknown key, unknown word (kind, action,
// condition), a transition to a missing state, a duplicate state name, a point outside the world or
// on a blocked cell, or a map that cannot be read.
SceneAgents loadSceneAgents(const sim::Scene& scene,
                            const std::vector<std::filesystem::path>& dataDirectories = {});

// The index of the agent called `name` (nullopt for "" or no such agent).
std::optional<std::size_t> findAgent(std::span<const AgentSpec> agents, std::string_view name);

// A grid covering the world's x-z extent with square cells: a map of w x h cells gets the cell size
// max(world x size / w, world z size / h), centred on the world, so that every point of the world lies
// on the map (the map may reach past the world along one axis).
GridPlacement coveringPlacement(const sim::ModelParams& model, const GridMap& map);

// A grid over the world's x-z extent with cells of cellSize units (> 0), a cell blocked when it
// overlaps an obstacle's circle in the x-z plane (its radius plus clearance, units >= 0): a sphere
// blocks its whole column whatever its height. The placement's origin is the world's (min x, min z).
// Throws std::invalid_argument when the grid would have more than GridMap::kMaxSide cells on a side.
NavigationGrid rasterizeObstacles(const sim::ModelParams& model, const std::vector<sim::Obstacle>& obstacles,
                                  float cellSize, float clearance);

// The boids' walls for a grid: its blocked cells with its placement.
sim::WallGrid wallGridOf(const GridMap& map, const GridPlacement& placement);

}  // namespace murmur::ai
