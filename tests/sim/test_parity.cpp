// The one-step parity analysis behind `murmur compare`: identical results pass, a perturbed boid
// fails unless a neighbour sits on a perception edge, and the edge detector finds the edges.
#include <gtest/gtest.h>

#include "sim/builders.hpp"
#include "sim/cpu_simulator.hpp"
#include "sim/parity.hpp"

namespace murmur::sim {
namespace {

struct Stepped {
  Scene scene;
  StepInputs inputs;
  FlockState initial, next;
};

Stepped stepOnce(std::uint32_t count) {
  Stepped s{fixedNeighbourScene(count, 20.0f), {}, {}, {}};
  s.inputs = staticInputs(s.scene, 1);
  s.initial = spawnFlock(s.scene);
  s.next = s.initial;
  CpuSimulator(NeighbourSearch::Grid).step(s.scene.model, s.inputs, s.next);
  return s;
}

TEST(Parity, IdenticalStatesPass) {
  const Stepped s = stepOnce(500);
  const ParityReport report = compareOneStep(s.scene.model, s.inputs, s.initial, s.next, s.next);
  EXPECT_TRUE(report.passed({}));
  EXPECT_EQ(report.maxPositionError, 0.0);
  EXPECT_EQ(report.overTolerance, 0u);
}

TEST(Parity, AnUnexplainedDifferenceFails) {
  const Stepped s = stepOnce(500);
  FlockState candidate = s.next;
  // Find a boid with no neighbour near any edge, then move it by 1e-3 (over the 1e-4 tolerance).
  std::uint32_t victim = 0;
  while (hasNeighbourOnPerceptionEdge(s.scene.model, s.initial, victim, 1e-3)) ++victim;
  candidate.position[victim].x += 1e-3f;
  const ParityReport report = compareOneStep(s.scene.model, s.inputs, s.initial, s.next, candidate);
  EXPECT_FALSE(report.passed({}));
  ASSERT_EQ(report.unexplained.size(), 1u);
  EXPECT_EQ(report.unexplained[0], victim);
  EXPECT_NEAR(report.maxPositionError, 1e-3, 1e-5);
  // A NaN is never explained.
  candidate = s.next;
  candidate.velocity[3].y = NAN;
  EXPECT_FALSE(compareOneStep(s.scene.model, s.inputs, s.initial, s.next, candidate).passed({}));
}

TEST(Parity, EdgeDetectorFindsRadiusAndConeEdges) {
  Scene scene = fixedNeighbourScene(10, 1.0f);
  scene.model.fovDegrees = 270.0f;
  FlockState state;
  state.groups = 2;
  state.position = {{0, 0, 0}, {0, 0, 0}};
  state.velocity = {{1, 0, 0}, {1, 0, 0}};
  state.group = {0, 1};
  auto edgeWith = [&](glm::vec3 other) {
    state.position[1] = other;
    return hasNeighbourOnPerceptionEdge(scene.model, state, 0, 1e-4);
  };
  EXPECT_TRUE(edgeWith({5.00001f, 0, 0}));   // on R
  EXPECT_TRUE(edgeWith({0, 0, -2.00002f}));  // on Rs
  EXPECT_FALSE(edgeWith({3, 0, 0}));         // well inside, straight ahead
  EXPECT_FALSE(edgeWith({6, 0, 0}));         // well outside
  const float c = -0.70710678f * 3.0f;       // 135 degrees: the edge of a 270-degree view
  EXPECT_TRUE(edgeWith({c, 0, 3.0f * 0.70710678f}));
}

}  // namespace
}  // namespace murmur::sim
