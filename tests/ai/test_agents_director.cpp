// The agent director: patrol order, what it writes into the step inputs, sight and hearing through
// the group summaries (hearing around a wall by path length), timers, pursuit, moves that never enter a
// wall, and determinism.
#include <cmath>
#include <cstdint>
#include <filesystem>
#include <numbers>
#include <optional>
#include <span>
#include <stdexcept>
#include <string>
#include <vector>

#include <gtest/gtest.h>
#include <glm/geometric.hpp>

#include "ai/director.hpp"
#include "ai/nav.hpp"
#include "ai/perception.hpp"
#include "ai/scene_agents.hpp"
#include "map_file.hpp"
#include "sim/builders.hpp"
#include "sim/metrics.hpp"
#include "sim/nearest_boids.hpp"
#include "sim/scene_loader.hpp"

namespace murmur::ai {
namespace {

constexpr double kDt = 1.0 / 60.0;

// A flat 100 x 100 world with two groups; agents follow.
const std::string kFlatWorld = R"(
[world]
dims = 2
min = [-50, -5, -50]
max = [50, 5, 50]
margin = 2
[boids]
groups = 2
)";

AgentDirector directorFor(const sim::Scene& scene) {
  std::optional<AgentDirector> director = AgentDirector::fromScene(scene);
  if (!director) throw std::runtime_error("the scene has no agents");
  return std::move(*director);
}

// A group summary as the flock reduction reports it.
sim::GroupSummary group(glm::vec3 centroid, glm::vec3 meanVelocity, std::uint32_t count = 100) {
  return sim::GroupSummary{count, centroid, meanVelocity};
}

// One update seeing the flock as one boid per non-empty group, at its centroid and moving at its
// mean velocity (the brute-force nearest-boids query answers the director's probes): the geometry of
// these tests is written in centroids.
void update(AgentDirector& director, std::span<const sim::GroupSummary> flock, sim::StepInputs& inputs) {
  sim::FlockState boids;
  boids.groups = std::uint32_t(flock.size());
  for (std::uint32_t g = 0; g < flock.size(); ++g) {
    if (flock[g].count == 0) continue;
    boids.position.push_back(flock[g].centroid);
    boids.velocity.push_back(flock[g].meanVelocity);
    boids.group.push_back(g);
  }
  const std::vector<sim::BoidProbe> probes = director.probes();
  director.update(kDt, flock,
                  sim::nearestBoids(boids, boids.position, probes, AgentDirector::kPerceivedBoids), inputs);
}

TEST(AgentDirector, LeaderVisitsItsPatrolWaypointsInOrder) {
  const sim::Scene scene = sim::parseScene(kFlatWorld + R"(
[[agents]]
kind = "leader"
group = 1
position = [0, 0, 0]
max_speed = 8
[[agents.states]]
name = "lead"
action = "patrol"
arrival_radius = 2
waypoints = [[30, 0, 30], [-30, 0, 30], [-30, 0, -30], [30, 0, -30]]
)",
                                           "patrol.toml", kSceneSections);
  const std::vector<glm::vec3> waypoints{{30, 0, 30}, {-30, 0, 30}, {-30, 0, -30}, {30, 0, -30}};
  AgentDirector director = directorFor(scene);
  sim::StepInputs inputs = sim::staticInputs(scene, scene.groups);
  std::vector<std::size_t> visits;
  for (int step = 0; step < 60 * 120; ++step) {
    director.update(kDt, {}, {}, inputs);
    for (std::size_t w = 0; w < waypoints.size(); ++w)
      if (glm::length(director.position(0) - waypoints[w]) < 2.0f && (visits.empty() || visits.back() != w))
        visits.push_back(w);
  }
  // 240 units of route per round at up to 8 units/s: three rounds of four visits in two minutes.
  ASSERT_GE(visits.size(), 3u * 4u);
  for (std::size_t i = 0; i < visits.size(); ++i) EXPECT_EQ(visits[i], i % 4) << "visit " << i;
  EXPECT_EQ(director.stateName(0), "lead");
  EXPECT_EQ(director.action(0), Action::Patrol);
}

TEST(AgentDirector, WritesGoalsAndPredatorsFromTheStaticInputs) {
  const sim::Scene scene = sim::parseScene(kFlatWorld + R"(
[[targets]]
group = 0
position = [10, 0, 10]
[[predators]]
position = [-20, 0, -20]
[[agents]]
kind = "leader"
group = 1
position = [5, 0, 5]
[[agents.states]]
name = "stay"
action = "rest"
[[agents]]
kind = "predator"
position = [-5, 0, 5]
[[agents.states]]
name = "stay"
action = "rest"
)",
                                           "inputs.toml", kSceneSections);
  AgentDirector director = directorFor(scene);
  sim::StepInputs inputs = sim::staticInputs(scene, scene.groups);
  // What a previous step left is replaced, not accumulated.
  inputs.predators.push_back(glm::vec3(99.0f));
  for (int step = 0; step < 3; ++step) director.update(kDt, {}, {}, inputs);
  ASSERT_EQ(inputs.goal.size(), 2u);
  EXPECT_EQ(inputs.goal[0], glm::vec3(10.0f, 0.0f, 10.0f));
  EXPECT_EQ(inputs.goal[1], glm::vec3(5.0f, 0.0f, 5.0f));
  ASSERT_EQ(inputs.predators.size(), 2u);
  EXPECT_EQ(inputs.predators[0], glm::vec3(-20.0f, 0.0f, -20.0f));
  EXPECT_EQ(inputs.predators[1], glm::vec3(-5.0f, 0.0f, 5.0f));
  EXPECT_EQ(inputs.walls, nullptr);
  EXPECT_EQ(director.size(), 2u);
  EXPECT_EQ(director.kind(0), AgentKind::Leader);
  EXPECT_EQ(director.group(0), 1u);
  EXPECT_EQ(director.kind(1), AgentKind::Predator);
  EXPECT_EQ(director.heading(1), glm::vec3(1.0f, 0.0f, 0.0f));
  EXPECT_THROW(director.update(0.0, {}, {}, inputs), std::invalid_argument);
  EXPECT_THROW(director.update(std::nan(""), {}, {}, inputs), std::invalid_argument);
}

// A predator facing +x (its start heading) that turns "alert" when a condition holds.
std::string watcher(const std::string& senses, const std::string& condition) {
  return R"(
[[agents]]
kind = "predator"
position = [0, 0, 0]
)" + senses +
         R"(
[[agents.states]]
name = "idle"
action = "rest"
transitions = [{ )" +
         condition + R"(, to = "alert" }]
[[agents.states]]
name = "alert"
action = "rest"
)";
}

TEST(AgentDirector, SeesAGroupWhoseBoidIsInItsViewCone) {
  const sim::Scene scene =
      sim::parseScene(kFlatWorld + watcher("view_distance = 30\nview_angle = 90\nhearing_range = 0",
                                           "when = \"sees\", group = 1"),
                      "sight.toml", kSceneSections);
  const auto alertAfterOneStep = [&](std::vector<sim::GroupSummary> flock) {
    AgentDirector director = directorFor(scene);
    sim::StepInputs inputs = sim::staticInputs(scene, scene.groups);
    update(director, flock, inputs);
    return director.stateName(0) == "alert";
  };
  const glm::vec3 still(0.0f);
  EXPECT_TRUE(alertAfterOneStep({group({-40, 0, 0}, still), group({20, 0, 5}, still)}));
  EXPECT_FALSE(
      alertAfterOneStep({group({20, 0, 5}, still), group({-20, 0, 0}, still)}));  // behind; group 0 ahead
  EXPECT_FALSE(alertAfterOneStep({group({-40, 0, 0}, still), group({35, 0, 0}, still)}));  // too far
  EXPECT_FALSE(
      alertAfterOneStep({group({-40, 0, 0}, still), group({10, 0, 15}, still)}));  // outside 45 degrees
  EXPECT_FALSE(alertAfterOneStep({group({-40, 0, 0}, still), group({20, 0, 5}, still, 0)}));  // empty group
}

// Issue 10: a flock that parts around a rock has its centroid inside the rock, where the centroid
// rule saw nothing; the boids on either side are seen.
TEST(AgentDirector, SeesAFlockPartedAroundASphere) {
  const sim::Scene scene = sim::parseScene(kFlatWorld + R"(
[[obstacles]]
center = [20, 0, 0]
radius = 5
)" + watcher("view_distance = 40\nview_angle = 90\nhearing_range = 0", "when = \"sees\", group = 0"),
                                           "parted.toml", kSceneSections);
  sim::FlockState flock;
  flock.groups = 2;
  flock.position = {{20.0f, 0.0f, 7.0f}, {20.0f, 0.0f, -7.0f}};
  flock.velocity = {glm::vec3(0.0f), glm::vec3(0.0f)};
  flock.group = {0, 0};
  const std::vector<sim::GroupSummary> summaries = sim::summarizeGroups(flock);
  ASSERT_EQ(summaries[0].centroid, glm::vec3(20.0f, 0.0f, 0.0f));
  const PerceptionWorld world{scene.obstacles, nullptr, GridPlacement{}, 2};
  const SightParams sight{40.0f, std::numbers::pi_v<float> / 4};
  const glm::vec3 eye(0.0f), forward(1.0f, 0.0f, 0.0f);
  EXPECT_EQ(see(world, sight, eye, forward, summaries[0].centroid), Sight::Occluded);  // the old rule
  EXPECT_EQ(see(world, sight, eye, forward, flock.position[0]), Sight::Seen);

  AgentDirector director = directorFor(scene);
  sim::StepInputs inputs = sim::staticInputs(scene, scene.groups);
  const std::vector<sim::BoidProbe> probes = director.probes();
  ASSERT_EQ(probes.size(), 1u);
  EXPECT_EQ(probes[0].radius, 40.0f);  // the view distance, the larger sense
  director.update(kDt, summaries,
                  sim::nearestBoids(flock, flock.position, probes, AgentDirector::kPerceivedBoids), inputs);
  EXPECT_EQ(director.stateName(0), "alert");
}

// The target is the nearest boid seen (not the nearest boid, not a centroid), led by its velocity.
TEST(AgentDirector, APredatorHuntsTheNearestBoidItSees) {
  const sim::Scene scene = sim::parseScene(kFlatWorld + R"(
[[obstacles]]
center = [6, 0, 0]
radius = 2
[[agents]]
kind = "predator"
position = [0, 0, 0]
view_distance = 60
view_angle = 360
hearing_range = 0
[[agents.states]]
name = "hunt"
action = "pursue"
)",
                                           "hunt.toml", kSceneSections);
  sim::FlockState flock;
  flock.groups = 2;
  // Boid 0: far, behind; boid 1: the nearest seen, closing in along +x, -z; boid 2: nearer still,
  // behind the rock.
  flock.position = {{30.0f, 0.0f, -20.0f}, {0.0f, 0.0f, 25.0f}, {12.0f, 0.0f, 0.0f}};
  flock.velocity = {glm::vec3(0.0f), {3.0f, 0.0f, -3.0f}, glm::vec3(0.0f)};
  flock.group = {0, 0, 1};
  AgentDirector director = directorFor(scene);
  sim::StepInputs inputs = sim::staticInputs(scene, scene.groups);
  director.update(kDt, sim::summarizeGroups(flock),
                  sim::nearestBoids(flock, flock.position, director.probes(), AgentDirector::kPerceivedBoids),
                  inputs);
  // From rest, the first move is along the pursuit's aim: boid 1's intercept point, (6, 0, 19) with
  // the 2 s prediction cap (x > 0 only through its velocity), neither toward boid 0 (z < 0) nor
  // boid 2 (along +x).
  const glm::vec3 v = director.velocity(0);
  EXPECT_GT(v.z, 0.0f);
  EXPECT_GT(v.x, 0.0f);
  EXPECT_GT(v.z, v.x);
}

TEST(AgentDirector, HearsALoudGroupAroundAWallWithinRangeByPath) {
  // 20 x 10 cells of 5 units over the 100 x 50 world; a wall down column 10 with a gap in the bottom
  // two rows. Listener and source on either side of it: sound must go round through the gap.
  std::vector<std::string> rows(10, std::string(20, '.'));
  for (std::size_t y = 0; y < 8; ++y) rows[y][10] = '@';
  const std::filesystem::path map = test::writeMap("hearing", rows);
  const auto scene = [&](const std::string& agent) {
    return sim::parseScene(R"(
[world]
dims = 2
min = [-50, -5, -25]
max = [50, 5, 25]
margin = 2
[navigation]
map = ")" + map.string() + "\"\n" +
                               agent,
                           "hearing.toml", kSceneSections);
  };
  const sim::Scene probe = scene("");
  const SceneAgents probeAgents = loadSceneAgents(probe);
  const GridPlacement placement = probeAgents.navigation->placement;
  ASSERT_NEAR(placement.cellSize, 5.0f, 1e-3f);
  const glm::vec3 listener = centerOf(placement, {5, 2});
  const glm::vec3 source = centerOf(placement, {14, 2});
  PathFinder paths(probeAgents.navigation->map);
  const PathResult around = paths.findPath({5, 2}, {14, 2});
  ASSERT_EQ(around.status, PathStatus::Found);
  const float pathUnits = float(around.length) * placement.cellSize;
  const float straight = glm::length(source - listener);
  ASSERT_GT(pathUnits, straight + 20.0f);

  const auto alert = [&](float range, float sourceSpeed) {
    const std::string senses =
        "position = [" + std::to_string(listener.x) + ", 0, " + std::to_string(listener.z) +
        "]\nview_distance = 100\nview_angle = 360\nloud_speed = 5\nhearing_range = " + std::to_string(range);
    std::string text = watcher("", "when = \"hears\"");
    text.replace(text.find("position = [0, 0, 0]"), std::string("position = [0, 0, 0]").size(), senses);
    const sim::Scene withAgent = scene(text);
    AgentDirector director = directorFor(withAgent);
    sim::StepInputs inputs = sim::staticInputs(withAgent, withAgent.groups);
    const std::vector<sim::GroupSummary> flock{group(source, glm::vec3(0.0f, 0.0f, sourceSpeed))};
    update(director, flock, inputs);
    return director.stateName(0) == "alert";
  };
  EXPECT_TRUE(alert(pathUnits + 5.0f, 8.0f));   // the way round is within range
  EXPECT_FALSE(alert(pathUnits - 5.0f, 8.0f));  // only the straight line (through the wall) would be
  EXPECT_FALSE(alert(pathUnits + 5.0f, 4.0f));  // too quiet
  std::filesystem::remove(map);
}

TEST(AgentDirector, TimersAndLosingTheTarget) {
  const sim::Scene scene = sim::parseScene(kFlatWorld + R"(
[[agents]]
kind = "predator"
position = [0, 0, 0]
view_angle = 360
hearing_range = 0
[[agents.states]]
name = "wait"
action = "rest"
transitions = [{ when = "timer", seconds = 1, to = "watch" }]
[[agents.states]]
name = "watch"
action = "rest"
transitions = [{ when = "lost_for", seconds = 0.5, to = "wait" }]
)",
                                           "timers.toml", kSceneSections);
  AgentDirector director = directorFor(scene);
  sim::StepInputs inputs = sim::staticInputs(scene, scene.groups);
  const std::vector<sim::GroupSummary> visible{group({10, 0, 0}, glm::vec3(0.0f)), group({0, 0, 0}, {}, 0)};
  const std::vector<sim::GroupSummary> gone{group({0, 0, 0}, {}, 0), group({0, 0, 0}, {}, 0)};
  int step = 0;
  for (; director.stateName(0) == "wait"; ++step) update(director, visible, inputs);
  EXPECT_NEAR(double(step) * kDt, 1.0, 2.5 * kDt);  // "more than 1 s"
  // Perceived all along: never lost.
  for (int i = 0; i < 120; ++i) update(director, visible, inputs);
  EXPECT_EQ(director.stateName(0), "watch");
  for (step = 0; director.stateName(0) == "watch"; ++step) update(director, gone, inputs);
  EXPECT_NEAR(double(step) * kDt, 0.5, 2.5 * kDt);
}

TEST(AgentDirector, PredatorPursuesAMovingGroupAndCatchesIt) {
  const sim::Scene scene = sim::parseScene(kFlatWorld + R"(
[[agents]]
kind = "predator"
position = [-40, 0, -40]
max_speed = 12
max_force = 30
view_angle = 360
view_distance = 200
initial = "hunt"
[[agents.states]]
name = "hunt"
action = "pursue"
transitions = [{ when = "near", distance = 2, to = "eat" }]
[[agents.states]]
name = "eat"
action = "rest"
)",
                                           "pursuit.toml", kSceneSections);
  AgentDirector director = directorFor(scene);
  sim::StepInputs inputs = sim::staticInputs(scene, scene.groups);
  glm::vec3 prey(30.0f, 0.0f, -40.0f);
  const glm::vec3 preyVelocity(-2.0f, 0.0f, 6.0f);
  int step = 0;
  for (; step < 60 * 30 && director.stateName(0) == "hunt"; ++step) {
    const std::vector<sim::GroupSummary> flock{group(prey, preyVelocity), group({}, {}, 0)};
    update(director, flock, inputs);
    prey += preyVelocity * float(kDt);
  }
  EXPECT_EQ(director.stateName(0), "eat");
  // Straight-line distance 70 units, the prey moving mostly sideways at 6.3 units/s: well under 15 s.
  EXPECT_LT(double(step) * kDt, 15.0);
}

TEST(AgentDirector, WanderingNeverEntersAWallAndIsDeterministic) {
  const std::string map = std::string(MURMUR_MAPS_DIR) + "/maps/rooms-65-81.map";
  const auto scene = [&](std::uint64_t seed) {
    return sim::parseScene(R"(
[world]
dims = 2
min = [-97.5, -5, -121.5]
max = [97.5, 5, 121.5]
margin = 4
[sim]
seed = )" + std::to_string(seed) +
                               R"(
[navigation]
map = ")" + map + R"("
[[agents]]
kind = "predator"
position = [-21, 0, 0]
max_speed = 12
[[agents.states]]
name = "roam"
action = "wander"
wander_jitter = 20
)",
                           "wander.toml", kSceneSections);
  };
  const auto track = [&](std::uint64_t seed) {
    const sim::Scene world = scene(seed);
    AgentDirector director = directorFor(world);
    sim::StepInputs inputs = sim::staticInputs(world, world.groups);
    const NavigationGrid& grid = *director.navigation();
    std::vector<glm::vec3> positions;
    for (int step = 0; step < 60 * 120; ++step) {
      director.update(kDt, {}, {}, inputs);
      const glm::vec3 p = director.position(0);
      EXPECT_TRUE(grid.map.passable(cellAt(grid.placement, p)))
          << "step " << step << ": " << p.x << ", " << p.z;
      positions.push_back(p);
    }
    return positions;
  };
  const std::vector<glm::vec3> first = track(5);
  EXPECT_EQ(first, track(5));
  EXPECT_NE(first, track(6));
  // It roams: the farthest point from the start is many cells away.
  float farthest = 0.0f;
  for (const glm::vec3& p : first) farthest = std::max(farthest, glm::length(p - first.front()));
  EXPECT_GT(farthest, 20.0f);
}

TEST(AgentDirector, PathsGoAroundObstaclesAndAreExposed) {
  // A rock between the agent and its goal: the agent follows an A* path around it, never entering
  // the rock's inflated cells.
  const sim::Scene scene = sim::parseScene(kFlatWorld + R"(
[[obstacles]]
center = [0, 0, 0]
radius = 10
[navigation]
cell_size = 2
clearance = 1.5
[[agents]]
kind = "predator"
position = [-30, 0, 0]
max_speed = 8
[[agents.states]]
name = "go"
action = "arrive"
point = [30, 0, 0]
)",
                                           "around.toml", kSceneSections);
  AgentDirector director = directorFor(scene);
  sim::StepInputs inputs = sim::staticInputs(scene, scene.groups);
  director.update(kDt, {}, {}, inputs);
  const std::vector<glm::vec3> path = director.path(0);
  ASSERT_GE(path.size(), 3u);
  EXPECT_EQ(path.front(), director.position(0));
  EXPECT_EQ(path.back(), glm::vec3(30.0f, 0.0f, 0.0f));
  const NavigationGrid& grid = *director.navigation();
  // The kept cell centres see each other (the first segment starts off-centre, at the agent).
  for (std::size_t i = 2; i < path.size(); ++i)
    EXPECT_TRUE(segmentClear(grid.map, grid.placement, path[i - 1], path[i])) << "segment " << i;
  for (int step = 0; step < 60 * 20; ++step) {
    director.update(kDt, {}, {}, inputs);
    ASSERT_GE(glm::length(director.position(0)), 10.0f + 1.5f - 1e-3f) << "step " << step;
  }
  EXPECT_LT(glm::length(director.position(0) - glm::vec3(30.0f, 0.0f, 0.0f)), 0.5f);
  EXPECT_TRUE(director.path(0).empty());  // in sight of the goal at the end: no path needed
}

}  // namespace
}  // namespace murmur::ai
