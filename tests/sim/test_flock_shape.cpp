// sim::measureFlockShape on states whose flocks, polarization and principal extents are known by hand.
#include <gtest/gtest.h>

#include <cmath>

#include "sim/metrics.hpp"

namespace murmur::sim {
namespace {

FlockState flockOf(std::initializer_list<std::pair<glm::vec3, glm::vec3>> boids) {
  FlockState state;
  for (const auto& [p, v] : boids) {
    state.position.push_back(p);
    state.velocity.push_back(v);
    state.group.push_back(0);
    state.leader.push_back(0);
  }
  return state;
}

TEST(FlockShape, ALineOfThreeAndALoneBoid) {
  ModelParams params;  // R = 5
  // Three boids 4 apart along x (each pair of neighbours within R, the ends 8 apart: connected
  // through the middle one), headings +x, +x and +z; a fourth boid 50 away.
  const FlockState state = flockOf({{{-4, 0, 0}, {3, 0, 0}},
                                    {{0, 0, 0}, {5, 0, 0}},
                                    {{4, 0, 0}, {0, 0, 2}},
                                    {{0, 0, 50}, {1, 0, 0}}});
  const FlockShape shape = measureFlockShape(params, state);
  EXPECT_EQ(shape.flocks, 2u);
  EXPECT_EQ(shape.largest, 3u);
  EXPECT_DOUBLE_EQ(shape.largestFraction, 0.75);
  // |(2, 0, 1) / 3| = sqrt(5) / 3.
  EXPECT_NEAR(shape.polarization, std::sqrt(5.0) / 3.0, 1e-12);
  // Variance along x: (16 + 0 + 16) / 3; none across.
  EXPECT_NEAR(shape.extents.x, std::sqrt(32.0 / 3.0), 1e-9);
  EXPECT_NEAR(shape.extents.y, 0.0, 1e-6);
  EXPECT_NEAR(shape.extents.z, 0.0, 1e-6);
  EXPECT_NEAR(shape.thinness, 0.0, 1e-6);
}

TEST(FlockShape, ATiltedRectangleHasItsSidesAsExtents) {
  ModelParams params;
  params.perceptionRadius = 3.0f;
  // A 2 x 1 grid of points 2 apart, rotated 45 degrees about y: principal standard deviations
  // sqrt(mean of squares) of the coordinates along each side, whatever the rotation.
  FlockState state;
  const float c = std::sqrt(0.5f);
  for (int i = -2; i <= 2; ++i)
    for (int j = -1; j <= 1; ++j) {
      const float u = 2.0f * float(i), w = 2.0f * float(j);
      state.position.push_back({c * u - c * w, 0.0f, c * u + c * w});
      state.velocity.push_back({1, 0, 0});
      state.group.push_back(0);
      state.leader.push_back(0);
    }
  const FlockShape shape = measureFlockShape(params, state);
  EXPECT_EQ(shape.flocks, 1u);
  EXPECT_DOUBLE_EQ(shape.polarization, 1.0);
  EXPECT_NEAR(shape.extents.x, std::sqrt(8.0), 1e-5);             // (16 + 4 + 0 + 4 + 16) / 5
  EXPECT_NEAR(shape.extents.y, std::sqrt(8.0 / 3.0), 1e-5);       // (4 + 0 + 4) / 3
  EXPECT_NEAR(shape.extents.z, 0.0, 1e-5);
}

}  // namespace
}  // namespace murmur::sim
