// Scene files: the shipped scenes, defaults, the mapping of keys onto fields, and one test per
// validation rule, each checking the reported key and line (messages must stay one line).
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <optional>
#include <span>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include <fmt/format.h>
#include <gtest/gtest.h>

#include "core/error.hpp"
#include "sim/builders.hpp"
#include "sim/param_table.hpp"
#include "sim/scene_loader.hpp"
#include "sim/scene_toml.hpp"

namespace murmur::sim {
namespace {

const std::string kSource = "test.toml";

// Succeeds when `call` throws an InputError naming `file`, `line` and `key`, with a one-line message
// containing `fragment`.
template <class Call>
testing::AssertionResult throwsInputError(Call&& call, const std::string& file, std::size_t line,
                                          const std::string& key, std::string_view fragment) {
  try {
    call();
  } catch (const InputError& error) {
    const std::string what = error.what();
    if (error.file() != file || error.line() != line || error.key() != key ||
        what.find('\n') != std::string::npos || what.find(fragment) == std::string::npos)
      return testing::AssertionFailure() << "got file '" << error.file() << "', line " << error.line()
                                         << ", key '" << error.key() << "', what(): " << what;
    return testing::AssertionSuccess();
  }
  return testing::AssertionFailure() << "no InputError";
}

// The same for parsing `text` as test.toml, with otherSections.
testing::AssertionResult rejects(std::string_view text, std::size_t line, const std::string& key,
                                 std::string_view fragment = "",
                                 std::span<const SceneSection> otherSections = {}) {
  return throwsInputError([&] { parseScene(text, kSource, otherSections); }, kSource, line, key, fragment);
}

// The sections the modules above sim read (ai's and render's), as the app passes them.
constexpr SceneSection kOtherSections[] = {{"navigation", false}, {"agents", true}, {"render", false}};
// The message of an unknown section: sim's own sections, then kOtherSections when given.
constexpr std::string_view kSimSections =
    "unknown section (accepted: world, sim, boids, perception, avoidance, goal, flee, cruise, roost, "
    "weights, model, obstacles, random_obstacles, targets, predators, groups";

// The same for validateScene on a scene built in code (always line 0).
testing::AssertionResult invalid(const Scene& scene, const std::string& key, std::string_view fragment = "") {
  return throwsInputError([&] { validateScene(scene); }, scene.path, 0, key, fragment);
}

std::string scenePath(const std::string& name) {
  return std::string(MURMUR_SOURCE_DIR) + "/scenes/" + name;
}

// ---- Shipped scenes ----

TEST(SceneFiles, FreeFlockIsA3dContainedFlock) {
  const Scene scene = loadScene(scenePath("free.toml"));
  EXPECT_EQ(scene.path, scenePath("free.toml"));
  EXPECT_EQ(scene.model.dims, 3);
  EXPECT_EQ(scene.model.boundary, Boundary::Contain);
  EXPECT_GE(scene.count, 10000u);
  EXPECT_TRUE(scene.obstacles.empty());
  EXPECT_TRUE(scene.targets.empty());
  EXPECT_TRUE(scene.predators.empty());
  ASSERT_NE(scene.document, nullptr);
}

TEST(SceneFiles, ObstaclesSceneHasSeveralObstaclesInsideTheWorld) {
  const Scene scene = loadScene(scenePath("obstacles.toml"));
  ASSERT_GE(scene.obstacles.size(), 3u);
  for (const Obstacle& obstacle : scene.obstacles)
    for (int axis = 0; axis < 3; ++axis) {
      EXPECT_GT(obstacle.center[axis], scene.model.worldMin[axis]);
      EXPECT_LT(obstacle.center[axis], scene.model.worldMax[axis]);
    }
}

// The predator scene's goals and predator points come from its [[agents]] (leaders and a predator,
// checked by the ai tests); the sim side sees several groups, obstacles and keeps those sections.
TEST(SceneFiles, PredatorSceneHasGroupsObstaclesAndAgents) {
  const Scene scene = loadScene(scenePath("predator.toml"), kOtherSections);
  ASSERT_GE(scene.groups, 2u);
  EXPECT_FALSE(scene.obstacles.empty());
  EXPECT_EQ(scene.model.goalMode, GoalMode::All);  // every boid seeks its leader: no emergent leaders in 3D
  ASSERT_NE(scene.document, nullptr);
  EXPECT_NE(scene.document->root["agents"].as_array(), nullptr);
  EXPECT_NE(scene.document->root["navigation"].as_table(), nullptr);
}

TEST(SceneFiles, Wrap2dIsAFlatTorus) {
  const Scene scene = loadScene(scenePath("wrap2d.toml"));
  EXPECT_EQ(scene.model.dims, 2);
  EXPECT_EQ(scene.model.boundary, Boundary::Wrap);
}

TEST(SceneFiles, MissingFileNamesTheFile) {
  const std::string path = scenePath("no-such-scene.toml");
  EXPECT_TRUE(throwsInputError([&] { loadScene(path); }, path, 0, "", "cannot open"));
}

// ---- Defaults and mapping ----

TEST(SceneDefaults, EmptySceneHasModelTableDefaults) {
  const Scene scene = parseScene("", kSource);
  const ModelParams& m = scene.model;
  EXPECT_EQ(m.dims, 3);
  EXPECT_EQ(m.worldMin, glm::vec3(-100.0f, -50.0f, -100.0f));
  EXPECT_EQ(m.worldMax, glm::vec3(100.0f, 50.0f, 100.0f));
  EXPECT_EQ(m.boundary, Boundary::Contain);
  EXPECT_FLOAT_EQ(m.margin, 10.0f);
  EXPECT_FLOAT_EQ(m.dt, 1.0f / 60.0f);
  EXPECT_EQ(scene.count, 10000u);
  EXPECT_EQ(scene.groups, 1u);
  EXPECT_FLOAT_EQ(m.mass, 1.0f);
  EXPECT_FLOAT_EQ(m.maxSpeed, 10.0f);
  EXPECT_FLOAT_EQ(m.minSpeed, 2.0f);
  EXPECT_FLOAT_EQ(m.maxForce, 20.0f);
  EXPECT_FLOAT_EQ(m.radius, 0.5f);
  EXPECT_FLOAT_EQ(m.perceptionRadius, 5.0f);
  EXPECT_FLOAT_EQ(m.separationRadius, 2.0f);
  EXPECT_FLOAT_EQ(m.fovDegrees, 270.0f);
  EXPECT_FLOAT_EQ(m.minDistance, 0.25f);
  EXPECT_FLOAT_EQ(m.lookahead, 1.0f);
  EXPECT_EQ(m.goalMode, GoalMode::Front);
  EXPECT_FLOAT_EQ(m.slowRadius, 10.0f);
  EXPECT_FLOAT_EQ(m.fleeRadius, 15.0f);
  EXPECT_FLOAT_EQ(m.cruiseSpeed, 8.0f);
  EXPECT_FLOAT_EQ(m.weights.separation, 1.5f);
  EXPECT_FLOAT_EQ(m.weights.alignment, 1.0f);
  EXPECT_FLOAT_EQ(m.weights.cohesion, 1.0f);
  EXPECT_FLOAT_EQ(m.weights.avoidance, 3.0f);
  EXPECT_FLOAT_EQ(m.weights.bounds, 2.0f);
  EXPECT_FLOAT_EQ(m.weights.goal, 0.5f);
  EXPECT_FLOAT_EQ(m.weights.flee, 3.0f);
  EXPECT_FLOAT_EQ(m.weights.cruise, 3.0f);
  EXPECT_FLOAT_EQ(m.weights.walls, 3.0f);
  EXPECT_EQ(scene.seed, 1u);
  EXPECT_EQ(scene.steps, 0u);
  EXPECT_EQ(scene.spawn, Spawn::Box);
  EXPECT_TRUE(scene.obstacles.empty());
  EXPECT_TRUE(scene.targets.empty());
  EXPECT_TRUE(scene.predators.empty());
  EXPECT_EQ(scene.path, kSource);
}

TEST(SceneDefaults, CodeBuiltDefaultSceneIsValid) {
  EXPECT_NO_THROW(validateScene(Scene{}));
}

TEST(SceneMapping, EveryKeyReachesItsField) {
  const Scene scene = parseScene(R"([world]
dims = 3
min = [-10, -20, -30]
max = [10, 20, 30.5]
boundary = "wrap"
margin = 4
[sim]
dt = 0.02
seed = 42
steps = 7
spawn = "sphere"
[boids]
count = 123
groups = 3
mass = 2
max_speed = 12
min_speed = 3
max_force = 25
radius = 0.75
[perception]
radius = 6
separation_radius = 2.5
fov_degrees = 300
min_distance = 0.5
[avoidance]
lookahead = 1.5
[goal]
mode = "all"
slow_radius = 11
[flee]
radius = 16
[cruise]
speed = 9
[weights]
separation = 1.1
alignment = 1.2
cohesion = 1.3
avoidance = 1.4
bounds = 1.5
goal = 1.6
flee = 1.7
cruise = 1.8
walls = 1.9
[[obstacles]]
center = [1, 2, 3]
radius = 4
[[obstacles]]
center = [-1, -2, -3]
radius = 0.5
[[targets]]
group = 2
position = [5, 6, 7]
[[predators]]
position = [8, 9, 10]
)",
                                 kSource);
  const ModelParams& m = scene.model;
  EXPECT_EQ(m.dims, 3);
  EXPECT_EQ(m.worldMin, glm::vec3(-10.0f, -20.0f, -30.0f));
  EXPECT_EQ(m.worldMax, glm::vec3(10.0f, 20.0f, 30.5f));
  EXPECT_EQ(m.boundary, Boundary::Wrap);
  EXPECT_FLOAT_EQ(m.margin, 4.0f);
  EXPECT_FLOAT_EQ(m.dt, 0.02f);
  EXPECT_EQ(scene.seed, 42u);
  EXPECT_EQ(scene.steps, 7u);
  EXPECT_EQ(scene.spawn, Spawn::Sphere);
  EXPECT_EQ(scene.count, 123u);
  EXPECT_EQ(scene.groups, 3u);
  EXPECT_FLOAT_EQ(m.mass, 2.0f);
  EXPECT_FLOAT_EQ(m.maxSpeed, 12.0f);
  EXPECT_FLOAT_EQ(m.minSpeed, 3.0f);
  EXPECT_FLOAT_EQ(m.maxForce, 25.0f);
  EXPECT_FLOAT_EQ(m.radius, 0.75f);
  EXPECT_FLOAT_EQ(m.perceptionRadius, 6.0f);
  EXPECT_FLOAT_EQ(m.separationRadius, 2.5f);
  EXPECT_FLOAT_EQ(m.fovDegrees, 300.0f);
  EXPECT_FLOAT_EQ(m.minDistance, 0.5f);
  EXPECT_FLOAT_EQ(m.lookahead, 1.5f);
  EXPECT_EQ(m.goalMode, GoalMode::All);
  EXPECT_FLOAT_EQ(m.slowRadius, 11.0f);
  EXPECT_FLOAT_EQ(m.fleeRadius, 16.0f);
  EXPECT_FLOAT_EQ(m.cruiseSpeed, 9.0f);
  EXPECT_FLOAT_EQ(m.weights.separation, 1.1f);
  EXPECT_FLOAT_EQ(m.weights.alignment, 1.2f);
  EXPECT_FLOAT_EQ(m.weights.cohesion, 1.3f);
  EXPECT_FLOAT_EQ(m.weights.avoidance, 1.4f);
  EXPECT_FLOAT_EQ(m.weights.bounds, 1.5f);
  EXPECT_FLOAT_EQ(m.weights.goal, 1.6f);
  EXPECT_FLOAT_EQ(m.weights.flee, 1.7f);
  EXPECT_FLOAT_EQ(m.weights.cruise, 1.8f);
  EXPECT_FLOAT_EQ(m.weights.walls, 1.9f);
  ASSERT_EQ(scene.obstacles.size(), 2u);
  EXPECT_EQ(scene.obstacles[0].center, glm::vec3(1.0f, 2.0f, 3.0f));
  EXPECT_FLOAT_EQ(scene.obstacles[0].radius, 4.0f);
  EXPECT_EQ(scene.obstacles[1].center, glm::vec3(-1.0f, -2.0f, -3.0f));
  EXPECT_FLOAT_EQ(scene.obstacles[1].radius, 0.5f);
  ASSERT_EQ(scene.targets.size(), 1u);
  EXPECT_EQ(scene.targets[0].group, 2u);
  EXPECT_EQ(scene.targets[0].position, glm::vec3(5.0f, 6.0f, 7.0f));
  ASSERT_EQ(scene.predators.size(), 1u);
  EXPECT_EQ(scene.predators[0], glm::vec3(8.0f, 9.0f, 10.0f));
}

TEST(SceneMapping, InlineTablesAndDottedKeysWork) {
  const Scene scene = parseScene(R"(boids.count = 5
obstacles = [{ center = [1, 2, 3], radius = 2 }]
)",
                                 kSource);
  EXPECT_EQ(scene.count, 5u);
  ASSERT_EQ(scene.obstacles.size(), 1u);
  EXPECT_FLOAT_EQ(scene.obstacles[0].radius, 2.0f);
}

TEST(SceneMapping, TwoDimensionsFlattenObstaclesTargetsAndPredators) {
  const Scene scene = parseScene(R"([world]
dims = 2
[[obstacles]]
center = [1, 2, 3]
radius = 4
[[targets]]
group = 0
position = [5, 6, 7]
[[predators]]
position = [8, 9, 10]
)",
                                 kSource);
  EXPECT_EQ(scene.obstacles[0].center, glm::vec3(1.0f, 0.0f, 3.0f));
  EXPECT_EQ(scene.targets[0].position, glm::vec3(5.0f, 0.0f, 7.0f));
  EXPECT_EQ(scene.predators[0], glm::vec3(8.0f, 0.0f, 10.0f));
}

TEST(SceneMapping, OtherModulesSectionsAreKeptInTheDocument) {
  const Scene scene = parseScene(R"([navigation]
cell_size = 2
[[agents]]
kind = "leader"
[render]
camera = "orbit"
)",
                                 kSource, kOtherSections);
  ASSERT_NE(scene.document, nullptr);
  EXPECT_EQ(scene.document->path, kSource);
  EXPECT_EQ(scene.document->root.at_path("navigation.cell_size").value<std::int64_t>(), 2);
  EXPECT_EQ(scene.document->root.at_path("agents[0].kind").value<std::string>(), "leader");
  EXPECT_EQ(scene.document->root.at_path("render.camera").value<std::string>(), "orbit");
}

TEST(SceneMapping, OtherModulesSectionsMustHaveTheirShape) {
  EXPECT_TRUE(rejects("navigation = 3\n", 1, "navigation", "expected a table", kOtherSections));
  EXPECT_TRUE(rejects("\nrender = 3\n[sim]\nseed = 1\n", 2, "render", "expected a table", kOtherSections));
  EXPECT_TRUE(rejects("[agents]\nkind = 1\n", 1, "agents", "expected an array of tables", kOtherSections));
}

// sim knows no section of the modules above it: without otherSections, [render] and [[agents]] are
// unknown like a misspelt section.
TEST(SceneErrors, OtherModulesSectionsAreUnknownToSimAlone) {
  EXPECT_TRUE(
      rejects("[boids]\ncount = 1\n[render]\nfov = 40\n", 3, "render", std::string(kSimSections) + ")"));
  EXPECT_TRUE(rejects("\n[[agents]]\nkind = \"leader\"\n", 2, "agents", std::string(kSimSections) + ")"));
  EXPECT_TRUE(rejects("[navigation]\ncell_size = 2\n", 1, "navigation", "unknown section"));
}

TEST(SceneErrors, AMisspeltSectionIsUnknownBesideOtherSections) {
  EXPECT_TRUE(rejects("[render]\nfov = 40\n[rendre]\nfov = 40\n", 3, "rendre",
                      std::string(kSimSections) + ", navigation, agents, render)", kOtherSections));
}

// A section with two readers would be refused by each for the keys only the other reads.
TEST(SceneErrors, OtherSectionsMayNameNoSectionTwice) {
  const SceneSection simsOwn[] = {{"world", false}};
  EXPECT_THROW(parseScene("", kSource, simsOwn), std::invalid_argument);
  const SceneSection twice[] = {{"render", false}, {"agents", true}, {"render", false}};
  EXPECT_THROW(parseScene("", kSource, twice), std::invalid_argument);
}

// ---- Errors: syntax, unknown names, types ----

TEST(SceneErrors, TomlSyntaxErrorHasTheParsersLine) {
  EXPECT_TRUE(rejects("[world]\ndims = 3\nmargin = \n", 3, ""));
  EXPECT_TRUE(rejects("[boids]\ncount = 1\ncount = 2\n", 3, "", "count"));
}

TEST(SceneErrors, UnknownSectionIsReportedBeforeOtherErrors) {
  EXPECT_TRUE(
      rejects("[boids]\nmass = -1\n\n[wrold]\ndims = 2\n", 4, "wrold", "unknown section (accepted: world,"));
}

TEST(SceneErrors, UnknownRootKey) {
  EXPECT_TRUE(rejects("\n\ncount = 10\n", 3, "count", "unknown key"));
}

TEST(SceneErrors, UnknownKeyInSectionListsTheAcceptedKeys) {
  EXPECT_TRUE(rejects("[boids]\ncount = 10\ncuont = 3\n", 3, "boids.cuont",
                      "unknown key (accepted: count, gpu_count, groups, mass, max_speed, min_speed, "
                      "max_force, radius, body_length, "
                      "turn_rate)"));
}

TEST(SceneErrors, FirstUnknownKeyInFileOrder) {
  // "alpha" sorts before "zeta" but comes later in the file.
  EXPECT_TRUE(rejects("[sim]\nzeta = 1\nalpha = 2\n", 2, "sim.zeta", "unknown key"));
}

TEST(SceneErrors, UnknownSubSection) {
  EXPECT_TRUE(rejects("[world]\ndims = 3\n[world.extra]\nx = 1\n", 3, "world.extra", "unknown section"));
}

TEST(SceneErrors, UnknownKeyInArrayOfTablesNamesTheIndex) {
  EXPECT_TRUE(rejects(R"([[obstacles]]
center = [0, 0, 0]
radius = 1
[[obstacles]]
center = [0, 0, 0]
radius = 1
[[obstacles]]
center = [0, 0, 0]
radious = 1
radius = 1
)",
                      9, "obstacles[2].radious", "unknown key"));
}

TEST(SceneErrors, IntegerIsAcceptedForAFloat) {
  EXPECT_FLOAT_EQ(parseScene("[world]\nmargin = 7\n", kSource).model.margin, 7.0f);
  EXPECT_FLOAT_EQ(parseScene("[world]\nmargin = 7.5\n", kSource).model.margin, 7.5f);
}

TEST(SceneErrors, StringForANumberIsTheWrongType) {
  EXPECT_TRUE(rejects("[world]\n\nmargin = \"10\"\n", 3, "world.margin",
                      "wrong type: expected a number, found a string"));
}

TEST(SceneErrors, BooleanForANumberIsTheWrongType) {
  EXPECT_TRUE(rejects("[weights]\ngoal = true\n", 2, "weights.goal", "wrong type"));
}

TEST(SceneErrors, FloatForAnIntegerIsTheWrongType) {
  EXPECT_TRUE(
      rejects("[boids]\ncount = 10.0\n", 2, "boids.count", "wrong type: expected an integer, found a float"));
  EXPECT_TRUE(rejects("[world]\ndims = 2.0\n", 2, "world.dims", "wrong type"));
}

TEST(SceneErrors, NumberForAWordIsTheWrongType) {
  EXPECT_TRUE(rejects("[world]\nboundary = 1\n", 2, "world.boundary", "expected a string"));
}

TEST(SceneErrors, VectorOfWrongLengthIsTheWrongType) {
  EXPECT_TRUE(
      rejects("[world]\nmin = [1, 2]\n", 2, "world.min", "wrong type: expected an array of 3 numbers"));
  EXPECT_TRUE(rejects("[world]\nmax = [1, 2, 3, 4]\n", 2, "world.max", "wrong type"));
}

TEST(SceneErrors, VectorElementOfWrongTypeHasItsOwnLine) {
  EXPECT_TRUE(
      rejects("[[predators]]\nposition = [1,\n  \"2\",\n  3]\n", 3, "predators[0].position", "wrong type"));
}

TEST(SceneErrors, SectionThatIsNotATable) {
  EXPECT_TRUE(rejects("world = 3\n", 1, "world", "expected a table"));
}

TEST(SceneErrors, ArrayOfTablesThatIsNotOne) {
  EXPECT_TRUE(rejects("obstacles = [1, 2]\n", 1, "obstacles", "expected an array of tables"));
}

TEST(SceneErrors, MissingObstacleKeyIsReportedAtItsHeader) {
  EXPECT_TRUE(rejects("[world]\ndims = 3\n\n[[obstacles]]\ncenter = [0, 0, 0]\n", 4, "obstacles[0].radius",
                      "missing"));
  EXPECT_TRUE(rejects("[[targets]]\nposition = [0, 0, 0]\n", 1, "targets[0].group", "missing"));
  EXPECT_TRUE(rejects("[[predators]]\n", 1, "predators[0].position", "missing"));
}

TEST(SceneErrors, UnknownWordsListTheAcceptedOnes) {
  EXPECT_TRUE(rejects("[world]\nboundary = \"torus\"\n", 2, "world.boundary",
                      "unknown word \"torus\" (accepted: \"contain\", \"wrap\")"));
  EXPECT_TRUE(rejects("[goal]\nmode = \"leaders\"\n", 2, "goal.mode", "(accepted: \"front\", \"all\")"));
  EXPECT_TRUE(rejects("[sim]\nspawn = \"disc\"\n", 2, "sim.spawn", "(accepted: \"box\", \"sphere\")"));
}

TEST(SceneErrors, NonFiniteNumbersAreRejected) {
  EXPECT_TRUE(rejects("[boids]\nmass = nan\n", 2, "boids.mass", "must be a finite number"));
  EXPECT_TRUE(rejects("[flee]\nradius = inf\n", 2, "flee.radius", "must be a finite number"));
  EXPECT_TRUE(
      rejects("[[obstacles]]\ncenter = [0, -inf, 0]\nradius = 1\n", 2, "obstacles[0].center", "finite"));
  // Finite as a double, infinite as the float the model uses.
  EXPECT_TRUE(rejects("[cruise]\n\nspeed = 1e39\n", 3, "cruise.speed", "must be a finite number"));
}

// ---- Errors: limits (one test per rule) ----

TEST(SceneLimits, DimsMustBe2Or3) {
  EXPECT_TRUE(rejects("[world]\ndims = 4\n", 2, "world.dims", "must be 2 or 3"));
  EXPECT_TRUE(rejects("[world]\ndims = 1\n", 2, "world.dims", "must be 2 or 3"));
}

TEST(SceneLimits, WorldMinMustBeBelowMaxOnActiveAxes) {
  EXPECT_TRUE(
      rejects("[world]\nmin = [0, 0, 0]\nmax = [10, 10, 0]\n", 3, "world.max", "z: 0 is not above 0"));
  // y is not an active axis in 2D.
  EXPECT_NO_THROW(parseScene("[world]\ndims = 2\nmin = [0, 5, 0]\nmax = [100, 5, 100]\n", kSource));
}

TEST(SceneLimits, MarginMustNotBeNegative) {
  EXPECT_TRUE(rejects("[world]\nmargin = -1\n", 2, "world.margin", "must be at least 0"));
}

TEST(SceneLimits, MarginMustLeaveAnInteriorWhenContaining) {
  EXPECT_TRUE(rejects("[world]\nmin = [0, 0, 0]\nmax = [100, 20, 100]\nmargin = 10\n", 4, "world.margin",
                      "y extent (20)"));
  EXPECT_NO_THROW(parseScene("[world]\nmin = [0, 0, 0]\nmax = [100, 20, 100]\nmargin = 9.9\n", kSource));
  // Wrapping has no containment band.
  EXPECT_NO_THROW(parseScene(
      "[world]\nmin = [0, 0, 0]\nmax = [100, 20, 100]\nmargin = 10\nboundary = \"wrap\"\n", kSource));
}

TEST(SceneLimits, DtMustBeInZeroToOne) {
  EXPECT_TRUE(rejects("[sim]\ndt = 0\n", 2, "sim.dt", "must be in (0, 1]"));
  EXPECT_TRUE(rejects("[sim]\ndt = 1.5\n", 2, "sim.dt", "must be in (0, 1]"));
  EXPECT_NO_THROW(parseScene("[sim]\ndt = 1\n", kSource));
}

TEST(SceneLimits, CountMustBeInRange) {
  EXPECT_TRUE(rejects("[boids]\ncount = -1\n", 2, "boids.count", "must be in [0, 100000000]"));
  EXPECT_TRUE(rejects("[boids]\ncount = 100000001\n", 2, "boids.count", "must be in [0, 100000000]"));
  EXPECT_TRUE(rejects("[boids]\ncount = 8589934592\n", 2, "boids.count"));  // would wrap to 0 in 32 bits
  EXPECT_EQ(parseScene("[boids]\ncount = 0\n", kSource).count, 0u);
  EXPECT_EQ(parseScene("[boids]\ncount = 100000000\n", kSource).count, 100000000u);
}

TEST(SceneLimits, GroupsMustBeInRange) {
  EXPECT_TRUE(rejects("[boids]\ngroups = 0\n", 2, "boids.groups", "must be in [1, 1024]"));
  EXPECT_TRUE(rejects("[boids]\ngroups = 1025\n", 2, "boids.groups", "must be in [1, 1024]"));
  EXPECT_EQ(parseScene("[boids]\ngroups = 1024\n", kSource).groups, 1024u);
}

TEST(SceneLimits, MassMustBePositive) {
  EXPECT_TRUE(rejects("[boids]\nmass = 0\n", 2, "boids.mass", "must be above 0"));
}

TEST(SceneLimits, MaxSpeedMustBePositive) {
  EXPECT_TRUE(rejects("[boids]\nmin_speed = 0\nmax_speed = 0\n", 3, "boids.max_speed", "must be above 0"));
}

TEST(SceneLimits, MinSpeedMustBeInZeroToMaxSpeed) {
  EXPECT_TRUE(rejects("[boids]\nmin_speed = -0.5\n", 2, "boids.min_speed", "must be at least 0"));
  EXPECT_TRUE(
      rejects("[boids]\nmin_speed = 11\n", 2, "boids.min_speed", "must be at most boids.max_speed (10)"));
  EXPECT_NO_THROW(parseScene("[boids]\nmin_speed = 10\n", kSource));
}

TEST(SceneLimits, MaxForceMustBePositive) {
  EXPECT_TRUE(rejects("[boids]\nmax_force = -1\n", 2, "boids.max_force", "must be above 0"));
}

TEST(SceneLimits, BodyRadiusMustNotBeNegative) {
  EXPECT_TRUE(rejects("[boids]\nradius = -0.1\n", 2, "boids.radius", "must be at least 0"));
  EXPECT_NO_THROW(parseScene("[boids]\nradius = 0\n", kSource));
}

TEST(SceneLimits, PerceptionRadiusMustBePositive) {
  EXPECT_TRUE(rejects("[perception]\nradius = 0\nseparation_radius = 0\n", 2, "perception.radius",
                      "must be above 0"));
}

TEST(SceneLimits, SeparationRadiusMustNotBeNegative) {
  EXPECT_TRUE(
      rejects("[perception]\nseparation_radius = -1\n", 2, "perception.separation_radius", "at least 0"));
}

TEST(SceneLimits, SeparationRadiusMustBeAtMostPerceptionRadius) {
  EXPECT_TRUE(rejects("[perception]\nseparation_radius = 6\n", 2, "perception.separation_radius",
                      "perception.separation_radius: must be at most perception.radius (5)"));
  // The default separation radius (2) against a smaller radius: reported at the section's line.
  EXPECT_TRUE(rejects("\n[perception]\nradius = 1.5\n", 2, "perception.separation_radius",
                      "must be at most perception.radius (1.5)"));
}

TEST(SceneLimits, FieldOfViewMustBeInZeroTo360) {
  EXPECT_TRUE(rejects("[perception]\nfov_degrees = 0\n", 2, "perception.fov_degrees", "must be in (0, 360]"));
  EXPECT_TRUE(
      rejects("[perception]\nfov_degrees = 360.5\n", 2, "perception.fov_degrees", "must be in (0, 360]"));
  EXPECT_NO_THROW(parseScene("[perception]\nfov_degrees = 360\n", kSource));
}

TEST(SceneLimits, TopologicalNeighboursAreZeroToTheMaximum) {
  EXPECT_EQ(parseScene("", kSource).model.topologicalNeighbours, 0u);
  EXPECT_EQ(parseScene("[perception]\nneighbours = 7\n", kSource).model.topologicalNeighbours, 7u);
  EXPECT_EQ(parseScene("[perception]\nneighbours = 16\n", kSource).model.topologicalNeighbours, 16u);
  EXPECT_TRUE(rejects("[perception]\nneighbours = 17\n", 2, "perception.neighbours", "must be in [0, 16]"));
  EXPECT_TRUE(rejects("[perception]\nneighbours = -1\n", 2, "perception.neighbours", "must be in [0, 16]"));
  EXPECT_TRUE(rejects("[perception]\nneighbours = 6.5\n", 2, "perception.neighbours", "integer"));
}

TEST(SceneLimits, RoostAndSpawnHeadingAreReadAndBounded) {
  const Scene scene =
      parseScene("[sim]\nheading = [1, 0, 2]\n[roost]\ncenter = [5, 6, 7]\nradius = 30\n", kSource);
  EXPECT_EQ(scene.spawnHeading, glm::vec3(1, 0, 2));
  EXPECT_EQ(scene.model.roostCenter, glm::vec3(5, 6, 7));
  EXPECT_EQ(scene.model.roostRadius, 30.0f);
  EXPECT_TRUE(rejects("[roost]\ncenter = [2e9, 0, 0]\n", 2, "roost.center", "at most 1e+09"));
  EXPECT_TRUE(rejects("[sim]\nheading = [0, -2e9, 0]\n", 2, "sim.heading", "at most 1e+09"));
  EXPECT_TRUE(rejects("[roost]\nradius = -1\n", 2, "roost.radius", "at least 0"));
}

TEST(SceneLimits, ComfortDistanceAndCohesionWithoutSeparationAreReadAndBounded) {
  const Scene defaults = parseScene("", kSource);
  EXPECT_EQ(defaults.model.comfortDistance, 0.0f);
  EXPECT_EQ(defaults.model.comfortMultiplier, 2.0f);
  EXPECT_FALSE(defaults.model.cohesionOnlyWithoutSeparation);
  const Scene scene = parseScene(
      "[perception]\ncomfort_distance = 1\ncomfort_multiplier = 3\n"
      "[weights]\ncohesion_only_without_separation = true\n",
      kSource);
  EXPECT_EQ(scene.model.comfortDistance, 1.0f);
  EXPECT_EQ(scene.model.comfortMultiplier, 3.0f);
  EXPECT_TRUE(scene.model.cohesionOnlyWithoutSeparation);
  EXPECT_TRUE(
      rejects("[perception]\ncomfort_distance = -1\n", 2, "perception.comfort_distance", "at least 0"));
  EXPECT_TRUE(rejects("[perception]\ncomfort_multiplier = 1001\n", 2, "perception.comfort_multiplier",
                      "must be in [0, 1000]"));
  EXPECT_TRUE(rejects("[weights]\ncohesion_only_without_separation = 1\n", 2,
                      "weights.cohesion_only_without_separation", "boolean"));
  // The force bound counts the multiplier inside the comfort distance.
  EXPECT_TRUE(
      rejects("[boids]\ncount = 1000000\n[perception]\nmin_distance = 1e-8\ncomfort_distance = 1\n"
              "comfort_multiplier = 1000\n",
              0, "weights.separation", "float32-safe"));
}

TEST(SceneLimits, TurnRateIsReadInDegreesPerSecondAndBounded) {
  EXPECT_EQ(parseScene("", kSource).model.turnRate, 0.0f);
  EXPECT_EQ(parseScene("[boids]\nturn_rate = 90\n", kSource).model.turnRate, 90.0f);
  EXPECT_TRUE(rejects("[boids]\nturn_rate = -1\n", 2, "boids.turn_rate", "must be in [0, 1000000]"));
  EXPECT_TRUE(rejects("[boids]\nturn_rate = 2e6\n", 2, "boids.turn_rate", "must be in [0, 1000000]"));
  EXPECT_TRUE(rejects("[boids]\nturn_rate = \"fast\"\n", 2, "boids.turn_rate", ""));
}

// [model]: the kind of unit and the lab body's rows; the lab's units need the book's flat, wrapping
// window and refuse topological neighbours, each with the key at fault.
TEST(SceneLimits, TheLabsUnitsAreReadAndNeedAFlatWrappingWorld) {
  const Scene defaults = parseScene("", kSource);
  EXPECT_EQ(defaults.model.unitModel, UnitModel::Boids);
  const std::string flat = "[world]\ndims = 2\nboundary = \"wrap\"\n";
  const Scene lab = parseScene(
      flat + "[model]\nkind = \"lab\"\nsteering = 0.5\ninertia = 0.125\nspin_rate = 90\n", kSource);
  EXPECT_EQ(lab.model.unitModel, UnitModel::Lab);
  EXPECT_EQ(lab.model.labSteering, 0.5f);
  EXPECT_EQ(lab.model.labInertia, 0.125f);
  EXPECT_EQ(lab.model.labSpinRate, 90.0f);
  EXPECT_TRUE(rejects("[model]\nkind = \"lab\"\n", 2, "model.kind", "world.dims = 2"));
  EXPECT_TRUE(rejects("[world]\ndims = 2\n[model]\nkind = \"lab\"\n", 4, "model.kind", "\"wrap\""));
  EXPECT_TRUE(rejects(flat + "[perception]\nneighbours = 7\n[model]\nkind = \"lab\"\n", 7, "model.kind",
                      "topological"));
  EXPECT_TRUE(rejects("[model]\nkind = \"book\"\n", 2, "model.kind", "\"boids\", \"lab\""));
  EXPECT_TRUE(rejects("[model]\nsteering = 0\n", 2, "model.steering", "must be in (0, 10]"));
  EXPECT_TRUE(rejects("[model]\nspin_rate = 4000\n", 2, "model.spin_rate", "must be in (0, 3600]"));
}

// [model] kind = "starling": the flight's rows and the roost's height band are read; starlings need
// a 3D world, no turn rate and a cruise speed that keeps their lift within float32, each refused
// with the key at fault.
TEST(SceneLimits, StarlingsAreReadAndNeedA3DWorldAndACruiseSpeed) {
  const Scene birds = parseScene(
      "[model]\nkind = \"starling\"\nroll_rate = 90\nmax_bank = 45\nlift_drag = 4\ngravity = 9.8\n"
      "[roost]\nheight_band = 12\n",
      kSource);
  EXPECT_EQ(birds.model.unitModel, UnitModel::Starling);
  EXPECT_EQ(birds.model.starlingRollRate, 90.0f);
  EXPECT_EQ(birds.model.starlingMaxBank, 45.0f);
  EXPECT_EQ(birds.model.starlingLiftDrag, 4.0f);
  EXPECT_EQ(birds.model.starlingGravity, 9.8f);
  EXPECT_EQ(birds.model.roostHeightBand, 12.0f);
  EXPECT_TRUE(birds.model.storesHeading() && birds.model.storesAttitude());
  EXPECT_TRUE(
      rejects("[world]\ndims = 2\n[model]\nkind = \"starling\"\n", 4, "model.kind", "world.dims = 3"));
  EXPECT_TRUE(rejects("[boids]\nturn_rate = 90\n[model]\nkind = \"starling\"\n", 4, "model.kind", "banking"));
  EXPECT_TRUE(rejects("[cruise]\nspeed = 0\n[model]\nkind = \"starling\"\n", 2, "cruise.speed", "above 0"));
  EXPECT_TRUE(rejects("[cruise]\nspeed = 1e-9\n[model]\nkind = \"starling\"\n", 2, "cruise.speed", "1e+18"));
  EXPECT_TRUE(rejects("[model]\nmax_bank = 85\n", 2, "model.max_bank", "must be in (0, 80]"));
  EXPECT_TRUE(rejects("[model]\nlift_drag = 0.5\n", 2, "model.lift_drag", "must be in [1, 100]"));
  EXPECT_TRUE(rejects("[model]\nkind = \"bird\"\n", 2, "model.kind", "\"starling\""));
}

// [random_obstacles]: placed after the [[obstacles]] (which they keep clear of), by the builder's
// rule with the keys' values; the book's radius (8 body lengths) and gap (5) by default.
TEST(SceneMapping, RandomObstaclesFollowTheScenesOwn) {
  const std::string world =
      "[world]\ndims = 2\nboundary = \"wrap\"\nmin = [-60, -5, -60]\nmax = [60, 5, 60]\n"
      "[boids]\nbody_length = 0.75\n[[obstacles]]\ncenter = [0, 3, 0]\nradius = 8\n";
  EXPECT_EQ(parseScene(world, kSource).obstacles.size(), 1u);
  const std::string rocks =
      "[random_obstacles]\ncount = 8\nseed = 5\n"
      "keep_clear = [[[-40, 0, -40], [40, 0, -40]], [[28, 0, 0]]]\n";
  const Scene scene = parseScene(world + rocks, kSource);
  ASSERT_EQ(scene.obstacles.size(), 9u);
  EXPECT_EQ(scene.obstacles[0].center, glm::vec3(0.0f));
  Scene fixedOnly = scene;
  fixedOnly.obstacles.resize(1);
  RandomObstacles spec;
  spec.count = 8;
  spec.seed = 5;
  spec.minRadius = spec.maxRadius = 6.0f;
  spec.gap = 3.75f;
  spec.keepClear = {{{-40, 0, -40}, {40, 0, -40}}, {{28, 0, 0}}};
  const std::vector<Obstacle> expected = placeRandomObstacles(fixedOnly, spec);
  ASSERT_EQ(expected.size(), 8u);
  for (std::size_t i = 0; i < expected.size(); ++i) {
    EXPECT_EQ(scene.obstacles[i + 1].center, expected[i].center);
    EXPECT_EQ(scene.obstacles[i + 1].radius, 6.0f);
  }
  // The seed defaults to sim.seed.
  const Scene seeded = parseScene(world + "[sim]\nseed = 5\n[random_obstacles]\ncount = 1\n", kSource);
  spec.count = 1;
  spec.keepClear.clear();
  EXPECT_EQ(seeded.obstacles.at(1).center, placeRandomObstacles(fixedOnly, spec).at(0).center);
}

TEST(SceneLimits, RandomObstaclesAreBoundedAndRefusedWhenTheyDoNotFit) {
  EXPECT_TRUE(rejects("[[obstacles]]\ncenter = [0, 0, 0]\nradius = 1\n[random_obstacles]\ncount = 1024\n", 5,
                      "random_obstacles.count", "must be in [0, 1023]"));
  EXPECT_TRUE(rejects("[random_obstacles]\ncount = 1\nmin_radius = 3\nmax_radius = 2\n", 4,
                      "random_obstacles.max_radius", "at least min_radius"));
  EXPECT_TRUE(rejects("[random_obstacles]\ncount = 1\nmin_radius = 0\n", 3, "random_obstacles.min_radius",
                      "above 0"));
  EXPECT_TRUE(rejects("[random_obstacles]\ngap = -1\n", 2, "random_obstacles.gap", "at least 0"));
  EXPECT_TRUE(rejects("[random_obstacles]\nkeep_clear = [[1, 2]]\n", 2, "random_obstacles.keep_clear[0][0]",
                      "wrong type"));
  EXPECT_TRUE(rejects("[random_obstacles]\nkeep_clear = [[[3e9, 0, 0]]]\n", 2, "random_obstacles.keep_clear",
                      "at most 1e+09"));
  EXPECT_TRUE(rejects("[world]\nboundary = \"wrap\"\n[random_obstacles]\ncount = 1\nmax_radius = 30\n", 5,
                      "random_obstacles.max_radius", "half the world wide"));
  EXPECT_TRUE(rejects("[random_obstacles]\nunknown = 1\n", 2, "random_obstacles.unknown", "unknown key"));
  const std::string bad = std::string(MURMUR_SOURCE_DIR) + "/tests/data/bad/random_obstacles_no_room.toml";
  EXPECT_TRUE(throwsInputError([&] { loadScene(bad); }, bad, 8, "random_obstacles.count", "only "));
}

TEST(SceneLimits, MinDistanceMustBePositive) {
  EXPECT_TRUE(rejects("[perception]\nmin_distance = 0\n", 2, "perception.min_distance", "must be above 0"));
}

TEST(SceneLimits, LookaheadMustNotBeNegative) {
  EXPECT_TRUE(rejects("[avoidance]\nlookahead = -1\n", 2, "avoidance.lookahead", "must be at least 0"));
  EXPECT_NO_THROW(parseScene("[avoidance]\nlookahead = 0\n", kSource));
}

TEST(SceneLimits, SlowRadiusMustBePositive) {
  EXPECT_TRUE(rejects("[goal]\nslow_radius = 0\n", 2, "goal.slow_radius", "must be above 0"));
}

TEST(SceneLimits, FleeRadiusMustNotBeNegative) {
  EXPECT_TRUE(rejects("[flee]\nradius = -2\n", 2, "flee.radius", "must be at least 0"));
  EXPECT_NO_THROW(parseScene("[flee]\nradius = 0\n", kSource));
}

TEST(SceneLimits, CruiseSpeedMustNotBeNegative) {
  EXPECT_TRUE(rejects("[cruise]\nspeed = -1\n", 2, "cruise.speed", "must be at least 0"));
}

TEST(SceneLimits, EveryWeightMustNotBeNegative) {
  for (const char* weight :
       {"separation", "alignment", "cohesion", "avoidance", "bounds", "goal", "flee", "cruise", "walls"}) {
    EXPECT_TRUE(rejects(std::string("[weights]\n") + weight + " = -0.1\n", 2,
                        std::string("weights.") + weight, "must be at least 0"));
  }
  EXPECT_NO_THROW(parseScene("[weights]\nseparation = 0\ncruise = 0\n", kSource));
}

TEST(SceneLimits, WrapNeedsEveryActiveExtentAtLeastTwicePerceptionRadius) {
  EXPECT_TRUE(rejects("[world]\nboundary = \"wrap\"\nmin = [0, 0, 0]\nmax = [100, 9, 100]\n", 2,
                      "world.boundary", "the y extent is 9"));
  EXPECT_NO_THROW(
      parseScene("[world]\nboundary = \"wrap\"\nmin = [0, 0, 0]\nmax = [100, 10, 100]\n", kSource));
  // In 2D the y extent does not count.
  EXPECT_NO_THROW(
      parseScene("[world]\ndims = 2\nboundary = \"wrap\"\nmin = [0, 0, 0]\nmax = [100, 1, 100]\n", kSource));
}

TEST(SceneLimits, ObstacleRadiusMustBePositive) {
  EXPECT_TRUE(rejects(R"([[obstacles]]
center = [0, 0, 0]
radius = 1
[[obstacles]]
center = [5, 0, 0]
radius = 0
)",
                      6, "obstacles[1].radius", "must be above 0"));
}

TEST(SceneLimits, TargetGroupMustBeBelowGroups) {
  EXPECT_TRUE(rejects("[boids]\ngroups = 2\n[[targets]]\ngroup = 2\nposition = [0, 0, 0]\n", 4,
                      "targets[0].group", "must be below boids.groups (2)"));
  EXPECT_TRUE(
      rejects("[[targets]]\ngroup = -1\nposition = [0, 0, 0]\n", 2, "targets[0].group", "at least 0"));
}

TEST(SceneLimits, SeedMustNotBeNegative) {
  EXPECT_TRUE(rejects("[sim]\nseed = -1\n", 2, "sim.seed", "must be at least 0"));
  EXPECT_EQ(parseScene("[sim]\nseed = 0\n", kSource).seed, 0u);
}

TEST(SceneLimits, StepsMustNotBeNegative) {
  EXPECT_TRUE(rejects("[sim]\nsteps = -5\n", 2, "sim.steps", "must be at least 0"));
}

// ---- Every row of the parameter table (sim/param_table.hpp) ----

// `value` as scene text: the shortest decimal that reads back as the same float.
std::string sceneNumber(float value) {
  return fmt::format("{}", value);
}

// A value inside the row's range and its atMost bound, other than the default (1 for a default of 0).
float valueInRange(const ModelParam& param) {
  const float bound = param.atMost.empty() ? param.maximum : modelParam(param.atMost).defaultValue;
  const float value = param.defaultValue != 0.0f ? param.defaultValue * 1.25f : 1.0f;
  return value <= bound ? value : 0.5f * (param.defaultValue + bound);
}

TEST(SceneParamTable, EveryParameterInItsRangeReachesItsField) {
  for (const ModelParam& param : modelParams()) {
    const float value = valueInRange(param);
    ASSERT_NE(value, param.defaultValue) << param.key();
    ASSERT_TRUE(param.inRange(value)) << param.key();
    const std::string text = fmt::format("[{}]\n{} = {}\n", param.section, param.name, sceneNumber(value));
    const Scene scene = parseScene(text, kSource);
    EXPECT_EQ(param.field.of(scene.model), value) << text;
  }
}

TEST(SceneParamTable, EveryParameterOutOfItsRangeIsRejectedAtItsKey) {
  for (const ModelParam& param : modelParams()) {
    const auto text = [&](const std::string& value) {
      return fmt::format("[{}]\n{} = {}\n", param.section, param.name, value);
    };
    // Below: the minimum itself when it is excluded, else a little under it.
    const float below = param.minimumIncluded ? param.minimum - 0.5f * std::max(1.0f, std::abs(param.minimum))
                                              : param.minimum;
    EXPECT_TRUE(rejects(text(sceneNumber(below)), 2, param.key(), param.rangeRule())) << below;
    // Above: past the maximum, or, with none, past float32 (the reader's own limit).
    EXPECT_TRUE(rejects(text(param.maximum == kUnbounded ? "1e39" : sceneNumber(1.5f * param.maximum)), 2,
                        param.key()));
  }
}

TEST(SceneParamTable, AtMostIsCheckedAgainstTheOtherParameter) {
  for (const ModelParam& param : modelParams()) {
    if (param.atMost.empty()) continue;
    const ModelParam& bound = modelParam(param.atMost);
    const std::string text =
        fmt::format("[{}]\n{} = {}\n", param.section, param.name, sceneNumber(bound.defaultValue * 1.5f));
    EXPECT_TRUE(rejects(text, 2, param.key(),
                        fmt::format("must be at most {} ({})", param.atMost, bound.defaultValue)));
  }
}

// ---- [perception] view: field of view and radius by name ----

// The book's radii in body lengths (wide 200, limited 30, narrow 50, separation 5; the leader
// radius the narrow view's), from boids.body_length: 0.75 (the lab's) and the default 0.1.
TEST(SceneViewModes, EachModeSetsFieldOfViewAndRadiiInBodyLengths) {
  const auto view = [](const std::string& name, const std::string& boids) {
    return parseScene(boids + "[perception]\nview = \"" + name + "\"\n", kSource).model;
  };
  const std::string lab = "[boids]\nbody_length = 0.75\n";
  EXPECT_EQ(view("wide", lab).fovDegrees, 270.0f);
  EXPECT_EQ(view("wide", lab).perceptionRadius, 150.0f);
  EXPECT_EQ(view("limited", lab).fovDegrees, 180.0f);
  EXPECT_EQ(view("limited", lab).perceptionRadius, 22.5f);
  EXPECT_EQ(view("narrow", lab).fovDegrees, 90.0f);
  EXPECT_EQ(view("narrow", lab).perceptionRadius, 37.5f);
  for (const char* name : {"wide", "limited", "narrow"}) {
    EXPECT_EQ(view(name, lab).separationRadius, 3.75f) << name;
    EXPECT_EQ(view(name, lab).leaderRadius, 37.5f) << name;
  }
  EXPECT_EQ(view("wide", "").perceptionRadius, 20.0f);
  EXPECT_EQ(view("limited", "").perceptionRadius, 3.0f);
  EXPECT_EQ(view("narrow", "").perceptionRadius, 5.0f);
  EXPECT_EQ(view("narrow", "").separationRadius, 0.5f);
  for (const ViewMode& mode : viewModes()) {
    EXPECT_EQ(view(std::string(mode.name), lab).fovDegrees, mode.fovDegrees);
    EXPECT_EQ(view(std::string(mode.name), lab).perceptionRadius, mode.radiusLengths * 0.75f);
  }
}

TEST(SceneViewModes, TheLeaderRadiusIsTheNarrowViewsUnlessSet) {
  const ModelParams byDefault = parseScene("", kSource).model;
  EXPECT_EQ(byDefault.bodyLength, 0.1f);
  EXPECT_EQ(byDefault.leaderRadius, 5.0f);
  EXPECT_EQ(byDefault.perceptionRadius, 5.0f);
  EXPECT_EQ(byDefault.separationRadius, 2.0f) << "no view mode: the table's defaults";
  EXPECT_EQ(parseScene("[boids]\nbody_length = 0.2\n", kSource).model.leaderRadius, 10.0f);
  const ModelParams set =
      parseScene("[boids]\nbody_length = 0.2\n[perception]\nleader_radius = 7\n", kSource).model;
  EXPECT_EQ(set.leaderRadius, 7.0f);
  EXPECT_EQ(set.searchRadius(), 7.0f);
  // A wrapping world must be 2 x the search radius wide: here the leader radius sets it.
  EXPECT_TRUE(
      rejects("[world]\nboundary = \"wrap\"\nmin = [-10, -10, -10]\nmax = [10, 10, 10]\n"
              "[perception]\nleader_radius = 12\n",
              2, "world.boundary", "2 * perception.leader_radius (24)"));
}

TEST(SceneViewModes, ExplicitKeysOverrideTheModeWhereverTheyAre) {
  const ModelParams fov = parseScene("[perception]\nview = \"narrow\"\nfov_degrees = 120\n", kSource).model;
  EXPECT_EQ(fov.fovDegrees, 120.0f);
  EXPECT_EQ(fov.perceptionRadius, 5.0f);
  const ModelParams radius =
      parseScene("[perception]\nradius = 4.5\nseparation_radius = 1\nview = \"limited\"\n", kSource).model;
  EXPECT_EQ(radius.fovDegrees, 180.0f);
  EXPECT_EQ(radius.perceptionRadius, 4.5f);
  EXPECT_EQ(radius.separationRadius, 1.0f);
}

TEST(SceneViewModes, UnknownModeIsRejectedAtItsKey) {
  EXPECT_TRUE(rejects("[perception]\n\nview = \"panoramic\"\n", 3, "perception.view",
                      "unknown word \"panoramic\" (accepted: \"wide\", \"limited\", \"narrow\")"));
  EXPECT_TRUE(rejects("[perception]\nview = 270\n", 2, "perception.view", "expected a string"));
}

TEST(SceneViewModes, TheModesRadiusIsValidatedLikeAnExplicitOne) {
  // limited's radius 3 is below an explicit separation radius of 3.5.
  EXPECT_TRUE(rejects("[perception]\nview = \"limited\"\nseparation_radius = 3.5\n", 3,
                      "perception.separation_radius", "must be at most perception.radius (3)"));
}

// ---- validateScene: scenes built in code or changed after loading ----

TEST(SceneValidate, ReportsTheScenePathTheKeyAndNoLine) {
  Scene scene = parseScene("[perception]\nradius = 5\n", kSource);
  scene.count = 100'000'001;  // e.g. --boids
  EXPECT_TRUE(invalid(scene, "boids.count", "must be in [0, 100000000]"));
}

TEST(SceneValidate, ChecksCrossFieldLimits) {
  Scene scene;
  scene.model.perceptionRadius = 1.0f;
  EXPECT_TRUE(invalid(scene, "perception.separation_radius", "must be at most perception.radius (1)"));
}

TEST(SceneValidate, ChecksGroupsAndTargets) {
  Scene scene;
  scene.groups = 0;
  EXPECT_TRUE(invalid(scene, "boids.groups"));
  scene.groups = 2;
  scene.targets = {Target{0, glm::vec3(0.0f)}, Target{2, glm::vec3(0.0f)}};
  EXPECT_TRUE(invalid(scene, "targets[1].group", "must be below boids.groups (2)"));
}

TEST(SceneValidate, ChecksDimsAndNonFiniteValues) {
  Scene scene;
  scene.model.dims = 1;
  EXPECT_TRUE(invalid(scene, "world.dims", "must be 2 or 3"));
  scene = Scene{};
  scene.model.weights.flee = std::numeric_limits<float>::quiet_NaN();
  EXPECT_TRUE(invalid(scene, "weights.flee", "finite"));
  scene = Scene{};
  scene.predators.push_back(glm::vec3(0.0f, std::numeric_limits<float>::infinity(), 0.0f));
  EXPECT_TRUE(invalid(scene, "predators[0].position", "finite"));
}

TEST(SceneValidate, ChecksObstacles) {
  Scene scene;
  scene.obstacles = {Obstacle{glm::vec3(0.0f), -1.0f}};
  EXPECT_TRUE(invalid(scene, "obstacles[0].radius", "must be above 0"));
}

// ---- TableReader: the strict reader the ai and render loaders share ----

TEST(SceneTableReader, ReadsEveryTypeAndRejectsUnreadKeys) {
  SceneDocument document{toml::parse(R"([agents]
name = "a"
fast = true
steps = 3
waypoints = [[1, 2, 3], [4, 5, 6]]
extra = 1
)"),
                         "agents.toml"};
  TableReader root(document.path, document.root, "");
  std::optional<TableReader> agents = root.table("agents");
  ASSERT_TRUE(agents.has_value());
  EXPECT_EQ(agents->string("name"), "a");
  EXPECT_TRUE(agents->boolean("fast"));
  EXPECT_FALSE(agents->boolean("slow", false));
  EXPECT_EQ(agents->integer("steps"), 3);
  EXPECT_DOUBLE_EQ(agents->number("speed", 2.5), 2.5);
  const std::vector<glm::vec3> waypoints = agents->vec3List("waypoints");
  ASSERT_EQ(waypoints.size(), 2u);
  EXPECT_EQ(waypoints[1], glm::vec3(4.0f, 5.0f, 6.0f));
  EXPECT_TRUE(agents->vec3List("path").empty());
  EXPECT_TRUE(throwsInputError([&] { agents->finish(); }, "agents.toml", 6, "agents.extra",
                               "unknown key (accepted: name, fast, slow, steps, speed, waypoints, path)"));
}

TEST(SceneTableReader, RequiredGettersReportMissingKeysAtTheTable) {
  SceneDocument document{toml::parse("\n[render]\ncolour = \"red\"\n"), "render.toml"};
  TableReader render = *TableReader(document.path, document.root, "").table("render");
  EXPECT_TRUE(
      throwsInputError([&] { render.string("camera"); }, "render.toml", 2, "render.camera", "missing"));
  EXPECT_TRUE(throwsInputError([&] { render.boolean("colour"); }, "render.toml", 3, "render.colour",
                               "expected a boolean, found a string"));
}

TEST(SceneTableReader, RequiredChoiceAndVec3ListElements) {
  SceneDocument document{toml::parse("kind = \"ghost\"\npath = [[0, 0, 0], [1, 2]]\n"), "x.toml"};
  TableReader root(document.path, document.root, "");
  enum class Kind { Leader, Predator };
  EXPECT_TRUE(throwsInputError(
      [&] {
        root.choice<Kind>("kind", {{"leader", Kind::Leader}, {"predator", Kind::Predator}});
      },
      "x.toml", 1, "kind", "unknown word \"ghost\" (accepted: \"leader\", \"predator\")"));
  EXPECT_TRUE(throwsInputError([&] { root.vec3List("path"); }, "x.toml", 2, "path[1]", "found 2 element(s)"));
}

// ---- [[groups]]: chasers and interceptors (docs/model.md, step 8c) ----

TEST(SceneGroups, RolesTargetsThrustAndFlockingReachTheirFields) {
  const Scene scene = parseScene(
      "[world]\ndims = 2\n[boids]\ngroups = 3\n"
      "[[groups]]\ngroup = 1\nrole = \"intercept\"\nthrust = 1.5\nflocking = false\nweight = 4\n"
      "target = [10, 5, -20]\nmax_intercept_seconds = 7.5\n"
      "[[groups]]\ngroup = 2\nrole = \"chase\"\ntarget_agent = \"player\"\n",
      kSource);
  ASSERT_EQ(scene.groupSpecs.size(), 2u);
  const GroupSpec& intercept = scene.groupSpecs[0];
  EXPECT_EQ(intercept.group, 1u);
  EXPECT_EQ(intercept.steering.role, GroupRole::Intercept);
  EXPECT_EQ(intercept.steering.thrust, 1.5f);
  EXPECT_FALSE(intercept.steering.flocking);
  EXPECT_EQ(intercept.steering.weight, 4.0f);
  EXPECT_EQ(intercept.steering.maxInterceptSeconds, 7.5f);
  EXPECT_EQ(intercept.steering.target, glm::vec3(10, 0, -20)) << "y = 0 in 2D";
  EXPECT_EQ(intercept.targetAgent, "");
  const GroupSpec& chase = scene.groupSpecs[1];
  EXPECT_EQ(chase.steering.role, GroupRole::Chase);
  EXPECT_EQ(chase.steering.thrust, 1.0f);
  EXPECT_TRUE(chase.steering.flocking);
  EXPECT_EQ(chase.targetAgent, "player");
  const StepInputs inputs = staticInputs(scene, scene.groups);
  ASSERT_EQ(inputs.steering.size(), 3u);
  EXPECT_EQ(inputs.steering[0].role, GroupRole::Flock) << "a group not listed flocks";
  EXPECT_EQ(inputs.steering[1].role, GroupRole::Intercept);
}

TEST(SceneGroups, BadEntriesNameFileLineAndKey) {
  const std::string head = "[boids]\ngroups = 2\n[[groups]]\n";  // the entry's keys start on line 4
  EXPECT_TRUE(rejects(head + "group = 2\n", 4, "groups[0].group", "[0, 2)"));
  EXPECT_TRUE(rejects(head + "role = \"chase\"\n", 3, "groups[0].group", "missing"));
  EXPECT_TRUE(rejects(head + "group = 0\nrole = \"hunt\"\n", 5, "groups[0].role",
                      "(accepted: \"flock\", \"chase\", \"intercept\")"));
  EXPECT_TRUE(rejects(head + "group = 0\nrole = \"chase\"\ntarget = [0, 0, 0]\nthrust = 0\n", 7,
                      "groups[0].thrust", "(0, 10]"));
  EXPECT_TRUE(rejects(head + "group = 0\nrole = \"chase\"\ntarget = [0, 0, 0]\nweight = -1\n", 7,
                      "groups[0].weight", "[0, 1000]"));
  EXPECT_TRUE(
      rejects(head + "group = 0\nrole = \"intercept\"\ntarget = [0, 0, 0]\nmax_intercept_seconds = -1\n", 7,
              "groups[0].max_intercept_seconds", "[0, 3600]"));
  EXPECT_TRUE(rejects(head + "group = 0\nrole = \"chase\"\n", 5, "groups[0].role", "needs exactly one"));
  EXPECT_TRUE(rejects(head + "group = 0\nrole = \"chase\"\ntarget = [0, 0, 0]\ntarget_agent = \"p\"\n", 7,
                      "groups[0].target_agent", "needs exactly one"));
  EXPECT_TRUE(
      rejects(head + "group = 0\ntarget = [0, 0, 0]\n", 5, "groups[0].target", "only a chase or intercept"));
  EXPECT_TRUE(rejects(head + "group = 0\n[[groups]]\ngroup = 0\n", 6, "groups[1].group", "listed twice"));
  EXPECT_TRUE(rejects(head + "group = 0\nrole = \"chase\"\ntarget = [2e9, 0, 0]\n", 6, "groups[0].target",
                      "at most 1e+09"));
  EXPECT_TRUE(rejects(head + "group = 0\nspeed = 3\n", 5, "groups[0].speed", "unknown key"));
}

TEST(SceneErrors, AnObstacleLargerThanHalfAWrappedWorldIsRefused) {
  const std::string world =
      "[world]\ndims = 2\nmin = [-50, -5, -50]\nmax = [50, 5, 50]\nboundary = \"wrap\"\n";
  EXPECT_TRUE(rejects(world + "[[obstacles]]\ncenter = [0, 0, 0]\nradius = 26\n", 8, "obstacles[0].radius",
                      "at most half the world wide"));
  EXPECT_NO_THROW(parseScene(world + "[[obstacles]]\ncenter = [0, 0, 0]\nradius = 25\n", kSource));
  // Containing worlds have no images: the limit does not apply.
  EXPECT_NO_THROW(
      parseScene("[world]\nmin = [-50, -50, -50]\nmax = [50, 50, 50]\n[[obstacles]]\n"
                 "center = [0, 0, 0]\nradius = 30\n",
                 kSource));
}

}  // namespace
}  // namespace murmur::sim
