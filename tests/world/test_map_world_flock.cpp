// The map world end to end on the CPU reference: scenes/maze2d.toml's flock follows its path-finding
// leader through the rooms map while the model's wall term keeps the boids out of the walls, the world
// (world/world.hpp) doing the hookup of the map's walls to the step.
#include <gtest/gtest.h>
#include <algorithm>

#include <cmath>
#include <cstdio>
#include <vector>

#include <glm/geometric.hpp>

#include "session/scene_sections.hpp"
#include "sim/metrics.hpp"
#include "sim/scene_loader.hpp"
#include "world/world.hpp"

namespace murmur {
namespace {

struct MazeRun {
  double centroidTravel =
      0.0;  // how far the flock's centroid got from where it started, units (max over the run)
  std::size_t boidSteps = 0;
  std::size_t insideWalls = 0;
  std::size_t nonFinite = 0;
  // At each sample (every kSampleEvery steps from kSettleSteps on): the share of the boids within
  // kOnPathCells cells of the path the leader took over the last kPathSteps steps (where it is now
  // included): a flock strung out behind its leader, not clumps spread over the map.
  std::vector<double> onLeadersPath;
  std::vector<double> largestFlock;  // the share of the boids in the largest flock (connected at R)
};

constexpr int kSettleSteps = 600, kSampleEvery = 300, kPathSteps = 2400;
constexpr float kOnPathCells = 5.0f;

MazeRun runMaze(int steps) {
  world::World world({sim::loadScene(MURMUR_SOURCE_DIR "/scenes/maze2d.toml", session::kSceneSections),
                      "",
                      {MURMUR_MAPS_DIR}},
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
  std::vector<glm::vec3> leaderPath;  // where the leader was, step by step
  for (int s = 0; s < steps; ++s) {
    world.tick();
    leaderPath.push_back(world.director()->position(0));
    EXPECT_EQ(world.inputs().walls, walls) << "step " << s;
    state = world.backend().state();
    for (std::size_t i = 0; i < state.size(); ++i) {
      run.insideWalls += walls->blockedAt(state.position[i]);
      run.nonFinite += !std::isfinite(state.position[i].x + state.position[i].z);
    }
    run.boidSteps += state.size();
    // The largest distance, not the last: the leader's round brings it back towards the start.
    run.centroidTravel =
        std::max(run.centroidTravel, double(glm::length(sim::summarizeGroups(state)[0].centroid - start)));
    if (s + 1 >= kSettleSteps && (s + 1) % kSampleEvery == 0) {
      const float reach = kOnPathCells * walls->cellSize;
      std::size_t near = 0;
      for (const glm::vec3& p : state.position) {
        bool found = false;
        for (std::size_t k = leaderPath.size() > kPathSteps ? leaderPath.size() - kPathSteps : 0;
             k < leaderPath.size() && !found; ++k)
          found = glm::distance(glm::vec2(p.x, p.z), glm::vec2(leaderPath[k].x, leaderPath[k].z)) <= reach;
        near += found;
      }
      run.onLeadersPath.push_back(double(near) / double(state.size()));
      run.largestFlock.push_back(sim::measureFlockShape(world.scene().model, state).largestFraction);
    }
  }
  return run;
}

// Walls are solid (model step 15) and steered around (step 6b): no boid ever ends a step inside a
// wall cell, nothing goes non-finite, and the flock travels with its leader as one flock strung out
// along its path, not clumps spread over the map: at every sample from 10 s on, at least 90% of the
// boids are one flock (connected at R) and at least half within 5 cells of where the leader went
// (measured: 100% one flock; 100, 99, 86, 63, 55, 56, 66% on the path at 10, 15, ..., 40 s: where the
// leader turns through a door, the tail takes the next one). The flock starts together in the
// leader's room (sim.spawn_center) and every boid seeks the leader (goal.mode = "all").
TEST(MapWorld, FlockFollowsItsLeaderAndNeverEntersAWall) {
  const MazeRun run = runMaze(2400);
  EXPECT_EQ(run.insideWalls, 0u);
  EXPECT_EQ(run.nonFinite, 0u);
  EXPECT_GT(run.centroidTravel, 30.0);
  ASSERT_FALSE(run.onLeadersPath.empty());
  for (std::size_t k = 0; k < run.onLeadersPath.size(); ++k) {
    std::printf(
        "  t = %4.1f s: %.0f%% of the boids within %.0f cells of the leader's last %d s; largest flock "
        "%.0f%%\n",
        double(kSettleSteps + int(k) * kSampleEvery) / 60.0, 100.0 * run.onLeadersPath[k],
        double(kOnPathCells), kPathSteps / 60, 100.0 * run.largestFlock[k]);
    EXPECT_GE(run.onLeadersPath[k], 0.5) << "sample " << k;
    EXPECT_GE(run.largestFlock[k], 0.9) << "sample " << k;
  }
}

}  // namespace
}  // namespace murmur
