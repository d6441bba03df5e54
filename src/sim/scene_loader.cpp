#include "sim/scene_loader.hpp"

#include <algorithm>
#include <bit>
#include <cerrno>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <memory>
#include <optional>
#include <sstream>
#include <stdexcept>
#include <utility>
#include <vector>

#include <fmt/format.h>

#include "core/error.hpp"
#include "core/input_file.hpp"
#include "core/memory.hpp"
#include "sim/builders.hpp"
#include "sim/grid.hpp"
#include "sim/param_table.hpp"
#include "sim/scene_toml.hpp"
#include "sim/stability.hpp"

namespace murmur::sim {
namespace {

constexpr std::int64_t kMaxGroups = 1024;
constexpr const char* kAxisNames[] = {"x", "y", "z"};

// The limits that are checked both while reading (where a value out of them would not even fit the
// Scene's field) and by validateScene share their messages.
const std::string kDimsRule = "must be 2 or 3";
const std::string kCountRule = fmt::format("must be in [0, {}]", kMaxBoids);
const std::string kGroupsRule = fmt::format("must be in [1, {}]", kMaxGroups);

std::string targetGroupRule(std::uint32_t groups) {
  return fmt::format("must be below boids.groups ({})", groups);
}

// Axes the model uses: y is ignored in 2D (the x-z plane).
std::vector<int> activeAxes(int dims) {
  return dims == 2 ? std::vector<int>{0, 2} : std::vector<int>{0, 1, 2};
}

// ---- Reading ----

// The parameter table's rows of `section` (param_table.hpp), in table order; absent keys keep the
// model's value (its default, or a view mode's).
void readParams(TableReader& table, std::string_view section, ModelParams& m) {
  for (const ModelParam& param : modelParams())
    if (param.section == section)
      param.field.of(m) = static_cast<float>(table.number(param.name, param.field.of(m)));
}

// A section that holds only table rows, e.g. [flee].
void readParamSection(TableReader& table, std::string_view section, ModelParams& m) {
  readParams(table, section, m);
  table.finish();
}

std::int64_t integerInRange(TableReader& table, std::string_view key, std::int64_t fallback, std::int64_t lo,
                            std::int64_t hi, const std::string& rule) {
  const std::int64_t value = table.integer(key, fallback);
  if (value < lo || value > hi) table.fail(key, rule);
  return value;
}

std::uint64_t nonNegativeInteger(TableReader& table, std::string_view key, std::uint64_t fallback) {
  return static_cast<std::uint64_t>(integerInRange(table, key, static_cast<std::int64_t>(fallback), 0,
                                                   std::numeric_limits<std::int64_t>::max(),
                                                   "must be at least 0"));
}

void readWorld(TableReader& world, ModelParams& m) {
  m.dims = static_cast<int>(integerInRange(world, "dims", m.dims, 2, 3, kDimsRule));
  m.worldMin = world.vec3("min", m.worldMin);
  m.worldMax = world.vec3("max", m.worldMax);
  m.boundary =
      world.choice("boundary", {{"contain", Boundary::Contain}, {"wrap", Boundary::Wrap}}, m.boundary);
  readParams(world, "world", m);
  world.finish();
}

void readSim(TableReader& sim, Scene& scene) {
  readParams(sim, "sim", scene.model);
  scene.seed = nonNegativeInteger(sim, "seed", scene.seed);
  scene.steps = nonNegativeInteger(sim, "steps", scene.steps);
  scene.spawn = sim.choice("spawn", {{"box", Spawn::Box}, {"sphere", Spawn::Sphere}}, scene.spawn);
  const double spacing = sim.number("spawn_spacing", scene.spawnSpacing);
  if (!(spacing >= 0.0 && spacing <= kMaxMagnitude))
    sim.fail(
        "spawn_spacing",
        fmt::format("must be between 0 and {:g} units (0: the ball fills 0.4 of the world)", kMaxMagnitude));
  scene.spawnSpacing = static_cast<float>(spacing);
  // The reader only returns finite numbers: a NaN can only be the fallback, the key's absence.
  if (glm::vec3 center = sim.vec3("spawn_center", glm::vec3(std::numeric_limits<float>::quiet_NaN()));
      !std::isnan(center.x)) {
    if (scene.model.dims == 2) center.y = 0.0f;
    for (int k : activeAxes(scene.model.dims))
      if (center[k] < scene.model.worldMin[k] || center[k] > scene.model.worldMax[k])
        sim.fail("spawn_center", "must lie in the world box ([world] min, max)");
    scene.spawnCenter = center;
  }
  scene.spawnHeading = sim.vec3("heading", scene.spawnHeading);
  for (int k = 0; k < 3; ++k)
    if (!(std::abs(scene.spawnHeading[k]) <= kMaxMagnitude))
      sim.fail("heading", fmt::format("every |component| must be at most {:g}", kMaxMagnitude));
  sim.finish();
}

void readBoids(TableReader& boids, Scene& scene) {
  scene.count =
      static_cast<std::uint32_t>(integerInRange(boids, "count", scene.count, 0, kMaxBoids, kCountRule));
  scene.gpuCount = static_cast<std::uint32_t>(
      integerInRange(boids, "gpu_count", scene.gpuCount, 0, kMaxBoids, kCountRule));
  scene.groups =
      static_cast<std::uint32_t>(integerInRange(boids, "groups", scene.groups, 1, kMaxGroups, kGroupsRule));
  readParams(boids, "boids", scene.model);
  boids.finish();
}

// A view mode first (its radii in the body lengths [boids] set): the table's keys of the section
// override its three values.
void readPerception(TableReader& perception, ModelParams& m) {
  std::vector<std::pair<std::string_view, const ViewMode*>> views;
  for (const ViewMode& mode : viewModes()) views.emplace_back(mode.name, &mode);
  if (const ViewMode* view = perception.choice("view", views, static_cast<const ViewMode*>(nullptr))) {
    m.fovDegrees = view->fovDegrees;
    m.perceptionRadius = view->radius(m);
    m.separationRadius = viewSeparationRadius(m);
  }
  m.topologicalNeighbours = static_cast<std::uint32_t>(
      integerInRange(perception, "neighbours", m.topologicalNeighbours, 0, kMaxTopologicalNeighbours,
                     fmt::format("must be in [0, {}] (0: every neighbour within perception.radius)",
                                 kMaxTopologicalNeighbours)));
  readParamSection(perception, "perception", m);
}

// One [[groups]] entry (docs/model.md, step 8c).
GroupSpec readGroupSpec(TableReader& table, const Scene& scene) {
  GroupSpec spec;
  const std::int64_t group = table.integer("group");
  if (group < 0 || group >= scene.groups)
    table.fail("group", fmt::format("must be in [0, boids.groups) = [0, {})", scene.groups));
  for (const GroupSpec& other : scene.groupSpecs)
    if (other.group == group) table.fail("group", fmt::format("group {} is listed twice", group));
  spec.group = static_cast<std::uint32_t>(group);
  GroupSteering& s = spec.steering;
  s.role = table.choice(
      "role", {{"flock", GroupRole::Flock}, {"chase", GroupRole::Chase}, {"intercept", GroupRole::Intercept}},
      GroupRole::Flock);
  s.flocking = table.boolean("flocking", true);
  s.thrust = static_cast<float>(table.number("thrust", 1.0));
  if (!(s.thrust > 0.0f && s.thrust <= kMaxThrust))
    table.fail("thrust", fmt::format("must be in (0, {}]", kMaxThrust));
  s.weight = static_cast<float>(table.number("weight", 1.0));
  if (!(s.weight >= 0.0f && s.weight <= kMaxPursuitWeight))
    table.fail("weight", fmt::format("must be in [0, {}]", kMaxPursuitWeight));
  s.maxInterceptSeconds = static_cast<float>(table.number("max_intercept_seconds", s.maxInterceptSeconds));
  if (!(s.maxInterceptSeconds >= 0.0f && s.maxInterceptSeconds <= kMaxInterceptHorizon))
    table.fail("max_intercept_seconds", fmt::format("must be in [0, {}]", kMaxInterceptHorizon));
  constexpr float kAbsent = std::numeric_limits<float>::quiet_NaN();
  const glm::vec3 target = table.vec3("target", glm::vec3(kAbsent));
  spec.targetAgent = table.string("target_agent", "");
  const bool hasTarget = !std::isnan(target.x), hasAgent = !spec.targetAgent.empty();
  if (s.role == GroupRole::Flock && (hasTarget || hasAgent))
    table.fail(hasTarget ? "target" : "target_agent", "only a chase or intercept group has a target");
  if (s.role != GroupRole::Flock && hasTarget == hasAgent)
    table.fail(
        hasTarget ? "target_agent" : "role",
        "a chase or intercept group needs exactly one of target = [x, y, z] and target_agent = \"NAME\"");
  if (hasTarget) {
    for (int k = 0; k < 3; ++k)
      if (std::abs(target[k]) > kMaxMagnitude)
        table.fail("target", fmt::format("every |component| must be at most {:g}", kMaxMagnitude));
    s.target = scene.model.dims == 2 ? glm::vec3(target.x, 0.0f, target.z) : target;
  }
  table.finish();
  return spec;
}

// [roost] (docs/model.md, step 8d): its centre beside the table's radius.
void readRoost(TableReader& roost, ModelParams& m) {
  m.roostCenter = roost.vec3("center", m.roostCenter);
  for (int k = 0; k < 3; ++k)
    if (std::abs(m.roostCenter[k]) > kMaxMagnitude)
      roost.fail("center", fmt::format("every |component| must be at most {:g}", kMaxMagnitude));
  if (m.dims == 2) m.roostCenter.y = 0.0f;
  readParamSection(roost, "roost", m);
}

// Whether the world box and the lengths random obstacles are placed by are valid: when not, the
// obstacles are left out here and validation refuses the scene for the key at fault.
bool placeable(const ModelParams& m) {
  for (int axis : activeAxes(m.dims))
    if (!(std::isfinite(m.worldMin[axis]) && std::isfinite(m.worldMax[axis]) &&
          m.worldMin[axis] < m.worldMax[axis]))
      return false;
  return (m.dims == 2 || m.dims == 3) && modelParam("boids.body_length").inRange(m.bodyLength) &&
         modelParam("world.margin").inRange(m.margin);
}

// [random_obstacles] (docs/model.md, Random obstacles): placed here, after [[obstacles]], so that
// every later reader (validation, spawn, agents, renderer) sees them as obstacles like any other.
void addRandomObstacles(TableReader& table, Scene& scene) {
  const ModelParams& m = scene.model;
  RandomObstacles spec;
  const std::size_t fixed = std::min(scene.obstacles.size(), kMaxObstacles);
  const auto room = static_cast<std::int64_t>(kMaxObstacles - fixed);
  spec.count = static_cast<std::uint32_t>(
      integerInRange(table, "count", 0, 0, room,
                     fmt::format("must be in [0, {}]: at most {} obstacles with the {} [[obstacles]]", room,
                                 kMaxObstacles, fixed)));
  spec.seed = nonNegativeInteger(table, "seed", scene.seed);
  // The book's rocks: 8 body lengths in radius; a unit's separation distance, 5 body lengths, apart.
  spec.minRadius = static_cast<float>(table.number("min_radius", 8.0 * double(m.bodyLength)));
  spec.maxRadius = static_cast<float>(table.number("max_radius", spec.minRadius));
  spec.gap = static_cast<float>(table.number("gap", 5.0 * double(m.bodyLength)));
  const std::vector<std::vector<glm::vec3>> paths = table.vec3Lists("keep_clear");
  if (!placeable(m)) {
    table.finish();
    return;
  }
  const auto checkLength = [&](std::string_view key, float value, bool zeroAllowed) {
    if (!(zeroAllowed ? value >= 0.0f : value > 0.0f))
      table.fail(key, zeroAllowed ? "must be at least 0" : "must be above 0");
    if (value > kMaxMagnitude) table.fail(key, fmt::format("must be at most {:g}", kMaxMagnitude));
  };
  checkLength("min_radius", spec.minRadius, false);
  checkLength("max_radius", spec.maxRadius, false);
  if (spec.maxRadius < spec.minRadius)
    table.fail("max_radius", fmt::format("must be at least min_radius ({})", spec.minRadius));
  checkLength("gap", spec.gap, true);
  for (std::vector<glm::vec3> path : paths) {
    for (glm::vec3& point : path) {
      for (int k = 0; k < 3; ++k)
        if (std::abs(point[k]) > kMaxMagnitude)
          table.fail("keep_clear", fmt::format("every |component| must be at most {:g}", kMaxMagnitude));
      if (m.dims == 2) point.y = 0.0f;
    }
    spec.keepClear.push_back(std::move(path));
  }
  table.finish();
  const glm::vec3 extent = m.worldSize();
  if (m.boundary == Boundary::Wrap)
    for (int axis : activeAxes(m.dims))
      if (2.0f * spec.maxRadius > 0.5f * extent[axis])
        table.fail("max_radius",
                   fmt::format("an obstacle in a wrapping world may be at most half the world wide: "
                               "2 x max_radius ({}) exceeds half the {} extent ({})",
                               2.0f * spec.maxRadius, kAxisNames[axis], 0.5f * extent[axis]));
  const std::vector<Obstacle> placed = placeRandomObstacles(scene, spec);
  if (placed.size() < spec.count)
    table.fail("count",
               fmt::format("only {} of {} obstacles found a place {} clear of each other, the [[obstacles]]"
                           "{}{} in {} draws each: lower count, max_radius or gap",
                           placed.size(), spec.count, spec.gap, spec.keepClear.empty() ? "" : ", keep_clear",
                           scene.spawn == Spawn::Sphere ? " and the spawn ball" : "", kRandomObstacleTries));
  scene.obstacles.insert(scene.obstacles.end(), placed.begin(), placed.end());
}

void readGoal(TableReader& goal, ModelParams& m) {
  m.goalMode = goal.choice("mode", {{"front", GoalMode::Front}, {"all", GoalMode::All}}, m.goalMode);
  readParamSection(goal, "goal", m);
}

// [model] (docs/model.md, The lab's units, The starlings' flight): the kind of unit and the rows of
// the lab's body and of the starlings' flight.
void readModel(TableReader& model, ModelParams& m) {
  m.unitModel = model.choice(
      "kind", {{"boids", UnitModel::Boids}, {"lab", UnitModel::Lab}, {"starling", UnitModel::Starling}},
      m.unitModel);
  readParamSection(model, "model", m);
}

Scene readScene(const SceneDocument& document, std::span<const SceneSection> otherSections) {
  Scene scene;
  scene.path = document.path;
  ModelParams& m = scene.model;

  // Every section is named before any is read, so that a misspelt one is reported first.
  TableReader root(document.path, document.root, "");
  std::optional<TableReader> world = root.table("world");
  std::optional<TableReader> sim = root.table("sim");
  std::optional<TableReader> boids = root.table("boids");
  std::optional<TableReader> perception = root.table("perception");
  std::optional<TableReader> avoidance = root.table("avoidance");
  std::optional<TableReader> goal = root.table("goal");
  std::optional<TableReader> flee = root.table("flee");
  std::optional<TableReader> cruise = root.table("cruise");
  std::optional<TableReader> roost = root.table("roost");
  std::optional<TableReader> weights = root.table("weights");
  std::optional<TableReader> model = root.table("model");
  std::vector<TableReader> obstacles = root.arrayOfTables("obstacles");
  std::optional<TableReader> randomObstacles = root.table("random_obstacles");
  std::vector<TableReader> targets = root.arrayOfTables("targets");
  std::vector<TableReader> predators = root.arrayOfTables("predators");
  std::vector<TableReader> groups = root.arrayOfTables("groups");
  // Read by the modules above sim from Scene::document; only their types are checked here. Two
  // readers of one section would each refuse what the other accepts in it.
  for (const SceneSection& section : otherSections) {
    if (root.asked(section.name))
      throw std::invalid_argument(
          fmt::format("the scene section '{}' is sim's own or named twice in otherSections", section.name));
    if (section.arrayOfTables)
      root.arrayOfTables(section.name);
    else
      root.table(section.name);
  }
  root.finish();

  if (world) readWorld(*world, m);
  if (sim) readSim(*sim, scene);
  if (boids) readBoids(*boids, scene);
  m.leaderRadius = narrowViewRadius(m);  // unless [perception] leader_radius says otherwise
  if (perception) readPerception(*perception, m);
  if (avoidance) readParamSection(*avoidance, "avoidance", m);
  if (goal) readGoal(*goal, m);
  if (flee) readParamSection(*flee, "flee", m);
  if (cruise) readParamSection(*cruise, "cruise", m);
  if (roost) readRoost(*roost, m);
  if (weights) {
    m.cohesionOnlyWithoutSeparation =
        weights->boolean("cohesion_only_without_separation", m.cohesionOnlyWithoutSeparation);
    readParamSection(*weights, "weights", m);
  }
  if (model) readModel(*model, m);

  for (TableReader& obstacle : obstacles) {
    scene.obstacles.push_back({obstacle.vec3("center"), static_cast<float>(obstacle.number("radius"))});
    obstacle.finish();
  }
  for (TableReader& target : targets) {
    const std::int64_t group = target.integer("group");
    if (group < 0) target.fail("group", "must be at least 0");
    if (group >= scene.groups) target.fail("group", targetGroupRule(scene.groups));
    scene.targets.push_back({static_cast<std::uint32_t>(group), target.vec3("position")});
    target.finish();
  }
  for (TableReader& predator : predators) {
    scene.predators.push_back(predator.vec3("position"));
    predator.finish();
  }
  for (TableReader& group : groups) scene.groupSpecs.push_back(readGroupSpec(group, scene));

  if (m.dims == 2) {
    for (Obstacle& obstacle : scene.obstacles) obstacle.center.y = 0.0f;
    for (Target& target : scene.targets) target.position.y = 0.0f;
    for (glm::vec3& predator : scene.predators) predator.y = 0.0f;
  }
  if (randomObstacles) addRandomObstacles(*randomObstacles, scene);
  return scene;
}

// ---- Validation ----

// The line of a dotted key ("obstacles[2].radius") in the document, else of its nearest enclosing
// table; 0 without a document.
std::size_t lineOf(const SceneDocument* document, std::string key) {
  if (!document) return 0;
  while (!key.empty()) {
    if (const toml::node* node = document->root.at_path(key).node()) return node->source().begin.line;
    const std::size_t parent = key.find_last_of(".[");
    key.resize(parent == std::string::npos ? 0 : parent);
  }
  return 0;
}

// Throws for the first limit the scene breaks: finite values, magnitudes, the parameter table's
// ranges in its order, then the limits across keys.
// kMaxPositionSpacing: refuses a world whose farthest coordinate (from the origin, on an active axis)
// holds floats too far apart for a step at max_speed, naming world.min or world.max, whichever
// reaches farther, with the extent that would do.
template <class Fail>
void checkPositionPrecision(const ModelParams& m, Fail&& fail) {
  const double move = double(m.maxSpeed) * double(m.dt);
  if (!(move > 0.0)) return;  // refused by the parameter table's ranges
  float farthest = 0.0f;
  std::string key = "world.max";
  for (int axis : activeAxes(m.dims))
    for (const auto& [corner, name] :
         {std::pair{m.worldMin[axis], "world.min"}, std::pair{m.worldMax[axis], "world.max"}})
      if (std::abs(corner) > farthest) {
        farthest = std::abs(corner);
        key = name;
      }
  const double spacing =
      double(std::nextafter(farthest, std::numeric_limits<float>::infinity())) - double(farthest);
  if (spacing <= kMaxPositionSpacing * move) return;
  // Floats below 2^e are at most 2^(e - 24) apart: the largest power of two that keeps the rule.
  const double within = std::exp2(std::floor(std::log2(kMaxPositionSpacing * move)) + 24.0);
  fail(key,
       fmt::format("too far from the origin for float32 positions: floats near {:g} are {:.3g} units apart, "
                   "{:.3g}% of a step's move at boids.max_speed ({:.3g} units; at most {:g}% allowed, "
                   "docs/model.md, Limits): keep the world within +-{:g} of the origin",
                   double(farthest), spacing, 100.0 * spacing / move, move, 100.0 * kMaxPositionSpacing,
                   within));
}

void checkScene(const Scene& scene, const SceneDocument* document) {
  const auto fail = [&](const std::string& key, const std::string& message) {
    throw InputError(scene.path, lineOf(document, key), key, message);
  };
  const ModelParams& m = scene.model;

  // Finite first, so that the limits below are plain comparisons.
  const std::string kFinite = "must be a finite number";
  for (const ModelParam& param : modelParams())
    if (!std::isfinite(param.field.of(m))) fail(param.key(), kFinite);
  const auto checkFiniteVec3 = [&](const std::string& key, const glm::vec3& v) {
    if (!std::isfinite(v.x) || !std::isfinite(v.y) || !std::isfinite(v.z)) fail(key, kFinite);
  };
  checkFiniteVec3("world.min", m.worldMin);
  checkFiniteVec3("world.max", m.worldMax);
  for (std::size_t i = 0; i < scene.obstacles.size(); ++i) {
    checkFiniteVec3(fmt::format("obstacles[{}].center", i), scene.obstacles[i].center);
    if (!std::isfinite(scene.obstacles[i].radius)) fail(fmt::format("obstacles[{}].radius", i), kFinite);
  }
  for (std::size_t i = 0; i < scene.targets.size(); ++i)
    checkFiniteVec3(fmt::format("targets[{}].position", i), scene.targets[i].position);
  for (std::size_t i = 0; i < scene.predators.size(); ++i)
    checkFiniteVec3(fmt::format("predators[{}].position", i), scene.predators[i]);

  // Magnitudes (float32 headroom: squares and products of these stay finite).
  const std::string kMagnitude = fmt::format("must be within +-{:g} (docs/model.md, Limits)", kMaxMagnitude);
  const auto checkVec3Magnitude = [&](const std::string& key, const glm::vec3& v) {
    for (int axis = 0; axis < 3; ++axis)
      if (std::abs(double(v[axis])) > kMaxMagnitude) fail(key, kMagnitude);
  };
  checkVec3Magnitude("world.min", m.worldMin);
  checkVec3Magnitude("world.max", m.worldMax);
  if (scene.obstacles.size() > kMaxObstacles)
    fail(fmt::format("obstacles[{}]", kMaxObstacles),
         fmt::format("at most {} obstacles (each boid tests every obstacle every step)", kMaxObstacles));
  for (std::size_t i = 0; i < scene.obstacles.size(); ++i) {
    checkVec3Magnitude(fmt::format("obstacles[{}].center", i), scene.obstacles[i].center);
    if (std::abs(double(scene.obstacles[i].radius)) > kMaxMagnitude)
      fail(fmt::format("obstacles[{}].radius", i), kMagnitude);
  }
  for (std::size_t i = 0; i < scene.targets.size(); ++i)
    checkVec3Magnitude(fmt::format("targets[{}].position", i), scene.targets[i].position);
  for (std::size_t i = 0; i < scene.predators.size(); ++i)
    checkVec3Magnitude(fmt::format("predators[{}].position", i), scene.predators[i]);

  // The table's ranges (lengths, speeds and forces have the magnitude limit as their maximum).
  for (const ModelParam& param : modelParams()) {
    const float value = param.field.of(m);
    if (param.inRange(value)) continue;
    fail(param.key(),
         value > param.maximum && double(param.maximum) == kMaxMagnitude ? kMagnitude : param.rangeRule());
  }

  // [world]
  if (m.dims != 2 && m.dims != 3) fail("world.dims", kDimsRule);
  const glm::vec3 extent = m.worldSize();
  for (int axis : activeAxes(m.dims)) {
    if (!(m.worldMin[axis] < m.worldMax[axis]))
      fail("world.max", fmt::format("must be above world.min on every active axis ({}: {} is not above {})",
                                    kAxisNames[axis], m.worldMax[axis], m.worldMin[axis]));
  }
  checkPositionPrecision(m, fail);
  if (m.boundary == Boundary::Contain) {
    for (int axis : activeAxes(m.dims))
      if (2.0f * m.margin >= extent[axis])
        fail("world.margin",
             fmt::format("leaves no interior: 2 * margin must be below the world's {} extent ({})",
                         kAxisNames[axis], extent[axis]));
  }
  // [model]: the book's units fly in its flat window, which they wrap around, and find their
  // flockmates by distance.
  if (m.unitModel == UnitModel::Lab) {
    if (m.dims != 2)
      fail("model.kind", "\"lab\" needs world.dims = 2 (the book's units are 2D rigid bodies)");
    if (m.boundary != Boundary::Wrap)
      fail("model.kind", "\"lab\" needs world.boundary = \"wrap\" (the book's units wrap around its window)");
    if (m.topologicalNeighbours != 0)
      fail("model.kind", "\"lab\" has no topological neighbours: leave out perception.neighbours");
    if (m.turnRate > 0.0f)
      fail("model.kind", "\"lab\" units turn by their bodies' spin: leave out boids.turn_rate");
  }
  // Starlings fly in 3D and turn by banking; their lift and drag grow with (speed / cruise speed)^2.
  if (m.unitModel == UnitModel::Starling) {
    if (m.dims != 3) fail("model.kind", "\"starling\" needs world.dims = 3 (birds bank and lift in 3D)");
    if (m.turnRate > 0.0f)
      fail("model.kind", "\"starling\" birds turn by banking: leave out boids.turn_rate");
    if (!(m.cruiseSpeed > 0.0f))
      fail("cruise.speed", "must be above 0 for \"starling\": lift equals the weight at the cruise speed");
    const double ratio = double(m.maxSpeed) / double(m.cruiseSpeed);
    if (ratio * ratio * double(m.starlingGravity) > kMaxStarlingLift)
      fail("cruise.speed", fmt::format("is too small for boids.max_speed and model.gravity: (max_speed / "
                                       "cruise.speed)^2 x gravity must be at most {:g} (docs/model.md, "
                                       "The starlings' flight)",
                                       kMaxStarlingLift));
  }
  // [boids]
  if (scene.count > kMaxBoids) fail("boids.count", kCountRule);
  if (scene.gpuCount > kMaxBoids) fail("boids.gpu_count", kCountRule);
  if (scene.groups < 1 || scene.groups > kMaxGroups) fail("boids.groups", kGroupsRule);
  // A parameter at most another (min_speed, separation_radius).
  for (const ModelParam& param : modelParams()) {
    if (param.atMost.empty()) continue;
    const float bound = modelParam(param.atMost).field.of(m);
    if (param.field.of(m) > bound)
      fail(param.key(), fmt::format("must be at most {} ({})", param.atMost, bound));
  }
  // The search reaches R, or the leader radius where that is larger: the key that sets its reach.
  const std::string searchKey =
      m.leaderRadius > m.perceptionRadius ? "perception.leader_radius" : "perception.radius";
  const float search = m.searchRadius();
  // The minimum-image offset is only the true offset when no box side is shorter than 2 R.
  if (m.boundary == Boundary::Wrap) {
    for (int axis : activeAxes(m.dims))
      if (extent[axis] < 2.0f * search)
        fail("world.boundary",
             fmt::format(
                 "\"wrap\" needs every active world extent to be at least 2 * {} ({}); the {} extent is {}",
                 searchKey, 2.0f * search, kAxisNames[axis], extent[axis]));
  }
  // Float32 headroom, and the lab's step stable.
  for (const StabilityTerm& term : stabilityTerms(scene))
    if (term.value > term.limit) fail(term.key, term.refusal);
  // The grid never degrades silently: cells may grow past the search radius (the cell cap), but not
  // by much.
  const GridSpec grid = makeGridSpec(m);
  for (int axis : activeAxes(m.dims))
    if (grid.cellSize[axis] > kMaxCellWidening * search)
      fail(
          searchKey,
          fmt::format("too small for the world: the neighbour grid is capped at {} cells, so its cells would "
                      "be {:.3g} x {} wide on {} (the limit is {:g}; docs/model.md, Limits)",
                      kDefaultMaxCells, grid.cellSize[axis] / search, searchKey, kAxisNames[axis],
                      kMaxCellWidening));
  // [[obstacles]], [[targets]]
  for (std::size_t i = 0; i < scene.obstacles.size(); ++i)
    if (scene.obstacles[i].radius <= 0.0f) fail(fmt::format("obstacles[{}].radius", i), "must be above 0");
  // On a torus an obstacle is periodic (its offsets are minimum images): one larger than half the
  // world would meet its own image.
  if (m.boundary == Boundary::Wrap)
    for (std::size_t i = 0; i < scene.obstacles.size(); ++i)
      for (int axis : activeAxes(m.dims))
        if (2.0f * scene.obstacles[i].radius > 0.5f * extent[axis])
          fail(fmt::format("obstacles[{}].radius", i),
               fmt::format(
                   "an obstacle in a wrapping world may be at most half the world wide: its diameter {} "
                   "exceeds half the {} extent ({})",
                   2.0f * scene.obstacles[i].radius, kAxisNames[axis], 0.5f * extent[axis]));
  for (std::size_t i = 0; i < scene.targets.size(); ++i)
    if (scene.targets[i].group >= scene.groups)
      fail(fmt::format("targets[{}].group", i), targetGroupRule(scene.groups));
}

// The message of an InputError without its "file:line: key: " prefix.
std::string inputErrorMessage(const InputError& error) {
  const std::string prefix = InputError(error.file(), error.line(), error.key(), "").what();
  const std::string whole = error.what();
  return whole.starts_with(prefix) ? whole.substr(prefix.size()) : whole;
}

// Sets change.value at change.key ("boids.count", "groups[1].thrust") in root, creating the tables on
// its way; InputError (at the override's source) for a malformed key or a value that is not TOML.
void applyOverride(toml::table& root, const SceneOverride& change) {
  const auto fail = [&](const std::string& message) -> void {
    throw InputError(change.source, change.line, change.key, message);
  };
  toml::table parsed;
  try {
    parsed = toml::parse("v = " + change.value, std::string_view(change.source));
  } catch (const toml::parse_error& error) {
    fail(fmt::format("'{}' is not a TOML value ({})", change.value, error.description()));
  }
  if (parsed.size() != 1 || !parsed.contains("v"))
    fail(fmt::format("'{}' is not one TOML value", change.value));
  toml::table* table = &root;
  std::string_view rest = change.key;
  while (true) {
    const std::size_t dot = rest.find('.');
    std::string_view segment = rest.substr(0, dot);
    std::optional<std::size_t> index;
    if (const std::size_t open = segment.find('['); open != std::string_view::npos) {
      if (!segment.ends_with(']')) fail("a key's index is written name[i]");
      std::size_t i = 0;
      const std::string_view digits = segment.substr(open + 1, segment.size() - open - 2);
      if (digits.empty() ||
          !std::all_of(digits.begin(), digits.end(), [](char c) { return c >= '0' && c <= '9'; }) ||
          digits.size() > 6)
        fail("a key's index is written name[i] with i a small integer");
      for (char c : digits) i = i * 10 + std::size_t(c - '0');
      index = i;
      segment = segment.substr(0, open);
    }
    if (segment.empty() || !std::all_of(segment.begin(), segment.end(), [](char c) {
          return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' ||
                 c == '-';
        }))
      fail("must be a dotted key of bare names (section.key, groups[1].thrust)");
    const bool last = dot == std::string_view::npos;
    if (index) {
      toml::array* array = (*table)[segment].as_array();
      if (array == nullptr || *index >= array->size() || !array->get(*index)->is_table())
        fail(fmt::format("the scene has no table {}[{}]", segment, *index));
      if (last) fail("names a table, not a value");
      table = array->get(*index)->as_table();
    } else if (last) {
      parsed.get("v")->visit([&](auto&& value) { table->insert_or_assign(segment, std::move(value)); });
      return;
    } else {
      if (!table->contains(segment)) table->insert(segment, toml::table{});
      table = (*table)[segment].as_table();
      if (table == nullptr) fail(fmt::format("{} is not a table in the scene", segment));
    }
    rest = rest.substr(dot + 1);
  }
}

}  // namespace

Scene loadScene(const std::string& path, std::span<const SceneSection> otherSections,
                std::span<const SceneOverride> overrides) {
  const std::string text = core::readWholeFile(path, kMaxSceneBytes, "scene file");
  return parseScene(text, path, otherSections, overrides);
}

Scene parseScene(std::string_view text, const std::string& sourceName,
                 std::span<const SceneSection> otherSections, std::span<const SceneOverride> overrides) {
  auto document = std::make_shared<SceneDocument>();
  document->path = sourceName;
  checkSceneTextLimits(text, sourceName);
  try {
    document->root = toml::parse(text, std::string_view(sourceName));
  } catch (const toml::parse_error& error) {
    throw InputError(sourceName, error.source().begin.line, "", std::string(error.description()));
  }
  for (const SceneOverride& change : overrides) applyOverride(document->root, change);
  try {
    Scene scene = readScene(*document, otherSections);
    checkScene(scene, document.get());
    scene.document = std::move(document);
    return scene;
  } catch (const InputError& error) {
    // An error about an overridden key is the override's: named where it was given.
    for (const SceneOverride& change : overrides) {
      const std::string& key = error.key();
      if (key == change.key ||
          (key.starts_with(change.key) && (key[change.key.size()] == '.' || key[change.key.size()] == '[')))
        throw InputError(change.source, change.line, key, inputErrorMessage(error));
    }
    throw;
  }
}

std::string overrideValue(std::string_view text, const std::string& source, const std::string& key) {
  const std::string document = "v = " + std::string(text);
  toml::table parsed;
  try {
    checkSceneTextLimits(document, source);
    parsed = toml::parse(document);
  } catch (const toml::parse_error&) {
    std::ostringstream quoted;  // a bare word: the string, in TOML's quotes and escapes
    quoted << toml::value<std::string>(std::string(text));
    return quoted.str();
  }
  if (parsed.size() != 1 || !parsed.contains("v"))
    throw InputError(source, 0, key, fmt::format("'{}' is not one TOML value", text));
  return std::string(text);
}

namespace {

std::string tomlText(const toml::table& root) {
  std::ostringstream out;
  out << toml::toml_formatter(root, toml::format_flags::none);
  return out.str();
}

}  // namespace

std::string resolvedSceneText(const Scene& scene) {
  return scene.document ? tomlText(scene.document->root) : std::string();
}

std::string savedSceneText(const Scene& scene, std::uint32_t count,
                           std::span<const SceneSection> otherSections,
                           const std::vector<SceneOverride>& extra) {
  if (!scene.document) throw std::logic_error("savedSceneText: a scene built in code has no document");
  // What the document gives: only the values that differ are written, each key else keeps its text.
  const Scene loaded = readScene(*scene.document, otherSections);
  toml::table root = scene.document->root;
  const auto set = [&](std::string key, std::string value) {
    applyOverride(root, {std::move(key), std::move(value), scene.path, 0});
  };
  const ModelParams& now = scene.model;
  for (const ModelParam& param : modelParams())
    if (std::bit_cast<std::uint32_t>(param.field.of(now)) !=
        std::bit_cast<std::uint32_t>(param.field.of(loaded.model)))
      set(param.key(), fmt::format("{}", param.field.of(now)));  // the shortest text of the float
  if (now.topologicalNeighbours != loaded.model.topologicalNeighbours)
    set("perception.neighbours", std::to_string(now.topologicalNeighbours));
  if (now.cohesionOnlyWithoutSeparation != loaded.model.cohesionOnlyWithoutSeparation)
    set("weights.cohesion_only_without_separation", now.cohesionOnlyWithoutSeparation ? "true" : "false");
  if (scene.seed != loaded.seed) set("sim.seed", std::to_string(scene.seed));
  set("boids.count", std::to_string(count));
  if (toml::table* boids = root["boids"].as_table()) boids->erase("gpu_count");
  for (const SceneOverride& change : extra) applyOverride(root, change);
  return tomlText(root);
}

std::uint64_t estimateRunBytes(std::uint64_t boids) {
  // Per boid: the state (position, velocity, group: 28 bytes) four times (the run's, the backend's
  // two buffers, the copy read back for the summary and dump); the grid's cell and sorted order; the
  // summary's sorted positions, headings and groups, two doubles and up to 8 cells of 4 bytes. Plus
  // the step's cell table (2^24 + 1 cells of 4 bytes at most).
  constexpr std::uint64_t kStateBytes = 3 * sizeof(float) * 2 + sizeof(std::uint32_t);
  constexpr std::uint64_t kSummaryBytes =
      2 * 3 * sizeof(float) + sizeof(std::uint32_t) + 2 * sizeof(double) + 8 * 4;
  constexpr std::uint64_t kPerBoid = 4 * kStateBytes + 2 * sizeof(std::uint32_t) + kSummaryBytes;
  constexpr std::uint64_t kGridBytes = ((1u << 24) + 1) * sizeof(std::uint32_t);
  return boids * kPerBoid + kGridBytes;
}

void checkRunMemory(std::uint64_t boids, const std::string& path,
                    const std::optional<core::MemoryLimit>& limit) {
  if (limit)
    core::checkMemory(estimateRunBytes(boids), fmt::format("{} boids", boids), path, 0, "boids.count",
                      *limit);
}

void validateScene(const Scene& scene) {
  checkScene(scene, nullptr);
}

}  // namespace murmur::sim
