#include "ai/scene_agents.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <filesystem>
#include <limits>
#include <numbers>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <utility>

#include <fmt/format.h>
#include <glm/common.hpp>
#include <glm/vec2.hpp>

#include "ai/movingai.hpp"
#include "sim/scene_toml.hpp"

namespace murmur::ai {
namespace {

using sim::TableReader;

// Defaults of the [[agents]] keys (docs/ai.md).
constexpr float kDefaultMaxSpeed = 10.0f;
constexpr float kDefaultMaxForce = 20.0f;
constexpr float kDefaultViewDistance = 40.0f;
constexpr float kDefaultViewAngleDegrees = 120.0f;
constexpr float kDefaultHearingRange = 60.0f;
constexpr float kDefaultLoudSpeed = 6.0f;
constexpr float kDefaultReplanInterval = 0.5f;
constexpr float kDefaultClearance = 1.0f;
constexpr float kDefaultTurnRateDegrees = 180.0f;
// The largest value of a rigid player's mass, inertia, length, forces and drags (docs/model.md's
// limit of lengths, speeds and forces).
constexpr float kMaxRigidValue = 1e9f;

// Whether a point lies inside the world box on every active axis (y does not count in 2D).
bool insideWorld(const sim::ModelParams& model, const glm::vec3& point) {
  for (int axis = 0; axis < 3; ++axis) {
    if (model.dims == 2 && axis == 1) continue;
    if (point[axis] < model.worldMin[axis] || point[axis] > model.worldMax[axis]) return false;
  }
  return true;
}

// What every key of one scene reader is checked against: the world, and the grid when there is one.
struct Context {
  const sim::Scene& scene;
  const NavigationGrid* navigation;  // null: no grid
};

// A point of the scene as the agents use it: y dropped in 2D, inside the world, on a passable cell.
// what: how the message names the point ("position", "waypoint 2").
glm::vec3 checkedPoint(const Context& context, TableReader& table, std::string_view key, glm::vec3 point,
                       std::string_view what) {
  const sim::ModelParams& model = context.scene.model;
  if (model.dims == 2) point.y = 0.0f;
  if (!insideWorld(model, point))
    table.fail(key,
               fmt::format("{} ({}, {}, {}) lies outside the world box", what, point.x, point.y, point.z));
  if (context.navigation != nullptr) {
    const Cell cell = cellAt(context.navigation->placement, point);
    if (!context.navigation->map.passable(cell))
      table.fail(key, fmt::format("{} ({}, {}, {}) lies on a blocked navigation cell ({}, {})", what, point.x,
                                  point.y, point.z, cell.x, cell.y));
  }
  return point;
}

float positive(TableReader& table, std::string_view key, float fallback) {
  const auto value = static_cast<float>(table.number(key, fallback));
  if (!(value > 0.0f)) table.fail(key, "must be above 0");
  return value;
}

float positive(TableReader& table, std::string_view key) {
  const auto value = static_cast<float>(table.number(key));
  if (!(value > 0.0f)) table.fail(key, "must be above 0");
  return value;
}

float nonNegative(TableReader& table, std::string_view key, float fallback) {
  const auto value = static_cast<float>(table.number(key, fallback));
  if (value < 0.0f) table.fail(key, "must be at least 0");
  return value;
}

float nonNegative(TableReader& table, std::string_view key) {
  const auto value = static_cast<float>(table.number(key));
  if (value < 0.0f) table.fail(key, "must be at least 0");
  return value;
}

// A number that may be absent (TableReader's getters reject NaN in the file, so it marks absence).
std::optional<double> optionalNumber(TableReader& table, std::string_view key) {
  const double value = table.number(key, std::numeric_limits<double>::quiet_NaN());
  return std::isnan(value) ? std::nullopt : std::optional<double>(value);
}

std::optional<float> optionalPositive(TableReader& table, std::string_view key) {
  if (!optionalNumber(table, key)) return std::nullopt;
  return positive(table, key);
}

std::optional<glm::vec3> optionalVec3(TableReader& table, std::string_view key) {
  const glm::vec3 value = table.vec3(key, glm::vec3(std::numeric_limits<float>::quiet_NaN()));
  return std::isnan(value.x) ? std::nullopt : std::optional<glm::vec3>(value);
}

// A group index that may be absent: in [0, groups).
std::optional<std::uint32_t> optionalGroup(TableReader& table, std::string_view key, std::uint32_t groups) {
  constexpr std::int64_t kAbsent = std::numeric_limits<std::int64_t>::min();
  const std::int64_t group = table.integer(key, kAbsent);
  if (group == kAbsent) return std::nullopt;
  if (group < 0 || group >= std::int64_t{groups})
    table.fail(key, fmt::format("must be in [0, {}] (boids.groups is {})", groups - 1, groups));
  return static_cast<std::uint32_t>(group);
}

// ---- [navigation] ----

// Cells on each side of the grid rasterised from the obstacles (x by z): floor + 1, so that the
// world's far edges lie on the grid too. Doubles, so that a tiny cell size is checked, not wrapped.
struct RasterSides {
  double width;
  double height;
};
RasterSides rasterSides(const sim::ModelParams& model, float cellSize) {
  const glm::vec3 size = model.worldSize();
  return {std::floor(size.x / cellSize) + 1.0, std::floor(size.z / cellSize) + 1.0};
}

// A relative data path: beside the scene file, then in each data directory in turn; fails naming
// every place tried.
std::filesystem::path findDataFile(TableReader& table, std::string_view key, const std::string& name,
                                   const sim::Scene& scene,
                                   const std::vector<std::filesystem::path>& dataDirectories) {
  const std::filesystem::path file(name);
  std::vector<std::filesystem::path> candidates;
  if (file.is_absolute()) {
    candidates.push_back(file);
  } else {
    candidates.push_back(std::filesystem::path(scene.path).parent_path() / file);
    for (const std::filesystem::path& dir : dataDirectories) candidates.push_back(dir / file);
  }
  std::error_code error;
  std::string tried;
  for (const std::filesystem::path& candidate : candidates) {
    // Anything there is the file meant: its reader names a FIFO, device or directory by its kind.
    if (std::filesystem::exists(candidate, error)) return candidate;
    tried += (tried.empty() ? "" : ", ") + candidate.lexically_normal().string();
  }
  table.fail(key, fmt::format("no such {} file '{}' (tried {})", key, name, tried));
}

std::shared_ptr<const NavigationGrid> readNavigation(
    TableReader& table, const sim::Scene& scene, const std::vector<std::filesystem::path>& dataDirectories) {
  const std::string mapName = table.string("map", "");
  const std::int64_t connect = table.integer("connect", 8);
  if (connect != 4 && connect != 8) table.fail("connect", "must be 4 or 8");
  const Connectivity connectivity = connect == 4 ? Connectivity::Four : Connectivity::Eight;
  const Heuristic heuristic = table.choice("heuristic",
                                           {{toString(Heuristic::Manhattan), Heuristic::Manhattan},
                                            {toString(Heuristic::Octile), Heuristic::Octile},
                                            {toString(Heuristic::Euclidean), Heuristic::Euclidean}},
                                           defaultHeuristic(connectivity));
  if (!isAdmissible(heuristic, connectivity))
    table.fail("heuristic", fmt::format("{} overestimates with {}-connected moves, so A* would miss shortest "
                                        "paths (use octile or euclidean)",
                                        toString(heuristic), connect));

  auto navigation = std::make_shared<NavigationGrid>();
  if (!mapName.empty()) {
    // The map's placement is automatic, so cell_size and clearance are not read: finish() names them
    // as unknown keys, listing the accepted ones.
    table.finish();
    const std::filesystem::path file = findDataFile(table, "map", mapName, scene, dataDirectories);
    navigation->map = loadMovingAiMap(file);
    navigation->placement = coveringPlacement(scene.model, navigation->map);
    navigation->wallsFromMap = true;
  } else {
    const std::optional<float> cellSize = optionalPositive(table, "cell_size");
    if (!cellSize)
      table.fail("cell_size",
                 "missing: [navigation] needs map (a MovingAI file) or cell_size (a grid rasterised from the "
                 "obstacles)");
    const float clearance = nonNegative(table, "clearance", kDefaultClearance);
    table.finish();
    const RasterSides sides = rasterSides(scene.model, *cellSize);
    const double cells = std::max(sides.width, sides.height);
    if (cells > GridMap::kMaxSide)
      table.fail("cell_size", fmt::format("too small: the grid would have {} cells on a side (at most {})",
                                          cells, GridMap::kMaxSide));
    *navigation = rasterizeObstacles(scene.model, scene.obstacles, *cellSize, clearance);
  }
  navigation->connectivity = connectivity;
  navigation->heuristic = heuristic;
  return navigation;
}

// ---- [[agents]] ----

// One [[agents.states]] table, its transitions left for later (they name states that may come after).
StateSpec readState(const Context& context, TableReader& table, const AgentSpec& agent) {
  StateSpec state;
  state.name = table.string("name");
  if (state.name.empty()) table.fail("name", "must not be empty");
  const auto word = [](Action action) { return std::pair{toString(action), action}; };
  state.action = table.choice<Action>(
      "action", {word(Action::Patrol), word(Action::Seek), word(Action::Arrive), word(Action::Pursue),
                 word(Action::Flee), word(Action::Evade), word(Action::Wander), word(Action::Rest)});
  if (state.action != Action::Rest) {
    const float speed = positive(table, "speed", agent.maxSpeed);
    if (speed > agent.maxSpeed)
      table.fail("speed", fmt::format("must be at most the agent's max_speed ({})", agent.maxSpeed));
    state.speed = speed;
  }
  const auto readPoint = [&] {
    if (const std::optional<glm::vec3> point = optionalVec3(table, "point"))
      state.point = checkedPoint(context, table, "point", *point, "point");
  };
  switch (state.action) {
    case Action::Patrol: {
      const std::vector<glm::vec3> waypoints = table.vec3List("waypoints");
      if (waypoints.empty()) table.fail("waypoints", "missing: patrol needs at least one waypoint");
      for (std::size_t i = 0; i < waypoints.size(); ++i)
        state.waypoints.push_back(
            checkedPoint(context, table, "waypoints", waypoints[i], fmt::format("waypoint {}", i)));
      state.arrivalRadius = positive(table, "arrival_radius", state.arrivalRadius);
      state.slowRadius = optionalPositive(table, "slow_radius");
      break;
    }
    case Action::Seek:
    case Action::Flee:
      readPoint();
      break;
    case Action::Arrive:
      readPoint();
      state.slowRadius = optionalPositive(table, "slow_radius");
      break;
    case Action::Pursue:
    case Action::Evade:
      readPoint();
      state.maxPrediction = nonNegative(table, "max_prediction", state.maxPrediction);
      break;
    case Action::Wander:
      state.wander.distance = nonNegative(table, "wander_distance", state.wander.distance);
      state.wander.radius = positive(table, "wander_radius", state.wander.radius);
      state.wander.jitter = nonNegative(table, "wander_jitter", state.wander.jitter);
      break;
    case Action::Rest:
      break;
  }
  return state;
}

// Index of the state named `name`, if any.
std::optional<std::size_t> findState(const std::vector<StateSpec>& states, std::string_view name) {
  for (std::size_t i = 0; i < states.size(); ++i)
    if (states[i].name == name) return i;
  return std::nullopt;
}

std::string stateNames(const std::vector<StateSpec>& states) {
  std::vector<std::string_view> names;
  for (const StateSpec& state : states) names.push_back(state.name);
  return fmt::format("\"{}\"", fmt::join(names, "\", \""));
}

TransitionSpec readTransition(TableReader& table, const std::vector<StateSpec>& states,
                              std::uint32_t groups) {
  TransitionSpec transition;
  const auto word = [](Condition condition) { return std::pair{toString(condition), condition}; };
  transition.when =
      table.choice<Condition>("when", {word(Condition::Sees), word(Condition::Hears), word(Condition::Near),
                                       word(Condition::Far), word(Condition::Timer), word(Condition::LostFor),
                                       word(Condition::SeesPlayer), word(Condition::HearsPlayer)});
  const std::string to = table.string("to");
  const std::optional<std::size_t> target = findState(states, to);
  if (!target) table.fail("to", fmt::format("no state named \"{}\" (states: {})", to, stateNames(states)));
  transition.to = *target;
  switch (transition.when) {
    case Condition::Near:
    case Condition::Far:
      transition.distance = positive(table, "distance");
      [[fallthrough]];
    case Condition::Sees:
    case Condition::Hears:
      transition.group = optionalGroup(table, "group", groups);
      break;
    case Condition::LostFor:
      transition.group = optionalGroup(table, "group", groups);
      [[fallthrough]];
    case Condition::Timer:
      transition.seconds = nonNegative(table, "seconds");
      break;
    case Condition::SeesPlayer:
    case Condition::HearsPlayer:
      break;
  }
  table.finish();
  return transition;
}

// The rest of a player's table: its turn rate and course. It runs no state machine and perceives
// nothing, so states, initial and the senses' keys are refused.
// A rigid player's body (body = "rigid"; docs/ai.md, The rigid-body player): each value at most 1e9,
// and drags an Euler step of sim.dt cannot overshoot (drag x dt / mass, and / inertia, at most 1:
// beyond that a step would reverse the motion it damps, and beyond 2 the motion would grow).
RigidBody readRigidBody(const Context& context, TableReader& table) {
  const auto bounded = [&table](std::string_view key, float value) {
    if (value > kMaxRigidValue) table.fail(key, fmt::format("must be at most {:g}", double(kMaxRigidValue)));
    return value;
  };
  RigidBody body;
  body.mass = bounded("mass", positive(table, "mass", body.mass));
  body.inertia = bounded("inertia", positive(table, "inertia", body.inertia));
  body.length = bounded("length", positive(table, "length", body.length));
  body.thrust = bounded("thrust", positive(table, "thrust", body.thrust));
  body.bowThrust = bounded("bow_thrust", positive(table, "bow_thrust", body.bowThrust));
  body.linearDrag = bounded("linear_drag", nonNegative(table, "linear_drag", body.linearDrag));
  body.angularDrag = bounded("angular_drag", nonNegative(table, "angular_drag", body.angularDrag));
  const double dt = context.scene.model.dt;
  if (double(body.linearDrag) * dt / double(body.mass) > 1.0)
    table.fail("linear_drag",
               fmt::format("linear_drag x sim.dt / mass is {:g}: must be at most 1 (a step would "
                           "reverse the velocity it damps)",
                           double(body.linearDrag) * dt / double(body.mass)));
  if (double(body.angularDrag) * dt / double(body.inertia) > 1.0)
    table.fail("angular_drag",
               fmt::format("angular_drag x sim.dt / inertia is {:g}: must be at most 1 (a step "
                           "would reverse the spin it damps)",
                           double(body.angularDrag) * dt / double(body.inertia)));
  return body;
}

void readPlayer(const Context& context, TableReader& table, AgentSpec& agent) {
  if (!table.arrayOfTables("states").empty())
    table.fail("states",
               "a player runs no state machine: it follows its course or the keys (drop [[agents.states]])");
  agent.player.body = table.choice<PlayerBody>(
      "body", {{"kinematic", PlayerBody::Kinematic}, {"rigid", PlayerBody::Rigid}}, PlayerBody::Kinematic);
  if (agent.player.body == PlayerBody::Rigid) {
    if (optionalNumber(table, "turn_rate"))
      table.fail("turn_rate",
                 "a rigid player turns by its bow thrusters (bow_thrust, length, inertia): drop turn_rate");
    agent.player.rigid = readRigidBody(context, table);
  } else {
    const float turnRate = positive(table, "turn_rate", kDefaultTurnRateDegrees);
    if (turnRate > 3600.0f) table.fail("turn_rate", "must be at most 3600 degrees/s");
    agent.player.turnRate = turnRate * std::numbers::pi_v<float> / 180.0f;
  }
  agent.player.arrivalRadius = positive(table, "arrival_radius", agent.player.arrivalRadius);
  const std::vector<glm::vec3> course = table.vec3List("course");
  for (std::size_t i = 0; i < course.size(); ++i)
    agent.player.course.push_back(
        checkedPoint(context, table, "course", course[i], fmt::format("waypoint {}", i)));
  table.finish();
}

AgentSpec readAgent(const Context& context, TableReader& table) {
  const sim::Scene& scene = context.scene;
  AgentSpec agent;
  agent.name = table.string("name", "");
  agent.kind = table.choice<AgentKind>("kind", {{toString(AgentKind::Leader), AgentKind::Leader},
                                                {toString(AgentKind::Predator), AgentKind::Predator},
                                                {toString(AgentKind::Player), AgentKind::Player}});
  if (agent.kind == AgentKind::Leader) {
    const std::optional<std::uint32_t> group = optionalGroup(table, "group", scene.groups);
    if (!group) table.fail("group", "missing: a leader leads a group");
    agent.group = *group;
  }
  agent.position = checkedPoint(context, table, "position", table.vec3("position"), "position");
  agent.maxSpeed = positive(table, "max_speed", kDefaultMaxSpeed);
  agent.maxForce = positive(table, "max_force", kDefaultMaxForce);
  if (agent.kind == AgentKind::Player) {
    readPlayer(context, table, agent);
    return agent;
  }
  agent.sight.viewDistance = nonNegative(table, "view_distance", kDefaultViewDistance);
  const float viewAngle = positive(table, "view_angle", kDefaultViewAngleDegrees);
  if (viewAngle > 360.0f) table.fail("view_angle", "must be in (0, 360] degrees");
  agent.sight.halfAngle = viewAngle * std::numbers::pi_v<float> / 360.0f;
  agent.hearing.range = nonNegative(table, "hearing_range", kDefaultHearingRange);
  agent.hearing.loudSpeed = nonNegative(table, "loud_speed", kDefaultLoudSpeed);
  agent.replanInterval = nonNegative(table, "replan_interval", kDefaultReplanInterval);
  const std::string initial = table.string("initial", "");

  std::vector<TableReader> states = table.arrayOfTables("states");
  if (states.empty()) table.fail("states", "missing: an agent needs at least one [[agents.states]]");
  std::vector<std::vector<TableReader>> transitions;
  for (TableReader& stateTable : states) {
    StateSpec state = readState(context, stateTable, agent);
    if (findState(agent.states, state.name))
      stateTable.fail("name", fmt::format("duplicate state name \"{}\"", state.name));
    agent.states.push_back(std::move(state));
    transitions.push_back(stateTable.arrayOfTables("transitions"));
    stateTable.finish();
  }
  for (std::size_t i = 0; i < states.size(); ++i)
    for (TableReader& transition : transitions[i])
      agent.states[i].transitions.push_back(readTransition(transition, agent.states, scene.groups));

  if (!initial.empty()) {
    const std::optional<std::size_t> found = findState(agent.states, initial);
    if (!found)
      table.fail("initial",
                 fmt::format("no state named \"{}\" (states: {})", initial, stateNames(agent.states)));
    agent.initial = *found;
  }
  table.finish();
  return agent;
}

}  // namespace

std::optional<std::size_t> findAgent(std::span<const AgentSpec> agents, std::string_view name) {
  if (name.empty()) return std::nullopt;
  for (std::size_t i = 0; i < agents.size(); ++i)
    if (agents[i].name == name) return i;
  return std::nullopt;
}

GridPlacement coveringPlacement(const sim::ModelParams& model, const GridMap& map) {
  const glm::vec3 size = model.worldSize();
  const glm::vec3 center = 0.5f * (model.worldMin + model.worldMax);
  // A hair over the exact fit, so that the world's far edges lie on the map too.
  constexpr float kCoverFactor = 1.0f + 1e-5f;
  const float cellSize = std::max(size.x / float(map.width()), size.z / float(map.height())) * kCoverFactor;
  GridPlacement placement;
  placement.cellSize = cellSize;
  placement.origin = glm::vec2(center.x - 0.5f * cellSize * float(map.width()),
                               center.z - 0.5f * cellSize * float(map.height()));
  return placement;
}

NavigationGrid rasterizeObstacles(const sim::ModelParams& model, const std::vector<sim::Obstacle>& obstacles,
                                  float cellSize, float clearance) {
  const RasterSides sides = rasterSides(model, cellSize);
  if (sides.width > GridMap::kMaxSide || sides.height > GridMap::kMaxSide)
    throw std::invalid_argument(
        "rasterizeObstacles: the grid would exceed GridMap::kMaxSide cells on a side");
  NavigationGrid grid;
  grid.map = GridMap(static_cast<std::int32_t>(sides.width), static_cast<std::int32_t>(sides.height));
  grid.placement.origin = glm::vec2(model.worldMin.x, model.worldMin.z);
  grid.placement.cellSize = cellSize;
  for (const sim::Obstacle& obstacle : obstacles) {
    const float reach = obstacle.radius + clearance;
    const glm::vec2 center(obstacle.center.x, obstacle.center.z);
    // Only the cells under the circle's bounding square can overlap it.
    const Cell low = cellAt(grid.placement, glm::vec3(center.x - reach, 0.0f, center.y - reach));
    const Cell high = cellAt(grid.placement, glm::vec3(center.x + reach, 0.0f, center.y + reach));
    for (std::int32_t y = std::max(low.y, 0); y <= std::min(high.y, grid.map.height() - 1); ++y) {
      for (std::int32_t x = std::max(low.x, 0); x <= std::min(high.x, grid.map.width() - 1); ++x) {
        const glm::vec2 corner = grid.placement.origin + glm::vec2(float(x), float(y)) * cellSize;
        const glm::vec2 closest = glm::clamp(center, corner, corner + glm::vec2(cellSize));
        const glm::vec2 offset = closest - center;
        if (offset.x * offset.x + offset.y * offset.y < reach * reach) grid.map.setPassable({x, y}, false);
      }
    }
  }
  return grid;
}

sim::WallGrid wallGridOf(const GridMap& map, const GridPlacement& placement) {
  sim::WallGrid walls;
  static_cast<GridPlacement&>(walls) = placement;
  walls.width = static_cast<std::uint32_t>(map.width());
  walls.height = static_cast<std::uint32_t>(map.height());
  walls.blocked.resize(std::size_t{walls.width} * walls.height);
  for (std::int32_t y = 0; y < map.height(); ++y)
    for (std::int32_t x = 0; x < map.width(); ++x)
      walls.blocked[std::size_t(y) * walls.width + std::size_t(x)] = map.passable({x, y}) ? 0 : 1;
  return walls;
}

SceneAgents loadSceneAgents(const sim::Scene& scene,
                            const std::vector<std::filesystem::path>& dataDirectories) {
  SceneAgents result;
  if (!scene.document) return result;
  // The other sections belong to the sim and render loaders: this reader never calls finish().
  TableReader root(scene.document->path, scene.document->root, "");
  std::optional<TableReader> navigation = root.table("navigation");
  std::vector<TableReader> agents = root.arrayOfTables("agents");
  if (navigation) {
    result.navigation = readNavigation(*navigation, scene, dataDirectories);
    if (result.navigation->wallsFromMap)
      result.walls = std::make_shared<const sim::WallGrid>(
          wallGridOf(result.navigation->map, result.navigation->placement));
  }
  const Context context{scene, result.navigation.get()};
  for (TableReader& agent : agents) {
    AgentSpec spec = readAgent(context, agent);
    if (findAgent(result.agents, spec.name))
      agent.fail("name", fmt::format("duplicate agent name \"{}\"", spec.name));
    result.agents.push_back(std::move(spec));
  }
  // A [[groups]] target_agent names one of these agents.
  std::vector<TableReader> groups = root.arrayOfTables("groups");
  for (std::size_t i = 0; i < scene.groupSpecs.size() && i < groups.size(); ++i) {
    const std::string& name = scene.groupSpecs[i].targetAgent;
    if (!name.empty() && !findAgent(result.agents, name))
      groups[i].fail("target_agent", fmt::format("no agent named \"{}\" in [[agents]]", name));
  }
  return result;
}

}  // namespace murmur::ai
