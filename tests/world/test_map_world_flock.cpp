// The map world end to end on the CPU reference: scenes/maze2d.toml's flock follows its path-finding
// leader through the rooms map while the model's wall term keeps the boids out of the walls, the world
// (world/world.hpp) doing the hookup of the map's walls to the step.
#include <algorithm>
#include <gtest/gtest.h>

#include <cmath>

#include <glm/geometric.hpp>

#include "app/scene_sections.hpp"
#include "sim/metrics.hpp"
#include "sim/scene_loader.hpp"
#include "world/world.hpp"

namespace murmur {
namespace {

struct MazeRun {
  double centroidTravel = 0.0;  // how far the flock's centroid got from where it started, units (max over the run)
  std::size_t boidSteps = 0;
  std::size_t insideWalls = 0;
  std::size_t nonFinite = 0;
};

MazeRun runMaze(int steps) {
  world::World world(
      {sim::loadScene(MURMUR_SOURCE_DIR "/scenes/maze2d.toml", app::kSceneSections), "", {MURMUR_MAPS_DIR}},
      world::makeBackend("cpu"));
  EXPECT_NE(world.director(), nullptr);
  const std::shared_ptr<const sim::WallGrid> walls = world.inputs().walls;
  if (walls == nullptr) {
    ADD_FAILURE() << "the map's walls are not in the step inputs";
    return {};
  }
  MazeRun run;
  for (const glm::vec3& p : world.initial().position) run.insideWalls += walls->blockedAt(p);
  EXPECT_EQ(run.insideWalls, 0u) << "spawned inside a wall";
  const glm::vec3 start = sim::summarizeGroups(world.initial())[0].centroid;
  sim::FlockState state;
  for (int s = 0; s < steps; ++s) {
    world.tick();
    EXPECT_EQ(world.inputs().walls, walls) << "step " << s;
    state = world.backend().state();
    for (std::size_t i = 0; i < state.size(); ++i) {
      run.insideWalls += walls->blockedAt(state.position[i]);
      run.nonFinite += !std::isfinite(state.position[i].x + state.position[i].z);
    }
    run.boidSteps += state.size();
    // The largest distance, not the last: the leader's round brings it back towards the start.
    run.centroidTravel = std::max(run.centroidTravel, double(glm::length(sim::summarizeGroups(state)[0].centroid - start)));
  }
  return run;
}

// Walls are solid (model step 15) and steered around (step 6b): no boid ever ends a step inside a
// wall cell, nothing goes non-finite, and the flock travels with its leader.
TEST(MapWorld, FlockFollowsItsLeaderAndNeverEntersAWall) {
  const MazeRun run = runMaze(2400);
  EXPECT_EQ(run.insideWalls, 0u);
  EXPECT_EQ(run.nonFinite, 0u);
  EXPECT_GT(run.centroidTravel, 30.0);
}

}  // namespace
}  // namespace murmur
