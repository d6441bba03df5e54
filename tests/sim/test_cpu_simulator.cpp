// The grid search against the all-pairs search on random states, and the flock behaviours the
// model must produce (flocks form, nobody collides, nobody enters an obstacle).
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <initializer_list>
#include <ostream>
#include <string>

#include <glm/geometric.hpp>

#include "brute_force_leaders.hpp"
#include "brute_force_topological.hpp"
#include "sim/builders.hpp"
#include "sim/cpu_simulator.hpp"
#include "sim/fine_grid.hpp"
#include "sim/metrics.hpp"
#include "sim/neighbour_sweep.hpp"
#include "sim/random.hpp"
#include "sim/rules.hpp"
#include "sim/scene_loader.hpp"

namespace murmur::sim {
namespace {

struct Variant {
  const char* name;
  int dims;
  Boundary boundary;
  float fov;
  std::uint32_t groups;
  GoalMode goalMode;
  float neighbours = 30.0f;            // boids within R, on average
  float leaderFactor = 0.5f;           // the leader radius, in R: beyond 1 the search reaches past R
  float turnRate = 0.0f;               // boids.turn_rate, degrees/s: 0 off
  UnitModel units = UnitModel::Boids;  // [model] kind
  float comfortFactor = 0.0f;          // the comfort distance, in R: 0 off
  // Every 7th boid placed exactly on the one before it: the separation's push between coincident
  // boids (by id), which the vectorised sweep leaves to the scalar rule.
  bool coincident = false;
  // Obstacles, a predator and targets (false: none, the plain flock of the benchmarks, whose step
  // makes its forces a vector of boids at a time: sim::stepBatchServes).
  bool steered = true;
  bool cohesionOnlyWithoutSeparation = false;
};
// How gtest lists a case (ctest -N, failures): by name, not its bytes (padding included).
void PrintTo(const Variant& variant, std::ostream* out) {
  *out << variant.name;
}

// A world of `neighbours` boids within R (30 by default: dense) with every feature switched on but
// those the variant leaves out.
Scene denseScene(const Variant& v, std::uint32_t count) {
  Scene scene = fixedNeighbourScene(count, v.neighbours, v.dims);
  scene.model.leaderRadius = v.leaderFactor * scene.model.perceptionRadius;
  scene.model.boundary = v.boundary;
  scene.model.fovDegrees = v.fov;
  scene.model.goalMode = v.goalMode;
  scene.model.margin = 3.0f;
  scene.model.turnRate = v.turnRate;
  scene.model.unitModel = v.units;
  scene.model.comfortDistance = v.comfortFactor * scene.model.perceptionRadius;
  scene.model.comfortMultiplier = 2.0f;
  scene.model.cohesionOnlyWithoutSeparation = v.cohesionOnlyWithoutSeparation;
  scene.groups = v.groups;
  scene.seed = 42;
  if (!v.steered) return scene;
  const glm::vec3 lo = scene.model.worldMin, hi = scene.model.worldMax;
  const glm::vec3 mid = 0.5f * (lo + hi);
  scene.obstacles = {{mid + glm::vec3(0.2f * (hi.x - lo.x), 0, 0), 3.0f}, {mid, 2.0f}};
  scene.predators = {mid + glm::vec3(0, 0, 0.25f * (hi.z - lo.z))};
  for (std::uint32_t g = 0; g < v.groups; g += 2)
    scene.targets.push_back({g, mid + glm::vec3(5.0f * float(g), 0, 0)});
  if (v.dims == 2) {
    for (auto& o : scene.obstacles) o.center.y = 0;
    for (auto& p : scene.predators) p.y = 0;
    for (auto& t : scene.targets) t.position.y = 0;
  }
  return scene;
}

FlockState spawnVariant(const Variant& v, const Scene& scene) {
  FlockState state = spawnFlock(scene);
  if (v.coincident)
    for (std::size_t i = 7; i < state.size(); i += 7) state.position[i] = state.position[i - 1];
  return state;
}

double maxDifference(const std::vector<glm::vec3>& a, const std::vector<glm::vec3>& b) {
  double worst = 0.0;
  for (std::size_t i = 0; i < a.size(); ++i) worst = std::max(worst, double(glm::length(a[i] - b[i])));
  return worst;
}

class GridEqualsNaive : public ::testing::TestWithParam<Variant> {};

TEST_P(GridEqualsNaive, OneStepAndFiftySteps) {
  const Scene scene = denseScene(GetParam(), 2000);
  const StepInputs inputs = staticInputs(scene, scene.groups);
  FlockState naive = spawnVariant(GetParam(), scene);
  FlockState grid = naive;
  CpuSimulator naiveSim(NeighbourSearch::Naive), gridSim(NeighbourSearch::Grid);
  // The flock resident in a simulator, kept in the cell order of its last step between steps (as
  // `murmur run` steps it): the same bytes as steps in id order.
  CpuSimulator residentSim(NeighbourSearch::Grid);
  residentSim.setState(naive);
  // Both searches sum candidates in the same order: any difference is a neighbour the grid missed
  // or counted twice, so the results must be identical, step after step.
  for (int s = 0; s < 50; ++s) {
    naiveSim.step(scene.model, inputs, naive);
    gridSim.step(scene.model, inputs, grid);
    residentSim.step(scene.model, inputs);
    ASSERT_EQ(maxDifference(naive.position, grid.position), 0.0) << "step " << s;
    ASSERT_EQ(maxDifference(naive.velocity, grid.velocity), 0.0) << "step " << s;
    ASSERT_EQ(naive.heading, grid.heading) << "step " << s;
    ASSERT_EQ(naive.attitude, grid.attitude) << "step " << s;
    const FlockState resident = residentSim.state();
    ASSERT_EQ(resident.position, grid.position) << "step " << s;
    ASSERT_EQ(resident.velocity, grid.velocity) << "step " << s;
    ASSERT_EQ(resident.leader, grid.leader) << "step " << s;
    ASSERT_EQ(resident.group, grid.group) << "step " << s;
    ASSERT_EQ(resident.heading, grid.heading) << "step " << s;
    ASSERT_EQ(resident.attitude, grid.attitude) << "step " << s;
  }
}

INSTANTIATE_TEST_SUITE_P(
    Variants, GridEqualsNaive,
    ::testing::Values(
        Variant{"contain3d_fov270", 3, Boundary::Contain, 270.0f, 1, GoalMode::Front},
        Variant{"wrap3d_fov360_groups3", 3, Boundary::Wrap, 360.0f, 3, GoalMode::All},
        Variant{"contain2d_fov180_groups2", 2, Boundary::Contain, 180.0f, 2, GoalMode::Front},
        Variant{"wrap2d_fov300", 2, Boundary::Wrap, 300.0f, 1, GoalMode::Front},
        // The leader radius past R: the grid's cells and the search grow to it.
        Variant{"wrap2d_groups2_leader_radius_1_6R", 2, Boundary::Wrap, 300.0f, 2, GoalMode::Front, 4.0f,
                1.6f},
        Variant{"contain3d_leader_radius_1_5R", 3, Boundary::Contain, 270.0f, 2, GoalMode::Front, 4.0f, 1.5f},
        // The stored heading (boids.turn_rate): fov, alignment and the leader cone use it.
        Variant{"wrap3d_fov270_turn_rate_120", 3, Boundary::Wrap, 270.0f, 2, GoalMode::Front, 30.0f, 0.5f,
                120.0f},
        // The lab's units: stored headings and spins, the book's pushes, the rigid body.
        Variant{"wrap2d_fov180_lab_units", 2, Boundary::Wrap, 180.0f, 2, GoalMode::Front, 30.0f, 1.5f, 0.0f,
                UnitModel::Lab},
        // Starlings: stored headings and banks, the flight's step.
        Variant{"contain3d_fov300_groups2_starlings", 3, Boundary::Contain, 300.0f, 2, GoalMode::All, 30.0f,
                0.5f, 0.0f, UnitModel::Starling},
        // The comfort distance's multiplier, and coincident boids, in the vectorised sums.
        Variant{"wrap3d_groups2_comfort_coincident", 3, Boundary::Wrap, 360.0f, 2, GoalMode::All, 30.0f, 0.5f,
                0.0f, UnitModel::Boids, 0.3f, true},
        // Packed as the murmuration (hundreds within R): the topological sweep leaves
        // out most cells (contain: 2 or 3 cells an axis) or none (wrap: 3 or 4, every cell imaged).
        Variant{"contain3d_fov300_groups2_packed", 3, Boundary::Contain, 300.0f, 2, GoalMode::Front, 250.0f},
        Variant{"wrap3d_fov300_packed", 3, Boundary::Wrap, 300.0f, 1, GoalMode::Front, 120.0f},
        // Sparse (a boid or less a cell): the metric sweep's batches span cells along a
        // row (sim::kSweepBatchSpan), up to a wrapped world's seams and a contained one's walls.
        Variant{"wrap3d_fov270_groups2_sparse", 3, Boundary::Wrap, 270.0f, 2, GoalMode::Front, 1.5f},
        Variant{"contain2d_fov300_sparse", 2, Boundary::Contain, 300.0f, 1, GoalMode::Front, 1.0f},
        // Nothing steered: the forces of a batch made a vector at a time.
        Variant{.name = "contain3d_fov270_groups2_unsteered",
                .dims = 3,
                .boundary = Boundary::Contain,
                .fov = 270.0f,
                .groups = 2,
                .goalMode = GoalMode::Front,
                .steered = false},
        Variant{.name = "wrap2d_fov300_unsteered_sparse_cohesion_only_without_separation",
                .dims = 2,
                .boundary = Boundary::Wrap,
                .fov = 300.0f,
                .groups = 1,
                .goalMode = GoalMode::Front,
                .neighbours = 1.5f,
                .steered = false,
                .cohesionOnlyWithoutSeparation = true},
        Variant{.name = "contain3d_fov360_unsteered_coincident_cohesion_only_without_separation",
                .dims = 3,
                .boundary = Boundary::Contain,
                .fov = 360.0f,
                .groups = 1,
                .goalMode = GoalMode::All,
                .coincident = true,
                .steered = false,
                .cohesionOnlyWithoutSeparation = true}),
    [](const ::testing::TestParamInfo<Variant>& variant) { return std::string(variant.param.name); });

// The same bytes whatever the instruction set the neighbour sweep runs on (every one this binary
// has and this CPU runs: EMU128, SSE2-level SSSE3/SSE4, AVX2, AVX-512) and whatever the thread
// count, over 50 steps, and the same as the all-pairs search. Which sets ran is printed: nothing is
// skipped silently, and the widest is the one the sweep used before (restored at the end).
void expectEveryInstructionSetAndThreadCountGivesTheSameBytes(const Variant& variant, const Scene& scene,
                                                              std::initializer_list<int> threadCounts) {
  const StepInputs inputs = staticInputs(scene, scene.groups);
  const FlockState start = spawnVariant(variant, scene);
  FlockState naive = start;
  CpuSimulator naiveSim(NeighbourSearch::Naive);
  for (int s = 0; s < 50; ++s) naiveSim.step(scene.model, inputs, naive);
  const std::vector<SimdTarget> targets = availableSimdTargets();
  ASSERT_GE(targets.size(), 2u) << "at least the portable target and one x86 vector set";
  const std::string widest = simdTargetName();
  EXPECT_EQ(widest, targets.front().name);
  std::string ran;
  for (const SimdTarget& target : targets) {
    forceSimdTarget(target.bits);
    ASSERT_EQ(simdTargetName(), target.name);
    for (int threads : threadCounts) {
      SCOPED_TRACE(target.name + " threads " + std::to_string(threads));
      FlockState grid = start;
      CpuSimulator gridSim(NeighbourSearch::Grid, threads);
      for (int s = 0; s < 50; ++s) gridSim.step(scene.model, inputs, grid);
      EXPECT_EQ(grid.position, naive.position);
      EXPECT_EQ(grid.velocity, naive.velocity);
      EXPECT_EQ(grid.leader, naive.leader);
      EXPECT_EQ(grid.heading, naive.heading);
    }
    ran += " " + target.name;
  }
  forceSimdTarget(0);
  EXPECT_EQ(simdTargetName(), widest);
  std::printf("[ SIMD     ] %s%s: ran%s\n", variant.name,
              scene.model.topologicalNeighbours != 0 ? " (K = 7)" : "", ran.c_str());
}

// Forcing one set and then the one forced before (forcedSimdTarget) dispatches as before, whether
// a set was forced before or none was: the benchmark's simd/ cases restore so (they once looked the
// set up among availableSimdTargets(), which then lists the forced set only, and left every later
// case on the last one's, SCALAR).
TEST(SimdTargets, ForcingOneThenThePreviousDispatchesAsBefore) {
  const std::vector<SimdTarget> targets = availableSimdTargets();
  ASSERT_GE(targets.size(), 2u);
  ASSERT_EQ(forcedSimdTarget(), 0);
  const std::string widest = simdTargetName();
  for (const std::int64_t before : {std::int64_t{0}, targets.back().bits}) {
    forceSimdTarget(before);
    const std::string dispatched = simdTargetName();
    for (const SimdTarget& target : targets) {
      const std::int64_t found = forcedSimdTarget();
      forceSimdTarget(target.bits);
      EXPECT_EQ(simdTargetName(), target.name);
      EXPECT_EQ(availableSimdTargets().size(), 1u) << target.name;
      forceSimdTarget(found);
      EXPECT_EQ(simdTargetName(), dispatched) << "after " << target.name;
    }
  }
  forceSimdTarget(0);
  EXPECT_EQ(simdTargetName(), widest);
}

TEST_P(GridEqualsNaive, EveryInstructionSetAndThreadCountGivesTheSameBytes) {
  expectEveryInstructionSetAndThreadCountGivesTheSameBytes(GetParam(), denseScene(GetParam(), 1500),
                                                           {1, 2, 3});
}

// The topological rule's sweep (sim/neighbour_sweep: its own cell first, then the cells within a
// shrinking reach) likewise.
TEST_P(GridEqualsNaive, TopologicalEveryInstructionSetAndThreadCountGivesTheSameBytes) {
  Scene scene = denseScene(GetParam(), 1500);
  scene.model.topologicalNeighbours = 7;
  scene.model.unitModel = UnitModel::Boids;  // the lab's units have no topological neighbours (refused)
  expectEveryInstructionSetAndThreadCountGivesTheSameBytes(GetParam(), scene, {1, 2});
}

// The leader flags a step records, and the group summaries' counts of them, equal the rule applied
// by brute force to the state the step read; recording changes nothing else, and a step that does
// not steer by its leaders records none unless asked.
TEST_P(GridEqualsNaive, LeadersEqualTheBruteForceRule) {
  const Scene scene = denseScene(GetParam(), 2000);
  StepInputs inputs = staticInputs(scene, scene.groups);
  inputs.recordLeaders = true;
  FlockState state = spawnFlock(scene);
  CpuSimulator warmup(NeighbourSearch::Grid);
  for (int s = 0; s < 10; ++s) warmup.step(scene.model, inputs, state);  // flocks with fronts and backs
  const std::vector<std::uint8_t> expected = test::bruteForceLeaders(scene.model, state);
  const std::vector<std::uint32_t> expectedPerGroup = test::leadersPerGroup(state, expected);
  std::size_t leaders = 0;
  for (std::uint8_t l : expected) leaders += l;
  ASSERT_GT(leaders, 0u);
  ASSERT_LT(leaders, state.size()) << "the case must have followers too";
  for (NeighbourSearch search : {NeighbourSearch::Naive, NeighbourSearch::Grid}) {
    SCOPED_TRACE(std::string(toString(search)));
    FlockState next = state;
    CpuSimulator(search).step(scene.model, inputs, next);
    EXPECT_EQ(next.leader, expected);
    const std::vector<GroupSummary> summaries = summarizeGroups(next);
    for (std::uint32_t g = 0; g < scene.groups; ++g)
      EXPECT_EQ(summaries[g].leaders, expectedPerGroup[g]) << g;
  }
  FlockState recorded = state, unrecorded = state;
  CpuSimulator(NeighbourSearch::Grid).step(scene.model, inputs, recorded);
  inputs.recordLeaders = false;
  CpuSimulator(NeighbourSearch::Grid).step(scene.model, inputs, unrecorded);
  EXPECT_EQ(unrecorded.position, recorded.position);
  EXPECT_EQ(unrecorded.velocity, recorded.velocity);
  EXPECT_EQ(unrecorded.leader, leadersUsed(scene.model, inputs, scene.groups)
                                   ? expected
                                   : std::vector<std::uint8_t>(state.size(), 0));
}

// Topological neighbours (K = 7 of about 30 within R): both searches give the brute-force step
// (separation weighted 0, see brute_force_topological.hpp) bit for bit, and each other for 50 steps
// with separation on.
TEST_P(GridEqualsNaive, TopologicalNeighboursEqualTheBruteForce) {
  Scene scene = denseScene(GetParam(), 2000);
  scene.model.topologicalNeighbours = 7;
  scene.model.unitModel = UnitModel::Boids;  // the lab's units have no topological neighbours (refused)
  const StepInputs inputs = staticInputs(scene, scene.groups);
  const FlockState start = spawnFlock(scene);
  Scene unseparated = scene;
  unseparated.model.weights.separation = 0.0f;
  const FlockState expected = test::bruteForceTopologicalStep(unseparated.model, inputs, start);
  for (NeighbourSearch search : {NeighbourSearch::Naive, NeighbourSearch::Grid}) {
    SCOPED_TRACE(std::string(toString(search)));
    FlockState next = start;
    CpuSimulator(search).step(unseparated.model, inputs, next);
    EXPECT_EQ(next.position, expected.position);
    EXPECT_EQ(next.velocity, expected.velocity);
    EXPECT_EQ(next.leader, expected.leader);
  }
  // K bounds what alignment and cohesion see: the metric rule's step differs.
  FlockState metric = start;
  Scene metricScene = unseparated;
  metricScene.model.topologicalNeighbours = 0;
  CpuSimulator(NeighbourSearch::Grid).step(metricScene.model, inputs, metric);
  EXPECT_NE(metric.velocity, expected.velocity);

  FlockState naive = start, grid = start;
  CpuSimulator naiveSim(NeighbourSearch::Naive), gridSim(NeighbourSearch::Grid);
  for (int s = 0; s < 50; ++s) {
    naiveSim.step(scene.model, inputs, naive);
    gridSim.step(scene.model, inputs, grid);
    ASSERT_EQ(naive.velocity, grid.velocity) << "step " << s;
    ASSERT_EQ(naive.position, grid.position) << "step " << s;
  }
}

// On a lattice every distance repeats: the 7th nearest is often one of several at the same
// distance, and the lower id wins (the brute force's std::sort by distance, then id).
TEST(CpuSimulator, TopologicalTiesGoToTheLowerId) {
  constexpr int kSide = 12;
  const Scene scene = test::latticeScene(kSide, 2);
  const FlockState start = test::latticeFlock(scene, kSide, 5);
  const StepInputs inputs = staticInputs(scene, scene.groups);
  const FlockState expected = test::bruteForceTopologicalStep(scene.model, inputs, start);
  for (NeighbourSearch search : {NeighbourSearch::Naive, NeighbourSearch::Grid}) {
    SCOPED_TRACE(std::string(toString(search)));
    FlockState next = start;
    CpuSimulator(search).step(scene.model, inputs, next);
    EXPECT_EQ(next.velocity, expected.velocity);
    EXPECT_EQ(next.position, expected.position);
  }
  // The tie rule matters here: with the ids reversed (ties going the other way) some boid's step
  // changes.
  const std::uint32_t n = scene.count;
  FlockState mirrored = start;  // ids reversed: boid i of `start` is boid n - 1 - i
  for (std::uint32_t i = 0; i < n; ++i) {
    mirrored.position[n - 1 - i] = start.position[i];
    mirrored.velocity[n - 1 - i] = start.velocity[i];
    mirrored.group[n - 1 - i] = start.group[i];
  }
  FlockState mirroredNext = mirrored;
  CpuSimulator(NeighbourSearch::Grid).step(scene.model, inputs, mirroredNext);
  std::size_t differing = 0;
  for (std::uint32_t i = 0; i < n; ++i) differing += mirroredNext.velocity[n - 1 - i] != expected.velocity[i];
  EXPECT_GT(differing, 0u);
}

// The adaptive range (sim/fine_grid) changes no byte: on and off, and the all-pairs search, give
// the same steps; in a contained world it settles most boids after the first step (which has no
// ranges yet) and none in a wrapped one; a flock spread out at once (every range too short) is
// searched again over R and still gives the same bytes.
TEST_P(GridEqualsNaive, AdaptiveRangeChangesNoByte) {
  Scene scene = denseScene(GetParam(), 2000);
  scene.model.topologicalNeighbours = 7;
  scene.model.unitModel = UnitModel::Boids;  // the lab's units have no topological neighbours (refused)
  const StepInputs inputs = staticInputs(scene, scene.groups);
  FlockState naive = spawnVariant(GetParam(), scene);
  CpuSimulator naiveSim(NeighbourSearch::Naive), on(NeighbourSearch::Grid), off(NeighbourSearch::Grid);
  off.setAdaptiveRange(false);
  on.setState(naive);
  off.setState(naive);
  const bool adaptive = scene.model.boundary != Boundary::Wrap;
  const auto stepAll = [&](int s) {
    naiveSim.step(scene.model, inputs, naive);
    on.step(scene.model, inputs);
    off.step(scene.model, inputs);
    const FlockState a = on.state(), b = off.state();
    ASSERT_EQ(a.position, naive.position) << "step " << s;
    ASSERT_EQ(a.velocity, naive.velocity) << "step " << s;
    ASSERT_EQ(a.heading, naive.heading) << "step " << s;
    ASSERT_EQ(a.leader, naive.leader) << "step " << s;
    ASSERT_EQ(b.velocity, naive.velocity) << "step " << s;
    EXPECT_EQ(off.lastStepRangeSettled(), 0u);
  };
  for (int s = 0; s < 30; ++s) {
    stepAll(s);
    if (HasFatalFailure()) return;
    if (s == 0 || !adaptive) {
      EXPECT_EQ(on.lastStepRangeSettled(), 0u) << "step " << s;
    }
  }
  // Where K lie within R (not the sparse variants), the range settles most.
  if (adaptive && GetParam().neighbours >= 2.0f * float(scene.model.topologicalNeighbours)) {
    EXPECT_GT(on.lastStepRangeSettled(), naive.size() / 2);
  }
  if (!adaptive) return;
  // Spread by half about the centre: last step's ranges now hold fewer than K.
  const glm::vec3 mid = 0.5f * (scene.model.worldMin + scene.model.worldMax);
  for (glm::vec3& p : naive.position) p = mid + 1.5f * (p - mid);
  on.setState(naive);
  off.setState(naive);
  for (int s = 30; s < 35; ++s) {
    stepAll(s);
    if (HasFatalFailure()) return;
  }
}

// Ties at the K-th distance (a lattice) go to the lower id through the adaptive range too: a
// second step from the lattice, with the ranges the first left, equals the brute force (the
// lattice in a contained world: a wrapped one takes no adaptive range).
TEST(CpuSimulator, AdaptiveRangeTiesGoToTheLowerId) {
  constexpr int kSide = 12;
  Scene scene = test::latticeScene(kSide, 2);
  scene.model.boundary = Boundary::Contain;
  const FlockState start = test::latticeFlock(scene, kSide, 5);
  const StepInputs inputs = staticInputs(scene, scene.groups);
  const FlockState expected = test::bruteForceTopologicalStep(scene.model, inputs, start);
  CpuSimulator sim(NeighbourSearch::Grid);
  sim.setState(start);
  sim.step(scene.model, inputs);
  sim.setState(start);
  sim.step(scene.model, inputs);
  EXPECT_GT(sim.lastStepRangeSettled(), start.size() / 2);
  const FlockState next = sim.state();
  EXPECT_EQ(next.velocity, expected.velocity);
  EXPECT_EQ(next.position, expected.position);
}

// The fine grid holds every boid once, in the cell its position lies in, stable in slot; a far
// outlier widens its cells rather than growing it past kFineCellsPerBoid cells a boid, and a
// non-finite coordinate goes to the first cell along its axis.
TEST(FineGrid, HoldsEachBoidInItsCell) {
  constexpr std::size_t n = 1000;
  Pcg32 rng(7);
  std::vector<float> x(n), y(n), z(n);
  std::vector<glm::vec3> heading(n, glm::vec3(1, 0, 0));
  std::vector<std::uint32_t> group(n, 0), id(n);
  for (std::size_t k = 0; k < n; ++k) {
    x[k] = rng.uniform(0.0f, 20.0f);
    y[k] = rng.uniform(0.0f, 20.0f);
    z[k] = rng.uniform(0.0f, 20.0f);
    id[k] = static_cast<std::uint32_t>(n - 1 - k);
  }
  const SortedFlock sorted{x.data(), y.data(), z.data(), heading.data(), group.data(), id.data()};
  for (const float outlier : {0.0f, 1e6f}) {
    SCOPED_TRACE(outlier);
    x[3] = outlier == 0.0f ? x[3] : outlier;
    y[5] = outlier == 0.0f ? y[5] : std::nanf("");
    FineGrid fine;
    fine.build(sorted, n, 2.0f, 3);
    const std::size_t cells =
        std::size_t(fine.cells.x) * std::size_t(fine.cells.y) * std::size_t(fine.cells.z);
    EXPECT_LE(cells, kFineCellsPerBoid * n);
    EXPECT_GE(fine.cellWidth, 2.0f / kFineCellsPerRadius);
    if (outlier == 0.0f) {
      EXPECT_GT(cells, n) << "grown no more than the bound needs";
    }
    ASSERT_EQ(fine.cellStart.size(), cells + 1);
    ASSERT_EQ(fine.cellStart.back(), n);
    for (std::size_t k = 0; k < n; ++k) {
      const std::uint32_t f = fine.fineSlot[k];
      ASSERT_EQ(fine.slot[f], k);
      EXPECT_EQ(fine.id[f], id[k]);
      const bool finite = std::isfinite(x[k]) && std::isfinite(y[k]);
      const std::uint32_t cell = fine.cellIndex(fine.cellCoord({x[k], y[k], z[k]}));
      EXPECT_GE(f, fine.cellStart[cell]) << k;
      EXPECT_LT(f, fine.cellStart[cell + 1]) << k;
      if (finite) {
        const glm::vec3 lo = fine.origin + glm::vec3(fine.cellCoord({x[k], y[k], z[k]})) * fine.cellWidth;
        EXPECT_LE(lo.x, x[k]);
        EXPECT_LT(x[k], lo.x + fine.cellWidth * 1.0001f);
      }
      if (f > fine.cellStart[cell]) {
        EXPECT_LT(fine.slot[f - 1], k) << "stable in slot";
      }
    }
  }
}

TEST(CpuSimulator, ThreadCountDoesNotChangeTheResult) {
  const Scene scene = denseScene({"t", 3, Boundary::Wrap, 270.0f, 2, GoalMode::Front}, 3000);
  const StepInputs inputs = staticInputs(scene, scene.groups);
  FlockState one = spawnFlock(scene);
  FlockState all = one;
  CpuSimulator single(NeighbourSearch::Grid, 1), threaded(NeighbourSearch::Grid, 4);
  for (int s = 0; s < 5; ++s) {
    single.step(scene.model, inputs, one);
    threaded.step(scene.model, inputs, all);
  }
  EXPECT_EQ(one.position, all.position);
  EXPECT_EQ(one.velocity, all.velocity);
}

TEST(CpuSimulator, EmptyAndSingleBoid) {
  Scene scene = defaultDensityScene(0);
  FlockState empty = spawnFlock(scene);
  CpuSimulator sim(NeighbourSearch::Grid);
  sim.step(scene.model, staticInputs(scene, 1), empty);
  EXPECT_EQ(empty.size(), 0u);
  scene.count = 1;
  FlockState one = spawnFlock(scene);
  const glm::vec3 v0 = one.velocity[0];
  sim.step(scene.model, staticInputs(scene, 1), one);
  // Alone: only cruise acts, along the heading toward 8 units/s (force 3 * (8 - |v|), clamped 20).
  const float speed0 = glm::length(v0);
  const float expected = speed0 + std::clamp(3.0f * (8.0f - speed0), -20.0f, 20.0f) / 60.0f;
  EXPECT_NEAR(glm::length(one.velocity[0]), expected, 1e-4);
}

// The shipped free flock with 600 boids, 15 simulated seconds: local groups align, speeds stay in
// bounds and separation keeps every pair apart.
TEST(Behaviour, FreeFlockForms) {
  Scene scene = loadScene(MURMUR_SOURCE_DIR "/scenes/free.toml");
  scene.count = 600;
  ASSERT_NEAR(scene.model.dt * 900.0f, 15.0f, 1e-4f);
  FlockState state = spawnFlock(scene);
  const StepInputs inputs = staticInputs(scene, scene.groups);
  CpuSimulator sim(NeighbourSearch::Grid);
  const FlockMetrics before = measureFlock(scene.model, state);
  double closest = 1e9;
  for (int s = 0; s < 900; ++s) {
    sim.step(scene.model, inputs, state);
    if (s >= 300) closest = std::min(closest, measureFlock(scene.model, state).minPairDistance);
  }
  const FlockMetrics after = measureFlock(scene.model, state);
  EXPECT_LT(before.localPolarization, 0.6);
  EXPECT_GT(after.localPolarization, 0.9);
  EXPECT_GE(after.minSpeed, scene.model.minSpeed - 1e-4);
  EXPECT_LE(after.maxSpeed, scene.model.maxSpeed + 1e-4);
  EXPECT_GT(closest, 0.3);
  EXPECT_EQ(after.nonFinite, 0u);
}

// The shipped obstacle scene, 1,500 steps: no boid ever ends a step inside an obstacle.
TEST(Behaviour, NoBoidEndsAStepInsideAnObstacle) {
  Scene scene = loadScene(MURMUR_SOURCE_DIR "/scenes/obstacles.toml");
  scene.count = 3000;  // half the scene's flock keeps the test quick on two cores
  ASSERT_GE(scene.obstacles.size(), 4u);
  FlockState state = spawnFlock(scene);
  const StepInputs inputs = staticInputs(scene, scene.groups);
  CpuSimulator sim(NeighbourSearch::Grid);
  auto countInside = [&] {
    std::size_t inside = 0;
    for (const glm::vec3& p : state.position)
      for (const Obstacle& o : scene.obstacles)
        if (glm::length(p - o.center) < o.radius) ++inside;
    return inside;
  };
  EXPECT_EQ(countInside(), 0u) << "spawned inside an obstacle";
  std::size_t violations = 0;
  for (int s = 0; s < 1500; ++s) {
    sim.step(scene.model, inputs, state);
    violations += countInside();
  }
  EXPECT_EQ(violations, 0u);
}

// A lone unit pursues a target that crosses in a straight line at 6 units/s: aiming at the predicted
// intercept point catches it sooner than steering straight at it, with the same thrust.
TEST(Behaviour, AnInterceptorCatchesAStraightMovingTargetSoonerThanAChaser) {
  const auto stepsToCatch = [](GroupRole role) {
    Scene scene = defaultDensityScene(1, 2);
    scene.model.boundary = Boundary::Wrap;
    scene.model.worldMin = {-200, -50, -200};
    scene.model.worldMax = {200, 50, 200};
    FlockState state;
    state.resize(1);
    state.position[0] = {0, 0, 0};
    state.velocity[0] = {0, 0, -5};
    StepInputs inputs = staticInputs(scene, 1);
    GroupSteering& s = inputs.steering[0];
    s.role = role;
    s.thrust = 1.5f;
    s.weight = 4.0f;
    s.target = {60, 0, -40};
    s.targetVelocity = {0, 0, 6};
    CpuSimulator simulator(NeighbourSearch::Grid, 1);
    for (int step = 1; step <= 3000; ++step) {
      simulator.step(scene.model, inputs, state);
      s.target += s.targetVelocity * scene.model.dt;
      if (glm::length(state.position[0] - s.target) < 1.0f) return step;
    }
    return 0;
  };
  const int chase = stepsToCatch(GroupRole::Chase), intercept = stepsToCatch(GroupRole::Intercept);
  std::printf("  caught after %d steps (chase) and %d (intercept)\n", chase, intercept);
  ASSERT_GT(chase, 0) << "the chaser never catches the target";
  ASSERT_GT(intercept, 0) << "the interceptor never catches the target";
  EXPECT_LT(intercept, chase);
}

// A 2D torus with an obstacle across the seam (centre x = 45, radius 8: it covers x >= 37 and,
// through the seam, x < -47).
Scene seamObstacleScene(std::uint32_t count) {
  Scene scene = defaultDensityScene(count, 2);
  scene.model.boundary = Boundary::Wrap;
  scene.model.worldMin = {-50, -5, -50};
  scene.model.worldMax = {50, 5, 50};
  scene.obstacles = {{{45, 0, 0}, 8}};
  return scene;
}

// The distance from p to the obstacle's centre through the seam (the exact minimum image).
double seamDistance(const Scene& scene, glm::vec3 p) {
  glm::dvec3 d = glm::dvec3(scene.obstacles[0].center) - glm::dvec3(p);
  const glm::dvec3 size(scene.model.worldSize());
  d -= size * glm::floor(d / size + 0.5);
  d.y = 0.0;
  return glm::length(d);
}

TEST(WrapWorld, ABoidApproachingAnObstacleAcrossTheSeamAvoidsIt) {
  const Scene scene = seamObstacleScene(1);
  FlockState state;
  state.resize(1);
  state.position[0] = {-20, 0, 1};
  state.velocity[0] = {-8, 0, 0};  // straight at the obstacle, through the seam
  const StepInputs inputs = staticInputs(scene, 1);
  CpuSimulator simulator(NeighbourSearch::Grid, 1);
  double closest = 1e9;
  bool crossed = false;
  for (int step = 0; step < 600; ++step) {
    const float before = state.position[0].x;
    simulator.step(scene.model, inputs, state);
    crossed = crossed || state.position[0].x > before + 50.0f;  // wrapped from -50 to +50
    closest = std::min(closest, seamDistance(scene, state.position[0]));
  }
  EXPECT_TRUE(crossed) << "the boid must fly through the seam";
  EXPECT_GT(closest, 8.0) << "the boid entered the obstacle through the seam";
}

TEST(WrapWorld, NoBoidSpawnsInsideAnObstaclesWrappedPart) {
  const Scene scene = seamObstacleScene(4000);
  const FlockState state = spawnFlock(scene);
  const double clearance = 8.0 + scene.model.radius + scene.model.perceptionRadius;
  std::size_t acrossTheSeam = 0;
  for (const glm::vec3& p : state.position) {
    ASSERT_GE(seamDistance(scene, p), clearance) << "a boid spawned at " << p.x << ", " << p.z;
    acrossTheSeam += p.x < -30.0f && std::abs(p.z) < 5.0f;
  }
  EXPECT_GT(acrossTheSeam, 0u) << "the wrapped part's neighbourhood is spawned in";
}

// The stored heading exists only while boids.turn_rate is on: the first step starts it from the
// velocities, the boids then move along it, and a step with the rate off drops it (the heading is
// the velocity's again).
TEST(CpuSimulator, TurnRateKeepsHeadingsOnlyWhileOn) {
  Scene scene = fixedNeighbourScene(500, 10.0f, 3);
  scene.model.turnRate = 60.0f;
  const StepInputs inputs = staticInputs(scene, scene.groups);
  FlockState state = spawnFlock(scene);
  ASSERT_TRUE(state.heading.empty());
  CpuSimulator sim(NeighbourSearch::Grid, 2);
  sim.step(scene.model, inputs, state);
  ASSERT_EQ(state.heading.size(), state.size());
  // After some steps headings lag their velocities, by at most 60 degrees/s x dt a step behind.
  for (int s = 0; s < 30; ++s) sim.step(scene.model, inputs, state);
  std::size_t lagging = 0;
  for (std::size_t i = 0; i < state.size(); ++i) {
    EXPECT_NEAR(glm::length(state.heading[i]), 1.0f, 1e-6f);
    if (glm::dot(state.heading[i], heading(state.velocity[i])) < 0.9999f) ++lagging;
  }
  EXPECT_GT(lagging, 0u);
  scene.model.turnRate = 0.0f;
  sim.step(scene.model, inputs, state);
  EXPECT_TRUE(state.heading.empty());
}

}  // namespace
}  // namespace murmur::sim
