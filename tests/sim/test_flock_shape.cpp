// sim::measureFlockShape on states whose flocks, polarization and principal extents are known by hand.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <vector>

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
  const FlockState state = flockOf(
      {{{-4, 0, 0}, {3, 0, 0}}, {{0, 0, 0}, {5, 0, 0}}, {{4, 0, 0}, {0, 0, 2}}, {{0, 0, 50}, {1, 0, 0}}});
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
  EXPECT_NEAR(shape.extents.x, std::sqrt(8.0), 1e-5);        // (16 + 4 + 0 + 4 + 16) / 5
  EXPECT_NEAR(shape.extents.y, std::sqrt(8.0 / 3.0), 1e-5);  // (4 + 0 + 4) / 3
  EXPECT_NEAR(shape.extents.z, 0.0, 1e-5);
}

// A 5 x 3 sheet of points 2 apart, its normal tilted from the vertical (y) by `tilt` degrees about
// x, heading +x.
FlockState tiltedSheet(double tilt) {
  const double t = tilt * 3.14159265358979323846 / 180.0;
  const glm::dvec3 u(1, 0, 0), w(0, -std::sin(t), std::cos(t));
  FlockState state;
  for (int i = -2; i <= 2; ++i)
    for (int j = -1; j <= 1; ++j) {
      state.position.push_back(glm::vec3(2.0 * double(i) * u + 2.0 * double(j) * w));
      state.velocity.push_back({1, 0, 0});
      state.group.push_back(0);
      state.leader.push_back(0);
    }
  return state;
}

// The width is the middle extent over the longest; the thinnest axis's angle from the vertical is
// the sheet's tilt (its normal is the shortest axis), whichever way it tilts.
TEST(FlockShape, ASheetsThinnestAxisGivesItsTilt) {
  ModelParams params;
  params.perceptionRadius = 3.0f;
  for (const double tilt : {0.0, 30.0, -50.0, 90.0}) {
    const FlockShape shape = measureFlockShape(params, tiltedSheet(tilt));
    EXPECT_EQ(shape.flocks, 1u);
    EXPECT_NEAR(shape.widthRatio, std::sqrt(1.0 / 3.0), 1e-5) << tilt;  // sqrt(8 / 3) / sqrt(8)
    EXPECT_NEAR(shape.thinAxisTilt, std::abs(tilt), 1e-3) << tilt;
  }
}

// A rod has no single shortest axis: the one of the plane across it nearest the vertical, so a
// level rod's is vertical (0) and an upright rod's level (90).
TEST(FlockShape, ARodsThinnestAxisIsTheNearestVertical) {
  ModelParams params;  // R = 5
  FlockState level = flockOf({{{-4, 0, 0}, {1, 0, 0}}, {{0, 0, 0}, {1, 0, 0}}, {{4, 0, 0}, {1, 0, 0}}});
  EXPECT_NEAR(measureFlockShape(params, level).thinAxisTilt, 0.0, 1e-6);
  FlockState upright = flockOf({{{0, -4, 0}, {1, 0, 0}}, {{0, 0, 0}, {1, 0, 0}}, {{0, 4, 0}, {1, 0, 0}}});
  EXPECT_NEAR(measureFlockShape(params, upright).thinAxisTilt, 90.0, 1e-6);
  FlockState leaning = flockOf({{{-3, -3, 0}, {1, 0, 0}}, {{0, 0, 0}, {1, 0, 0}}, {{3, 3, 0}, {1, 0, 0}}});
  EXPECT_NEAR(measureFlockShape(params, leaning).thinAxisTilt, 45.0, 1e-6);
}

// The nearest neighbour's bearing: a file of boids one behind the other has every nearest straight
// ahead or behind (|cos| 1), a rank abreast has them beside (0), and a boid with nobody within R
// counts for neither.
TEST(FlockMetricsBearing, TheNearestNeighboursBearingToTheHeading) {
  ModelParams params;  // R = 5
  const FlockState file = flockOf({{{0, 0, 0}, {2, 0, 0}}, {{3, 0, 0}, {2, 0, 0}}, {{6, 0, 0}, {2, 0, 0}}});
  EXPECT_DOUBLE_EQ(measureFlock(params, file).nearestAlongHeading, 1.0);
  const FlockState rank = flockOf({{{0, 0, 0}, {2, 0, 0}}, {{0, 0, 3}, {2, 0, 0}}, {{0, 0, 6}, {2, 0, 0}}});
  EXPECT_DOUBLE_EQ(measureFlock(params, rank).nearestAlongHeading, 0.0);
  // At 60 degrees off the heading, and a straggler 100 away left out: cos 60 = 0.5.
  const FlockState mixed =
      flockOf({{{0, 0, 0}, {1, 0, 0}}, {{1.5f, 0, 2.598076f}, {1, 0, 0}}, {{100, 0, 0}, {1, 0, 0}}});
  EXPECT_NEAR(measureFlock(params, mixed).nearestAlongHeading, 0.5, 1e-6);
}

// The position sample the demo's camera frames: every boid of a small flock; of a large one, 64
// runs of 64 consecutive ids from the first boid to the last, evenly spaced and apart, so each of
// several groups spawned one after another is sampled in proportion.
TEST(PositionSample, SmallFlocksWholeLargeOnesInSpreadRuns) {
  EXPECT_TRUE(positionSampleRuns(0).empty());
  const std::vector<IdRun> small = positionSampleRuns(4096);
  ASSERT_EQ(small.size(), 1u);
  EXPECT_EQ(small[0].first, 0u);
  EXPECT_EQ(small[0].count, 4096u);
  const std::size_t boids = 1'000'003;
  const std::vector<IdRun> runs = positionSampleRuns(boids);
  ASSERT_EQ(runs.size(), 64u);
  EXPECT_EQ(runs.front().first, 0u);
  EXPECT_EQ(runs.back().first + runs.back().count, boids);
  for (std::size_t r = 0; r < runs.size(); ++r) EXPECT_EQ(runs[r].count, 64u);
  for (std::size_t r = 1; r < runs.size(); ++r)
    EXPECT_NEAR(double(runs[r].first - runs[r - 1].first), double(boids - 64) / 63.0, 1.0);
  // Three groups of a third each: each holds about a third of the sample.
  FlockState state;
  state.groups = 3;
  for (std::size_t i = 0; i < 30'000; ++i) {
    state.position.emplace_back(float(i), 0.0f, 0.0f);
    state.velocity.emplace_back(0.0f);
    state.group.push_back(std::uint32_t(i / 10'000));
  }
  const std::vector<glm::vec3> sample = samplePositions(state);
  ASSERT_EQ(sample.size(), 4096u);
  std::size_t perGroup[3] = {};
  for (const glm::vec3& p : sample) ++perGroup[std::size_t(p.x) / 10'000];
  for (const std::size_t count : perGroup) EXPECT_NEAR(double(count), 4096.0 / 3.0, 64.0);
  EXPECT_EQ(sample.front(), state.position.front());
  EXPECT_EQ(sample.back(), state.position.back());
}

}  // namespace
}  // namespace murmur::sim
