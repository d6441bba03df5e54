// The player unit (ai/player.hpp, kind = "player"): its bow-thruster motion against hand-computed
// values (turn rate, thrust, max speed), the course input, the scripted course run twice, the keys'
// input through the director (the API the demo window's arrow keys call), and the scene keys with
// their errors (file, line, key).
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <numbers>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <fmt/format.h>
#include <gtest/gtest.h>
#include <glm/geometric.hpp>

#include "ai/director.hpp"
#include "ai/player.hpp"
#include "ai/scene_agents.hpp"
#include "core/error.hpp"
#include "sim/builders.hpp"
#include "sim/scene_loader.hpp"

namespace murmur::ai {
namespace {

constexpr float kPi = std::numbers::pi_v<float>;
constexpr float kTolerance = 1e-5f;

void expectNear(const glm::vec3& actual, const glm::vec3& expected) {
  EXPECT_NEAR(actual.x, expected.x, kTolerance);
  EXPECT_NEAR(actual.y, expected.y, kTolerance);
  EXPECT_NEAR(actual.z, expected.z, kTolerance);
}

// 90 degrees/s, 4 units/s, 2 units/s^2; half-second steps: a full turn input turns 45 degrees a
// step, a full throttle adds 1 unit/s a step.
const PlayerLimits kLimits{kPi / 2.0f, 4.0f, 2.0f};
constexpr float kDt = 0.5f;

TEST(PlayerMotion, TurnRateAndThrustAgainstHandComputedValues) {
  PlayerMotion motion;
  // Full left and full thrust: 45 degrees counter-clockwise from +x (toward -z), 1 unit/s.
  expectNear(thrust(motion, {1.0f, 1.0f}, kLimits, kDt), glm::vec3(std::sqrt(0.5f), 0.0f, -std::sqrt(0.5f)));
  EXPECT_NEAR(motion.angle, kPi / 4.0f, kTolerance);
  EXPECT_FLOAT_EQ(motion.speed, 1.0f);
  // Again: 90 degrees, 2 units/s, along -z.
  expectNear(thrust(motion, {1.0f, 1.0f}, kLimits, kDt), glm::vec3(0.0f, 0.0f, -2.0f));
  // Half a right turn and half thrust: 67.5 degrees, 2.5 units/s.
  expectNear(thrust(motion, {-0.5f, 0.5f}, kLimits, kDt),
             2.5f * glm::vec3(std::cos(3.0f * kPi / 8.0f), 0.0f, -std::sin(3.0f * kPi / 8.0f)));
  EXPECT_FLOAT_EQ(motion.speed, 2.5f);
}

TEST(PlayerMotion, SpeedStaysBetweenZeroAndMaxSpeedAndInputsAreClamped) {
  PlayerMotion motion;
  for (int step = 0; step < 3; ++step) thrust(motion, {0.0f, 1.0f}, kLimits, kDt);
  EXPECT_FLOAT_EQ(motion.speed, 3.0f);
  expectNear(thrust(motion, {0.0f, 7.0f}, kLimits, kDt), glm::vec3(4.0f, 0.0f, 0.0f));  // +1 at most: 4
  expectNear(thrust(motion, {0.0f, 1.0f}, kLimits, kDt), glm::vec3(4.0f, 0.0f, 0.0f));  // max speed
  // Turning does not slow it; -3 turns as -1: 45 degrees right (toward +z).
  expectNear(thrust(motion, {-3.0f, 0.0f}, kLimits, kDt),
             4.0f * glm::vec3(std::sqrt(0.5f), 0.0f, std::sqrt(0.5f)));
  for (int step = 0; step < 3; ++step) thrust(motion, {0.0f, -1.0f}, kLimits, kDt);
  EXPECT_FLOAT_EQ(motion.speed, 1.0f);
  expectNear(thrust(motion, {0.0f, -1.0f}, kLimits, kDt), glm::vec3(0.0f));  // never backwards
  EXPECT_FLOAT_EQ(motion.speed, 0.0f);
}

TEST(PlayerMotion, CourseInputTurnsOntoTheBearingAndSlowsForTightTurns) {
  const glm::vec3 origin(0.0f);
  // Straight ahead, at rest: no turn, full thrust.
  PlayerInput input = courseInput({0.0f, 0.0f}, origin, glm::vec3(10.0f, 0.0f, 0.0f), kLimits, kDt);
  EXPECT_FLOAT_EQ(input.turn, 0.0f);
  EXPECT_FLOAT_EQ(input.throttle, 1.0f);
  // 0.1 rad to the left: a fraction of one step's 45-degree turn, 0.1 / (pi / 4).
  const glm::vec3 slightlyLeft(10.0f * std::cos(0.1f), 0.0f, -10.0f * std::sin(0.1f));
  input = courseInput({0.0f, 0.0f}, origin, slightlyLeft, kLimits, kDt);
  EXPECT_NEAR(input.turn, 0.1f / (kPi / 4.0f), kTolerance);
  // 90 degrees right, 10 units away: full right turn; the turn reaches it at up to
  // (pi / 2) 10 / 2 = 7.85 > max speed, so full thrust.
  input = courseInput({0.0f, 0.0f}, origin, glm::vec3(0.0f, 0.0f, 10.0f), kLimits, kDt);
  EXPECT_FLOAT_EQ(input.turn, -1.0f);
  EXPECT_FLOAT_EQ(input.throttle, 1.0f);
  // 90 degrees left, 2 units away, at 4 units/s: it must slow to (pi / 2) 2 / 2 = 1.57 units/s,
  // (1.57 - 4) / (2 x 0.5) < -1: full reverse thrust.
  input = courseInput({0.0f, 4.0f}, origin, glm::vec3(0.0f, 0.0f, -2.0f), kLimits, kDt);
  EXPECT_FLOAT_EQ(input.turn, 1.0f);
  EXPECT_FLOAT_EQ(input.throttle, -1.0f);
  // At 1.5 units/s it speeds up by (1.5708 - 1.5) / 1 = 0.0708.
  input = courseInput({0.0f, 1.5f}, origin, glm::vec3(0.0f, 0.0f, -2.0f), kLimits, kDt);
  EXPECT_NEAR(input.throttle, kPi / 2.0f - 1.5f, kTolerance);
}

// ---- The rigid-body player (body = "rigid"; docs/ai.md, The rigid-body player) ----

// mass 10, inertia 10, L = 2, thrust 40, bow thrust F = 40 (the player fires 20), drags 4 and 10.
const RigidBody kBody{};
constexpr float kRigidDt = 0.1f;

TEST(RigidPlayer, ABowPushTurnsAndPushesItAgainstHandComputedValues) {
  // At rest facing +x, the starboard bow thruster (turn +1): a side force of 20 to the left, -z,
  // at the bow 1 unit ahead: torque 1 x 20 = 20. v = (0, 0, -20 / 10 x 0.1) = (0, 0, -0.2);
  // spin = 20 / 10 x 0.1 = 0.2 rad/s; angle = 0.2 x 0.1 = 0.02 rad (counter-clockwise: left).
  PlayerMotion motion;
  expectNear(rigidStep(motion, {1.0f, 0.0f}, kBody, 10.0f, kRigidDt), glm::vec3(0.0f, 0.0f, -0.2f));
  EXPECT_NEAR(motion.spin, 0.2f, kTolerance);
  EXPECT_NEAR(motion.angle, 0.02f, kTolerance);
  EXPECT_NEAR(motion.speed, 0.2f, kTolerance);
  // The port thruster at half (turn -0.5) on a body facing -z (angle pi/2, its left is -x): a side
  // force of 10 toward +x and a torque of -10 (a right turn); from rest v = (0.1, 0, 0), spin = -0.1.
  PlayerMotion facingMinusZ;
  facingMinusZ.angle = kPi / 2.0f;
  expectNear(rigidStep(facingMinusZ, {-0.5f, 0.0f}, kBody, 10.0f, kRigidDt), glm::vec3(0.1f, 0.0f, 0.0f));
  EXPECT_NEAR(facingMinusZ.spin, -0.1f, kTolerance);
}

TEST(RigidPlayer, DragSlowsItsMotionAndItsSpinAgainstHandComputedValues) {
  // v = (5, 0, 0), spin 1 rad/s, no input: F = -4 x 5 = -20, v = 5 - 20 / 10 x 0.1 = 4.8; the torque
  // -10 x 1: spin = 1 - 10 / 10 x 0.1 = 0.9; angle = 0.9 x 0.1 = 0.09 (it slides on along +x).
  PlayerMotion motion;
  motion.velocity = {5.0f, 0.0f, 0.0f};
  motion.spin = 1.0f;
  expectNear(rigidStep(motion, {0.0f, 0.0f}, kBody, 10.0f, kRigidDt), glm::vec3(4.8f, 0.0f, 0.0f));
  EXPECT_NEAR(motion.spin, 0.9f, kTolerance);
  EXPECT_NEAR(motion.angle, 0.09f, kTolerance);
  // Full thrust ahead against the drag at 5: F = 40 - 20 = 20 along +x (its new heading is used
  // next step): v = 4.8 + (40 - 4 x 4.8) / 10 x 0.1 = 4.8 + 0.208 along the old heading (angle 0.09).
  const glm::vec3 ahead = headingOf(0.09f);
  const glm::vec3 expected =
      glm::vec3(4.8f, 0.0f, 0.0f) + (40.0f * ahead - 4.0f * glm::vec3(4.8f, 0.0f, 0.0f)) / 10.0f * 0.1f;
  expectNear(rigidStep(motion, {0.0f, 1.0f}, kBody, 10.0f, kRigidDt), expected);
  // The terminal speed is thrust / linear drag = 10; max_speed 6 clamps it.
  PlayerMotion fast;
  for (int step = 0; step < 2000; ++step) rigidStep(fast, {0.0f, 1.0f}, kBody, 6.0f, kRigidDt);
  EXPECT_NEAR(fast.speed, 6.0f, kTolerance);
  PlayerMotion unclamped;
  for (int step = 0; step < 2000; ++step) rigidStep(unclamped, {0.0f, 1.0f}, kBody, 100.0f, kRigidDt);
  EXPECT_NEAR(unclamped.speed, 10.0f, 1e-3f);
}

// The course input points the thrust at the force the body needs: straight ahead at rest it wants
// 8 units/s (max speed 8 < 0.9 x 40 / 4 = 9, and < 20 / 1 s), a force 10 x 8 / 0.5 = 160 along +x:
// full throttle, no turn. A waypoint 90 degrees left: the force (0, 0, -160) has no part along the
// heading (throttle 0) and lies pi/2 to the left: a wanted spin of min(4 pi/2, sqrt(2 x pi/2),
// 0.9 x 20 / 10) = 1.77 rad/s, whose torque in one step (10 x 1.77 / 0.1) is far over the
// thrusters' 20: full left.
TEST(RigidPlayer, CourseInputPointsTheThrustAtTheForceItNeeds) {
  const PlayerMotion rest;
  PlayerInput input =
      rigidCourseInput(rest, glm::vec3(0.0f), glm::vec3(20.0f, 0.0f, 0.0f), kBody, 8.0f, kRigidDt);
  EXPECT_FLOAT_EQ(input.throttle, 1.0f);
  EXPECT_FLOAT_EQ(input.turn, 0.0f);
  input = rigidCourseInput(rest, glm::vec3(0.0f), glm::vec3(0.0f, 0.0f, -20.0f), kBody, 8.0f, kRigidDt);
  EXPECT_NEAR(input.throttle, 0.0f, kTolerance);
  EXPECT_FLOAT_EQ(input.turn, 1.0f);
  // Spinning left at 1.77 rad/s already, on the bearing: it brakes the spin, full right.
  PlayerMotion spinning;
  spinning.spin = 1.77f;
  input = rigidCourseInput(spinning, glm::vec3(0.0f), glm::vec3(20.0f, 0.0f, 0.0f), kBody, 8.0f, kRigidDt);
  EXPECT_FLOAT_EQ(input.turn, -1.0f);
}

const std::string kSource = "player.toml";

// A 2D world of 100 x 100 and a player on a square course; a chase group targets it.
const std::string kWorld = R"(
[world]
dims = 2
min = [-50, -5, -50]
max = [50, 5, 50]
[boids]
groups = 2
[[groups]]
group = 1
role = "chase"
target_agent = "player"
)";

const std::string kPlayer = R"(
[[agents]]
name = "player"
kind = "player"
position = [-30, 0, -30]
max_speed = 4
max_force = 2
turn_rate = 90
)";

const std::string kCourse = "course = [[30, 0, -30], [30, 0, 30], [-30, 0, 30], [-30, 0, -30]]\n";

AgentDirector director(const std::string& text) {
  std::optional<AgentDirector> made =
      AgentDirector::fromScene(sim::parseScene(text, kSource, kSceneSections));
  if (!made) throw std::logic_error("no agents");
  return std::move(*made);
}

TEST(PlayerAgent, FollowsItsCourseInALoopAndTwoRunsAreEqual) {
  const std::string text = kWorld + kPlayer + kCourse;
  const sim::Scene scene = sim::parseScene(text, kSource, kSceneSections);
  AgentDirector first = director(text), second = director(text);
  sim::StepInputs inputs = sim::staticInputs(scene, scene.groups), other = inputs;
  const std::vector<glm::vec3> course{{30, 0, -30}, {30, 0, 30}, {-30, 0, 30}, {-30, 0, -30}};
  std::vector<float> closest(course.size(), 1e9f);
  float fastest = 0.0f;
  // 4 x 60 units of course at 4 units/s: a lap in about 60 s; 150 s is two laps and more.
  for (int step = 0; step < 1500; ++step) {
    first.update(0.1, {}, {}, inputs);
    second.update(0.1, {}, {}, other);
    ASSERT_EQ(first.position(0), second.position(0)) << "step " << step;
    ASSERT_EQ(first.velocity(0), second.velocity(0)) << "step " << step;
    EXPECT_EQ(inputs.steering[1].target, first.position(0));
    fastest = std::max(fastest, glm::length(first.velocity(0)));
    for (std::size_t w = 0; w < course.size(); ++w)
      closest[w] = std::min(closest[w], glm::length(first.position(0) - course[w]));
  }
  for (std::size_t w = 0; w < course.size(); ++w) EXPECT_LT(closest[w], 2.0f) << "waypoint " << w;
  EXPECT_LE(fastest, 4.0f);
  EXPECT_GT(fastest, 3.9f);
  EXPECT_EQ(first.kind(0), AgentKind::Player);
  EXPECT_EQ(first.stateName(0), "player");
  EXPECT_FALSE(first.action(0).has_value()) << "a player runs no state machine";
  EXPECT_FALSE(first.playersSteered());
}

// What the demo window's arrow keys call: once steered, the input drives (the course is left), and
// the same input gives the same motion as thrust() by hand.
TEST(PlayerAgent, TheKeysInputDrivesInsteadOfTheCourse) {
  AgentDirector keys = director(kWorld + kPlayer + kCourse);
  const sim::Scene scene = sim::parseScene(kWorld + kPlayer + kCourse, kSource, kSceneSections);
  sim::StepInputs inputs = sim::staticInputs(scene, scene.groups);
  keys.steerPlayers({0.0f, 1.0f});
  EXPECT_TRUE(keys.playersSteered());
  // Full thrust along +x for 10 steps of 0.1 s at 2 units/s^2: speeds 0.2, 0.4, ..., 2.0; the
  // distance 0.1 x (0.2 + 0.4 + ... + 2.0) = 1.1.
  for (int step = 0; step < 10; ++step) keys.update(0.1, {}, {}, inputs);
  expectNear(keys.position(0), glm::vec3(-30.0f + 1.1f, 0.0f, -30.0f));
  expectNear(keys.velocity(0), glm::vec3(2.0f, 0.0f, 0.0f));
  // Full left for 1 s at 90 degrees/s, coasting: heading -z at 2 units/s.
  keys.steerPlayers({1.0f, 0.0f});
  for (int step = 0; step < 10; ++step) keys.update(0.1, {}, {}, inputs);
  expectNear(keys.velocity(0), glm::vec3(0.0f, 0.0f, -2.0f));
  expectNear(keys.heading(0), glm::vec3(0.0f, 0.0f, -1.0f));
  // Let go ({0, 0}): straight on at the same speed, not back to the course.
  keys.steerPlayers({0.0f, 0.0f});
  const glm::vec3 before = keys.position(0);
  keys.update(0.1, {}, {}, inputs);
  expectNear(keys.position(0), before + glm::vec3(0.0f, 0.0f, -0.2f));
}

// `player` (at x = 49.5, z = -30) at full thrust along +x for 10 steps of 0.1 s, in the wrap world
// and in the box: it reaches 49.5 + `moved` folded onto [-50, 50) at `speed` along +x when wrapping,
// and stops at x = 50 with no x velocity in the box.
void expectWrapsOrStaysInTheBox(const std::string& player, float moved, float speed) {
  for (const bool wrap : {true, false}) {
    SCOPED_TRACE(wrap ? "wrap" : "contain");
    std::string text = kWorld + player;
    if (wrap) text.insert(text.find("[boids]"), "boundary = \"wrap\"\n");
    AgentDirector agents = director(text);
    const sim::Scene scene = sim::parseScene(text, kSource, kSceneSections);
    sim::StepInputs inputs = sim::staticInputs(scene, scene.groups);
    agents.steerPlayers({0.0f, 1.0f});
    for (int step = 0; step < 10; ++step) agents.update(0.1, {}, {}, inputs);
    const glm::vec3 at = agents.position(0);
    EXPECT_NEAR(at.x, wrap ? 49.5f + moved - 100.0f : 50.0f, 1e-4f);
    EXPECT_EQ(at.z, -30.0f);
    EXPECT_NEAR(agents.velocity(0).x, wrap ? speed : 0.0f, kTolerance);
  }
}

// The player wraps round a wrapping world as the boids do (the book's lab), and stays in the box of a
// containing one. Full thrust along +x from x = 49.5, 10 steps of 0.1 s: 1.1 units (as above), so
// x = 50.6, which is -49.4 on the torus [-50, 50); in the box it stops at 50 with no x velocity.
TEST(PlayerAgent, WrapsInAWrappingWorldAndStaysInTheBoxOfAContainingOne) {
  const std::string player = R"(
[[agents]]
name = "player"
kind = "player"
position = [49.5, 0, -30]
max_speed = 4
max_force = 2
turn_rate = 90
)";
  expectWrapsOrStaysInTheBox(player, 1.1f, 2.0f);
}

const std::string kRigidPlayer = R"(
[[agents]]
name = "player"
kind = "player"
body = "rigid"
position = [-30, 0, -30]
max_speed = 8
)";

// The course drives the rigid body through every waypoint in order, lap after lap (the arrival
// radius, 2, passes one), as two runs alike; its heading is its own (it slides in turns).
TEST(RigidPlayer, FollowsItsCourseThroughEveryWaypointInOrder) {
  const std::string text = kWorld + kRigidPlayer + kCourse;
  const sim::Scene scene = sim::parseScene(text, kSource, kSceneSections);
  AgentDirector first = director(text), second = director(text);
  sim::StepInputs inputs = sim::staticInputs(scene, scene.groups), other = inputs;
  const std::vector<glm::vec3> course{{30, 0, -30}, {30, 0, 30}, {-30, 0, 30}, {-30, 0, -30}};
  std::vector<std::size_t> reached;  // waypoints in the order the player came within 2 of them
  float fastest = 0.0f, slide = 0.0f;
  for (int step = 0; step < 1500; ++step) {  // 150 s
    first.update(0.1, {}, {}, inputs);
    second.update(0.1, {}, {}, other);
    ASSERT_EQ(first.position(0), second.position(0)) << "step " << step;
    const glm::vec3 v = first.velocity(0);
    fastest = std::max(fastest, glm::length(v));
    if (glm::length(v) > 1.0f) slide = std::max(slide, 1.0f - glm::dot(v / glm::length(v), first.heading(0)));
    const std::size_t next = reached.empty() ? 0 : (reached.back() + 1) % course.size();
    if (glm::length(first.position(0) - course[next]) < 2.0f) reached.push_back(next);
  }
  // 240 units a lap at up to 8 units/s: at least two laps in 150 s.
  EXPECT_GE(reached.size(), 8u);
  std::printf("  rigid player: %zu waypoints in 150 s, top speed %.2f, largest slide 1 - cos %.3f\n",
              reached.size(), fastest, slide);
  EXPECT_LE(fastest, 8.0f + kTolerance);
  EXPECT_GT(slide, 0.0f) << "a rigid body slides in its turns";
}

// Wraps in a wrapping world, stays in the box of a containing one, like the kinematic player. Full
// thrust from rest for 10 steps of 0.1 s: v_k = v_{k-1} + (40 - 4 v_{k-1}) / 10 x 0.1 (0.4, 0.784,
// ...), a move of about 2 units: across the seam.
TEST(RigidPlayer, WrapsInAWrappingWorldAndStaysInTheBoxOfAContainingOne) {
  float moved = 0.0f, v = 0.0f;
  for (int step = 0; step < 10; ++step) {
    v += (40.0f - 4.0f * v) / 10.0f * 0.1f;
    moved += v * 0.1f;
  }
  expectWrapsOrStaysInTheBox(
      "[[agents]]\nname = \"player\"\nkind = \"player\"\nbody = \"rigid\"\nposition = [49.5, 0, -30]\n",
      moved, v);
}

TEST(PlayerAgent, WithoutACourseOrKeysItStaysWhereItIs) {
  AgentDirector idle = director(kWorld + kPlayer);
  const sim::Scene scene = sim::parseScene(kWorld + kPlayer, kSource, kSceneSections);
  sim::StepInputs inputs = sim::staticInputs(scene, scene.groups);
  for (int step = 0; step < 10; ++step) idle.update(0.1, {}, {}, inputs);
  EXPECT_EQ(idle.position(0), glm::vec3(-30.0f, 0.0f, -30.0f));
}

// Succeeds when loading `text` throws an InputError naming kSource, `line` and `key`.
testing::AssertionResult rejects(const std::string& text, std::size_t line, const std::string& key,
                                 std::string_view fragment) {
  try {
    loadSceneAgents(sim::parseScene(text, kSource, kSceneSections));
  } catch (const InputError& error) {
    const std::string what = error.what();
    if (error.file() != kSource || error.line() != line || error.key() != key ||
        what.find(fragment) == std::string::npos)
      return testing::AssertionFailure()
             << "got line " << error.line() << ", key '" << error.key() << "': " << what;
    return testing::AssertionSuccess();
  }
  return testing::AssertionFailure() << "no InputError";
}

TEST(PlayerAgent, BadPlayerKeysNameFileLineAndKey) {
  // kWorld and kPlayer end on line 19 (turn_rate); what is appended starts on line 20.
  EXPECT_TRUE(rejects(kWorld + kPlayer + "[[agents.states]]\nname = \"idle\"\naction = \"rest\"\n", 20,
                      "agents[0].states", "a player runs no state machine"));
  EXPECT_TRUE(rejects(kWorld + kPlayer + "course = [[30, 0, 0], [80, 0, 0]]\n", 20, "agents[0].course",
                      "waypoint 1 (80, 0, 0) lies outside the world box"));
  EXPECT_TRUE(
      rejects(kWorld + kPlayer + "view_distance = 20\n", 20, "agents[0].view_distance", "unknown key"));
  EXPECT_TRUE(rejects(kWorld + kPlayer + "arrival_radius = 0\n", 20, "agents[0].arrival_radius", "above 0"));
  std::string noTurn = kPlayer;
  noTurn.replace(noTurn.find("turn_rate = 90"), 14, "turn_rate = 0");
  EXPECT_TRUE(rejects(kWorld + noTurn, 19, "agents[0].turn_rate", "above 0"));
}

TEST(RigidPlayer, BadRigidKeysNameFileLineAndKey) {
  // kWorld and kRigidPlayer end on line 18 (max_speed); what is appended starts on line 19.
  const std::string rigid = kWorld + kRigidPlayer;
  EXPECT_TRUE(rejects(rigid + "mass = 0\n", 19, "agents[0].mass", "above 0"));
  EXPECT_TRUE(rejects(rigid + "inertia = -1\n", 19, "agents[0].inertia", "above 0"));
  EXPECT_TRUE(rejects(rigid + "bow_thrust = 2e9\n", 19, "agents[0].bow_thrust", "at most 1e+09"));
  EXPECT_TRUE(rejects(rigid + "linear_drag = -1\n", 19, "agents[0].linear_drag", "at least 0"));
  // dt = 1/60: 700 x dt / 10 = 1.17 would reverse the velocity in a step.
  EXPECT_TRUE(rejects(rigid + "linear_drag = 700\n", 19, "agents[0].linear_drag", "must be at most 1"));
  EXPECT_TRUE(rejects(rigid + "angular_drag = 700\n", 19, "agents[0].angular_drag", "must be at most 1"));
  EXPECT_TRUE(rejects(rigid + "turn_rate = 90\n", 19, "agents[0].turn_rate", "turns by its bow thrusters"));
  EXPECT_TRUE(rejects(kWorld + kPlayer + "mass = 10\n", 20, "agents[0].mass", "unknown key"));
  std::string bouncy = kRigidPlayer;
  bouncy.replace(bouncy.find("\"rigid\""), 7, "\"bouncy\"");
  EXPECT_TRUE(rejects(kWorld + bouncy, 16, "agents[0].body", "kinematic"));
}

// ---- Agents perceive the player (docs/ai.md, The player) ----

// A guard that rests facing +x (its initial heading) and switches from "watch" to "alarm" when it
// sees (or hears) the player: the sight test's cone, range and occlusion, hearing at the player's
// own speed, and in a wrap world the player's image nearest the guard.
std::string guardScene(const std::string& world, glm::vec3 player, glm::vec3 guard, const std::string& senses,
                       const std::string& when, const std::string& obstacles = "") {
  return world + obstacles +
         fmt::format(R"(
[[agents]]
name = "player"
kind = "player"
position = [{}, 0, {}]
max_speed = 4
max_force = 2
[[agents]]
name = "guard"
kind = "predator"
position = [{}, 0, {}]
{}
[[agents.states]]
name = "watch"
action = "rest"
transitions = [{{ when = "{}", to = "alarm" }}]
[[agents.states]]
name = "alarm"
action = "rest"
)",
                     player.x, player.z, guard.x, guard.z, senses, when);
}

std::string stateAfter(const std::string& text, int steps, bool playerMoves) {
  AgentDirector agents = director(text);
  const sim::Scene scene = sim::parseScene(text, kSource, kSceneSections);
  sim::StepInputs inputs = sim::staticInputs(scene, scene.groups);
  if (playerMoves) agents.steerPlayers({0.0f, 1.0f});
  for (int step = 0; step < steps; ++step) agents.update(0.1, {}, {}, inputs);
  return std::string(agents.stateName(1));
}

TEST(PlayerPerceived, SightOfThePlayerHasConeRangeAndOcclusion) {
  const std::string world = "[world]\ndims = 2\nmin = [-50, -5, -50]\nmax = [50, 5, 50]\n";
  const std::string eyes = "view_distance = 30\nview_angle = 90\nhearing_range = 0\n";
  const std::string rock = "[[obstacles]]\ncenter = [-10, 0, 0]\nradius = 3\n";
  // 20 ahead, in the cone and in range: seen.
  EXPECT_EQ(stateAfter(guardScene(world, {0, 0, 0}, {-20, 0, 0}, eyes, "sees_player"), 1, false), "alarm");
  // Behind a rock on the line of sight: not seen.
  EXPECT_EQ(stateAfter(guardScene(world, {0, 0, 0}, {-20, 0, 0}, eyes, "sees_player", rock), 5, false),
            "watch");
  // Beyond the view distance (35 > 30), or behind the guard (outside its 90-degree cone): not seen.
  EXPECT_EQ(stateAfter(guardScene(world, {15, 0, 0}, {-20, 0, 0}, eyes, "sees_player"), 5, false), "watch");
  EXPECT_EQ(stateAfter(guardScene(world, {-40, 0, 0}, {-20, 0, 0}, eyes, "sees_player"), 5, false), "watch");
}

TEST(PlayerPerceived, HearingOfThePlayerNeedsItToMoveLoudly) {
  const std::string world = "[world]\ndims = 2\nmin = [-50, -5, -50]\nmax = [50, 5, 50]\n";
  // Behind the guard (never seen), 20 away, within hearing range 30; loud above 0.5 units/s. At rest
  // it is silent; under full thrust (2 units/s^2) it is heard from its fourth update (it moved at 0.6
  // units/s).
  const std::string ears = "view_distance = 30\nview_angle = 90\nhearing_range = 30\nloud_speed = 0.5\n";
  EXPECT_EQ(stateAfter(guardScene(world, {-20, 0, 0}, {0, 0, 0}, ears, "hears_player"), 5, false), "watch");
  EXPECT_EQ(stateAfter(guardScene(world, {-20, 0, 0}, {0, 0, 0}, ears, "hears_player"), 2, true), "watch");
  EXPECT_EQ(stateAfter(guardScene(world, {-20, 0, 0}, {0, 0, 0}, ears, "hears_player"), 5, true), "alarm");
  // The same hearing, sees_player: nothing (it is behind).
  EXPECT_EQ(stateAfter(guardScene(world, {-20, 0, 0}, {0, 0, 0}, ears, "sees_player"), 5, true), "watch");
}

TEST(PlayerPerceived, AcrossTheSeamOfAWrapWorldThePlayerIsSeenByItsNearestImage) {
  const std::string eyes = "view_distance = 30\nview_angle = 90\nhearing_range = 0\n";
  const std::string box = "[world]\ndims = 2\nmin = [-50, -5, -50]\nmax = [50, 5, 50]\n";
  // The guard at x = 45 faces +x; the player at x = -48 is 93 away in the box, 7 ahead on the torus.
  EXPECT_EQ(stateAfter(guardScene(box, {-48, 0, 0}, {45, 0, 0}, eyes, "sees_player"), 1, false), "watch");
  const std::string torus = box + "boundary = \"wrap\"\n";
  EXPECT_EQ(stateAfter(guardScene(torus, {-48, 0, 0}, {45, 0, 0}, eyes, "sees_player"), 1, false), "alarm");
}

}  // namespace
}  // namespace murmur::ai
