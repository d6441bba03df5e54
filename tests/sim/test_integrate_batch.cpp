// sim::integrateBatch (from sim::weightedForce) against sim::integrate, boid by boid, bit for bit, on every
// instruction set this machine runs: forces that the clamp cuts and that it leaves, velocities above the
// speed limit, below the minimum and (near) zero, positions past every wall of a contained world and across
// every seam of a wrapped one, groups of each role and thrust, non-finite forces, in 2D and 3D, and batches
// from one boid to more than a vector holds.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <limits>
#include <ostream>
#include <random>
#include <string>
#include <vector>

#include "sim/integrate_batch.hpp"
#include "sim/neighbour_sweep.hpp"

namespace murmur::sim {
namespace {

struct Case {
  const char* name;
  int dims;
  Boundary boundary;
};
// How gtest lists a case (ctest -N, failures): by name, not its bytes.
void PrintTo(const Case& world, std::ostream* out) { *out << world.name; }

class IntegrateBatch : public ::testing::TestWithParam<Case> {};

// Bytes, not values: -0 against +0, or two NaNs, must match too.
bool sameBytes(glm::vec3 a, glm::vec3 b) {
  return std::memcmp(&a, &b, sizeof a) == 0;
}

TEST_P(IntegrateBatch, EveryLaneGivesTheScalarIntegrationsBytes) {
  const Case& c = GetParam();
  ModelParams params;
  params.dims = c.dims;
  params.boundary = c.boundary;
  params.mass = 1.7f;  // the default 1 would hide a division made as a multiplication
  params.dt = 0.05f;
  params.weights.flee = 1.3f;
  params.weights.roost = 0.6f;
  StepInputs inputs;
  inputs.steering = {
      {GroupRole::Flock}, {GroupRole::Chase, true, 1.5f, 2.0f}, {GroupRole::Intercept, false, 0.7f, 0.5f}};
  const PackedInputs packed = packInputs(params, inputs, 3);
  const StepContext ctx = makeStepContext(params, packed);
  ASSERT_TRUE(integrateBatchServes(ctx));

  std::mt19937 rng(7);
  const auto uniform = [&](float lo, float hi) { return std::uniform_real_distribution<float>(lo, hi)(rng); };
  const auto vec = [&](float scale) {
    return glm::vec3(uniform(-scale, scale), uniform(-scale, scale), uniform(-scale, scale));
  };
  const glm::vec3 lo = params.worldMin, hi = params.worldMax;
  std::vector<BoidView> selves;
  std::vector<Forces> forces;
  for (std::uint32_t i = 0; i < 400; ++i) {
    BoidView self;
    // Inside, and a few steps' move past each wall or seam.
    self.position = glm::vec3(uniform(lo.x - 2.0f, hi.x + 2.0f), uniform(lo.y - 2.0f, hi.y + 2.0f),
                              uniform(lo.z - 2.0f, hi.z + 2.0f));
    if (i % 5 == 0) self.position.x = (i % 10 == 0 ? lo.x : hi.x) + uniform(-0.5f, 0.5f);
    // Above the speed limit, zero, below kEps, below the minimum speed, or in between.
    const int speedCase = static_cast<int>(i % 6);
    self.velocity = speedCase == 0   ? vec(60.0f)
                    : speedCase == 1 ? glm::vec3(0.0f)
                    : speedCase == 2 ? vec(1e-7f)
                    : speedCase == 3 ? glm::vec3(0.3f, -0.2f, 0.1f)
                                     : vec(12.0f);
    if (c.dims == 2) self.position.y = self.velocity.y = 0.0f;
    self.heading = heading(self.velocity);
    self.id = i;
    self.group = i % 3;
    Forces f;
    const float scale = i % 4 == 0 ? 500.0f : 2.0f;  // the clamp cuts, and leaves
    f.separation = vec(scale);
    f.alignment = vec(scale);
    f.cohesion = vec(scale);
    f.avoidance = i % 3 == 0 ? vec(scale) : glm::vec3(-0.0f);
    f.bounds = vec(scale);
    f.goal = vec(scale);
    f.flee = vec(scale);
    f.cruise = vec(scale);
    f.pursuit = vec(scale);
    f.roost = vec(scale);
    if (i == 101) f.cohesion.x = std::numeric_limits<float>::quiet_NaN();
    if (i == 202) f.flee.z = std::numeric_limits<float>::infinity();
    selves.push_back(self);
    forces.push_back(f);
  }
  std::vector<BoidUpdate> expected;
  std::vector<glm::vec3> weighted;
  for (std::size_t i = 0; i < selves.size(); ++i) {
    expected.push_back(integrate(ctx, selves[i], forces[i]));
    weighted.push_back(weightedForce(ctx, selves[i], forces[i]));
  }

  std::string ran;
  for (const SimdTarget& target : availableSimdTargets()) {
    forceSimdTarget(target.bits);
    for (const std::size_t batch : {std::size_t{1}, std::size_t{3}, kSweepBatch, std::size_t{37}}) {
      std::vector<glm::vec3> positions(selves.size()), velocities(selves.size());
      for (std::size_t first = 0; first < selves.size(); first += batch) {
        const std::size_t count = std::min(batch, selves.size() - first);
        integrateBatch(ctx, &selves[first], &weighted[first], count, &positions[first], &velocities[first]);
      }
      for (std::size_t i = 0; i < selves.size(); ++i) {
        EXPECT_TRUE(sameBytes(positions[i], expected[i].position))
            << target.name << " batch " << batch << " boid " << i << ": position " << positions[i].x << " "
            << positions[i].y << " " << positions[i].z << " against " << expected[i].position.x << " "
            << expected[i].position.y << " " << expected[i].position.z;
        EXPECT_TRUE(sameBytes(velocities[i], expected[i].velocity))
            << target.name << " batch " << batch << " boid " << i << ": velocity " << velocities[i].x << " "
            << velocities[i].y << " " << velocities[i].z << " against " << expected[i].velocity.x << " "
            << expected[i].velocity.y << " " << expected[i].velocity.z;
      }
    }
    ran += " " + target.name;
  }
  forceSimdTarget(0);
  std::printf("[ SIMD     ] %s: ran%s\n", c.name, ran.c_str());
}

INSTANTIATE_TEST_SUITE_P(
    Worlds, IntegrateBatch,
    ::testing::Values(Case{"contain3d", 3, Boundary::Contain}, Case{"wrap3d", 3, Boundary::Wrap},
                      Case{"contain2d", 2, Boundary::Contain}, Case{"wrap2d", 2, Boundary::Wrap}),
    [](const ::testing::TestParamInfo<Case>& world) { return std::string(world.param.name); });

}  // namespace
}  // namespace murmur::sim
