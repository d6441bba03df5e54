// Sight (distance, cone edges, occlusion by spheres and wall cells) and hearing (loudness, range by
// path around walls).
#include <cmath>
#include <numbers>
#include <vector>

#include <gtest/gtest.h>

#include "ai/perception.hpp"

namespace murmur::ai {
namespace {

constexpr float kPi = std::numbers::pi_v<float>;

float radians(float degrees) {
  return degrees * kPi / 180.0f;
}

// A point at distance from the origin, angle degrees from +x, in the x-z plane.
glm::vec3 atAngle(float degrees, float distance) {
  return glm::vec3(distance * std::cos(radians(degrees)), 0.0f, distance * std::sin(radians(degrees)));
}

TEST(Sight, ConeEdges) {
  const PerceptionWorld world;
  const SightParams params{50.0f, radians(45.0f)};
  const glm::vec3 eye(0.0f);
  const glm::vec3 forward(1.0f, 0.0f, 0.0f);
  EXPECT_EQ(see(world, params, eye, forward, atAngle(0.0f, 10.0f)), Sight::Seen);
  EXPECT_EQ(see(world, params, eye, forward, atAngle(44.5f, 10.0f)), Sight::Seen);
  EXPECT_EQ(see(world, params, eye, forward, atAngle(-44.5f, 10.0f)), Sight::Seen);
  EXPECT_EQ(see(world, params, eye, forward, atAngle(45.5f, 10.0f)), Sight::OutsideCone);
  EXPECT_EQ(see(world, params, eye, forward, atAngle(-45.5f, 10.0f)), Sight::OutsideCone);
  EXPECT_EQ(see(world, params, eye, forward, atAngle(180.0f, 10.0f)), Sight::OutsideCone);
  // The cone is a cone, not a wedge: 44.5 degrees upward is inside too.
  EXPECT_EQ(
      see(world, params, eye, forward, glm::vec3(std::cos(radians(44.5f)), std::sin(radians(44.5f)), 0.0f)),
      Sight::Seen);
  // forward need not be unit length.
  EXPECT_EQ(see(world, params, eye, 7.0f * forward, atAngle(44.5f, 10.0f)), Sight::Seen);
}

TEST(Sight, HalfAngleLimits) {
  const glm::vec3 forward(0.0f, 0.0f, 1.0f);
  EXPECT_TRUE(inViewCone(forward, glm::vec3(0.0f, 0.0f, -1.0f), kPi));  // all round
  EXPECT_TRUE(inViewCone(forward, glm::vec3(0.0f, 0.0f, 3.0f), 0.0f));  // a ray
  EXPECT_FALSE(inViewCone(forward, glm::vec3(0.01f, 0.0f, 3.0f), 0.0f));
  EXPECT_TRUE(inViewCone(forward, glm::vec3(1.0f, 0.0f, 0.001f), radians(90.0f)));
  EXPECT_FALSE(inViewCone(forward, glm::vec3(1.0f, 0.0f, -0.001f), radians(90.0f)));
  EXPECT_TRUE(inViewCone(forward, glm::vec3(0.0f), radians(10.0f)));  // at the eye
}

TEST(Sight, ViewDistanceIsInclusive) {
  const PerceptionWorld world;
  const SightParams params{10.0f, kPi};
  EXPECT_EQ(see(world, params, glm::vec3(0.0f), glm::vec3(1, 0, 0), glm::vec3(10.0f, 0.0f, 0.0f)),
            Sight::Seen);
  EXPECT_EQ(see(world, params, glm::vec3(0.0f), glm::vec3(1, 0, 0), glm::vec3(10.01f, 0.0f, 0.0f)),
            Sight::TooFar);
}

TEST(Sight, OccludedBySphere) {
  std::vector<sim::Obstacle> obstacles{{glm::vec3(5.0f, 0.0f, 0.0f), 1.0f}};
  PerceptionWorld world;
  world.obstacles = obstacles;
  const SightParams params{50.0f, kPi};
  const glm::vec3 eye(0.0f);
  const glm::vec3 forward(1.0f, 0.0f, 0.0f);
  EXPECT_EQ(see(world, params, eye, forward, glm::vec3(10.0f, 0.0f, 0.0f)), Sight::Occluded);
  // Passes 0.98 from the centre: inside; 2.01 from it: clear.
  EXPECT_EQ(see(world, params, eye, forward, glm::vec3(10.0f, 0.0f, 2.0f)), Sight::Occluded);
  EXPECT_EQ(see(world, params, eye, forward, glm::vec3(10.0f, 0.0f, 4.4f)), Sight::Seen);
  EXPECT_EQ(see(world, params, eye, forward, glm::vec3(3.9f, 0.0f, 0.0f)), Sight::Seen);  // in front of it
  EXPECT_EQ(see(world, params, eye, forward, glm::vec3(5.0f, 0.0f, 0.0f)), Sight::Occluded);  // inside it
  // Above the sphere in 3D; in a 2D world heights are ignored and the circle blocks.
  EXPECT_EQ(see(world, params, glm::vec3(0.0f, 3.0f, 0.0f), forward, glm::vec3(10.0f, 3.0f, 0.0f)),
            Sight::Seen);
  world.dims = 2;
  EXPECT_EQ(see(world, params, glm::vec3(0.0f, 3.0f, 0.0f), forward, glm::vec3(10.0f, 3.0f, 0.0f)),
            Sight::Occluded);
}

TEST(Sight, SegmentSphereTouchingDoesNotOcclude) {
  const sim::Obstacle sphere{glm::vec3(0.0f, 1.0f, 0.0f), 1.0f};
  EXPECT_FALSE(
      segmentHitsSphere(glm::vec3(-5.0f, 0.0f, 0.0f), glm::vec3(5.0f, 0.0f, 0.0f), sphere));  // tangent
  EXPECT_TRUE(segmentHitsSphere(glm::vec3(-5.0f, 0.01f, 0.0f), glm::vec3(5.0f, 0.01f, 0.0f), sphere));
  EXPECT_FALSE(
      segmentHitsSphere(glm::vec3(-5.0f, 0.5f, 0.0f), glm::vec3(-2.0f, 0.5f, 0.0f), sphere));  // stops short
  EXPECT_TRUE(
      segmentHitsSphere(glm::vec3(0.0f, 1.0f, 0.0f), glm::vec3(0.0f, 1.0f, 0.0f), sphere));  // a point inside
}

// A 20 x 20 map of 1-unit cells at the world origin with a wall along x = 10 (cells (10, 0..17)),
// open at the bottom rows 18 and 19.
struct WalledWorld {
  GridMap map{20, 20};
  PerceptionWorld world;
  WalledWorld() {
    for (std::int32_t y = 0; y < 18; ++y) map.setPassable(Cell{10, y}, false);
    world.grid = &map;
  }
};

TEST(Sight, OccludedByWallCell) {
  WalledWorld walled;
  const SightParams params{50.0f, kPi};
  const glm::vec3 forward(1.0f, 0.0f, 0.0f);
  EXPECT_EQ(see(walled.world, params, glm::vec3(8.5f, 2.0f, 5.5f), forward, glm::vec3(12.5f, 2.0f, 5.5f)),
            Sight::Occluded);
  EXPECT_EQ(see(walled.world, params, glm::vec3(8.5f, 2.0f, 18.5f), forward, glm::vec3(12.5f, 2.0f, 19.5f)),
            Sight::Seen);  // below the wall's end
  EXPECT_EQ(see(walled.world, params, glm::vec3(2.5f, 0.0f, 2.5f), forward, glm::vec3(8.5f, 0.0f, 14.5f)),
            Sight::Seen);  // same side
  // The wall's end corner: the segment from (9, 17) - (11, 19) passes exactly through the corner (10, 18)
  // with only one side blocked: still refused (no corner cutting).
  EXPECT_EQ(see(walled.world, params, glm::vec3(9.5f, 0.0f, 17.5f), forward, glm::vec3(10.5f, 0.0f, 18.5f)),
            Sight::Occluded);
  // A placement moves the wall with the grid.
  walled.world.placement.origin = glm::vec2(100.0f, 0.0f);
  EXPECT_EQ(see(walled.world, params, glm::vec3(108.5f, 2.0f, 5.5f), forward, glm::vec3(112.5f, 2.0f, 5.5f)),
            Sight::Occluded);
}

TEST(Hearing, LoudnessThreshold) {
  const PerceptionWorld world;
  const HearingParams params{4.0f, 25.0f};
  const glm::vec3 listener(0.0f);
  const glm::vec3 source(3.0f, 0.0f, 4.0f);
  EXPECT_EQ(hear(world, nullptr, params, listener, source, 4.0f), Hearing::TooQuiet);  // must exceed
  EXPECT_EQ(hear(world, nullptr, params, listener, source, 4.5f), Hearing::Heard);
  EXPECT_EQ(hear(world, nullptr, HearingParams{4.0f, 4.9f}, listener, source, 9.0f), Hearing::TooFar);
}

TEST(Hearing, GoesAroundWallsNotThroughThem) {
  WalledWorld walled;
  PathFinder paths(walled.map);
  const glm::vec3 listener(8.5f, 0.0f, 2.5f);
  const glm::vec3 source(12.5f, 0.0f, 2.5f);  // 4 units away in a straight line, ~ 34 by path
  EXPECT_EQ(hear(walled.world, &paths, HearingParams{1.0f, 10.0f}, listener, source, 5.0f), Hearing::TooFar);
  EXPECT_EQ(hear(walled.world, &paths, HearingParams{1.0f, 40.0f}, listener, source, 5.0f), Hearing::Heard);
  // On the same side the straight path is heard at a short range.
  EXPECT_EQ(
      hear(walled.world, &paths, HearingParams{1.0f, 5.0f}, listener, glm::vec3(4.5f, 0.0f, 2.5f), 5.0f),
      Hearing::Heard);
  // Without the grid the wall is not known: heard through it.
  EXPECT_EQ(hear(PerceptionWorld{}, nullptr, HearingParams{1.0f, 10.0f}, listener, source, 5.0f),
            Hearing::Heard);
  // Range counts in world units: 2-unit cells halve the path in cells.
  walled.world.placement.cellSize = 2.0f;
  EXPECT_EQ(hear(walled.world, &paths, HearingParams{1.0f, 10.0f}, glm::vec3(1.0f, 0.0f, 1.0f),
                 glm::vec3(9.0f, 0.0f, 1.0f), 5.0f),
            Hearing::Heard);  // cells (0,0) -> (4,0): 4 cells, 8 units
  EXPECT_EQ(hear(walled.world, &paths, HearingParams{1.0f, 7.0f}, glm::vec3(1.0f, 0.0f, 1.0f),
                 glm::vec3(9.0f, 0.0f, 1.0f), 5.0f),
            Hearing::TooFar);
}

TEST(Hearing, NeedsAFinderOnTheSameGrid) {
  WalledWorld walled;
  GridMap other(20, 20);
  PathFinder wrong(other);
  EXPECT_THROW(hear(walled.world, &wrong, HearingParams{}, glm::vec3(1.0f), glm::vec3(2.0f), 10.0f),
               std::invalid_argument);
  EXPECT_THROW(hear(walled.world, nullptr, HearingParams{}, glm::vec3(1.0f), glm::vec3(2.0f), 10.0f),
               std::invalid_argument);
}

TEST(Perception, Names) {
  EXPECT_EQ(toString(Sight::Occluded), "occluded");
  EXPECT_EQ(toString(Hearing::TooQuiet), "too quiet");
}

}  // namespace
}  // namespace murmur::ai
