// scenes/maze2d.toml: the leader crosses the rooms map along its A* path to a waypoint it cannot see
// from the start, without ever standing on a blocked cell.
#include <cstdint>
#include <optional>
#include <vector>

#include <gtest/gtest.h>
#include <glm/geometric.hpp>

#include "ai/director.hpp"
#include "ai/nav.hpp"
#include "ai/scene_agents.hpp"
#include "sim/builders.hpp"
#include "sim/scene_loader.hpp"

namespace murmur::ai {
namespace {

TEST(MazeScene, LeaderCrossesTheMapAlongItsPathWithoutEnteringAWall) {
  const sim::Scene scene = sim::loadScene(MURMUR_SOURCE_DIR "/scenes/maze2d.toml", kSceneSections);
  const SceneAgents sceneAgents = loadSceneAgents(scene, {MURMUR_MAPS_DIR});
  ASSERT_EQ(sceneAgents.agents.size(), 1u);
  const std::vector<glm::vec3> waypoints = sceneAgents.agents[0].states.at(0).waypoints;
  ASSERT_GE(waypoints.size(), 4u);
  // The far waypoint: across the map, out of sight of the start.
  const glm::vec3 far = waypoints[3];
  std::optional<AgentDirector> director = AgentDirector::create(scene, sceneAgents);
  ASSERT_TRUE(director.has_value());
  const NavigationGrid& grid = *director->navigation();
  ASSERT_TRUE(grid.wallsFromMap);
  EXPECT_FALSE(segmentClear(grid.map, grid.placement, director->position(0), far));
  EXPECT_GT(glm::length(far - director->position(0)), 150.0f);

  sim::StepInputs inputs = sim::staticInputs(scene, scene.groups);
  const double dt = scene.model.dt;
  std::size_t longestPath = 0;
  bool reached = false;
  int step = 0;
  // Well over the time the route takes at the leader's 5 units/s (a few hundred units of path).
  for (; step < int(300.0 / dt) && !reached; ++step) {
    director->update(dt, {}, {}, inputs);
    const glm::vec3 p = director->position(0);
    ASSERT_TRUE(grid.map.passable(cellAt(grid.placement, p)))
        << "step " << step << ": (" << p.x << ", " << p.z << ")";
    // The leader is the group's goal.
    ASSERT_TRUE(inputs.goal.at(0).has_value());
    EXPECT_EQ(*inputs.goal[0], p);
    const std::vector<glm::vec3> path = director->path(0);
    longestPath = std::max(longestPath, path.size());
    for (const glm::vec3& point : path) ASSERT_TRUE(grid.map.passable(cellAt(grid.placement, point)));
    reached = glm::length(p - far) < 3.0f;
  }
  EXPECT_TRUE(reached) << "after " << double(step) * dt << " s the leader is at (" << director->position(0).x
                       << ", " << director->position(0).z << ")";
  // It got there by A* paths with turns, not in a straight line.
  EXPECT_GE(longestPath, 4u);
}

}  // namespace
}  // namespace murmur::ai
