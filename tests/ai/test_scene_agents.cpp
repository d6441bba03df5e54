// Loading [navigation] and [[agents]]: the shipped scenes, the mapping of keys onto specs, the grids
// (covering a map, rasterising obstacles, the boids' walls), and the errors: each names the file, the
// line and the key.
#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <gtest/gtest.h>
#include <glm/geometric.hpp>

#include "ai/director.hpp"
#include "ai/scene_agents.hpp"
#include "core/error.hpp"
#include "sim/builders.hpp"
#include "sim/scene_loader.hpp"

namespace murmur::ai {
namespace {

const std::string kSource = "agents.toml";

// A world and two groups; agents follow.
const std::string kWorld = R"(
[world]
min = [-50, -20, -50]
max = [50, 20, 50]
[boids]
groups = 2
)";

SceneAgents load(const std::string& text) {
  return loadSceneAgents(sim::parseScene(text, kSource, kSceneSections));
}

// Succeeds when loading `text` throws an InputError naming kSource, `line` and `key`, with a one-line
// message containing `fragment`.
testing::AssertionResult rejects(const std::string& text, std::size_t line, const std::string& key,
                                 std::string_view fragment) {
  try {
    load(text);
  } catch (const InputError& error) {
    const std::string what = error.what();
    if (error.file() != kSource || error.line() != line || error.key() != key ||
        what.find('\n') != std::string::npos || what.find(fragment) == std::string::npos)
      return testing::AssertionFailure() << "got file '" << error.file() << "', line " << error.line()
                                         << ", key '" << error.key() << "', what(): " << what;
    return testing::AssertionSuccess();
  }
  return testing::AssertionFailure() << "no InputError";
}

std::string scenePath(const std::string& name) {
  return std::string(MURMUR_SOURCE_DIR) + "/scenes/" + name;
}

// ---- Shipped scenes ----

TEST(SceneAgentsFiles, PredatorSceneHasALeaderPerGroupAndAPredator) {
  const sim::Scene scene = sim::loadScene(scenePath("predator.toml"), kSceneSections);
  const SceneAgents agents = loadSceneAgents(scene);
  ASSERT_GE(scene.groups, 2u);
  std::vector<int> leaders(scene.groups, 0);
  int predators = 0;
  for (const AgentSpec& agent : agents.agents) {
    if (agent.kind == AgentKind::Leader) ++leaders[agent.group];
    if (agent.kind == AgentKind::Predator) ++predators;
  }
  for (std::uint32_t g = 0; g < scene.groups; ++g) EXPECT_EQ(leaders[g], 1) << "group " << g;
  EXPECT_GE(predators, 1);
  EXPECT_EQ(scene.model.goalMode, sim::GoalMode::All);
  EXPECT_GT(scene.model.fleeRadius, 0.0f);
  // A grid rasterised from the rocks: paths only, no walls for the boids.
  ASSERT_NE(agents.navigation, nullptr);
  EXPECT_FALSE(agents.navigation->wallsFromMap);
  EXPECT_EQ(agents.walls, nullptr);
}

TEST(SceneAgentsFiles, Maze2dWallsComeFromTheMap) {
  const sim::Scene scene = sim::loadScene(scenePath("maze2d.toml"), kSceneSections);
  EXPECT_EQ(scene.model.dims, 2);
  const SceneAgents agents = loadSceneAgents(scene, {MURMUR_MAPS_DIR});
  ASSERT_NE(agents.navigation, nullptr);
  ASSERT_NE(agents.walls, nullptr);
  const GridMap& map = agents.navigation->map;
  EXPECT_EQ(map.width(), 65);
  EXPECT_EQ(map.height(), 81);
  EXPECT_NEAR(agents.navigation->placement.cellSize, 3.0f, 1e-3f);
  // Same placement, blocked cells = the map's walls.
  const sim::WallGrid& walls = *agents.walls;
  EXPECT_EQ(walls.width, 65u);
  EXPECT_EQ(walls.height, 81u);
  EXPECT_EQ(walls.origin, agents.navigation->placement.origin);
  EXPECT_EQ(walls.cellSize, agents.navigation->placement.cellSize);
  for (std::int32_t y = 0; y < map.height(); ++y)
    for (std::int32_t x = 0; x < map.width(); ++x) {
      const glm::vec3 center = centerOf(agents.navigation->placement, {x, y});
      ASSERT_EQ(walls.blockedAt(center), !map.passable({x, y})) << x << ", " << y;
    }
  ASSERT_EQ(agents.agents.size(), 1u);
  EXPECT_EQ(agents.agents[0].kind, AgentKind::Leader);
}

// ---- Keys onto specs ----

TEST(SceneAgentsKeys, MachineAndSensesMapOntoTheSpec) {
  const SceneAgents agents = load(kWorld + R"(
[[agents]]
kind = "predator"
position = [1, 2, 3]
max_speed = 12
max_force = 30
view_distance = 35
view_angle = 90
hearing_range = 45
loud_speed = 5
replan_interval = 0.25
initial = "hunt"
[[agents.states]]
name = "patrol"
action = "patrol"
speed = 6
waypoints = [[-10, 0, -10], [10, 0, 10]]
arrival_radius = 1.5
transitions = [{ when = "sees", group = 1, to = "hunt" }, { when = "hears", to = "hunt" }]
[[agents.states]]
name = "hunt"
action = "pursue"
max_prediction = 1
[[agents.states.transitions]]
when = "near"
distance = 3
to = "rest"
[[agents.states.transitions]]
when = "lost_for"
seconds = 2
to = "patrol"
[[agents.states]]
name = "rest"
action = "rest"
transitions = [{ when = "timer", seconds = 4, to = "patrol" }]
)");
  ASSERT_EQ(agents.agents.size(), 1u);
  const AgentSpec& agent = agents.agents[0];
  EXPECT_EQ(agent.kind, AgentKind::Predator);
  EXPECT_EQ(agent.position, glm::vec3(1.0f, 2.0f, 3.0f));
  EXPECT_FLOAT_EQ(agent.maxSpeed, 12.0f);
  EXPECT_FLOAT_EQ(agent.maxForce, 30.0f);
  EXPECT_FLOAT_EQ(agent.sight.viewDistance, 35.0f);
  EXPECT_NEAR(agent.sight.halfAngle, 3.14159265f / 4.0f, 1e-6f);
  EXPECT_FLOAT_EQ(agent.hearing.range, 45.0f);
  EXPECT_FLOAT_EQ(agent.hearing.loudSpeed, 5.0f);
  EXPECT_FLOAT_EQ(agent.replanInterval, 0.25f);
  EXPECT_EQ(agent.initial, 1u);
  ASSERT_EQ(agent.states.size(), 3u);
  const StateSpec& patrol = agent.states[0];
  EXPECT_EQ(patrol.action, Action::Patrol);
  EXPECT_EQ(patrol.speed, 6.0f);
  EXPECT_EQ(patrol.waypoints.size(), 2u);
  EXPECT_FLOAT_EQ(patrol.arrivalRadius, 1.5f);
  ASSERT_EQ(patrol.transitions.size(), 2u);
  EXPECT_EQ(patrol.transitions[0].when, Condition::Sees);
  EXPECT_EQ(patrol.transitions[0].group, 1u);
  EXPECT_EQ(patrol.transitions[0].to, 1u);
  EXPECT_FALSE(patrol.transitions[1].group.has_value());
  const StateSpec& hunt = agent.states[1];
  EXPECT_EQ(hunt.action, Action::Pursue);
  EXPECT_EQ(hunt.speed, 12.0f);  // the agent's max_speed
  EXPECT_FLOAT_EQ(hunt.maxPrediction, 1.0f);
  EXPECT_FALSE(hunt.point.has_value());
  ASSERT_EQ(hunt.transitions.size(), 2u);
  EXPECT_EQ(hunt.transitions[0].when, Condition::Near);
  EXPECT_FLOAT_EQ(hunt.transitions[0].distance, 3.0f);
  EXPECT_EQ(hunt.transitions[0].to, 2u);
  EXPECT_EQ(hunt.transitions[1].when, Condition::LostFor);
  EXPECT_FLOAT_EQ(hunt.transitions[1].seconds, 2.0f);
  EXPECT_EQ(agent.states[2].action, Action::Rest);
  EXPECT_FALSE(agent.states[2].speed.has_value());
  EXPECT_EQ(agents.navigation, nullptr);
  EXPECT_EQ(agents.walls, nullptr);
}

TEST(SceneAgentsKeys, DefaultsAndTheFirstStateAsInitial) {
  const SceneAgents agents = load(kWorld + R"(
[[agents]]
kind = "leader"
group = 1
position = [0, 0, 0]
[[agents.states]]
name = "roam"
action = "wander"
[[agents.states]]
name = "stop"
action = "rest"
)");
  const AgentSpec& agent = agents.agents.at(0);
  EXPECT_EQ(agent.group, 1u);
  EXPECT_EQ(agent.initial, 0u);
  EXPECT_FLOAT_EQ(agent.maxSpeed, 10.0f);
  EXPECT_FLOAT_EQ(agent.maxForce, 20.0f);
  EXPECT_FLOAT_EQ(agent.sight.viewDistance, 40.0f);
  EXPECT_FLOAT_EQ(agent.hearing.range, 60.0f);
  EXPECT_FLOAT_EQ(agent.hearing.loudSpeed, 6.0f);
  EXPECT_FLOAT_EQ(agent.replanInterval, 0.5f);
  EXPECT_EQ(agent.states[0].action, Action::Wander);
}

TEST(SceneAgentsKeys, TwoDimensionalScenesDropHeights) {
  const SceneAgents agents = load(R"(
[world]
dims = 2
[[agents]]
kind = "predator"
position = [1, 7, 2]
[[agents.states]]
name = "go"
action = "seek"
point = [5, 3, 5]
)");
  EXPECT_EQ(agents.agents.at(0).position, glm::vec3(1.0f, 0.0f, 2.0f));
  EXPECT_EQ(agents.agents.at(0).states.at(0).point, glm::vec3(5.0f, 0.0f, 5.0f));
}

TEST(SceneAgentsKeys, NoAgentsNoDirector) {
  const sim::Scene scene = sim::parseScene(kWorld, kSource, kSceneSections);
  EXPECT_TRUE(loadSceneAgents(scene).agents.empty());
  EXPECT_FALSE(AgentDirector::fromScene(scene).has_value());
  // A scene built in code has no document, hence no agents.
  EXPECT_FALSE(AgentDirector::fromScene(sim::Scene{}).has_value());
}

// ---- Grids ----

TEST(SceneAgentsGrids, ObstaclesAreRasterisedWithClearance) {
  const SceneAgents agents = load(kWorld + R"(
[[obstacles]]
center = [0, 5, 0]
radius = 5
[navigation]
cell_size = 2
clearance = 1
connect = 4
)");
  ASSERT_NE(agents.navigation, nullptr);
  const NavigationGrid& grid = *agents.navigation;
  EXPECT_EQ(grid.connectivity, Connectivity::Four);
  EXPECT_EQ(grid.map.width(), 51);  // 100 / 2 + 1: the far edges lie on the grid too
  EXPECT_EQ(grid.placement.origin, glm::vec2(-50.0f, -50.0f));
  const GridPlacement& placement = grid.placement;
  // Blocked within radius + clearance (6) of the centre, whatever the height; free beyond.
  EXPECT_FALSE(grid.map.passable(cellAt(placement, glm::vec3(0.0f, 0.0f, 0.0f))));
  EXPECT_FALSE(grid.map.passable(cellAt(placement, glm::vec3(5.5f, 0.0f, 0.5f))));
  EXPECT_TRUE(grid.map.passable(cellAt(placement, glm::vec3(8.5f, 0.0f, 0.5f))));
  EXPECT_TRUE(grid.map.passable(cellAt(placement, glm::vec3(49.9f, 0.0f, 49.9f))));
  // Every cell that overlaps the inflated circle is blocked: a point within 6 units never lies on a
  // free cell.
  for (float x = -7.0f; x <= 7.0f; x += 0.25f) {
    for (float z = -7.0f; z <= 7.0f; z += 0.25f) {
      if (x * x + z * z < 35.9f) {
        ASSERT_FALSE(grid.map.passable(cellAt(placement, glm::vec3(x, 0.0f, z)))) << x << ", " << z;
      }
    }
  }
  EXPECT_EQ(agents.walls, nullptr);
}

TEST(SceneAgentsGrids, TheHeuristicDefaultsToTheTightestAdmissibleAndCanBeChosen) {
  const auto navigation = [](const std::string& keys) {
    return *load(kWorld + "[navigation]\ncell_size = 2\n" + keys).navigation;
  };
  EXPECT_EQ(navigation("").heuristic, Heuristic::Octile);
  EXPECT_EQ(navigation("connect = 4\n").heuristic, Heuristic::Manhattan);
  EXPECT_EQ(navigation("connect = 4\nheuristic = \"octile\"\n").heuristic, Heuristic::Octile);
  const NavigationGrid euclidean = navigation("heuristic = \"euclidean\"\n");
  EXPECT_EQ(euclidean.heuristic, Heuristic::Euclidean);
  // The agents' searches take both from the scene.
  EXPECT_EQ(euclidean.searchOptions().heuristic, Heuristic::Euclidean);
  EXPECT_EQ(euclidean.searchOptions().connectivity, Connectivity::Eight);
  EXPECT_EQ(navigation("connect = 4\nheuristic = \"euclidean\"\n").searchOptions().connectivity,
            Connectivity::Four);
}

TEST(SceneAgentsGrids, AMapCoversTheWorld) {
  sim::ModelParams model;
  model.worldMin = glm::vec3(-100.0f, -10.0f, -50.0f);
  model.worldMax = glm::vec3(100.0f, 10.0f, 50.0f);
  const GridMap map(10, 10);
  // 200 x 100 world, 10 x 10 map: 20-unit cells, the map reaching 50 units past the world in z.
  const GridPlacement placement = coveringPlacement(model, map);
  EXPECT_NEAR(placement.cellSize, 20.0f, 1e-3f);
  EXPECT_NEAR(placement.origin.x, -100.0f, 1e-2f);
  EXPECT_NEAR(placement.origin.y, -100.0f, 1e-2f);
  for (const glm::vec3 corner : {model.worldMin, model.worldMax, glm::vec3(100.0f, 0.0f, -50.0f)})
    EXPECT_TRUE(map.contains(cellAt(placement, corner)));
}

// ---- Errors ----

TEST(SceneAgentsErrors, UnknownActionNamesLineAndKey) {
  EXPECT_TRUE(rejects(kWorld + R"(
[[agents]]
kind = "predator"
position = [0, 0, 0]
[[agents.states]]
name = "idle"
action = "dance"
)",
                      13, "agents[0].states[0].action", "unknown word \"dance\""));
}

TEST(SceneAgentsErrors, TransitionToAMissingStateNamesLineAndKey) {
  EXPECT_TRUE(rejects(kWorld + R"(
[[agents]]
kind = "predator"
position = [0, 0, 0]
[[agents.states]]
name = "idle"
action = "rest"
[[agents.states.transitions]]
when = "timer"
seconds = 2
to = "hunt"
)",
                      17, "agents[0].states[0].transitions[0].to",
                      "no state named \"hunt\" (states: \"idle\")"));
}

TEST(SceneAgentsErrors, DuplicateStateNameNamesLineAndKey) {
  EXPECT_TRUE(rejects(kWorld + R"(
[[agents]]
kind = "predator"
position = [0, 0, 0]
[[agents.states]]
name = "idle"
action = "rest"
[[agents.states]]
name = "idle"
action = "wander"
)",
                      15, "agents[0].states[1].name", "duplicate state name \"idle\""));
}

TEST(SceneAgentsErrors, UnknownConditionAndKindAndKeys) {
  const std::string agent = kWorld + R"(
[[agents]]
kind = "predator"
position = [0, 0, 0]
[[agents.states]]
name = "idle"
action = "rest"
)";
  EXPECT_TRUE(rejects(agent + "transitions = [{ when = \"smells\", to = \"idle\" }]\n", 14,
                      "agents[0].states[0].transitions[0].when", "unknown word \"smells\""));
  // A key of another action is unknown here, the message lists the accepted ones.
  EXPECT_TRUE(rejects(agent + "waypoints = [[1, 0, 1]]\n", 14, "agents[0].states[0].waypoints",
                      "unknown key (accepted: name, action, transitions)"));
  // timer takes seconds, not distance.
  EXPECT_TRUE(rejects(agent + "transitions = [{ when = \"timer\", distance = 3, to = \"idle\" }]\n", 14,
                      "agents[0].states[0].transitions[0].seconds", "missing"));
  EXPECT_TRUE(
      rejects(kWorld + "[[agents]]\nkind = \"wolf\"\n", 8, "agents[0].kind", "unknown word \"wolf\""));
  // Predators lead no group.
  EXPECT_TRUE(rejects(kWorld + "[[agents]]\nkind = \"predator\"\ngroup = 0\nposition = [0, 0, 0]\n"
                               "[[agents.states]]\nname = \"idle\"\naction = \"rest\"\n",
                      9, "agents[0].group", "unknown key"));
}

TEST(SceneAgentsErrors, AgentLimits) {
  const auto leader = [](const std::string& keys) {
    return kWorld + "[[agents]]\nkind = \"leader\"\n" + keys +
           "[[agents.states]]\nname = \"lead\"\naction = \"patrol\"\nwaypoints = [[0, 0, 0]]\n";
  };
  EXPECT_TRUE(rejects(leader("position = [0, 0, 0]\n"), 7, "agents[0].group", "missing"));
  EXPECT_TRUE(
      rejects(leader("group = 2\nposition = [0, 0, 0]\n"), 9, "agents[0].group", "must be in [0, 1]"));
  EXPECT_TRUE(rejects(leader("group = 0\nposition = [0, 60, 0]\n"), 10, "agents[0].position",
                      "outside the world box"));
  EXPECT_TRUE(rejects(leader("group = 0\nposition = [0, 0, 0]\nmax_speed = 0\n"), 11, "agents[0].max_speed",
                      "must be above 0"));
  EXPECT_TRUE(rejects(leader("group = 0\nposition = [0, 0, 0]\nview_angle = 400\n"), 11,
                      "agents[0].view_angle", "(0, 360]"));
  EXPECT_TRUE(rejects(leader("group = 0\nposition = [0, 0, 0]\ninitial = \"sleep\"\n"), 11,
                      "agents[0].initial", "no state named \"sleep\""));
  EXPECT_TRUE(rejects(kWorld + "[[agents]]\nkind = \"leader\"\ngroup = 0\nposition = [0, 0, 0]\n", 7,
                      "agents[0].states", "missing"));
  EXPECT_TRUE(rejects(kWorld + "[[agents]]\nkind = \"leader\"\ngroup = 0\nposition = [0, 0, 0]\n"
                               "[[agents.states]]\nname = \"lead\"\naction = \"patrol\"\nspeed = 20\n"
                               "waypoints = [[0, 0, 0]]\n",
                      14, "agents[0].states[0].speed", "at most the agent's max_speed"));
  EXPECT_TRUE(rejects(kWorld + "[[agents]]\nkind = \"leader\"\ngroup = 0\nposition = [0, 0, 0]\n"
                               "[[agents.states]]\nname = \"lead\"\naction = \"patrol\"\n",
                      11, "agents[0].states[0].waypoints", "patrol needs at least one waypoint"));
}

TEST(SceneAgentsErrors, NavigationProblems) {
  EXPECT_TRUE(rejects(kWorld + "[navigation]\nconnect = 8\n", 7, "navigation.cell_size",
                      "needs map (a MovingAI file) or cell_size"));
  EXPECT_TRUE(rejects(kWorld + "[navigation]\ncell_size = 2\nconnect = 6\n", 9, "navigation.connect",
                      "must be 4 or 8"));
  EXPECT_TRUE(rejects(kWorld + "[navigation]\ncell_size = 2\nheuristic = \"manhattan\"\n", 9,
                      "navigation.heuristic", "manhattan overestimates with 8-connected moves"));
  EXPECT_TRUE(rejects(kWorld + "[navigation]\ncell_size = 2\nheuristic = \"chebyshev\"\n", 9,
                      "navigation.heuristic",
                      "unknown word \"chebyshev\" (accepted: \"manhattan\", \"octile\", \"euclidean\")"));
  EXPECT_TRUE(rejects(kWorld + "[navigation]\ncell_size = 0.001\n", 8, "navigation.cell_size", "too small"));
  EXPECT_TRUE(rejects(kWorld + "[navigation]\nmap = \"no-such.map\"\n", 8, "navigation.map",
                      "no such map file 'no-such.map' (tried "));
  // With a map the placement is automatic: cell_size is not accepted.
  const std::string map = std::string(MURMUR_MAPS_DIR) + "/maps/rooms-65-81.map";
  EXPECT_TRUE(rejects(kWorld + "[navigation]\nmap = \"" + map + "\"\ncell_size = 2\n", 9,
                      "navigation.cell_size", "unknown key (accepted: map, connect, heuristic)"));
  // Points must lie on free cells.
  EXPECT_TRUE(rejects(kWorld + R"(
[[obstacles]]
center = [0, 0, 0]
radius = 5
[navigation]
cell_size = 2
[[agents]]
kind = "predator"
position = [30, 0, 30]
[[agents.states]]
name = "go"
action = "patrol"
waypoints = [[30, 0, -30], [1, 0, 1]]
)",
                      19, "agents[0].states[0].waypoints",
                      "waypoint 1 (1, 0, 1) lies on a blocked navigation cell"));
}

TEST(SceneAgentsGrids, MapPathsAreRelativeToTheSceneFile) {
  // The same scene text, named as a file in the scenes directory, finds the map in the repository.
  const std::string text = kWorld + "[navigation]\nmap = \"../data/maps/rooms-65-81.map\"\n";
  const SceneAgents agents =
      loadSceneAgents(sim::parseScene(text, scenePath("relative.toml"), kSceneSections));
  ASSERT_NE(agents.navigation, nullptr);
  EXPECT_EQ(agents.navigation->map.width(), 65);
}

TEST(SceneAgentsGrids, MapPathsAreSearchedInTheDataDirectoriesAfterTheSceneFile) {
  const std::string text = kWorld + "[navigation]\nmap = \"maps/rooms-65-81.map\"\n";
  const sim::Scene scene = sim::parseScene(text, scenePath("copied.toml"), kSceneSections);
  const std::filesystem::path data(MURMUR_MAPS_DIR);
  const SceneAgents agents = loadSceneAgents(scene, {"/no/such/dir", data});
  ASSERT_NE(agents.navigation, nullptr);
  EXPECT_EQ(agents.navigation->map.width(), 65);
  // Not found anywhere: the error names every place tried, in order.
  try {
    loadSceneAgents(scene, {"/no/such/dir", "/nor/this"});
    FAIL() << "a missing map must be an error";
  } catch (const InputError& e) {
    const std::string message = e.what();
    const std::size_t beside =
        message.find((std::filesystem::path(scenePath("x")).parent_path() / "maps/rooms-65-81.map")
                         .lexically_normal()
                         .string());
    const std::size_t first = message.find("/no/such/dir/maps/rooms-65-81.map");
    const std::size_t second = message.find("/nor/this/maps/rooms-65-81.map");
    EXPECT_NE(beside, std::string::npos) << message;
    EXPECT_LT(beside, first) << message;
    EXPECT_NE(first, std::string::npos) << message;
    EXPECT_LT(first, second) << message;
    EXPECT_NE(second, std::string::npos) << message;
    EXPECT_NE(message.find("navigation.map"), std::string::npos) << message;
  }
}

// ---- [[groups]] target_agent: an agent by name is a chase or intercept group's target ----

const std::string kPlayer = R"(
[[agents]]
name = "player"
kind = "predator"
position = [5, 0, 5]
max_speed = 4
[[agents.states]]
name = "patrol"
action = "patrol"
waypoints = [[30, 0, 5], [30, 0, 30]]
)";

TEST(SceneAgentsGroups, TheNamedAgentIsTheGroupsTargetEveryStep) {
  const sim::Scene scene = sim::parseScene(
      kWorld + "[[groups]]\ngroup = 1\nrole = \"intercept\"\ntarget_agent = \"player\"\n" + kPlayer, kSource,
      kSceneSections);
  std::optional<AgentDirector> director = AgentDirector::fromScene(scene);
  ASSERT_TRUE(director);
  sim::StepInputs inputs = sim::staticInputs(scene, scene.groups);
  const std::vector<sim::GroupSummary> flock(scene.groups);
  for (int step = 0; step < 30; ++step) {
    director->update(1.0 / 60.0, flock, {}, inputs);
    EXPECT_EQ(inputs.steering[1].target, director->position(0));
    EXPECT_EQ(inputs.steering[1].targetVelocity, director->velocity(0));
  }
  EXPECT_GT(glm::length(inputs.steering[1].targetVelocity), 0.0f) << "the player patrols";
  EXPECT_EQ(inputs.steering[0].role, sim::GroupRole::Flock);
}

TEST(SceneAgentsGroups, UnknownAndDuplicateAgentNamesNameLineAndKey) {
  EXPECT_TRUE(
      rejects(kWorld + "[[groups]]\ngroup = 1\nrole = \"chase\"\ntarget_agent = \"ghost\"\n" + kPlayer, 10,
              "groups[0].target_agent", "no agent named \"ghost\""));
  EXPECT_TRUE(rejects(kWorld + kPlayer + kPlayer, 19, "agents[1].name", "duplicate agent name \"player\""));
}

}  // namespace
}  // namespace murmur::ai
