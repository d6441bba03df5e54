// scenes/lab.toml, the flocking lab, on the cpu backend through the library world: 2,000 steps stay
// finite, a chaser or interceptor reaches the player, emergent leaders appear in both flocks, two runs
// are equal (the player's scripted course is reproducible), and the panel's flocking switch reaches
// the step inputs and outlives a restart.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <initializer_list>
#include <limits>
#include <stdexcept>
#include <string>

#include <glm/vec3.hpp>

#include "ai/agents.hpp"
#include "sim/scene_loader.hpp"
#include "world/world.hpp"

namespace murmur::world {
namespace {

// A unit within this distance of the player (units, in the plane, across the seam) has reached it:
// about two boid lengths, well inside the perception radius of the "limited" view (4).
constexpr float kReachDistance = 2.0f;

WorldDescription lab() {
  return WorldDescription{sim::loadScene(MURMUR_SOURCE_DIR "/scenes/lab.toml"), "", {}};
}

// The distance in the x-z plane by the minimum image of the lab's wrapped world.
float wrappedDistance(const sim::ModelParams& model, const glm::vec3& a, const glm::vec3& b) {
  const glm::vec3 size = model.worldSize();
  float sum = 0.0f;
  for (const int axis : {0, 2}) {
    float d = std::abs(a[axis] - b[axis]);
    d = std::min(d, size[axis] - d);
    sum += d * d;
  }
  return std::sqrt(sum);
}

TEST(LabScene, TwoThousandStepsStayFiniteAndAUnitReachesThePlayer) {
  World world(lab(), makeBackend("cpu"));
  ASSERT_NE(world.director(), nullptr);
  ASSERT_EQ(world.director()->kind(0), ai::AgentKind::Player);
  EXPECT_EQ(world.scene().model.dims, 2);
  EXPECT_EQ(world.scene().model.boundary, sim::Boundary::Wrap);
  float nearest = std::numeric_limits<float>::infinity();
  int reachedAt = -1;
  bool leaders[2] = {false, false};
  for (int step = 0; step < 2000; ++step) {
    world.tick();
    const sim::FlockState state = world.backend().state();
    const glm::vec3 player = world.director()->position(0);
    ASSERT_TRUE(std::isfinite(player.x) && std::isfinite(player.z)) << "step " << step;
    for (std::size_t i = 0; i < state.size(); ++i) {
      ASSERT_TRUE(std::isfinite(state.position[i].x) && std::isfinite(state.position[i].z) &&
                  std::isfinite(state.velocity[i].x) && std::isfinite(state.velocity[i].z))
          << "boid " << i << ", step " << step;
      if (state.leader[i]) leaders[state.group[i]] = true;
      const float distance = wrappedDistance(world.scene().model, state.position[i], player);
      if (distance < nearest) nearest = distance;
      if (distance < kReachDistance && reachedAt < 0) reachedAt = step;
    }
  }
  EXPECT_GE(reachedAt, 0) << "closest approach " << nearest;
  EXPECT_TRUE(leaders[0]) << "no emergent leader among the chasers";
  EXPECT_TRUE(leaders[1]) << "no emergent leader among the interceptors";
}

TEST(LabScene, TwoRunsAreEqual) {
  World first(lab(), makeBackend("cpu")), second(lab(), makeBackend("cpu"));
  for (int step = 0; step < 300; ++step) {
    first.tick();
    second.tick();
  }
  EXPECT_EQ(first.director()->position(0), second.director()->position(0));
  EXPECT_EQ(first.backend().state().position, second.backend().state().position);
  EXPECT_GT(first.director()->position(0).x, first.scene().model.worldMin.x + 20.0f) << "the player moved along its course";
}

TEST(LabScene, TheFlockingSwitchReachesTheStepInputsAndOutlivesARestart) {
  World world(lab(), makeBackend("cpu"));
  ASSERT_TRUE(world.inputs().steering[0].flocking);
  world.setGroupFlocking(0, false);
  EXPECT_FALSE(world.inputs().steering[0].flocking);
  EXPECT_TRUE(world.inputs().steering[1].flocking);
  world.tick();
  world.start();
  EXPECT_FALSE(world.inputs().steering[0].flocking) << "kept by the scene";
  EXPECT_EQ(world.inputs().steering[0].role, sim::GroupRole::Chase);
  EXPECT_THROW(world.setGroupFlocking(2, false), std::out_of_range);
}

}  // namespace
}  // namespace murmur::world
