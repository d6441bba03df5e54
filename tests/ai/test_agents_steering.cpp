// Steering behaviours: pursuit beats plain seek, the intercept prediction and its fallbacks, arrive
// stops without overshooting, evade, seeded wander, and path following.
#include <cmath>
#include <cstdint>
#include <optional>
#include <vector>

#include <gtest/gtest.h>
#include <glm/geometric.hpp>

#include "ai/steering.hpp"

namespace murmur::ai {
namespace {

constexpr float kDt = 1.0f / 60.0f;

// Seconds until a vehicle steered by `steer` comes within captureRadius of a target moving in a straight
// line from targetStart at targetVelocity; nullopt if it takes longer than limit seconds.
template <class Steer>
std::optional<float> captureTime(Vehicle pursuer, glm::vec3 targetStart, glm::vec3 targetVelocity,
                                 float captureRadius, float limit, Steer steer) {
  glm::vec3 target = targetStart;
  for (int step = 0; float(step) * kDt < limit; ++step) {
    if (glm::length(target - pursuer.position) < captureRadius) return float(step) * kDt;
    stepVehicle(pursuer, steer(pursuer, target), kDt, 3);
    target += targetVelocity * kDt;
  }
  return std::nullopt;
}

TEST(Steering, PursuitInterceptsSoonerThanSeek) {
  const Vehicle start{glm::vec3(0.0f), glm::vec3(0.0f), 10.0f, 20.0f};
  const glm::vec3 targetStart(40.0f, 0.0f, 0.0f);
  // Crossing the pursuer's line of sight at right angles, slower than the pursuer.
  for (const glm::vec3 targetVelocity :
       {glm::vec3(0.0f, 0.0f, 6.0f), glm::vec3(-3.0f, 2.0f, 6.0f), glm::vec3(4.0f, 0.0f, -5.0f)}) {
    const std::optional<float> bySeek =
        captureTime(start, targetStart, targetVelocity, 1.0f, 60.0f,
                    [](const Vehicle& v, glm::vec3 target) { return seek(v, target); });
    const std::optional<float> byPursuit = captureTime(
        start, targetStart, targetVelocity, 1.0f, 60.0f,
        [&](const Vehicle& v, glm::vec3 target) { return pursue(v, target, targetVelocity, 5.0f); });
    ASSERT_TRUE(bySeek.has_value());
    ASSERT_TRUE(byPursuit.has_value());
    EXPECT_LT(*byPursuit, *bySeek) << "target velocity " << targetVelocity.x << ", " << targetVelocity.y
                                   << ", " << targetVelocity.z;
  }
}

TEST(Steering, InterceptPointUsesTheClosingSpeed) {
  // Closing at 10 units/s over 20 units: 2 s ahead of a target moving sideways at 3 units/s.
  const Vehicle pursuer{glm::vec3(0.0f), glm::vec3(10.0f, 0.0f, 0.0f), 10.0f, 20.0f};
  const glm::vec3 target(20.0f, 0.0f, 0.0f);
  const glm::vec3 sideways(0.0f, 0.0f, 3.0f);
  EXPECT_FLOAT_EQ(closingSpeed(pursuer.position, pursuer.velocity, target, sideways), 10.0f);
  const glm::vec3 aim = interceptPoint(pursuer, target, sideways, 10.0f);
  EXPECT_NEAR(glm::length(aim - glm::vec3(20.0f, 0.0f, 6.0f)), 0.0f, 1e-5f);
  // The prediction is capped.
  const glm::vec3 capped = interceptPoint(pursuer, target, sideways, 0.5f);
  EXPECT_NEAR(glm::length(capped - glm::vec3(20.0f, 0.0f, 1.5f)), 0.0f, 1e-5f);
}

TEST(Steering, PursuitFallsBackToSeekWhenNotClosing) {
  // The target runs away faster than the pursuer moves: no finite intercept, aim at the target.
  const Vehicle pursuer{glm::vec3(0.0f), glm::vec3(2.0f, 0.0f, 0.0f), 10.0f, 20.0f};
  const glm::vec3 target(20.0f, 0.0f, 0.0f);
  const glm::vec3 away(5.0f, 0.0f, 1.0f);
  EXPECT_LT(closingSpeed(pursuer.position, pursuer.velocity, target, away), 0.0f);
  EXPECT_EQ(interceptPoint(pursuer, target, away, 10.0f), target);
  EXPECT_EQ(pursue(pursuer, target, away, 10.0f), seek(pursuer, target));
}

TEST(Steering, ClosingSpeedIsSymmetric) {
  const glm::vec3 a(1.0f, 2.0f, 3.0f), va(0.5f, -1.0f, 2.0f);
  const glm::vec3 b(-4.0f, 0.0f, 7.0f), vb(1.0f, 1.0f, -1.0f);
  EXPECT_FLOAT_EQ(closingSpeed(a, va, b, vb), closingSpeed(b, vb, a, va));
  EXPECT_EQ(closingSpeed(a, va, a, vb), 0.0f);
}

TEST(Steering, ArriveStopsOnTheTargetWithoutOvershoot) {
  Vehicle vehicle{glm::vec3(0.0f), glm::vec3(0.0f), 8.0f, 16.0f};
  const glm::vec3 target(30.0f, 0.0f, 0.0f);
  const float slowRadius = vehicle.maxSpeed * vehicle.maxSpeed / vehicle.maxForce;
  float farthest = 0.0f;
  for (int step = 0; step < 60 * 20; ++step) {
    stepVehicle(vehicle, arrive(vehicle, target, slowRadius), kDt, 2);
    farthest = std::max(farthest, vehicle.position.x);
  }
  EXPECT_NEAR(vehicle.position.x, target.x, 0.01f);
  EXPECT_LE(farthest, target.x + 0.01f);
  EXPECT_LT(glm::length(vehicle.velocity), 0.01f);
}

TEST(Steering, SeekAndFleeAtFullSpeedAndForceLimit) {
  Vehicle vehicle{glm::vec3(0.0f), glm::vec3(0.0f), 10.0f, 20.0f};
  // From rest, one step gains at most maxForce * dt of speed.
  applySteering(vehicle, seek(vehicle, glm::vec3(100.0f, 0.0f, 0.0f)), kDt, 3);
  EXPECT_NEAR(glm::length(vehicle.velocity), 20.0f * kDt, 1e-5f);
  for (int step = 0; step < 120; ++step)
    applySteering(vehicle, seek(vehicle, glm::vec3(100.0f, 0.0f, 0.0f)), kDt, 3);
  EXPECT_NEAR(vehicle.velocity.x, 10.0f, 1e-4f);
  const glm::vec3 away = flee(vehicle, glm::vec3(10.0f, 0.0f, 0.0f));
  EXPECT_NEAR(glm::length(away + vehicle.velocity - glm::vec3(-10.0f, 0.0f, 0.0f)), 0.0f, 1e-5f);
}

TEST(Steering, EvadeRunsFromWhereTheThreatWillBe) {
  // A threat crossing ahead of a resting vehicle: evading its predicted position moves away from it
  // along the threat's path, not just straight away from where it is now.
  const Vehicle vehicle{glm::vec3(0.0f), glm::vec3(0.0f), 10.0f, 20.0f};
  const glm::vec3 threat(-10.0f, 0.0f, -10.0f);
  const glm::vec3 threatVelocity(10.0f, 0.0f, 0.0f);
  const glm::vec3 plainFlee = flee(vehicle, threat);
  const glm::vec3 evasion = evade(vehicle, threat, threatVelocity, 3.0f);
  EXPECT_GT(evasion.z, 0.0f);
  EXPECT_LT(evasion.x, plainFlee.x);  // away from the predicted point (ahead of the threat in +x)
  // Not closing in: plain flee.
  EXPECT_EQ(evade(vehicle, threat, -threatVelocity, 3.0f), plainFlee);
}

std::vector<glm::vec3> wanderTrack(std::uint64_t seed, int dims) {
  Wander wander(seed);
  Vehicle vehicle{glm::vec3(0.0f), glm::vec3(1.0f, 0.0f, 0.0f), 5.0f, 10.0f};
  std::vector<glm::vec3> track;
  for (int step = 0; step < 600; ++step) {
    const glm::vec3 heading = glm::normalize(vehicle.velocity);
    stepVehicle(vehicle, wander.steer(vehicle, heading, kDt, dims, WanderParams{}), kDt, dims);
    track.push_back(vehicle.position);
  }
  return track;
}

TEST(Steering, WanderIsSeededAndDeterministic) {
  EXPECT_EQ(wanderTrack(42, 3), wanderTrack(42, 3));
  EXPECT_NE(wanderTrack(42, 3), wanderTrack(43, 3));
  for (const glm::vec3& position : wanderTrack(42, 2)) ASSERT_EQ(position.y, 0.0f);
  // It wanders: the heading changes, yet the vehicle keeps moving.
  const std::vector<glm::vec3> track = wanderTrack(7, 2);
  const glm::vec3 early = track[60] - track[0];
  const glm::vec3 late = track[599] - track[539];
  EXPECT_GT(glm::length(late), 1.0f);
  EXPECT_LT(glm::dot(glm::normalize(early), glm::normalize(late)), 0.999f);
}

TEST(Steering, PathFollowerVisitsWaypointsInOrderAndStopsAtTheEnd) {
  const std::vector<glm::vec3> waypoints{glm::vec3(0.0f), glm::vec3(20.0f, 0.0f, 0.0f),
                                         glm::vec3(20.0f, 0.0f, 20.0f), glm::vec3(0.0f, 0.0f, 20.0f)};
  PathFollower follower;
  follower.assign(waypoints);
  ASSERT_TRUE(follower.active());
  EXPECT_EQ(follower.next(), 1u);
  Vehicle vehicle{waypoints[0], glm::vec3(0.0f), 6.0f, 20.0f};
  const PathFollowParams params{1.0f, 6.0f * 6.0f / 20.0f, true};
  std::vector<std::size_t> aimed{follower.next()};
  for (int step = 0; step < 60 * 30; ++step) {
    stepVehicle(vehicle, follower.steer(vehicle, params, nullptr, GridPlacement{}), kDt, 2);
    if (follower.next() != aimed.back()) aimed.push_back(follower.next());
  }
  EXPECT_EQ(aimed, (std::vector<std::size_t>{1, 2, 3}));
  EXPECT_NEAR(glm::length(vehicle.position - waypoints.back()), 0.0f, 0.05f);
  follower.clear();
  EXPECT_FALSE(follower.active());
  EXPECT_EQ(follower.steer(vehicle, params, nullptr, GridPlacement{}), glm::vec3(0.0f));
}

TEST(Steering, PathFollowerSkipsAWaypointOnceTheNextIsInSight) {
  // An open 10 x 10 map: from the start every waypoint is in sight, so the follower aims at the last
  // at once instead of visiting the corner.
  const GridMap open(10, 10);
  const GridPlacement placement{glm::vec2(0.0f), 1.0f};
  PathFollower follower;
  follower.assign({glm::vec3(0.5f, 0.0f, 0.5f), glm::vec3(8.5f, 0.0f, 0.5f), glm::vec3(8.5f, 0.0f, 8.5f)});
  const Vehicle vehicle{glm::vec3(0.5f, 0.0f, 0.5f), glm::vec3(0.0f), 5.0f, 10.0f};
  follower.steer(vehicle, PathFollowParams{}, &open, placement);
  EXPECT_EQ(follower.next(), 2u);
  // A wall between the start and the last waypoint: the corner stays the aim.
  GridMap walled(10, 10);
  for (std::int32_t y = 2; y < 10; ++y) walled.setPassable({4, y}, false);
  follower.assign({glm::vec3(0.5f, 0.0f, 8.5f), glm::vec3(4.5f, 0.0f, 0.5f), glm::vec3(8.5f, 0.0f, 8.5f)});
  const Vehicle walledVehicle{glm::vec3(0.5f, 0.0f, 8.5f), glm::vec3(0.0f), 5.0f, 10.0f};
  follower.steer(walledVehicle, PathFollowParams{}, &walled, placement);
  EXPECT_EQ(follower.next(), 1u);
}

}  // namespace
}  // namespace murmur::ai
