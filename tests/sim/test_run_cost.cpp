// Issue 21, item 7: a run's cost known before it starts (sim/run_cost.hpp), and item 8: worlds too
// far from the origin for float32 positions are refused (sim/scene_loader.hpp).
#include <gtest/gtest.h>

#include <cmath>
#include <cstdlib>
#include <random>
#include <string>
#include <vector>

#include "core/error.hpp"
#include "sim/builders.hpp"
#include "sim/grid.hpp"
#include "sim/run_cost.hpp"
#include "sim/scene_loader.hpp"

namespace murmur::sim {
namespace {

// Boids of the flock in the cells around each boid's cell (3x3x3; each cell once), pair by pair.
double bruteForceCandidatesPerBoid(const ModelParams& params, const std::vector<glm::vec3>& positions) {
  const GridSpec grid = makeGridSpec(params);
  const auto near = [&](int a, int b, int n) {
    const int d = std::abs(a - b);
    return d <= 1 || (grid.wrap && n - d <= 1);
  };
  double pairs = 0.0;
  for (const glm::vec3& p : positions)
    for (const glm::vec3& q : positions) {
      const glm::ivec3 a = grid.cellCoord(p), b = grid.cellCoord(q);
      if (near(a.x, b.x, grid.cells.x) && near(a.y, b.y, grid.cells.y) && near(a.z, b.z, grid.cells.z))
        pairs += 1.0;
    }
  return pairs / double(positions.size());
}

ModelParams cube(float side, float radius, Boundary boundary) {
  ModelParams params;
  params.worldMin = glm::vec3(0.0f);
  params.worldMax = glm::vec3(side);
  params.perceptionRadius = radius;
  params.leaderRadius = radius;
  params.boundary = boundary;
  return params;
}

TEST(RunCost, CountsTheBoidsOfTheCellsAroundEachBoidByHand) {
  // A 40-unit cube, R = 10: 3 x 3 x 3 cells of 13.3 units. Two boids in cell (0,0,0), one in (1,0,0),
  // one in (2,2,2): the first two see 3 boids each, the third 3, the last only itself: 10 / 4.
  const ModelParams params = cube(40.0f, 10.0f, Boundary::Contain);
  const std::vector<glm::vec3> positions{{1, 1, 1}, {5, 5, 5}, {20, 1, 1}, {39, 39, 39}};
  const RunCost cost = estimateRunCost(params, positions, 100);
  EXPECT_EQ(cost.candidatesPerBoid, 2.5);
  EXPECT_EQ(cost.testsPerStep(), 10.0);
  EXPECT_EQ(cost.totalTests(), (10.0 + kStepOverheadTests) * 100.0);  // and each step's own work
}

// Issue 51, item 5: a run of 1e12 steps of no boids was accepted (134 days at 11.6 us an empty
// step); each step's own work counts.
TEST(RunCost, StepsOfNoBoidsStillCost) {
  const RunCost cost = estimateRunCost(cube(40.0f, 10.0f, Boundary::Contain), {}, 1'000'000'000'000);
  EXPECT_EQ(cost.testsPerStep(), 0.0);
  EXPECT_GT(cost.totalTests(), kMaxRunCandidateTests);
  EXPECT_THROW(checkRunCost(cost, "empty.toml", "--force"), InputError);
  EXPECT_LE(estimateRunCost(cube(40.0f, 10.0f, Boundary::Contain), {}, 600).totalTests(),
            kMaxRunCandidateTests);
}

TEST(RunCost, AgreesWithBruteForceWithAndWithoutWrap) {
  std::mt19937 rng(21);
  for (const Boundary boundary : {Boundary::Contain, Boundary::Wrap}) {
    const ModelParams params = cube(60.0f, 7.0f, boundary);  // 8 cells an axis
    std::uniform_real_distribution<float> along(0.0f, 59.99f);
    std::vector<glm::vec3> positions(1500);
    for (glm::vec3& p : positions) p = {along(rng), along(rng) * 0.3f, along(rng)};  // uneven density
    EXPECT_DOUBLE_EQ(estimateRunCost(params, positions, 1).candidatesPerBoid,
                     bruteForceCandidatesPerBoid(params, positions));
  }
}

TEST(RunCost, MatchesTheBuildersFixedCandidateScene) {
  // fixedCandidateScene promises about `candidates` per boid, within 15% at 10,000 boids (builders.hpp).
  const Scene scene = fixedCandidateScene(10000, 200.0f);
  const FlockState flock = spawnFlock(scene);
  EXPECT_NEAR(estimateRunCost(scene.model, flock.position, 1).candidatesPerBoid, 200.0, 30.0);
}

// The topological rule's sweep takes in only the cells within its shrinking reach: on a flock as
// packed as the murmuration's the estimate falls to a few cells' worth (its own twice, and the
// near parts of those around it).
TEST(RunCost, TopologicalNeighboursCountTheCellsWithinTheSweepsReach) {
  Scene scene = packedFlockScene(20000);
  const FlockState flock = spawnFlock(scene);
  const double metric = estimateRunCost(scene.model, flock.position, 1).candidatesPerBoid;
  scene.model.topologicalNeighbours = 7;
  const double topological = estimateRunCost(scene.model, flock.position, 1).candidatesPerBoid;
  // Cells of R = 5 at one boid per 1.167^3: 79 a cell inside the ball; the reach that holds 8 of
  // them, 1.45 (above Rs = 1.25), takes in a neighbour across a face with odds 0.29:
  // (1 + 2 x 0.29)^3 = 3.9 cells, plus the own cell's first pass: 4.9 cells, 390 candidates
  // (fewer in the ball's partly filled edge cells), against 27 cells for the metric rule.
  EXPECT_NEAR(topological, 390.0, 80.0) << "metric " << metric;
  EXPECT_LT(topological * 3.0, metric);
}

std::string refusal(const RunCost& cost) {
  try {
    checkRunCost(cost, "s.toml", "--force");
  } catch (const InputError& error) {
    return error.key() + ": " + error.what();
  }
  return "accepted";
}

TEST(RunCost, RefusesAPackedFlockAndAnEndlessRunNamingTheKey) {
  // 1e5 boids x 1e5 candidates = 1e10 tests a step: at the limit, accepted; one more boid is over it.
  EXPECT_EQ(refusal({100000, 1e5, 1}), "accepted");
  const std::string packed = refusal({100001, 1e5, 1});
  EXPECT_EQ(packed.rfind("boids.count: ", 0), 0u) << packed;
  EXPECT_NE(packed.find("--force"), std::string::npos) << packed;
  // (1e3 boids x 997 candidates + the step's own 3,000) x 1e6 steps = 1e12 tests: at the limit;
  // 1e6 + 1 steps over it.
  EXPECT_EQ(refusal({1000, 997.0, 1000000}), "accepted");
  const std::string endless = refusal({1000, 997.0, 1000001});
  EXPECT_EQ(endless.rfind("sim.steps: ", 0), 0u) << endless;
  // An open-ended run (the window) is checked a step at a time only.
  EXPECT_EQ(refusal({10000, 100.0, 0}), "accepted");
}

// A scene over [min, max] whose grid stays within its limits (cells of 1,000 units).
Scene farScene(glm::vec3 min, glm::vec3 max) {
  Scene scene;
  scene.path = "far.toml";
  scene.model.perceptionRadius = scene.model.leaderRadius = 1000.0f;
  scene.model.worldMin = min;
  scene.model.worldMax = max;
  return scene;
}

std::string precisionRefusal(glm::vec3 min, glm::vec3 max, float maxSpeed) {
  Scene scene = farScene(min, max);
  scene.model.maxSpeed = maxSpeed;
  scene.model.minSpeed = 0.0f;
  scene.model.cruiseSpeed = 0.0f;
  try {
    validateScene(scene);
  } catch (const InputError& error) {
    return error.key();
  }
  return "accepted";
}

TEST(PositionPrecision, RefusesWorldsWhereFloatSpacingExceedsAHundredthOfAStep) {
  // max_speed 10 at dt 1/60: a step moves 1/6 unit, a hundredth of it 0.00167. Floats in [8192, 16384)
  // are 2^-10 = 0.00098 apart (kept), in [16384, 32768) 2^-9 = 0.00195 (refused).
  EXPECT_EQ(precisionRefusal(glm::vec3(-16000.0f), glm::vec3(16000.0f), 10.0f), "accepted");
  EXPECT_EQ(precisionRefusal(glm::vec3(-100.0f), glm::vec3(16384.0f), 10.0f), "world.max");
  EXPECT_EQ(precisionRefusal(glm::vec3(-20000.0f), glm::vec3(100.0f), 10.0f), "world.min");
  // Faster boids move farther a step: twice the speed allows twice the extent.
  EXPECT_EQ(precisionRefusal(glm::vec3(-100.0f), glm::vec3(20000.0f), 20.0f), "accepted");
  // The message gives the figures and the extent that would do.
  try {
    const Scene scene = farScene(glm::vec3(0.0f), glm::vec3(1e5f));
    validateScene(scene);
    FAIL() << "a world to 1e5 was accepted";
  } catch (const InputError& error) {
    EXPECT_NE(std::string(error.what()).find("within +-16384"), std::string::npos) << error.what();
  }
}

}  // namespace
}  // namespace murmur::sim
