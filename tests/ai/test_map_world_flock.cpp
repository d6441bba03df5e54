// The map world end to end on the CPU reference: scenes/maze2d.toml's flock follows its path-finding
// leader through den312d while the model's wall term keeps the boids out of the walls.
#include <gtest/gtest.h>

#include <cmath>

#include <glm/geometric.hpp>

#include "ai/director.hpp"
#include "ai/scene_agents.hpp"
#include "sim/builders.hpp"
#include "sim/cpu_backend.hpp"
#include "sim/metrics.hpp"
#include "sim/scene_loader.hpp"

namespace murmur {
namespace {

struct MazeRun {
  double centroidTravel = 0.0;  // how far the flock's centroid moved, units
  std::size_t boidSteps = 0;
  std::size_t insideWalls = 0;
  std::size_t nonFinite = 0;
};

MazeRun runMaze(int steps) {
  sim::Scene scene = sim::loadScene(MURMUR_SOURCE_DIR "/scenes/maze2d.toml");
  ai::SceneAgents agents = ai::loadSceneAgents(scene, {MURMUR_DATA_DIR});
  const sim::WallGrid& walls = *agents.walls;
  sim::FlockState state = sim::spawnFlock(scene, &walls);
  sim::StepInputs inputs = sim::staticInputs(scene, scene.groups);
  inputs.walls = agents.walls;
  std::optional<ai::AgentDirector> director = ai::AgentDirector::create(scene, agents);
  sim::CpuSimulator simulator(sim::NeighbourSearch::Grid);
  MazeRun run;
  for (const glm::vec3& p : state.position) run.insideWalls += walls.blockedAt(p);
  EXPECT_EQ(run.insideWalls, 0u) << "spawned inside a wall";
  const glm::vec3 start = sim::summarizeGroups(state)[0].centroid;
  for (int s = 0; s < steps; ++s) {
    if (director)
      director->update(scene.model.dt, sim::summarizeGroups(state),
                       simulator.nearestBoids(state, director->probes(), ai::AgentDirector::kPerceivedBoids), inputs);
    simulator.step(scene.model, inputs, state);
    for (std::size_t i = 0; i < state.size(); ++i) {
      run.insideWalls += walls.blockedAt(state.position[i]);
      run.nonFinite += !std::isfinite(state.position[i].x + state.position[i].z);
    }
    run.boidSteps += state.size();
  }
  run.centroidTravel = glm::length(sim::summarizeGroups(state)[0].centroid - start);
  return run;
}

// Walls are solid (model step 15) and steered around (step 6b): no boid ever ends a step inside a
// wall cell, nothing goes non-finite, and the flock travels with its leader.
TEST(MapWorld, FlockFollowsItsLeaderAndNeverEntersAWall) {
  const MazeRun run = runMaze(1200);
  EXPECT_EQ(run.insideWalls, 0u);
  EXPECT_EQ(run.nonFinite, 0u);
  EXPECT_GT(run.centroidTravel, 30.0);
}

}  // namespace
}  // namespace murmur
