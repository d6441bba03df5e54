// The flocking lab's unit (sim/lab_model.hpp): the polynomials both backends use for the angle and
// the turn against the C library in double, and one step of the rigid body against values worked
// by hand from its equations (docs/model.md, The lab's units).
#include <gtest/gtest.h>

#include <cmath>
#include <numbers>
#include <vector>

#include <glm/geometric.hpp>

#include "sim/lab_model.hpp"
#include "sim/rules.hpp"
#include "sim/scene.hpp"

namespace murmur::sim {
namespace {

TEST(LabModel, TurnFractionIsTheAngleOverPiWithinFloatPrecision) {
  EXPECT_EQ(labTurnFraction(1.0f), 0.0f);
  EXPECT_EQ(labTurnFraction(-1.0f), 1.0f);
  EXPECT_EQ(labTurnFraction(2.0f), 0.0f) << "clamped";
  EXPECT_NEAR(labTurnFraction(0.0f), 0.5f, 1e-7f);
  double worst = 0.0;
  for (int i = -1000; i <= 1000; ++i) {
    const double c = i / 1000.0;
    worst = std::max(worst, std::abs(double(labTurnFraction(float(c))) - std::acos(c) / std::numbers::pi));
  }
  EXPECT_LT(worst, 5e-7);
}

TEST(LabModel, TurnHeadingRotatesTowardsTheSideByTheAngle) {
  const glm::vec3 f = glm::normalize(glm::vec3(3.0f, 0.0f, -4.0f));
  double worst = 0.0;
  for (int i = -50; i <= 50; ++i) {
    const float angle = kLabMaxTurnPerStep * float(i) / 50.0f;
    const glm::vec3 turned = labTurnHeading(f, angle);
    EXPECT_NEAR(glm::length(turned), 1.0f, 1e-6f);
    EXPECT_EQ(turned.y, 0.0f);
    // The exact turn: cos a f + sin a side.
    const glm::vec3 side = labSide(f);
    for (int k : {0, 2})
      worst = std::max(worst, std::abs(double(turned[k]) -
                                       (std::cos(double(angle)) * f[k] + std::sin(double(angle)) * side[k])));
  }
  EXPECT_LT(worst, 1e-6);
  // A positive angle turns towards the side: (1, 0, 0) towards (0, 0, 1).
  EXPECT_GT(labTurnHeading({1.0f, 0.0f, 0.0f}, 0.1f).z, 0.0f);
}

// The body of the book's craft, worked out: mass 10, L = 2, max_force 20, max_speed 10,
// steering 0.6, inertia 1/16, spin rate 180 degrees/s.
ModelParams bookBody() {
  ModelParams m;
  m.mass = 10.0f;
  m.bodyLength = 2.0f;
  m.maxForce = 20.0f;
  m.maxSpeed = 10.0f;
  m.labSteering = 0.6f;
  m.labInertia = 0.0625f;
  m.labSpinRate = 180.0f;
  return m;
}

TEST(LabModel, TheBodysConstantsFollowFromTheParameters) {
  const LabBody body = labBody(bookBody());
  EXPECT_FLOAT_EQ(body.thrust, 200.0f);    // m max_force
  EXPECT_FLOAT_EQ(body.drag, 2.0f);        // 200 / 10^2: the drag at 10 units/s is the thrust
  EXPECT_FLOAT_EQ(body.steering, 120.0f);  // 0.6 of the thrust
  EXPECT_FLOAT_EQ(body.inertia, 2.5f);     // 10 * 2^2 / 16
  EXPECT_FLOAT_EQ(body.bowArm, 1.0f);      // L/2
  EXPECT_FLOAT_EQ(body.dragArm, 0.24f);    // 0.12 L
  EXPECT_NEAR(body.angularDrag, 120.0f / std::numbers::pi, 1e-4);  // bowArm F / pi (180 degrees/s)
}

TEST(LabModel, AStepFromRestIsTheThrustAlone) {
  const LabBody body = labBody(bookBody());
  const LabUnit next = integrateLabUnit(
      body, {{1.0f, 0.0f, 2.0f}, {0.0f, 0.0f, 0.0f}, {1.0f, 0.0f, 0.0f}, 0.0f}, 0.0f, 1.0f, 0.1f);
  // a = 200 / 10 = 20 along x; v = 2; p = 1 + 0.2; no drag at rest, no torque.
  EXPECT_FLOAT_EQ(next.velocity.x, 2.0f);
  EXPECT_EQ(next.velocity.z, 0.0f);
  EXPECT_FLOAT_EQ(next.position.x, 1.2f);
  EXPECT_EQ(next.position.z, 2.0f);
  EXPECT_EQ(next.spin, 0.0f);
  EXPECT_EQ(next.heading, glm::vec3(1.0f, 0.0f, 0.0f));
  // The group's thrust scales it: 1.5 times.
  EXPECT_FLOAT_EQ(integrateLabUnit(body, {{}, {}, {1.0f, 0.0f, 0.0f}, 0.0f}, 0.0f, 1.5f, 0.1f).velocity.x,
                  3.0f);
}

TEST(LabModel, AtMaxSpeedTheDragBalancesTheThrust) {
  const LabBody body = labBody(bookBody());
  const LabUnit next =
      integrateLabUnit(body, {{}, {10.0f, 0.0f, 0.0f}, {1.0f, 0.0f, 0.0f}, 0.0f}, 0.0f, 1.0f, 1.0f / 60.0f);
  EXPECT_NEAR(next.velocity.x, 10.0f, 1e-5f);
  EXPECT_EQ(next.velocity.z, 0.0f);
  EXPECT_EQ(next.spin, 0.0f);
}

TEST(LabModel, APushAtTheBowPushesAndTurnsTowardsTheSide) {
  const LabBody body = labBody(bookBody());
  const float dt = 0.1f, push = 120.0f;
  // Heading +x, side +z, at rest: force (200, 0, 120), torque bowArm push = 120.
  const LabUnit next = integrateLabUnit(body, {{}, {}, {1.0f, 0.0f, 0.0f}, 0.0f}, push, 1.0f, dt);
  EXPECT_FLOAT_EQ(next.velocity.x, 2.0f);
  EXPECT_FLOAT_EQ(next.velocity.z, 1.2f);
  // spin = (0 + 120 / 2.5 * 0.1) / (1 + (120 / pi) / 2.5 * 0.1) = 4.8 / 2.5279 = 1.8988
  const double spin = 4.8 / (1.0 + (120.0 / std::numbers::pi) / 2.5 * 0.1);
  EXPECT_NEAR(next.spin, spin, 1e-5);
  EXPECT_NEAR(next.heading.x, std::cos(spin * 0.1), 1e-6);
  EXPECT_NEAR(next.heading.z, std::sin(spin * 0.1), 1e-6);
  // Held, a full push spins the unit at about the spin rate (the drag's torque aside).
  LabUnit unit{{}, {10.0f, 0.0f, 0.0f}, {1.0f, 0.0f, 0.0f}, 0.0f};
  for (int step = 0; step < 120; ++step) unit = integrateLabUnit(body, unit, push, 1.0f, 1.0f / 60.0f);
  EXPECT_NEAR(unit.spin, std::numbers::pi, 0.25 * std::numbers::pi);
}

TEST(LabModel, TheTurnPerStepIsCapped) {
  const LabBody body = labBody(bookBody());
  const LabUnit next = integrateLabUnit(body, {{}, {}, {1.0f, 0.0f, 0.0f}, 100.0f}, 0.0f, 1.0f, 0.1f);
  const float turned = std::atan2(next.heading.z, next.heading.x);
  EXPECT_NEAR(turned, kLabMaxTurnPerStep, 1e-6f);
}

// The book's pushes (rules.cpp, labPush), worked by hand for a unit at the origin heading +x (its
// side is +z) at 10 units/s, in the book's body with L = 2 (F = 120), the limited view: R = 60,
// Rs = 10, the field of view the half-plane ahead.
struct LabFixture {
  ModelParams m = bookBody();
  StepInputs inputs;
  PackedInputs packed;
  StepContext ctx;
  BoidView self{{0.0f, 0.0f, 0.0f}, {10.0f, 0.0f, 0.0f}, {1.0f, 0.0f, 0.0f}, 0, 0};

  explicit LabFixture(std::vector<Obstacle> obstacles = {}, GroupSteering steering = {}) {
    m.dims = 2;
    m.boundary = Boundary::Wrap;
    m.worldMin = {-200.0f, -5.0f, -200.0f};
    m.worldMax = {200.0f, 5.0f, 200.0f};
    m.unitModel = UnitModel::Lab;
    m.perceptionRadius = 60.0f;
    m.separationRadius = 10.0f;
    m.leaderRadius = 100.0f;
    m.fovDegrees = 180.0f;
    for (const Obstacle& o : obstacles) {
      inputs.obstacleCenter.push_back(o.center);
      inputs.obstacleRadius.push_back(o.radius);
    }
    inputs.steering = {steering};
    packed = packInputs(m, inputs, 1);
    ctx = makeStepContext(m, packed);
  }
};

TEST(LabModel, OneNeighbourOnTheSidePushesAwayAndDrawsCohesionAndAlignment) {
  const LabFixture lab;
  NeighbourSums sums;
  // A flockmate at (4, 0, 3): 5 away, inside Rs, on the side (d . side = 3), heading +z.
  accumulateNeighbour(lab.ctx, lab.self, {4.0f, 0.0f, 3.0f}, {0.0f, 0.0f, 1.0f}, 1, 0, sums);
  finishNeighbours(lab.ctx, sums);
  EXPECT_FLOAT_EQ(sums.lateralSeparation, -0.2f);  // away from its side: -1 / 5
  // Separation F Rs (-0.2) = -240; cohesion towards (0.8, 0, 0.6): + F acos(0.8) / pi; alignment
  // with +z: + F (90 degrees) / 180 = 60.
  const double expected = -240.0 + 120.0 * std::acos(0.8) / std::numbers::pi + 60.0;
  EXPECT_NEAR(labPush(lab.ctx, lab.self, sums), expected, 1e-3);
  // Behind the unit the limited view sees nothing: no push.
  NeighbourSums behind;
  accumulateNeighbour(lab.ctx, lab.self, {-4.0f, 0.0f, 3.0f}, {0.0f, 0.0f, 1.0f}, 1, 0, behind);
  finishNeighbours(lab.ctx, behind);
  EXPECT_EQ(labPush(lab.ctx, lab.self, behind), 0.0f);
}

TEST(LabModel, ARockAheadPushesAwayFromItsSide) {
  // The look-ahead is 25 L = 50. A rock of radius 3 centred at (20, 0, -1): ahead (t = 20), its
  // centre 1 off the line: push +F 50 / |a| (away from the -z side it lies on).
  const LabFixture lab({{{20.0f, 0.0f, -1.0f}, 3.0f}});
  const double expected = 120.0 * 50.0 / std::sqrt(401.0);
  EXPECT_NEAR(labPush(lab.ctx, lab.self, NeighbourSums{}), expected, 1e-3);
  // Too far to the side (4 off the line, radius 3), beyond the look-ahead, or behind: nothing.
  for (const glm::vec3 centre :
       {glm::vec3(20.0f, 0.0f, 4.0f), glm::vec3(60.0f, 0.0f, 0.0f), glm::vec3(-20.0f, 0.0f, 0.0f)})
    EXPECT_EQ(labPush(LabFixture({{centre, 3.0f}}).ctx, LabFixture().self, NeighbourSums{}), 0.0f)
        << centre.x;
}

TEST(LabModel, ChasersPushTowardsTheTargetsSideAtFullStrength) {
  GroupSteering chase;
  chase.role = GroupRole::Chase;
  chase.target = {-10.0f, 0.0f, -30.0f};  // behind and on the -z side
  chase.weight = 2.0f;
  const LabFixture lab({}, chase);
  EXPECT_FLOAT_EQ(labPush(lab.ctx, lab.self, NeighbourSums{}), -2.0f * 120.0f);
  // A follower (someone in its front cone, flocking on) leaves the chase to its leaders.
  NeighbourSums follower;
  follower.frontOccupied = true;
  EXPECT_EQ(labPush(lab.ctx, lab.self, follower), 0.0f);
}

}  // namespace
}  // namespace murmur::sim
