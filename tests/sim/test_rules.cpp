// Each force of model.md alone against values computed by hand, and the edge cases the model
// names: coincident boids, zero velocity, a boid exactly on a wall, wrap across the seam, a
// neighbour exactly at R and exactly on the field-of-view edge.
#include <gtest/gtest.h>

#include <cmath>

#include "sim/rules.hpp"

namespace murmur::sim {
namespace {

constexpr float kTol = 1e-5f;

void expectVec(glm::vec3 actual, glm::vec3 expected, float tol = kTol) {
  EXPECT_NEAR(actual.x, expected.x, tol);
  EXPECT_NEAR(actual.y, expected.y, tol);
  EXPECT_NEAR(actual.z, expected.z, tol);
}

// A boid and the context of one step, with its neighbours folded in by hand.
struct Fixture {
  ModelParams params;
  StepInputs inputs;
  std::uint32_t groups = 1;

  struct Other {
    glm::vec3 p, v;
    std::uint32_t id, group;
  };

  NeighbourSums gather(const StepContext& ctx, const BoidView& self, const std::vector<Other>& others) const {
    NeighbourSums sums;
    for (const Other& o : others)
      accumulateNeighbour(ctx, self, offset(ctx, self.position, o.p), heading(o.v), o.id, o.group, sums);
    return sums;
  }
};

BoidView boid(glm::vec3 p, glm::vec3 v, std::uint32_t id = 0, std::uint32_t group = 0) {
  return BoidView{p, v, heading(v), id, group};
}

TEST(Rules, HeadingOfZeroVelocityIsPlusX) {
  expectVec(heading(glm::vec3(0.0f)), {1, 0, 0});
  expectVec(heading(glm::vec3(0.0f, 0.0f, -3.0f)), {0, 0, -1});
}

TEST(Rules, SeparationFromOneNeighbourInsideRs) {
  Fixture f;
  const PackedInputs packed = packInputs(f.params, f.inputs, 1);
  const StepContext ctx = makeStepContext(f.params, packed);
  const BoidView self = boid({0, 0, 0}, {10, 0, 0});
  // d = (1,0,0): u = (-1,0,0), divisor max(1, 0.25) = 1, F = max_speed * Rs * u = (-20,0,0).
  expectVec(separationForce(ctx, f.gather(ctx, self, {{{1, 0, 0}, {10, 0, 0}, 1, 0}})), {-20, 0, 0});
  // d = 0.1: the divisor is clamped to d_min = 0.25: F = 20 * (-1/0.25) = -80.
  expectVec(separationForce(ctx, f.gather(ctx, self, {{{0.1f, 0, 0}, {10, 0, 0}, 1, 0}})), {-80, 0, 0},
            1e-4f);
  // Outside Rs (d = 3): no separation but still a neighbour.
  const NeighbourSums far = f.gather(ctx, self, {{{3, 0, 0}, {10, 0, 0}, 1, 0}});
  expectVec(separationForce(ctx, far), {0, 0, 0});
  EXPECT_EQ(far.sameGroupCount, 1u);
}

TEST(Rules, SeparationCountsOtherGroups) {
  Fixture f;
  const PackedInputs packed = packInputs(f.params, f.inputs, 2);
  const StepContext ctx = makeStepContext(f.params, packed);
  const BoidView self = boid({0, 0, 0}, {10, 0, 0}, 0, 0);
  const NeighbourSums sums = f.gather(ctx, self, {{{0, 0, 1}, {10, 0, 0}, 1, 1}});
  expectVec(separationForce(ctx, sums), {0, 0, -20});
  EXPECT_EQ(sums.sameGroupCount, 0u);
}

TEST(Rules, CoincidentBoidsSeparateByIdOrder) {
  Fixture f;
  const PackedInputs packed = packInputs(f.params, f.inputs, 1);
  const StepContext ctx = makeStepContext(f.params, packed);
  // Same position: u = (-1,0,0) for the lower id, (+1,0,0) for the higher; divisor d_min.
  const BoidView low = boid({5, 0, 5}, {0, 0, 3}, 3);
  const BoidView high = boid({5, 0, 5}, {0, 0, 3}, 7);
  expectVec(separationForce(ctx, f.gather(ctx, low, {{{5, 0, 5}, {0, 0, 3}, 7, 0}})), {-80, 0, 0}, 1e-4f);
  expectVec(separationForce(ctx, f.gather(ctx, high, {{{5, 0, 5}, {0, 0, 3}, 3, 0}})), {80, 0, 0}, 1e-4f);
}

TEST(Rules, AlignmentSteersTowardMeanHeading) {
  Fixture f;
  const PackedInputs packed = packInputs(f.params, f.inputs, 1);
  const StepContext ctx = makeStepContext(f.params, packed);
  const BoidView self = boid({0, 0, 0}, {4, 0, 0});
  // Neighbour heading +z: F = 10 * ((0,0,1) - (1,0,0)).
  const NeighbourSums sums = f.gather(ctx, self, {{{3, 0, 0}, {0, 0, 7}, 1, 0}});
  expectVec(alignmentForce(ctx, self, sums), {-10, 0, 10});
  expectVec(alignmentForce(ctx, self, NeighbourSums{}), {0, 0, 0});
}

TEST(Rules, CohesionSteersTowardMeanOffset) {
  Fixture f;
  const PackedInputs packed = packInputs(f.params, f.inputs, 1);
  const StepContext ctx = makeStepContext(f.params, packed);
  const BoidView self = boid({0, 0, 0}, {5, 0, 0});
  // Neighbours at (3,0,1) and (3,0,-1): c = (3,0,0), F = 10 * (1,0,0) - v = (5,0,0).
  const NeighbourSums sums =
      f.gather(ctx, self, {{{3, 0, 1}, {1, 0, 0}, 1, 0}, {{3, 0, -1}, {1, 0, 0}, 2, 0}});
  expectVec(cohesionForce(ctx, self, sums), {5, 0, 0});
  // Symmetric neighbours: |c| = 0, no cohesion.
  const NeighbourSums balanced =
      f.gather(ctx, self, {{{0, 0, 3}, {1, 0, 0}, 1, 0}, {{0, 0, -3}, {1, 0, 0}, 2, 0}});
  expectVec(cohesionForce(ctx, self, balanced), {0, 0, 0});
}

// The group-steering note's comfort distance: separation from a neighbour inside it is multiplied.
TEST(Rules, ComfortDistanceMultipliesSeparationInsideIt) {
  Fixture f;
  f.params.comfortDistance = 0.5f;
  f.params.comfortMultiplier = 2.0f;
  const PackedInputs packed = packInputs(f.params, f.inputs, 1);
  const StepContext ctx = makeStepContext(f.params, packed);
  const BoidView self = boid({0, 0, 0}, {10, 0, 0});
  // d = 1, outside the comfort distance: as without it, max_speed * Rs * (-1) / 1 = -20.
  expectVec(separationForce(ctx, f.gather(ctx, self, {{{1, 0, 0}, {10, 0, 0}, 1, 0}})), {-20, 0, 0});
  // d = 0.4, inside: 10 * 2 * (-1 / 0.4) * 2 = -100.
  expectVec(separationForce(ctx, f.gather(ctx, self, {{{0.4f, 0, 0}, {10, 0, 0}, 1, 0}})), {-100, 0, 0},
            1e-4f);
  // Both, on different axes: (-20, 0, 0) from the far one and (0, 0, -100) from the near one.
  expectVec(separationForce(
                ctx, f.gather(ctx, self, {{{1, 0, 0}, {10, 0, 0}, 1, 0}, {{0, 0, 0.4f}, {10, 0, 0}, 2, 0}})),
            {-20, 0, -100}, 1e-4f);
  // Off (distance 0, the default): d = 0.4 gives 10 * 2 * (-2.5) = -50.
  Fixture off;
  const PackedInputs offPacked = packInputs(off.params, off.inputs, 1);
  const StepContext offCtx = makeStepContext(off.params, offPacked);
  expectVec(separationForce(offCtx, off.gather(offCtx, self, {{{0.4f, 0, 0}, {10, 0, 0}, 1, 0}})),
            {-50, 0, 0}, 1e-4f);
}

// The Unity notes' cohesion only where no separation is happening: one separation neighbour, of any
// group, turns cohesion off; without the option it stays.
TEST(Rules, CohesionOnlyWithoutSeparation) {
  Fixture f;
  f.params.cohesionOnlyWithoutSeparation = true;
  const PackedInputs packed = packInputs(f.params, f.inputs, 2);
  const StepContext ctx = makeStepContext(f.params, packed);
  const BoidView self = boid({0, 0, 0}, {5, 0, 0});
  // Same-group neighbours at (3,0,1) and (3,0,-1), outside Rs = 2: c = (3,0,0), F = (10,0,0) - v.
  const std::vector<Fixture::Other> flock = {{{3, 0, 1}, {1, 0, 0}, 1, 0}, {{3, 0, -1}, {1, 0, 0}, 2, 0}};
  expectVec(cohesionForce(ctx, self, f.gather(ctx, self, flock)), {5, 0, 0});
  // A boid of the other group 1.5 away (inside Rs): no cohesion, separation and alignment stay.
  std::vector<Fixture::Other> crowded = flock;
  crowded.push_back({{0, 0, 1.5f}, {1, 0, 0}, 3, 1});
  const NeighbourSums sums = f.gather(ctx, self, crowded);
  EXPECT_TRUE(sums.separating);
  expectVec(cohesionForce(ctx, self, sums), {0, 0, 0});
  expectVec(separationForce(ctx, sums), {0, 0, -10.0f * 2.0f / 1.5f});
  expectVec(alignmentForce(ctx, self, sums), {0, 0, 0});
  Fixture off;
  const PackedInputs offPacked = packInputs(off.params, off.inputs, 2);
  const StepContext offCtx = makeStepContext(off.params, offPacked);
  expectVec(cohesionForce(offCtx, self, off.gather(offCtx, self, crowded)), {5, 0, 0});
}

TEST(Rules, RoostPullsHorizontallyOutsideItsCircle) {
  Fixture f;
  f.params.roostCenter = {10, 50, 0};
  f.params.roostRadius = 20;
  const PackedInputs packed = packInputs(f.params, f.inputs, 1);
  const StepContext ctx = makeStepContext(f.params, packed);
  // |h| = 10, inside the circle: nothing.
  expectVec(roostForce(ctx, boid({0, 0, 0}, {5, 0, 0})), {0, 0, 0});
  // h = (30, 0, 0) (its y dropped): half a radius out, half of max_speed.
  expectVec(roostForce(ctx, boid({-20, 7, 0}, {5, 0, 0})), {5, 0, 0});
  // h = (0, 0, 50): more than a radius out, max_speed.
  expectVec(roostForce(ctx, boid({10, -3, -50}, {5, 0, 0})), {0, 0, 10});
  // Weighted into the step: weights.roost x F_roost is the only force (the others off).
  Fixture quiet = f;
  quiet.params.weights = Weights{0, 0, 0, 0, 0, 0, 0, 0, 0, 2};
  const PackedInputs quietPacked = packInputs(quiet.params, quiet.inputs, 1);
  const StepContext quietCtx = makeStepContext(quiet.params, quietPacked);
  const BoidView self = boid({-20, 7, 0}, {5, 0, 0});
  const BoidUpdate next = integrate(quietCtx, self, computeForces(quietCtx, self, {}));
  expectVec(next.velocity, glm::vec3(5, 0, 0) + glm::vec3(10, 0, 0) * quiet.params.dt);
  // Radius 0: no roost.
  f.params.roostRadius = 0;
  const StepContext none = makeStepContext(f.params, packed);
  expectVec(roostForce(none, boid({10, -3, -50}, {5, 0, 0})), {0, 0, 0});
}

TEST(Rules, RoostAcrossTheSeamPullsTheShortWay) {
  Fixture f;
  f.params.boundary = Boundary::Wrap;
  f.params.roostCenter = {90, 0, 0};
  f.params.roostRadius = 5;
  const PackedInputs packed = packInputs(f.params, f.inputs, 1);
  const StepContext ctx = makeStepContext(f.params, packed);
  // 185 units the long way, 15 across the seam at x = +-100.
  expectVec(roostForce(ctx, boid({-95, 0, 0}, {5, 0, 0})), {-10, 0, 0});
}

TEST(Rules, NeighbourExactlyAtRadiusIsNotSeen) {
  Fixture f;
  f.params.fovDegrees = 360.0f;
  const PackedInputs packed = packInputs(f.params, f.inputs, 1);
  const StepContext ctx = makeStepContext(f.params, packed);
  const BoidView self = boid({0, 0, 0}, {1, 0, 0});
  EXPECT_EQ(f.gather(ctx, self, {{{5, 0, 0}, {1, 0, 0}, 1, 0}}).sameGroupCount, 0u);  // |d| = R
  EXPECT_EQ(f.gather(ctx, self, {{{4.999f, 0, 0}, {1, 0, 0}, 1, 0}}).sameGroupCount, 1u);
}

TEST(Rules, FieldOfViewEdge) {
  Fixture f;
  f.params.fovDegrees = 180.0f;  // half-angle 90: cos is exactly 0, the edge is the side plane
  const PackedInputs packed = packInputs(f.params, f.inputs, 1);
  const StepContext ctx = makeStepContext(f.params, packed);
  const BoidView self = boid({0, 0, 0}, {1, 0, 0});
  EXPECT_EQ(f.gather(ctx, self, {{{0, 0, 3}, {1, 0, 0}, 1, 0}}).sameGroupCount, 1u);       // on the edge
  EXPECT_EQ(f.gather(ctx, self, {{{-0.01f, 0, 3}, {1, 0, 0}, 1, 0}}).sameGroupCount, 0u);  // just behind
  // The default 270 degrees: straight behind is blind, 120 degrees off the heading is seen.
  Fixture d;
  const PackedInputs packedDefault = packInputs(d.params, d.inputs, 1);
  const StepContext wide = makeStepContext(d.params, packedDefault);
  EXPECT_EQ(d.gather(wide, self, {{{-3, 0, 0}, {1, 0, 0}, 1, 0}}).sameGroupCount, 0u);
  const float a = 120.0f * 3.14159265f / 180.0f;
  EXPECT_EQ(d.gather(wide, self, {{{3 * std::cos(a), 0, 3 * std::sin(a)}, {1, 0, 0}, 1, 0}}).sameGroupCount,
            1u);
  // A coincident boid is always in view.
  EXPECT_EQ(d.gather(wide, self, {{{0, 0, 0}, {1, 0, 0}, 1, 0}}).sameGroupCount, 1u);
}

TEST(Rules, AvoidanceInsidePushesStraightOut) {
  Fixture f;
  f.inputs.obstacleCenter = {{1, 0, 0}, {0, 0, 30}};
  f.inputs.obstacleRadius = {2, 1};
  const PackedInputs packed = packInputs(f.params, f.inputs, 1);
  const StepContext ctx = makeStepContext(f.params, packed);
  // |a| = 1 < r + radius = 2.5: F = 2 * max_speed * norm(-a) = (-20,0,0), whatever the heading.
  expectVec(avoidanceForce(ctx, boid({0, 0, 0}, {0, 0, 5})), {-20, 0, 0});
  // Inside two obstacles: the deeper one wins.
  f.inputs.obstacleCenter = {{2, 0, 0}, {0, 0, -0.5f}};
  f.inputs.obstacleRadius = {2, 2};
  const PackedInputs packed2 = packInputs(f.params, f.inputs, 1);
  const StepContext ctx2 = makeStepContext(f.params, packed2);
  expectVec(avoidanceForce(ctx2, boid({0, 0, 0}, {1, 0, 0})), {0, 0, 20});
  // At the centre: (1,0,0).
  expectVec(avoidanceForce(ctx2, boid({0, 0, -0.5f}, {1, 0, 0})), {20, 0, 0});
}

TEST(Rules, AvoidanceDetectionBoxAhead) {
  Fixture f;
  f.inputs.obstacleCenter = {{10, 0, 1}, {14, 0, -1}};
  f.inputs.obstacleRadius = {2, 2};
  const PackedInputs packed = packInputs(f.params, f.inputs, 1);
  const StepContext ctx = makeStepContext(f.params, packed);
  // Speed 10: L = R + 10 * 1 = 15, re = 2.5. Nearest candidate t = 10, b = (0,0,1):
  // s = 1 - 10 / 17.5, F = 10 * (1 + s) * (0,0,-1).
  const float s = 1.0f - 10.0f / 17.5f;
  expectVec(avoidanceForce(ctx, boid({0, 0, 0}, {10, 0, 0})), {0, 0, -10.0f * (1.0f + s)});
  // Slow boid (speed 2): L = 7, the obstacle at t = 10 is still a candidate (10 < 9.5? no).
  expectVec(avoidanceForce(ctx, boid({0, 0, 0}, {2, 0, 0})), {0, 0, 0});
  // Behind the boid (t < 0): ignored.
  expectVec(avoidanceForce(ctx, boid({20, 0, 0}, {10, 0, 0})), {0, 0, 0});
}

TEST(Rules, AvoidanceDeadAheadTurnsSideways) {
  Fixture f;
  f.inputs.obstacleCenter = {{10, 0, 0}};
  f.inputs.obstacleRadius = {2};
  const PackedInputs packed = packInputs(f.params, f.inputs, 1);
  const StepContext ctx = makeStepContext(f.params, packed);
  const float s = 1.0f - 10.0f / 17.5f;
  // b = 0: lateral = norm(cross((1,0,0), (0,1,0))) = (0,0,1).
  expectVec(avoidanceForce(ctx, boid({0, 0, 0}, {10, 0, 0})), {0, 0, 10.0f * (1.0f + s)});
  // Heading straight up: the cross product degenerates, lateral = (0,0,1).
  f.inputs.obstacleCenter = {{0, 10, 0}};
  const PackedInputs packedUp = packInputs(f.params, f.inputs, 1);
  const StepContext up = makeStepContext(f.params, packedUp);
  expectVec(avoidanceForce(up, boid({0, 0, 0}, {0, 10, 0})), {0, 0, 10.0f * (1.0f + s)});
}

TEST(Rules, ContainmentInsideTheMargin) {
  Fixture f;
  const PackedInputs packed = packInputs(f.params, f.inputs, 1);
  const StepContext ctx = makeStepContext(f.params, packed);
  // x = -95: 10 * (-100 + 10 + 95) / 10 = 5; z = 98: -10 * (98 - 100 + 10) / 10 = -8; y free.
  expectVec(containmentForce(ctx, boid({-95, 0, 98}, {1, 0, 0})), {5, 0, -8});
  // Exactly on the wall: the full max_speed.
  expectVec(containmentForce(ctx, boid({100, -50, 0}, {1, 0, 0})), {-10, 10, 0});
  // 2D: y is not an active axis.
  f.params.dims = 2;
  expectVec(containmentForce(ctx, boid({0, -50, 0}, {1, 0, 0})), {0, 0, 0});
  // Wrap has no containment.
  f.params.boundary = Boundary::Wrap;
  expectVec(containmentForce(ctx, boid({100, 0, 0}, {1, 0, 0})), {0, 0, 0});
}

TEST(Rules, GoalModeAllWithArrival) {
  Fixture f;
  f.params.goalMode = GoalMode::All;
  f.inputs.goal = {glm::vec3(20, 0, 0)};
  const PackedInputs packed = packInputs(f.params, f.inputs, 1);
  const StepContext ctx = makeStepContext(f.params, packed);
  // dist 20 > slow radius 10: desired 10 (1,0,0) - v.
  expectVec(goalForce(ctx, boid({0, 0, 0}, {5, 0, 0}), {}), {5, 0, 0});
  // dist 4: desired speed 10 * 4/10 = 4.
  expectVec(goalForce(ctx, boid({16, 0, 0}, {5, 0, 0}), {}), {-1, 0, 0});
  // At the goal: nothing.
  expectVec(goalForce(ctx, boid({20, 0, 0}, {5, 0, 0}), {}), {0, 0, 0});
}

TEST(Rules, GoalModeFrontOnlyForEmergentLeaders) {
  Fixture f;
  f.params.fovDegrees = 90.0f;  // the front cone ignores the field of view
  f.inputs.goal = {glm::vec3(0, 0, 50), std::nullopt};
  const PackedInputs packed = packInputs(f.params, f.inputs, 2);
  const StepContext ctx = makeStepContext(f.params, packed);
  ASSERT_TRUE(ctx.needFront);
  const BoidView self = boid({0, 0, 0}, {10, 0, 0}, 0, 0);
  const glm::vec3 leaderForce{-10, 0, 10};  // 10 * (0,0,1) - (10,0,0)
  // Same-group boid ahead (inside 45 degrees): not a leader.
  EXPECT_TRUE(f.gather(ctx, self, {{{3, 0, 1}, {1, 0, 0}, 1, 0}}).frontOccupied);
  expectVec(goalForce(ctx, self, f.gather(ctx, self, {{{3, 0, 1}, {1, 0, 0}, 1, 0}})), {0, 0, 0});
  // Same-group boid 60 degrees off (outside the cone): leader.
  const float a = 60.0f * 3.14159265f / 180.0f;
  expectVec(
      goalForce(ctx, self, f.gather(ctx, self, {{{3 * std::cos(a), 0, 3 * std::sin(a)}, {1, 0, 0}, 1, 0}})),
      leaderForce);
  // The book's rule: another group's boid ahead counts too; one beyond the leader radius (5) does not.
  EXPECT_TRUE(f.gather(ctx, self, {{{3, 0, 0}, {1, 0, 0}, 1, 1}}).frontOccupied);
  expectVec(goalForce(ctx, self, f.gather(ctx, self, {{{6, 0, 0}, {1, 0, 0}, 2, 0}})), leaderForce);
  // A coincident same-group boid counts as in front.
  EXPECT_TRUE(f.gather(ctx, self, {{{0, 0, 0}, {1, 0, 0}, 1, 0}}).frontOccupied);
  // A leader radius past R (5): a boid 6 ahead makes a follower, and feeds no other sum.
  f.params.leaderRadius = 8.0f;
  const StepContext wide = makeStepContext(f.params, packed);
  const NeighbourSums past = f.gather(wide, self, {{{6, 0, 0}, {1, 0, 0}, 2, 0}});
  EXPECT_TRUE(past.frontOccupied);
  EXPECT_EQ(past.sameGroupCount, 0u);
  expectVec(past.separation, {0, 0, 0});
  EXPECT_FALSE(f.gather(wide, self, {{{8.5f, 0, 0}, {1, 0, 0}, 2, 0}}).frontOccupied);
  // Group 1 has no goal.
  expectVec(goalForce(ctx, boid({0, 0, 0}, {10, 0, 0}, 1, 1), {}), {0, 0, 0});
}

TEST(Rules, FleeFromPredatorsInRange) {
  Fixture f;
  f.inputs.predators = {{-5, 0, 0}, {0, 0, 40}};
  const PackedInputs packed = packInputs(f.params, f.inputs, 1);
  const StepContext ctx = makeStepContext(f.params, packed);
  // e = (5,0,0), v = 0: (10 (1,0,0) - 0) * (1 - 5/15); the predator 40 away is out of range.
  expectVec(fleeForce(ctx, boid({0, 0, 0}, {0, 0, 0})), {10.0f * (1.0f - 5.0f / 15.0f), 0, 0});
  // With velocity (0,0,3): (10,0,0) - (0,0,3), scaled by 2/3.
  expectVec(fleeForce(ctx, boid({0, 0, 0}, {0, 0, 3})), {20.0f / 3.0f, 0, -2});
  // On top of the predator (|e| = 0): no force.
  expectVec(fleeForce(ctx, boid({-5, 0, 0}, {1, 0, 0})), {0, 0, 0});
}

TEST(Rules, CruiseTowardCruiseSpeed) {
  Fixture f;
  const PackedInputs packed = packInputs(f.params, f.inputs, 1);
  const StepContext ctx = makeStepContext(f.params, packed);
  expectVec(cruiseForce(ctx, boid({0, 0, 0}, {5, 0, 0})), {3, 0, 0});
  expectVec(cruiseForce(ctx, boid({0, 0, 0}, {0, 0, -10})), {0, 0, 2});
}

TEST(Rules, IntegrateClampsForceAndSpeed) {
  Fixture f;
  const PackedInputs packed = packInputs(f.params, f.inputs, 1);
  const StepContext ctx = makeStepContext(f.params, packed);
  const BoidView self = boid({0, 0, 0}, {5, 0, 0});
  Forces forces;
  forces.separation = {0, 0, 1000};  // weighted 1500: clamped to max_force 20
  const BoidUpdate next = integrate(ctx, self, forces);
  const float dt = 1.0f / 60.0f;
  expectVec(next.velocity, {5, 0, 20 * dt});
  expectVec(next.position, next.velocity * dt);
  // Above max speed: scaled to 10.
  const BoidUpdate fast = integrate(ctx, boid({0, 0, 0}, {30, 0, 0}), Forces{});
  expectVec(fast.velocity, {10, 0, 0});
  // Below min speed: scaled up to 2.
  const BoidUpdate slow = integrate(ctx, boid({0, 0, 0}, {0, 0, 0.5f}), Forces{});
  expectVec(slow.velocity, {0, 0, 2});
}

// boids.turn_rate, the Unity notes' gradual heading: 90 degrees/s over dt = 0.5 turns the heading at
// most 45 degrees a step, and the boid moves along it at the velocity's speed.
TEST(Rules, TurnRateTurnsTheHeadingAtMostItsAngleAndMovesAlongIt) {
  Fixture f;
  f.params.turnRate = 90.0f;
  f.params.dt = 0.5f;
  const PackedInputs packed = packInputs(f.params, f.inputs, 1);
  const StepContext ctx = makeStepContext(f.params, packed);
  ASSERT_TRUE(ctx.turning);
  EXPECT_NEAR(ctx.turnCos, std::sqrt(0.5f), 1e-7f);
  EXPECT_NEAR(ctx.turnSin, std::sqrt(0.5f), 1e-7f);
  const float c45 = std::sqrt(0.5f);
  // Heading +x, velocity 4 along +z (90 degrees away): the heading turns 45 degrees, to
  // (cos 45, 0, sin 45); the velocity is unchanged (no force), the move is 4 x 0.5 along the heading.
  BoidView self = boid({1, 0, 2}, {0, 0, 4});
  self.heading = {1, 0, 0};
  const BoidUpdate turned = integrate(ctx, self, Forces{});
  expectVec(turned.velocity, {0, 0, 4});
  expectVec(turned.heading, {c45, 0, c45});
  expectVec(turned.position, glm::vec3(1, 0, 2) + 2.0f * glm::vec3(c45, 0, c45));
  // Velocity (4, 0, 1), 14 degrees from the heading: within the step's 45, the heading is its direction.
  self.velocity = {4, 0, 1};
  const BoidUpdate within = integrate(ctx, self, Forces{});
  const glm::vec3 along = glm::vec3(4, 0, 1) / std::sqrt(17.0f);
  expectVec(within.heading, along);
  expectVec(within.position, glm::vec3(1, 0, 2) + along * (std::sqrt(17.0f) * 0.5f));
  // Straight back: no direction across the heading, so it turns toward (-h.z, 0, h.x) = (0, 0, 1).
  self.velocity = {-4, 0, 0};
  expectVec(integrate(ctx, self, Forces{}).heading, {c45, 0, c45});
  // 3D, heading +y (no x-z part): the fallback is (1, 0, 0).
  self.heading = {0, 1, 0};
  self.velocity = {0, -4, 0};
  expectVec(integrate(ctx, self, Forces{}).heading, {c45, c45, 0});
  // A force turns the velocity first: (0, 0, 4) + (20 clamped from 30 along +x) x 0.5 = (10, 0, 4),
  // clamped to speed 10; the heading +x is within 45 degrees of it, so it follows.
  self.heading = {1, 0, 0};
  self.velocity = {0, 0, 4};
  Forces push;
  push.cruise = {10, 0, 0};  // weighted 3: 30, clamped to max_force 20
  const BoidUpdate pushed = integrate(ctx, self, push);
  const glm::vec3 v = glm::vec3(10, 0, 4) * (10.0f / std::sqrt(116.0f));
  expectVec(pushed.velocity, v, 1e-4f);
  expectVec(pushed.heading, v / 10.0f);
  // Off (the default): no turn, the move is v dt (the heading is not computed).
  Fixture off;
  off.params.dt = 0.5f;
  const PackedInputs offPacked = packInputs(off.params, off.inputs, 1);
  const StepContext offCtx = makeStepContext(off.params, offPacked);
  EXPECT_FALSE(offCtx.turning);
  BoidView plain = boid({1, 0, 2}, {0, 0, 4});
  expectVec(integrate(offCtx, plain, Forces{}).position, {1, 0, 4});
}

// Containment turns the stored heading inward with the velocity.
TEST(Rules, TurnRateHeadingReflectsAtTheContainingWall) {
  Fixture f;
  f.params.turnRate = 90.0f;
  const PackedInputs packed = packInputs(f.params, f.inputs, 1);
  const StepContext ctx = makeStepContext(f.params, packed);
  BoidView self = boid({99.99f, 0, 0}, {10, 0, 0});
  const BoidUpdate next = integrate(ctx, self, Forces{});
  EXPECT_EQ(next.position.x, 100.0f);
  expectVec(next.velocity, {-10, 0, 0});
  expectVec(next.heading, {-1, 0, 0});
}

TEST(Rules, ZeroVelocityRestartsAlongHeading) {
  Fixture f;
  const PackedInputs packed = packInputs(f.params, f.inputs, 1);
  const StepContext ctx = makeStepContext(f.params, packed);
  // v = 0 and no force: v' = 0, so v' = f * min_speed = (2,0,0).
  const BoidUpdate next = integrate(ctx, boid({1, 2, 3}, {0, 0, 0}), Forces{});
  expectVec(next.velocity, {2, 0, 0});
  expectVec(next.position, glm::vec3(1, 2, 3) + glm::vec3(2, 0, 0) / 60.0f);
}

TEST(Rules, ContainOnTheWallClampsAndReflects) {
  Fixture f;
  const PackedInputs packed = packInputs(f.params, f.inputs, 1);
  const StepContext ctx = makeStepContext(f.params, packed);
  const BoidUpdate next = integrate(ctx, boid({100, 0, -100}, {5, 0, -5}), Forces{});
  EXPECT_EQ(next.position.x, 100.0f);
  EXPECT_EQ(next.position.z, -100.0f);
  EXPECT_NEAR(next.velocity.x, -5.0f, kTol);
  EXPECT_NEAR(next.velocity.z, 5.0f, kTol);
}

TEST(Rules, WrapAcrossTheSeam) {
  Fixture f;
  f.params.boundary = Boundary::Wrap;
  const PackedInputs packed = packInputs(f.params, f.inputs, 1);
  const StepContext ctx = makeStepContext(f.params, packed);
  // Neighbour across the x seam: d = -198 folds to +2.
  const BoidView self = boid({99, 0, 0}, {10, 0, 0});
  const NeighbourSums sums = f.gather(ctx, self, {{{-99, 0, 0}, {10, 0, 0}, 1, 0}});
  ASSERT_EQ(sums.sameGroupCount, 1u);
  expectVec(sums.offsetSum, {2, 0, 0});
  expectVec(minimumImage({100, 0, 0}, f.params.worldSize()), {-100, 0, 0});  // [-size/2, size/2)
  // Integration folds the position into [lo, hi).
  const BoidUpdate next = integrate(ctx, boid({99.95f, 0, 0}, {10, 0, 0}), Forces{});
  EXPECT_NEAR(next.position.x, -100.0f + (99.95f + 10.0f / 60.0f - 100.0f), 1e-4f);
  EXPECT_GE(next.position.x, -100.0f);
  EXPECT_LT(next.position.x, 100.0f);
}

// A 10 x 10 grid of 2-unit cells from (0, 0) with one wall cell (5, 5): x in [10, 12), z in [10, 12),
// centre (11, 11).
std::shared_ptr<WallGrid> oneWallCell() {
  auto walls = std::make_shared<WallGrid>();
  walls->cellSize = 2.0f;
  walls->width = walls->height = 10;
  walls->blocked.assign(100, 0);
  walls->blocked[5 * 10 + 5] = 1;
  return walls;
}

TEST(Rules, WallAheadSteersSideways) {
  Fixture f;
  f.inputs.walls = oneWallCell();
  const PackedInputs packed = packInputs(f.params, f.inputs, 1);
  const StepContext ctx = makeStepContext(f.params, packed);
  // Speed 10: L = 5 + 10 = 15, probes every 1.875; the 4th (t = 7.5, x = 10.5) is in the wall cell.
  // s = 1 - 7.5/15 = 0.5. Dead ahead of the centre: lateral = (-f.z, 0, f.x) = (0,0,1).
  expectVec(wallForce(ctx, boid({3, 0, 11}, {10, 0, 0})), {0, 0, 15});
  // Half a unit to +z of the centre line: away from the centre, +z.
  expectVec(wallForce(ctx, boid({3, 0, 11.5f}, {10, 0, 0})), {0, 0, 15});
  expectVec(wallForce(ctx, boid({3, 0, 10.5f}, {10, 0, 0})), {0, 0, -15});
  // Walls are infinite in y: a 3D boid far above still sees it, and the force has no y.
  expectVec(wallForce(ctx, boid({3, 40, 11.5f}, {10, 0, 0})), {0, 0, 15});
  // Heading away from the wall, or a probe line that misses it: nothing.
  expectVec(wallForce(ctx, boid({3, 0, 11}, {-10, 0, 0})), {0, 0, 0});
  expectVec(wallForce(ctx, boid({3, 0, 15}, {10, 0, 0})), {0, 0, 0});
  // Heading straight up (no x-z heading): nothing.
  expectVec(wallForce(ctx, boid({3, 0, 11}, {0, 10, 0})), {0, 0, 0});
}

TEST(Rules, InsideAWallCellPushesOut) {
  Fixture f;
  f.inputs.walls = oneWallCell();
  const PackedInputs packed = packInputs(f.params, f.inputs, 1);
  const StepContext ctx = makeStepContext(f.params, packed);
  // At (10.5, 11.5): away from the centre (11, 11) is (-0.5, 0, 0.5): 2 * 10 * that, normalised.
  const float c = 20.0f * 0.70710678f;
  expectVec(wallForce(ctx, boid({10.5f, 0, 11.5f}, {1, 0, 0})), {-c, 0, c});
  // At the centre: (1,0,0).
  expectVec(wallForce(ctx, boid({11, 0, 11}, {1, 0, 0})), {20, 0, 0});
  // An empty grid: no force.
  Fixture e;
  e.inputs.walls = std::make_shared<WallGrid>();
  const PackedInputs empty = packInputs(e.params, e.inputs, 1);
  const StepContext none = makeStepContext(e.params, empty);
  expectVec(wallForce(none, boid({10.5f, 0, 11.5f}, {1, 0, 0})), {0, 0, 0});
}

TEST(Rules, WallsAreSolid) {
  Fixture f;
  f.inputs.walls = oneWallCell();  // x in [10, 12), z in [10, 12)
  const PackedInputs packed = packInputs(f.params, f.inputs, 1);
  const StepContext ctx = makeStepContext(f.params, packed);
  // Moving +x into the wall cell: the x move is refused, the z move kept, v.x reflected.
  const BoidUpdate slide = integrate(ctx, boid({9.99f, 0, 11}, {8, 0, 0.6f}), Forces{});
  EXPECT_EQ(slide.position.x, 9.99f);
  EXPECT_NEAR(slide.position.z, 11.0f + 0.6f / 60.0f, 1e-5f);
  expectVec(slide.velocity, {-8, 0, 0.6f});
  // Moving +z into it from below: the x move is kept, v.z reflected.
  const BoidUpdate up = integrate(ctx, boid({11, 0, 9.99f}, {0.6f, 0, 8}), Forces{});
  EXPECT_EQ(up.position.z, 9.99f);
  expectVec(up.velocity, {0.6f, 0, -8});
  // Already inside: moves freely (the wall term pushes it out).
  const BoidUpdate inside = integrate(ctx, boid({10.5f, 0, 11}, {6, 0, 0}), Forces{});
  EXPECT_NEAR(inside.position.x, 10.6f, 1e-5f);
  // Diagonally into its corner: both single moves are blocked too, so it stays and turns round.
  Fixture c;
  auto walls = oneWallCell();
  walls->blocked[5 * 10 + 4] = walls->blocked[4 * 10 + 5] = 1;  // cells left of and below (5, 5)
  c.inputs.walls = walls;
  const PackedInputs cornered = packInputs(c.params, c.inputs, 1);
  const StepContext corner = makeStepContext(c.params, cornered);
  const BoidUpdate stuck = integrate(corner, boid({9.99f, 0, 9.99f}, {5, 0, 5}), Forces{});
  expectVec(stuck.position, {9.99f, 0, 9.99f});
  expectVec(stuck.velocity, {-5, 0, -5});
}

TEST(Rules, TwoDimensionsKeepYZero) {
  Fixture f;
  f.params.dims = 2;
  f.inputs.goal = {glm::vec3(0, 30, 20)};  // the goal's y is dropped in 2D
  f.params.goalMode = GoalMode::All;
  const PackedInputs packed = packInputs(f.params, f.inputs, 1);
  const StepContext ctx = makeStepContext(f.params, packed);
  const BoidUpdate next =
      integrate(ctx, boid({0, 0, 0}, {5, 0, 0}), computeForces(ctx, boid({0, 0, 0}, {5, 0, 0}), {}));
  EXPECT_EQ(next.position.y, 0.0f);
  EXPECT_EQ(next.velocity.y, 0.0f);
  EXPECT_GT(next.velocity.z, 0.0f);
}

// ---- Chase and intercept groups (step 8c) ----

TEST(Pursuit, ChaseAimsAtTheTargetInterceptAtItsPredictedPoint) {
  const glm::vec3 sr(30, 0, 0), vTarget(0, 0, 5), v(10, 0, 0);
  expectVec(pursuitAim(GroupRole::Chase, sr, vTarget, v, 3.0f), sr);
  // Vr = (-10, 0, 5), |Vr| = sqrt(125); t = 30 / sqrt(125) = 2.6833 s (under a 3 s horizon):
  // aim = (30, 0, 5 t) = (30, 0, 13.4164).
  expectVec(pursuitAim(GroupRole::Intercept, sr, vTarget, v, 3.0f), {30, 0, 13.416408f}, 1e-4f);
  // Far away: t = 100 / sqrt(125) = 8.944 s, capped at a horizon of 3: aim = (100, 0, 15); under
  // the default horizon (30 s) uncapped: aim = (100, 0, 44.72136).
  expectVec(pursuitAim(GroupRole::Intercept, {100, 0, 0}, vTarget, v, 3.0f), {100, 0, 15});
  EXPECT_EQ(GroupSteering{}.maxInterceptSeconds, 30.0f);
  expectVec(pursuitAim(GroupRole::Intercept, {100, 0, 0}, vTarget, v, GroupSteering{}.maxInterceptSeconds),
            {100, 0, 44.72136f}, 1e-4f);
}

TEST(Pursuit, ZeroClosingVelocityPredictsTheHorizonAndStaysFinite) {
  // The boid moves exactly as the target: Vr = 0, t = the horizon, aim = Sr + v_target t:
  // 3 s: (32, 0, -1); 30 s: (140, 0, 80).
  const glm::vec3 aim = pursuitAim(GroupRole::Intercept, {20, 0, -10}, {4, 0, 3}, {4, 0, 3}, 3.0f);
  EXPECT_TRUE(std::isfinite(aim.x) && std::isfinite(aim.y) && std::isfinite(aim.z));
  expectVec(aim, {32, 0, -1});
  expectVec(pursuitAim(GroupRole::Intercept, {20, 0, -10}, {4, 0, 3}, {4, 0, 3}, 30.0f), {140, 0, 80});
  // A horizon of 0: the target itself, as a chase.
  expectVec(pursuitAim(GroupRole::Intercept, {20, 0, -10}, {4, 0, 3}, {1, 0, 0}, 0.0f), {20, 0, -10});
  // Both at rest: the target itself.
  expectVec(pursuitAim(GroupRole::Intercept, {20, 0, -10}, {0, 0, 0}, {0, 0, 0}, 30.0f), {20, 0, -10});
}

// Group 0 intercepts a target at (30, 0, 0) moving (0, 0, 5) with thrust 1.5; the model's max speed
// is 10, so a pursuing boid's desired speed is 15.
struct PursuitFixture : Fixture {
  explicit PursuitFixture(bool flocking) {
    GroupSteering s;
    s.role = GroupRole::Intercept;
    s.flocking = flocking;
    s.thrust = 1.5f;
    s.weight = 2.0f;
    s.target = {30, 0, 0};
    s.targetVelocity = {0, 0, 5};
    inputs.steering = {s};
  }
};

TEST(Pursuit, LeadersPursueFollowersDoNotUnlessFlockingIsOff) {
  const glm::vec3 v(10, 0, 0);
  const BoidView self = boid({0, 0, 0}, v);
  // Expected: norm((30, 0, 13.4164)) * 15 - v = (13.6931, 0, 6.1237) - (10, 0, 0).
  const glm::vec3 aim(30, 0, 13.416408f);
  const glm::vec3 expected = aim / glm::length(aim) * 15.0f - v;
  const Fixture::Other ahead{{1.5f, 0, 0}, v, 1, 0};  // a flock-mate in the front cone: self follows
  {
    const PursuitFixture f(true);
    const PackedInputs packed = packInputs(f.params, f.inputs, 1);
    const StepContext ctx = makeStepContext(f.params, packed);
    expectVec(pursuitForce(ctx, self, f.gather(ctx, self, {})), expected, 1e-4f);
    expectVec(pursuitForce(ctx, self, f.gather(ctx, self, {ahead})), {0, 0, 0});
    // Flocking on: separation acts.
    EXPECT_NE(computeForces(ctx, self, f.gather(ctx, self, {ahead})).separation, glm::vec3(0.0f));
  }
  {
    const PursuitFixture f(false);
    const PackedInputs packed = packInputs(f.params, f.inputs, 1);
    const StepContext ctx = makeStepContext(f.params, packed);
    const NeighbourSums sums = f.gather(ctx, self, {ahead});
    expectVec(pursuitForce(ctx, self, sums), expected, 1e-4f);  // flocking off: every boid pursues
    const Forces forces = computeForces(ctx, self, sums);
    EXPECT_EQ(forces.separation, glm::vec3(0.0f)) << "flocking off: no separation, alignment, cohesion";
    EXPECT_EQ(forces.alignment, glm::vec3(0.0f));
    EXPECT_EQ(forces.cohesion, glm::vec3(0.0f));
  }
  {
    const Fixture flock;  // no steering: every group flocks
    const PackedInputs packed = packInputs(flock.params, flock.inputs, 1);
    const StepContext ctx = makeStepContext(flock.params, packed);
    expectVec(pursuitForce(ctx, self, flock.gather(ctx, self, {})), {0, 0, 0});
  }
}

TEST(Pursuit, ThrustScalesMaxForceAndMaxSpeed) {
  PursuitFixture f(false);
  f.params.weights = Weights{0, 0, 0, 0, 0, 0, 0, 0, 0};
  const PackedInputs packed = packInputs(f.params, f.inputs, 1);
  const StepContext ctx = makeStepContext(f.params, packed);
  // At 14.8 units/s (above the model's max speed 10, under 1.5 x 10) with a pursuit of weight 2:
  // the force is clamped to 1.5 x max_force = 30 (dv = 30 / 60), and the speed to 15.
  const BoidView self = boid({0, 0, 0}, {0, 0, -14.8f});
  Forces forces;
  forces.pursuit = {0, 0, 1000};
  const BoidUpdate next = integrate(ctx, self, forces);
  expectVec(next.velocity, {0, 0, -14.8f + 30.0f / 60.0f});
  forces.pursuit = {0, 0, -1000};
  expectVec(integrate(ctx, self, forces).velocity, {0, 0, -15});
}

// ---- Periodic obstacles, goals and predators in a wrap world ----

// A 2D torus 100 units wide, an obstacle of radius 5 centred at x = 48: it reaches across the seam
// to x = -47 (53 on the other side).
struct SeamFixture : Fixture {
  SeamFixture() {
    params.dims = 2;
    params.boundary = Boundary::Wrap;
    params.worldMin = {-50, -5, -50};
    params.worldMax = {50, 5, 50};
    inputs.obstacleCenter = {{48, 0, 0}};
    inputs.obstacleRadius = {5};
  }
};

TEST(WrapWorld, AnObstacleAcrossTheSeamIsAvoidedAndSolid) {
  const SeamFixture f;
  const PackedInputs packed = packInputs(f.params, f.inputs, 1);
  const StepContext ctx = makeStepContext(f.params, packed);
  // Flying -x at x = -40, z = 1: through the seam the obstacle is 12 ahead (a = (-12, 0, -1)),
  // b = (0, 0, -1), |b| = 1 < re = 5.5; reach L = 5 + 10 = 15, s = 1 - 12 / 20.5:
  // F = 10 (1 + s) (0, 0, 1) = (0, 0, 14.146341).
  expectVec(avoidanceForce(ctx, boid({-40, 0, 1}, {-10, 0, 0})), {0, 0, 14.146341f}, 1e-4f);
  // At x = -49 the boid is 3 from the centre through the seam, inside: pushed straight out, +x.
  expectVec(avoidanceForce(ctx, boid({-49, 0, 0}, {-10, 0, 0})), {20, 0, 0});
}

TEST(WrapWorld, GoalAndFleeOffsetsAreMinimumImages) {
  SeamFixture f;
  f.inputs.obstacleCenter.clear();
  f.inputs.obstacleRadius.clear();
  f.inputs.goal = {glm::vec3(45, 0, 0)};
  f.params.goalMode = GoalMode::All;
  f.inputs.predators = {{48, 0, 0}};
  const PackedInputs packed = packInputs(f.params, f.inputs, 1);
  const StepContext ctx = makeStepContext(f.params, packed);
  // Goal 10 away through the seam (not 90 across the world): to = (-10, 0, 0), dist = slow radius:
  // F = (-1, 0, 0) 10 min(1, 10/10) - v = (-10, 0, -2).
  expectVec(goalForce(ctx, boid({-45, 0, 0}, {0, 0, 2}), NeighbourSums{}), {-10, 0, -2});
  // Predator 4 away through the seam: e = (4, 0, 0), F = ((10, 0, 0) - v)(1 - 4/15).
  expectVec(fleeForce(ctx, boid({-48, 0, 0}, {0, 0, 2})), {110.0f / 15.0f, 0, -22.0f / 15.0f}, 1e-5f);
  // Points outside the world are the same points on the torus: a goal at x = 145 is the one at 45.
  f.inputs.goal = {glm::vec3(145, 0, 0)};
  const PackedInputs outside = packInputs(f.params, f.inputs, 1);
  expectVec(glm::vec3(outside.goals[0]), {45, 0, 0});
}

}  // namespace
}  // namespace murmur::sim
