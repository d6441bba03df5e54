// The starlings' flight (sim/starling_model.hpp, docs/model.md, The starlings' flight): the
// polynomials both backends use against the C library in double, the flight's equations against
// values worked by hand (a level bird holds its height and speed, a banked one turns at the radius
// v^2 / (g tan(bank)) when it pulls up and sinks when it does not, the roll rate holds), a step
// against the same step written in double from the page, and a starling state through the state CSV.
#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <numbers>
#include <sstream>
#include <vector>

#include <fmt/format.h>
#include <glm/geometric.hpp>

#include "core/error.hpp"
#include "sim/builders.hpp"
#include "sim/cpu_simulator.hpp"
#include "sim/random.hpp"
#include "sim/rules.hpp"
#include "sim/scene.hpp"
#include "sim/starling_model.hpp"
#include "sim/state_csv.hpp"

namespace murmur::sim {
namespace {

constexpr double kPi = std::numbers::pi;

TEST(StarlingModel, SeriesAtanIsTheArctangentWithinFloatPrecision) {
  EXPECT_EQ(seriesAtan(0.0f), 0.0f);
  double worst = 0.0;
  for (int i = 0; i <= 20000; ++i) {
    const double x = std::pow(10.0, -3.0 + 6.0 * i / 20000.0);  // 1e-3 to 1e3
    worst = std::max(worst, std::abs(double(seriesAtan(float(x))) - std::atan(double(float(x)))));
  }
  EXPECT_LT(worst, 2e-7);
}

TEST(StarlingModel, SeriesCosSinAreTheCosineAndSineUpToTheSteepestBank) {
  double worst = 0.0;
  const double most = kMaxStarlingBankDegrees * kPi / 180.0;
  for (int i = -1000; i <= 1000; ++i) {
    const float angle = float(most * i / 1000.0);
    const CosSin cs = seriesCosSin(angle);
    worst = std::max({worst, std::abs(double(cs.c) - std::cos(double(angle))),
                      std::abs(double(cs.s) - std::sin(double(angle)))});
  }
  EXPECT_LT(worst, 2e-7);
}

// A starling at StarDisplay's figures: cruise 10 m/s, g 9.81, lift over drag 3.3; a world far
// larger than any flight here.
ModelParams starling() {
  ModelParams m;
  m.unitModel = UnitModel::Starling;
  m.worldMin = glm::vec3(-1e4f);
  m.worldMax = glm::vec3(1e4f);
  m.cruiseSpeed = 10.0f;
  m.maxSpeed = 20.0f;
  m.minSpeed = 2.0f;
  m.maxForce = 1000.0f;
  m.starlingGravity = 9.81f;
  m.starlingLiftDrag = 3.3f;
  m.starlingMaxBank = 60.0f;
  m.starlingRollRate = 180.0f;
  m.dt = 1.0f / 60.0f;
  return m;
}

struct Flight {
  ModelParams params;
  PackedInputs packed;
  StepContext ctx;
  explicit Flight(const ModelParams& m) : params(m), packed(packInputs(params, StepInputs{}, 1)) {
    ctx = makeStepContext(params, packed);
  }
};

TEST(StarlingModel, TheBodysConstantsFollowFromTheParameters) {
  const StarlingBody body = starlingBody(starling());
  EXPECT_FLOAT_EQ(body.gravity, 9.81f);
  EXPECT_FLOAT_EQ(body.thrust, 9.81f / 3.3f);  // the drag at cruise: the weight over lift / drag
  EXPECT_FLOAT_EQ(body.cruise2, 100.0f);
  EXPECT_NEAR(body.maxBank, kPi / 3.0, 1e-7);
  EXPECT_NEAR(body.rollStep, kPi / 60.0, 1e-7);  // 180 degrees/s for 1/60 s
}

// Level at the cruise speed the lift is the weight and the thrust the drag: not a bit moves but
// the position, step after step.
TEST(StarlingModel, ALevelBirdAtCruiseSpeedHoldsItsHeightAndSpeed) {
  const Flight flight(starling());
  BoidView bird{{0.0f, 50.0f, 0.0f}, {10.0f, 0.0f, 0.0f}, {1.0f, 0.0f, 0.0f}, 0, 0};
  float bank = 0.0f;
  for (int step = 0; step < 600; ++step) {
    const BoidUpdate next = flyStarling(flight.ctx, bird, bank, glm::vec3(0.0f));
    ASSERT_EQ(next.velocity, glm::vec3(10.0f, 0.0f, 0.0f)) << "step " << step;
    ASSERT_EQ(next.position.y, 50.0f) << "step " << step;
    ASSERT_EQ(next.bank, 0.0f);
    ASSERT_EQ(next.heading, glm::vec3(1.0f, 0.0f, 0.0f));
    bird.position = next.position;
    bank = next.bank;
  }
  EXPECT_NEAR(bird.position.x, 100.0f, 1e-3f);  // 10 s at 10 m/s
}

// Slower than cruise the thrust outweighs the drag and the lift falls short of the weight, both by
// (1 - (v / v0)^2): at 5 m/s, forward (g / 3.3) 3/4 and down g 3/4.
TEST(StarlingModel, BelowCruiseSpeedItSpeedsUpAndSinks) {
  const StarlingBody body = starlingBody(starling());
  const StarlingFrame level = levelFrame({1.0f, 0.0f, 0.0f});
  const glm::vec3 a = starlingAcceleration(body, level, 25.0f, glm::vec3(0.0f));
  EXPECT_FLOAT_EQ(a.x, 9.81f / 3.3f * 0.75f);
  EXPECT_FLOAT_EQ(a.y, -9.81f * 0.75f);
  EXPECT_EQ(a.z, 0.0f);
}

// Banked by b at cruise with no more lift, the weight-sized lift tilts: g sin b toward the right,
// and g (cos b - 1) vertically, a sink. Pulled up along its up axis by g / cos b - g, the bird
// holds its height and accelerates toward its right at g tan b: the radius v^2 / (g tan b).
TEST(StarlingModel, ABankedBirdTurnsToItsRightAndSinksWithoutMoreLift) {
  const StarlingBody body = starlingBody(starling());
  const double b = 30.0 * kPi / 180.0, g = 9.81;
  const StarlingFrame frame = bankedFrame(levelFrame({1.0f, 0.0f, 0.0f}), float(b));
  EXPECT_NEAR(frame.up.y, std::cos(b), 1e-7);
  EXPECT_NEAR(frame.up.z, std::sin(b), 1e-7);  // the right of +x is +z
  const glm::vec3 sinking = starlingAcceleration(body, frame, 100.0f, glm::vec3(0.0f));
  EXPECT_NEAR(sinking.z, g * std::sin(b), 1e-5);
  EXPECT_NEAR(sinking.y, g * (std::cos(b) - 1.0), 1e-5);
  EXPECT_NEAR(sinking.x, 0.0, 1e-6);
  const glm::vec3 pull = float(g / std::cos(b) - g) * frame.up;
  const glm::vec3 turning = starlingAcceleration(body, frame, 100.0f, pull);
  EXPECT_NEAR(turning.z, g * std::tan(b), 1e-5);
  EXPECT_NEAR(turning.y, 0.0, 1e-5);
}

// The steering s right + k up that holds a bank b level: its part along the right g tan b (the
// roll's target: atan(tan b) = b), along the up axis what makes the lift g / cos b (the up axis
// leans sin b toward the right: s + k sin b = g tan b, s sin b + k = g / cos b - g).
glm::vec3 holdBank(const StarlingFrame& level, const StarlingFrame& banked, double b, double g) {
  const double sin = std::sin(b), cos = std::cos(b), tan = std::tan(b);
  const double k = (g / cos - g - g * tan * sin) / (cos * cos);
  return float(g * tan - k * sin) * level.right + float(k) * banked.up;
}

TEST(StarlingModel, ABirdHoldingItsBankCirclesAtTheRadiusOfTheBank) {
  ModelParams m = starling();
  m.dt = 1.0f / 600.0f;
  const Flight flight(m);
  const double g = 9.81, v = 10.0;
  for (const double degrees : {15.0, 30.0, 45.0}) {
    const double b = degrees * kPi / 180.0, radius = v * v / (g * std::tan(b));
    BoidView bird{{0.0f, 100.0f, 0.0f}, {10.0f, 0.0f, 0.0f}, {1.0f, 0.0f, 0.0f}, 0, 0};
    float bank = float(b);
    double across = 0.0, lowest = 100.0, highest = 100.0;
    // Half a circle: the farthest point from the start is a diameter away.
    const int steps = int(kPi * radius / v / double(m.dt));
    for (int step = 0; step < steps; ++step) {
      const StarlingFrame level = levelFrame(bird.heading);
      const glm::vec3 force = holdBank(level, bankedFrame(level, bank), b, g) * m.mass;
      const BoidUpdate next = flyStarling(flight.ctx, bird, bank, force);
      ASSERT_NEAR(next.bank, b, 1e-6) << degrees << " degrees, step " << step;
      bird.position = next.position;
      bird.velocity = next.velocity;
      bird.heading = next.heading;
      bank = next.bank;
      across = std::max(across, double(glm::length(bird.position - glm::vec3(0.0f, 100.0f, 0.0f))));
      lowest = std::min(lowest, double(bird.position.y));
      highest = std::max(highest, double(bird.position.y));
    }
    EXPECT_NEAR(across / 2.0, radius, 0.01 * radius) << degrees << " degrees";
    EXPECT_LT(highest - lowest, 0.01 * radius) << degrees << " degrees: level";
    EXPECT_GT(bird.position.z, 1.9 * radius) << "turned to its right (+z)";
    EXPECT_NEAR(glm::length(bird.velocity), v, 0.01 * v);
  }
}

// Banked and left alone (a roll rate so slow that the bank stays), the bird sinks and turns right.
TEST(StarlingModel, ABankedBirdLeftAloneSinks) {
  ModelParams m = starling();
  m.starlingRollRate = 1e-3f;
  const Flight flight(m);
  BoidView bird{{0.0f, 100.0f, 0.0f}, {10.0f, 0.0f, 0.0f}, {1.0f, 0.0f, 0.0f}, 0, 0};
  float bank = float(30.0 * kPi / 180.0);
  float lastY = bird.position.y;
  for (int step = 0; step < 60; ++step) {
    const BoidUpdate next = flyStarling(flight.ctx, bird, bank, glm::vec3(0.0f));
    ASSERT_LT(next.position.y, lastY) << "step " << step;
    lastY = next.position.y;
    bird.position = next.position;
    bird.velocity = next.velocity;
    bird.heading = next.heading;
    bank = next.bank;
  }
  EXPECT_GT(bird.position.z, 0.5f);
  // At first it sinks at g (1 - cos 30): within 1 s about half that times 1 s squared, less as it
  // speeds up in the dive.
  EXPECT_LT(bird.position.y, 100.0f - 0.3f);
  EXPECT_GT(bird.position.y, 100.0f - 0.5f * 9.81f * (1.0f - std::cos(float(kPi / 6.0))) * 1.2f);
}

// The bank turns at most roll_rate dt a step toward the target and never past max_bank; with the
// sideways steering gone the bird rolls back level at the same rate.
TEST(StarlingModel, TheRollRateAndTheSteepestBankHold) {
  ModelParams m = starling();
  m.starlingRollRate = 90.0f;
  m.starlingMaxBank = 45.0f;
  const Flight flight(m);
  const float step = flight.ctx.starling.rollStep, most = flight.ctx.starling.maxBank;
  EXPECT_NEAR(step, kPi / 2.0 / 60.0, 1e-7);
  BoidView bird{{0.0f, 100.0f, 0.0f}, {10.0f, 0.0f, 0.0f}, {1.0f, 0.0f, 0.0f}, 0, 0};
  float bank = 0.0f;
  for (int n = 1; n <= 60; ++n) {
    // A hard right: a target of atan(100) ~ 89 degrees, capped at 45.
    const BoidUpdate next =
        flyStarling(flight.ctx, bird, bank, 100.0f * m.mass * levelFrame(bird.heading).right);
    ASSERT_LE(next.bank - bank, step * (1.0f + 1e-6f)) << "step " << n;
    ASSERT_LE(next.bank, most);
    if (float(n) * step < most) {
      ASSERT_NEAR(next.bank, float(n) * step, 1e-5f) << "step " << n;
    }
    bird.position = next.position;
    bird.velocity = next.velocity;
    bird.heading = next.heading;
    bank = next.bank;
  }
  EXPECT_EQ(bank, most);
  const BoidUpdate level = flyStarling(flight.ctx, bird, bank, glm::vec3(0.0f));
  EXPECT_NEAR(level.bank, most - step, 1e-6f);
}

// Steering that points behind turns the bird toward it as hard as its whole size: behind and to
// the left, a bank to the left; straight behind, to the right. Slowed below min_speed, a bird is not
// raised to it: it dives.
TEST(StarlingModel, SteeringBehindTurnsTheBirdAndNothingHoldsItsSpeed) {
  const StarlingFrame level = levelFrame({1.0f, 0.0f, 0.0f});
  EXPECT_FLOAT_EQ(lateralDemand(level, {3.0f, 0.0f, -4.0f}), -4.0f);  // ahead: its part to the right
  EXPECT_FLOAT_EQ(lateralDemand(level, {-3.0f, 0.0f, -4.0f}), -5.0f);
  EXPECT_FLOAT_EQ(lateralDemand(level, {-3.0f, 0.0f, 4.0f}), 5.0f);
  EXPECT_FLOAT_EQ(lateralDemand(level, {-3.0f, 0.0f, 0.0f}), 3.0f);
  const Flight flight(starling());
  const BoidView slow{{0.0f, 100.0f, 0.0f}, {1.0f, 0.0f, 0.0f}, {1.0f, 0.0f, 0.0f}, 0, 0};
  const BoidUpdate next = flyStarling(flight.ctx, slow, 0.0f, glm::vec3(0.0f));
  EXPECT_LT(glm::length(next.velocity), flight.params.minSpeed);
  EXPECT_LT(next.velocity.y, 0.0f);
}

// A starling's cohesion is the pull toward its neighbours' centre alone and its alignment the part
// of the mean heading across its own: neither brakes it (a boid's both would: -v and m - f).
TEST(StarlingModel, CohesionAndAlignmentDoNotBrakeABird) {
  ModelParams m = starling();
  m.maxSpeed = 20.0f;
  const Flight flight(m);
  const BoidView bird{{0.0f, 0.0f, 0.0f}, {10.0f, 0.0f, 0.0f}, {1.0f, 0.0f, 0.0f}, 0, 0};
  NeighbourSums sums;
  sums.sameGroupCount = 2;
  sums.offsetSum = {0.0f, 0.0f, 6.0f};   // the centre 3 to the right
  sums.headingSum = {1.6f, 0.0f, 0.8f};  // (1, 0, 0) and (0.6, 0, 0.8): mean (0.8, 0, 0.4)
  EXPECT_EQ(cohesionForce(flight.ctx, bird, sums), glm::vec3(0.0f, 0.0f, 20.0f));
  const glm::vec3 alignment = alignmentForce(flight.ctx, bird, sums);
  EXPECT_EQ(alignment.x, 0.0f);
  EXPECT_FLOAT_EQ(alignment.z, 8.0f);  // 20 x 0.4
  ModelParams boids = m;
  boids.unitModel = UnitModel::Boids;
  const Flight boid(boids);
  EXPECT_EQ(cohesionForce(boid.ctx, bird, sums), glm::vec3(-10.0f, 0.0f, 20.0f));
  EXPECT_FLOAT_EQ(alignmentForce(boid.ctx, bird, sums).x, -4.0f);  // 20 x (0.8 - 1)
}

// One flight step written again in double from docs/model.md, with the C library's atan, cos and
// sin, against the float step of both backends: random birds, banks and steering.
struct DoubleStep {
  glm::dvec3 velocity;
  double bank;
};
DoubleStep flyInDouble(const ModelParams& m, glm::dvec3 v, glm::dvec3 f, double bank, glm::dvec3 force) {
  const double g = m.starlingGravity, most = m.starlingMaxBank * kPi / 180.0;
  const double rollStep = m.starlingRollRate * kPi / 180.0 * m.dt;
  if (glm::length(force) > m.maxForce) force *= m.maxForce / glm::length(force);
  const glm::dvec3 steer = force / double(m.mass);
  const glm::dvec3 right = glm::normalize(glm::dvec3(-f.z, 0.0, f.x));
  const glm::dvec3 levelUp = glm::cross(right, f);
  const double across = glm::dot(steer, right), along = glm::dot(steer, f);
  const double lateral = along < 0.0 ? (across < 0.0 ? -1.0 : 1.0) * std::hypot(across, along) : across;
  const double target = std::copysign(std::min(std::atan(std::abs(lateral) / g), most), lateral);
  const double rolled = bank + std::clamp(target - bank, -rollStep, rollStep);
  const glm::dvec3 up = std::cos(rolled) * levelUp + std::sin(rolled) * right;
  const double q = glm::dot(v, v) / (double(m.cruiseSpeed) * m.cruiseSpeed);
  const glm::dvec3 a = (g / m.starlingLiftDrag * (1.0 - q) + glm::dot(steer, f)) * f +
                       (g * q + glm::dot(steer, up)) * up - glm::dvec3(0.0, g, 0.0);
  glm::dvec3 next = v + a * double(m.dt);
  const double speed = glm::length(next);
  if (speed > m.maxSpeed) next *= m.maxSpeed / speed;
  return {next, rolled};
}

glm::vec3 randomUnitVector(Pcg32& random) {
  for (;;) {
    const glm::vec3 v(random.uniform(-1.0f, 1.0f), random.uniform(-1.0f, 1.0f), random.uniform(-1.0f, 1.0f));
    const float len = glm::length(v);
    if (len > 0.1f && len <= 1.0f) return v / len;
  }
}

TEST(StarlingModel, AStepAgreesWithTheFloat64Flight) {
  const ModelParams m = starling();
  const Flight flight(m);
  Pcg32 random(7);
  double worstVelocity = 0.0, worstBank = 0.0;
  for (int i = 0; i < 20000; ++i) {
    const glm::vec3 v = randomUnitVector(random) * (5.0f + 10.0f * random.uniform());
    const float bank = (random.uniform() * 2.0f - 1.0f) * flight.ctx.starling.maxBank;
    const glm::vec3 force = randomUnitVector(random) * (30.0f * random.uniform());
    const BoidView bird{{0.0f, 0.0f, 0.0f}, v, heading(v), 0, 0};
    const BoidUpdate next = flyStarling(flight.ctx, bird, bank, force);
    const DoubleStep exact = flyInDouble(m, v, glm::dvec3(bird.heading), bank, force);
    worstVelocity = std::max(worstVelocity, glm::length(glm::dvec3(next.velocity) - exact.velocity));
    worstBank = std::max(worstBank, std::abs(double(next.bank) - exact.bank));
  }
  EXPECT_LT(worstVelocity, 1e-5);  // units/s
  EXPECT_LT(worstBank, 1e-6);      // radians
}

// A starling scene's flock: contained, topological, with its roost and height band.
Scene starlingScene(std::uint32_t count) {
  Scene scene = fixedNeighbourScene(count, 20.0f, 3);
  scene.model.unitModel = UnitModel::Starling;
  scene.model.topologicalNeighbours = 7;
  scene.model.cruiseSpeed = 8.0f;
  scene.model.roostRadius = 10.0f;
  scene.model.roostHeightBand = 2.0f;
  scene.model.roostCenter = 0.5f * (scene.model.worldMin + scene.model.worldMax);
  scene.model.starlingGravity = 9.81f;
  scene.seed = 11;
  return scene;
}

// --dump writes each bird's bank as a ninth column, --init reads it back: a run from the dump goes
// on bit for bit as the run that wrote it (a starling's heading is its velocity's direction).
TEST(StarlingModel, TheStateCsvCarriesTheBank) {
  const Scene scene = starlingScene(1500);
  const StepInputs inputs = staticInputs(scene, scene.groups);
  FlockState state = spawnFlock(scene);
  CpuSimulator sim(NeighbourSearch::Grid, 2);
  for (int s = 0; s < 30; ++s) sim.step(scene.model, inputs, state);
  std::size_t banked = 0;
  for (const float bank : state.attitude) banked += bank != 0.0f;
  EXPECT_GT(banked, state.size() / 2) << "the birds bank as they turn";
  const std::filesystem::path file = std::filesystem::temp_directory_path() / "murmur-starling-state.csv";
  writeStateCsv(file.string(), state, "", UnitModel::Starling);
  FlockState read = readStateCsv(file.string(), scene.model);
  std::filesystem::remove(file);
  EXPECT_EQ(read.attitude, state.attitude);
  EXPECT_EQ(read.position, state.position);
  CpuSimulator other(NeighbourSearch::Grid, 2);
  for (int s = 0; s < 10; ++s) {
    sim.step(scene.model, inputs, state);
    other.step(scene.model, inputs, read);
  }
  EXPECT_EQ(read.position, state.position);
  EXPECT_EQ(read.velocity, state.velocity);
  EXPECT_EQ(read.attitude, state.attitude);
}

TEST(StarlingModel, TheStateCsvRefusesABankBeyondTheSteepestOrForBoids) {
  const Scene scene = starlingScene(10);
  const auto parse = [](const std::string& text, const ModelParams& params) {
    std::istringstream in(text);
    return parseStateCsv(in, "s.csv", params);
  };
  const std::string header = "id,group,x,y,z,vx,vy,vz,bank\n";
  const glm::vec3 c = scene.model.roostCenter;
  const std::string row = fmt::format("0,0,{},{},{},1,0,0,", c.x, c.y, c.z);
  EXPECT_FLOAT_EQ(parse(header + row + "0.5\n", scene.model).attitude.at(0), 0.5f);
  EXPECT_TRUE(parse("id,group,x,y,z,vx,vy,vz\n" + row.substr(0, row.size() - 1) + "\n", scene.model)
                  .attitude.empty());
  try {
    parse(header + row + "1.2\n", scene.model);  // above 60 degrees
    FAIL() << "a bank beyond max_bank was read";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("s.csv:2"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("bank"), std::string::npos) << e.what();
  }
  ModelParams boids = scene.model;
  boids.unitModel = UnitModel::Boids;
  EXPECT_THROW(parse(header + row + "0.5\n", boids), InputError);
}

}  // namespace
}  // namespace murmur::sim
