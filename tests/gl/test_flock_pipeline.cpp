// The GPU flock pipeline against the CPU reference: the shared memory layout, the prefix sum, the
// grid build (counts, starts, cell order), one step in every feature of the model, edge sizes,
// reproducibility and the group reduction.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include <glm/geometric.hpp>

#include "brute_force_leaders.hpp"
#include "brute_force_topological.hpp"
#include "gl_test_env.hpp"
#include "gpu/error.hpp"
#include "gpu/flock_layout.hpp"
#include "gpu/flock_pipeline.hpp"
#include "gpu/prefix_sum.hpp"
#include "sim/builders.hpp"
#include "sim/cpu_simulator.hpp"
#include "sim/grid.hpp"
#include "sim/metrics.hpp"
#include "sim/parity.hpp"
#include "sim/random.hpp"
#include "sim/rules.hpp"
#include "sim/walls.hpp"

namespace murmur::gpu {
namespace {

FlockPipeline& pipeline() {
  static FlockPipeline instance(test::glContext(), test::shaderLibrary(), gpu::Arithmetic::Exact);
  return instance;
}

// ---------------------------------------------------------------------------------------------
// The optional terms a step's force program has compiled in (gpu::StepFeature): none for free
// flight, and each input or parameter that a term reads switches that term on.
TEST(FlockPipelineFeatures, EachInputSwitchesOnItsTerm) {
  sim::ModelParams params;
  const auto features = [&params](const sim::StepInputs& inputs) {
    return FlockPipeline::stepFeatures(params, sim::packInputs(params, inputs, 2));
  };
  EXPECT_EQ(features({}), 0u);
  sim::StepInputs obstacle;
  obstacle.obstacleCenter = {glm::vec3(1.0f)};
  obstacle.obstacleRadius = {2.0f};
  EXPECT_EQ(features(obstacle), kObstaclesTerm);
  sim::StepInputs predator;
  predator.predators = {glm::vec3(3.0f)};
  EXPECT_EQ(features(predator), kAgentsTerms);
  sim::StepInputs goals;
  goals.goal = {std::nullopt, std::nullopt};
  EXPECT_EQ(features(goals), 0u) << "groups without a goal";
  goals.goal[1] = glm::vec3(4.0f);
  EXPECT_EQ(features(goals), kAgentsTerms);
  sim::StepInputs steering;
  steering.steering = {sim::GroupSteering{}, sim::GroupSteering{}};
  EXPECT_EQ(features(steering), 0u) << "every group only flocks";
  steering.steering[1].role = sim::GroupRole::Intercept;
  EXPECT_EQ(features(steering), kAgentsTerms);
  sim::StepInputs walls;
  auto grid = std::make_shared<sim::WallGrid>();
  grid->width = grid->height = 2;
  grid->blocked = {0, 1, 0, 0};
  walls.walls = grid;
  EXPECT_EQ(features(walls), kWallsTerm);
  params.roostRadius = 10.0f;
  EXPECT_EQ(features(walls), kWallsTerm | kRoostTerm);
}

// A step's passes (gpu::dispatchCount). After an upload: hash, count, the scan (one pass whatever
// the grid), the ids' scatter, the reorder, the counts cleared and the forces: 7. On the next steps
// the last force pass has hashed and counted what it wrote, so only the scan, scatter, reorder,
// clear and forces run: 5. After stateReplaced() (the state written into the pipeline's buffers in
// id order, as the benchmarks restore it), and on a new grid, hash and count run again.
// The state stays the CPU's bit for bit all along (on llvmpipe): the folded counts are the counts.
TEST(FlockPipelineDispatches, TheForcePassHashesAndCountsTheNextStep) {
  FlockPipeline& gpu = pipeline();
  const sim::Scene scene = sim::defaultDensityScene(4000, 3);
  sim::FlockState cpuState = sim::spawnFlock(scene);
  gpu.upload(cpuState);
  sim::CpuSimulator cpu(sim::NeighbourSearch::Grid, 2);
  const auto stepBoth = [&](const sim::ModelParams& params) {
    const std::uint64_t before = dispatchCount();
    gpu.step(params, {});
    cpu.step(params, {}, cpuState);
    return dispatchCount() - before;
  };
  // The scan, the ids' scatter and the reorder, the counts cleared and the forces.
  const std::uint64_t steady = 1 + 2 + 2;
  std::uint64_t dispatches = stepBoth(scene.model);
  EXPECT_EQ(dispatches, 2 + steady) << "hash and count after the upload";
  ASSERT_GT(gpu.grid().cellCount() + 1, 4096u) << "a grid of more than one scan block";
  for (int s = 0; s < 4; ++s) EXPECT_EQ(stepBoth(scene.model), steady) << "step " << s;
  {
    // The state copied back in id order: the pipeline takes its slots for ids again.
    const sim::FlockState now = gpu.download();
    std::vector<glm::vec4> positions, velocities;
    for (std::size_t i = 0; i < now.size(); ++i) {
      positions.emplace_back(now.position[i], float(now.group[i]));
      velocities.emplace_back(now.velocity[i], float(now.leader[i]));
    }
    gpu.positionBuffer().upload(std::span<const glm::vec4>(positions));
    gpu.velocityBuffer().upload(std::span<const glm::vec4>(velocities));
    gpu.stateReplaced();
  }
  EXPECT_EQ(stepBoth(scene.model), 2 + steady) << "after stateReplaced()";
  sim::ModelParams wider = scene.model;
  wider.perceptionRadius *= 1.25f;  // larger cells: another grid
  dispatches = stepBoth(wider);
  EXPECT_EQ(dispatches, 2 + steady) << "on a new grid";
  dispatches = stepBoth(wider);
  EXPECT_EQ(dispatches, steady);
  if (test::bitwiseParityExpected()) {
    EXPECT_EQ(test::bitwiseDifference(cpuState, gpu.download()), "");
  }
}

// The flock stays in the order of the last step's sort: the force pass writes each boid's next
// state at its sorted slot, and that changes no result. After each step the state's slot s holds
// the CPU's next state of the boid the step sorted into s (a permutation that is not the ids'
// order), the slot map inverts it, and download() gives the CPU's state by id, bit for bit.
TEST(FlockPipelineCellOrder, TheStateStaysInTheLastSortsOrderAndNoResultChanges) {
  FlockPipeline& gpu = pipeline();
  const sim::Scene scene = sim::defaultDensityScene(3000, 3);
  sim::FlockState cpuState = sim::spawnFlock(scene);
  gpu.upload(cpuState);
  sim::CpuSimulator cpu(sim::NeighbourSearch::Grid, 2);
  for (int step = 0; step < 5; ++step) {
    SCOPED_TRACE("step " + std::to_string(step));
    sim::CellOrder sorted;
    sim::WorkerPool serial(1);
    sorted.build(sim::makeGridSpec(scene.model), cpuState.position, serial);
    gpu.step(scene.model, {});
    cpu.step(scene.model, {}, cpuState);
    const std::size_t n = cpuState.size();
    const GridSnapshot grid = gpu.gridSnapshot();
    ASSERT_EQ(grid.order, sorted.order) << "the step's sort is the CPU's stable counting sort";
    std::size_t inPlace = 0;
    for (std::size_t s = 0; s < n; ++s) inPlace += grid.order[s] == s ? 1 : 0;
    EXPECT_LT(inPlace, n / 2) << "the sort's order is not the ids' order";
    const std::vector<glm::vec4> positions = gpu.positionBuffer().download<glm::vec4>(n);
    const std::vector<glm::vec4> velocities = gpu.velocityBuffer().download<glm::vec4>(n);
    const std::vector<std::uint32_t> slots = gpu.slotBuffer().download<std::uint32_t>(n);
    for (std::size_t s = 0; s < n; ++s) {
      const std::uint32_t id = grid.order[s];
      ASSERT_EQ(slots[id], s) << "boid " << id;
      if (test::bitwiseParityExpected()) {
        ASSERT_EQ(glm::vec3(positions[s]), cpuState.position[id]) << "slot " << s;
        ASSERT_EQ(glm::vec3(velocities[s]), cpuState.velocity[id]) << "slot " << s;
        ASSERT_EQ(positions[s].w, float(cpuState.group[id])) << "slot " << s;
      }
    }
    if (test::bitwiseParityExpected()) {
      ASSERT_EQ(test::bitwiseDifference(cpuState, gpu.download()), "");
    }
  }
}

// The byte model (bench/report.py): every storage buffer each program of the pipeline binds is
// described, and a steady step (the scan, the scatter, the force pass) moves, per boid, by hand:
//   scatter ids  cellOf, rankInCell, boidIds, unsortedIds          4 x 4 = 16
//   reorder      boidIds, cellOf, unsortedIds 3 x 4; positions, velocities 2 x 16; sortedIds 4;
//                sortedPositions, sortedVelocities, sortedHeadings 3 x 16          = 96
//   forces       sortedPositions, sortedVelocities 2 x 16 (its own heading from its velocity);
//                positions, velocities 2 x 16; cellOf, rankInCell 2 x 4             = 72
// 184 bytes, none of them scattered; per cell the scan's 2 accesses, the scatter's 2 cell starts,
// the force pass's start and its counter cleared then incremented: 8 x 4 = 32 bytes; per
// candidate a position and a heading, 32 bytes. Only the reader's slot map and reduction scatter.
TEST(FlockPipelineTraffic, TheByteModelDescribesEveryBoundBuffer) {
  const std::vector<BufferTraffic> model = pipeline().trafficModel();
  std::uint64_t boid = 0, cell = 0, candidate = 0, scattered = 0, readerScattered = 0;
  for (const BufferTraffic& t : model) {
    const std::uint64_t bytes = std::uint64_t(t.elementBytes) * t.accesses;
    if (FlockPipeline::forReadersOnly(t.stage)) {
      readerScattered += t.scattered ? 1 : 0;
      continue;
    }
    if (FlockPipeline::foldedIntoForces(t.stage)) continue;
    if (t.unit == BufferTraffic::Unit::Boid) boid += bytes;
    if (t.unit == BufferTraffic::Unit::Cell) cell += bytes;
    if (t.unit == BufferTraffic::Unit::Candidate) candidate += bytes;
    scattered += t.scattered ? 1 : 0;
  }
  EXPECT_EQ(boid, 184u);
  EXPECT_EQ(cell, 32u);
  EXPECT_EQ(candidate, 32u);
  EXPECT_EQ(scattered, 0u);
  EXPECT_EQ(readerScattered, 3u) << "slotOf written by id, positions and velocities read by id";
}

// Layout

// The driver's std140 offsets of the step constants against the generated struct's, member by
// member, in every program that reads them: a member one program optimises away another uses.
TEST(FlockLayout, StepParamsOffsetsMatchTheDriver) {
  Defines defines = layout::bindingDefines();
  defines.emplace_back("WORKGROUP_SIZE", "64");
  defines.emplace_back("ITEMS", "1");
  defines.emplace_back("EXACT", "precise");
  std::vector<std::string> checked;
  for (const char* shader : {"flock/Step.comp.glsl", "flock/StepTopological.comp.glsl",
                             "flock/StepTurning.comp.glsl", "grid/CellIndex.comp.glsl"}) {
    SCOPED_TRACE(shader);
    const Program program = test::shaderLibrary().compute(shader, defines);
    for (const layout::StepParamMember& member : layout::kStepParamMembers) {
      const std::string name = "StepParamsBlock." + std::string(member.name);
      const GLuint index = glGetProgramResourceIndex(program.id(), GL_UNIFORM, name.c_str());
      if (index == GL_INVALID_INDEX) continue;  // not used by this shader: optimised away
      const GLenum property = GL_OFFSET;
      GLint offset = -1;
      glGetProgramResourceiv(program.id(), GL_UNIFORM, index, 1, &property, 1, nullptr, &offset);
      EXPECT_EQ(static_cast<std::size_t>(offset), member.offset) << member.name;
      checked.push_back(name);
    }
    const GLuint block = glGetProgramResourceIndex(program.id(), GL_UNIFORM_BLOCK, "StepParamsBlock");
    ASSERT_NE(block, GL_INVALID_INDEX);
    const GLenum property = GL_BUFFER_DATA_SIZE;
    GLint size = 0;
    glGetProgramResourceiv(program.id(), GL_UNIFORM_BLOCK, block, 1, &property, 1, nullptr, &size);
    EXPECT_LE(static_cast<std::size_t>(size), sizeof(layout::StepParams));
  }
  std::sort(checked.begin(), checked.end());
  checked.erase(std::unique(checked.begin(), checked.end()), checked.end());
  // All but a few members are read by one of these programs: the comparison is not vacuous.
  EXPECT_GE(checked.size() + 6, layout::kStepParamMembers.size());
}

// ---------------------------------------------------------------------------------------------
// Prefix sum

// The one-pass scan against the host's sums: within a block, at its edges, over many blocks
// (4,097 of them for 4096^2 + 17 values, as many look-backs), and with the look-back's fallback
// alone (no polls: every block sums each block before it from its values, back to the nearest
// published inclusive prefix).
void expectHostSums(PrefixSum& scan, const std::vector<std::uint32_t>& counts) {
  sim::Pcg32 rng(7);
  for (std::uint32_t count : counts) {
    std::vector<std::uint32_t> values(count);
    for (std::uint32_t& v : values) v = rng.next() % 50;
    const Buffer in = Buffer::fromSpan("scan input", std::span<const std::uint32_t>(values));
    const Buffer out("scan output", count * sizeof(std::uint32_t));
    scan.exclusiveScan(in, out, count);
    glMemoryBarrier(GL_BUFFER_UPDATE_BARRIER_BIT);
    const std::vector<std::uint32_t> result = out.download<std::uint32_t>(count);
    std::uint32_t running = 0;
    for (std::uint32_t i = 0; i < count; ++i) {
      ASSERT_EQ(result[i], running) << "count " << count << ", index " << i;
      running += values[i];
    }
  }
}

TEST(PrefixSum, MatchesTheHostForEverySize) {
  PrefixSum scan(test::glContext(), test::shaderLibrary());
  ASSERT_EQ(scan.blockSize(), 4096u);
  // The last count again after the largest: each scan leaves its status words zero for the next.
  expectHostSums(scan, {1u, 5u, 4095u, 4096u, 4097u, 16411u, 4096u * 4096u + 17u, 16411u});
}

// The pipeline keeps blocks of 4096 values whatever the threads (WorkGroupSizes::scan), each
// thread taking its values from shared memory in the order of the buffer.
TEST(PrefixSum, AnyThreadsOfABlockGiveTheSameSums) {
  for (const auto& [threads, items] :
       {std::pair{1024u, 4u}, std::pair{256u, 16u}, std::pair{64u, 64u}, std::pair{32u, 8u}}) {
    PrefixSum scan(test::glContext(), test::shaderLibrary(), threads, items);
    SCOPED_TRACE(threads);
    expectHostSums(scan, {7u, 3u * threads * items + 5u});
  }
}

TEST(PrefixSum, RefusesABlockLargerThanSharedMemory) {
  const int bytes = test::glContext().info().maxComputeSharedMemorySize;
  const auto values = static_cast<std::uint32_t>(bytes / 4);  // the values alone fill it
  EXPECT_THROW(PrefixSum(test::glContext(), test::shaderLibrary(), 256, values / 256), std::invalid_argument);
}

TEST(PrefixSum, TheLookBacksFallbackGivesTheSameSums) {
  PrefixSum scan(test::glContext(), test::shaderLibrary(), 256, 16, 0);
  expectHostSums(scan, {4097u, 40 * 4096u + 3u});
  // A window of 32 predecessors (the group's threads): 101 blocks look back over up to four.
  PrefixSum narrow(test::glContext(), test::shaderLibrary(), 32, 8, 0);
  expectHostSums(narrow, {100 * 256u + 9u});
}

TEST(PrefixSum, RefusesToScanInPlace) {
  PrefixSum scan(test::glContext(), test::shaderLibrary());
  const Buffer buffer("scan values", 16 * sizeof(std::uint32_t));
  EXPECT_THROW(scan.exclusiveScan(buffer, buffer, 16), std::logic_error);
}

// ---------------------------------------------------------------------------------------------
// Scenes covering the model

struct Case {
  std::string name;
  sim::ModelParams params;
  sim::StepInputs inputs;
  sim::FlockState state;
};

// A flock of `count` spawned in the scene, with extra boids placed where the rules have edge cases.
Case makeCase(std::string name, sim::Scene scene, std::uint32_t groups) {
  scene.groups = groups;
  Case c{std::move(name), scene.model, sim::staticInputs(scene, groups), sim::spawnFlock(scene)};
  return c;
}

// Boid j copied onto boid i (coincident pair), and a boid at rest (heading fallback).
void addSpecialBoids(Case& c) {
  sim::FlockState& s = c.state;
  const std::size_t n = s.size();
  s.position.push_back(s.position[n / 2]);
  s.velocity.push_back(-s.velocity[n / 2]);
  s.group.push_back(s.group[n / 2]);
  s.position.push_back(s.position[n / 3]);
  s.velocity.push_back(glm::vec3(0.0f));
  s.group.push_back(s.group[n / 3]);
}

std::vector<Case> modelCases() {
  std::vector<Case> cases;
  {
    // 3D contain: containment band, obstacles (boids inside some), goals in mode "front" for two
    // of three groups, predators, cruise, limited field of view.
    sim::Scene scene = sim::defaultDensityScene(3000, 3);
    scene.spawn = sim::Spawn::Box;
    scene.model.margin = 8.0f;
    scene.obstacles = {
        {{0.0f, 0.0f, 0.0f}, 12.0f}, {{20.0f, -5.0f, 15.0f}, 6.0f}, {{-25.0f, 5.0f, -10.0f}, 9.0f}};
    scene.targets = {{0, {30.0f, 0.0f, 30.0f}}, {1, {-30.0f, 10.0f, 0.0f}}};
    scene.predators = {{10.0f, 0.0f, -20.0f}, {-15.0f, 5.0f, 25.0f}};
    scene.model.roostCenter = {30.0f, 10.0f, -20.0f};
    scene.model.roostRadius = 25.0f;
    cases.push_back(makeCase("3d-contain-obstacles-goals-front-predators-roost", scene, 3));
    // Group 2 intercepts a moving target, its leaders at 1.5 times the thrust.
    sim::GroupSteering& intercept = cases.back().inputs.steering[2];
    intercept.role = sim::GroupRole::Intercept;
    intercept.thrust = 1.5f;
    intercept.weight = 3.0f;
    intercept.target = {-20.0f, 10.0f, 30.0f};
    intercept.targetVelocity = {4.0f, -1.0f, -3.0f};
    // Spread the spawn over the whole box so that boids sit in the containment band too.
    sim::Pcg32 rng(11);
    for (glm::vec3& p : cases.back().state.position)
      if (rng.uniform() < 0.2f)
        for (int k = 0; k < 3; ++k) p[k] = rng.uniform(scene.model.worldMin[k], scene.model.worldMax[k]);
    addSpecialBoids(cases.back());
  }
  {
    // 3D wrap, dense (about 20 neighbours each), goal mode "all", 2 groups, fov 270.
    sim::Scene scene = sim::fixedNeighbourScene(3000, 20.0f, 3);
    scene.model.fovDegrees = 270.0f;
    scene.model.goalMode = sim::GoalMode::All;
    scene.targets = {{1, {3.0f, -2.0f, 1.0f}}};
    scene.predators = {{0.0f, 0.0f, 0.0f}};
    cases.push_back(makeCase("3d-wrap-dense-goal-all", scene, 2));
    addSpecialBoids(cases.back());
  }
  {
    // 3D wrap on a world of 3 x 4 x 6 cells: the small-axis runs (every cell, or imaged runs).
    sim::Scene scene = sim::fixedNeighbourScene(600, 20.0f, 3);
    scene.model.worldMin = {-7.5f, -10.0f, -15.0f};
    scene.model.worldMax = {7.5f, 10.0f, 15.0f};
    scene.model.fovDegrees = 360.0f;
    cases.push_back(makeCase("3d-wrap-small-axes", scene, 1));
  }
  {
    // 2D contain with obstacles, goals (front) and a predator.
    sim::Scene scene = sim::defaultDensityScene(2500, 2);
    scene.model.fovDegrees = 200.0f;
    scene.obstacles = {{{0.0f, 0.0f, 0.0f}, 8.0f}, {{-20.0f, 0.0f, 10.0f}, 4.0f}};
    scene.targets = {{0, {25.0f, 0.0f, -25.0f}}};
    scene.predators = {{5.0f, 0.0f, 5.0f}};
    cases.push_back(makeCase("2d-contain-obstacles-goal-front", scene, 2));
    sim::Pcg32 rng(12);
    for (glm::vec3& p : cases.back().state.position)
      if (rng.uniform() < 0.2f)
        p = glm::vec3(rng.uniform(scene.model.worldMin.x, scene.model.worldMax.x), 0.0f,
                      rng.uniform(scene.model.worldMin.z, scene.model.worldMax.z));
    addSpecialBoids(cases.back());
  }
  {
    // 2D wrap, dense.
    sim::Scene scene = sim::fixedNeighbourScene(2500, 15.0f, 2);
    scene.model.fovDegrees = 300.0f;
    scene.targets = {{0, {0.0f, 0.0f, 0.0f}}};
    cases.push_back(makeCase("2d-wrap-dense-goal-front", scene, 1));
    addSpecialBoids(cases.back());
  }
  {
    // 2D wrap, three groups: chasers (flocking: their leaders chase a fixed target), interceptors
    // (flocking off: every one intercepts, thrust 1.5, a moving target near the seam), a flock.
    // An obstacle, a goal and a predator across the seam (periodic, minimum-image offsets).
    // The leader radius past R (the book's narrow radius against a limited view): the search and the
    // grid's cells reach it.
    sim::Scene scene = sim::fixedNeighbourScene(2000, 6.0f, 2);
    scene.model.fovDegrees = 300.0f;
    scene.model.leaderRadius = 1.6f * scene.model.perceptionRadius;
    const glm::vec3 hi = scene.model.worldMax;
    scene.obstacles = {{{0.97f * hi.x, 0.0f, 0.1f * hi.z}, 0.1f * hi.x}};
    scene.targets = {{2, {-0.98f * hi.x, 0.0f, 0.5f * hi.z}}};
    scene.predators = {{0.99f * hi.x, 0.0f, -0.95f * hi.z}};
    cases.push_back(makeCase("2d-wrap-chase-intercept-seam-obstacle", scene, 3));
    std::vector<sim::GroupSteering>& steering = cases.back().inputs.steering;
    steering[0].role = sim::GroupRole::Chase;
    steering[0].target = {0.5f * hi.x, 0.0f, -0.25f * hi.z};
    steering[1].role = sim::GroupRole::Intercept;
    steering[1].flocking = false;
    steering[1].thrust = 1.5f;
    steering[1].weight = 2.0f;
    steering[1].target = {0.95f * hi.x, 0.0f, 0.9f * hi.z};
    steering[1].targetVelocity = {5.0f, 0.0f, -2.0f};
    addSpecialBoids(cases.back());
  }
  {
    // The notes' options: the comfort distance (separation x 2.5 inside 0.8), cohesion only
    // without separation and random obstacles; 3D wrap, dense (about 20 within R), fov 270, 2 groups.
    sim::Scene scene = sim::fixedNeighbourScene(3000, 20.0f, 3);
    scene.model.fovDegrees = 270.0f;
    scene.model.comfortDistance = 0.8f;
    scene.model.comfortMultiplier = 2.5f;
    scene.model.cohesionOnlyWithoutSeparation = true;
    sim::RandomObstacles rocks;
    rocks.count = 6;
    rocks.seed = 7;
    rocks.minRadius = 2.0f;
    rocks.maxRadius = 4.0f;
    rocks.gap = 1.0f;
    scene.obstacles = sim::placeRandomObstacles(scene, rocks);
    cases.push_back(makeCase("3d-wrap-comfort-cohesion-random-obstacles", scene, 2));
    addSpecialBoids(cases.back());
  }
  {
    // Topological neighbours: 3D wrap, dense (about 30 within R), K = 7, fov 270, 2 groups.
    sim::Scene scene = sim::fixedNeighbourScene(3000, 30.0f, 3);
    scene.model.fovDegrees = 270.0f;
    scene.model.topologicalNeighbours = 7;
    cases.push_back(makeCase("3d-wrap-topological-k7", scene, 2));
    addSpecialBoids(cases.back());
  }
  {
    // Topological neighbours packed as the murmuration (about 250 within R): the sweep's reach
    // shrinks to a few units and leaves out most cells. Containing, fov 300.
    sim::Scene scene = sim::fixedNeighbourScene(3000, 250.0f, 3);
    scene.model.boundary = sim::Boundary::Contain;
    scene.model.margin = 2.0f;
    scene.model.fovDegrees = 300.0f;
    scene.model.topologicalNeighbours = 7;
    cases.push_back(makeCase("3d-contain-topological-k7-packed", scene, 2));
  }
  return cases;
}

// How many boids (or pairs) each part of the model acts on in a case, from the host rules over all
// pairs: the proof that the cases exercise every feature.
struct Coverage {
  std::size_t separation = 0, alignment = 0, cohesion = 0, inside = 0, ahead = 0, bounds = 0, goal = 0,
              frontBlocked = 0, flee = 0, cruise = 0, fovHidden = 0, acrossSeam = 0, coincident = 0,
              atRest = 0, pursuit = 0, roost = 0, comfort = 0, cohesionWithheld = 0;
  Coverage& operator+=(const Coverage& o) {
    for (auto [a, b] : {std::pair{&separation, o.separation},
                        {&alignment, o.alignment},
                        {&cohesion, o.cohesion},
                        {&inside, o.inside},
                        {&ahead, o.ahead},
                        {&bounds, o.bounds},
                        {&goal, o.goal},
                        {&frontBlocked, o.frontBlocked},
                        {&flee, o.flee},
                        {&cruise, o.cruise},
                        {&fovHidden, o.fovHidden},
                        {&acrossSeam, o.acrossSeam},
                        {&coincident, o.coincident},
                        {&atRest, o.atRest},
                        {&pursuit, o.pursuit},
                        {&roost, o.roost},
                        {&comfort, o.comfort},
                        {&cohesionWithheld, o.cohesionWithheld}})
      *a += b;
    return *this;
  }
};

Coverage coverage(const Case& c) {
  const sim::PackedInputs packed = sim::packInputs(c.params, c.inputs, c.state.groups);
  const sim::StepContext ctx = sim::makeStepContext(c.params, packed);
  const sim::FlockState& s = c.state;
  std::vector<glm::vec3> headings(s.size());
  for (std::size_t i = 0; i < s.size(); ++i) headings[i] = sim::heading(s.velocity[i]);
  Coverage out;
  auto nonZero = [](glm::vec3 v) { return v != glm::vec3(0.0f); };
  for (std::size_t i = 0; i < s.size(); ++i) {
    const sim::BoidView self{s.position[i], s.velocity[i], headings[i], static_cast<std::uint32_t>(i),
                             s.group[i]};
    sim::NeighbourSums sums;
    for (std::size_t j = 0; j < s.size(); ++j) {
      if (j == i) continue;
      const glm::vec3 raw = s.position[j] - s.position[i];
      const glm::vec3 d = sim::offset(ctx, s.position[i], s.position[j]);
      const float d2 = glm::dot(d, d);
      if (d2 < ctx.radius2) {
        const float dist = std::sqrt(d2);
        if (dist < sim::kEps) ++out.coincident;
        if (d != raw) ++out.acrossSeam;
        if (d2 < ctx.comfortDistance2) ++out.comfort;
        if (ctx.limitedFov && dist >= sim::kEps && glm::dot(headings[i], d) < dist * ctx.cosHalfFov)
          ++out.fovHidden;
      }
      sim::accumulateNeighbour(ctx, self, d, headings[j], static_cast<std::uint32_t>(j), s.group[j], sums);
    }
    sim::finishNeighbours(ctx, sums);
    const sim::Forces f = sim::computeForces(ctx, self, sums);
    out.separation += nonZero(f.separation);
    out.alignment += nonZero(f.alignment);
    out.cohesion += nonZero(f.cohesion);
    bool isInside = false;
    for (const glm::vec4& o : packed.obstacles)
      isInside = isInside || glm::length(glm::vec3(o) - self.position) < o.w + c.params.radius;
    out.inside += isInside;
    out.ahead += !isInside && nonZero(f.avoidance);
    out.bounds += nonZero(f.bounds);
    out.goal += nonZero(f.goal);
    out.frontBlocked += ctx.needFront && packed.goals[self.group].w != 0.0f && sums.frontOccupied;
    out.flee += nonZero(f.flee);
    out.cruise += nonZero(f.cruise);
    out.atRest += s.velocity[i] == glm::vec3(0.0f);
    out.pursuit += nonZero(f.pursuit);
    out.roost += nonZero(f.roost);
    out.cohesionWithheld +=
        c.params.cohesionOnlyWithoutSeparation && sums.separating && sums.sameGroupCount > 0;
  }
  return out;
}

// GPU against CPU with sim::compareOneStep (the analysis behind `murmur compare`): errors, and
// for boids over tolerance whether a neighbour, obstacle or wall cell within float rounding of a
// decision edge explains them; plus the boids that differ in any bit.
struct Comparison {
  sim::ParityReport report;
  std::string bitwiseDifference;  // empty: every boid equal to the last bit
};

Comparison compare(const Case& c, const sim::FlockState& gpu, const sim::FlockState& cpu) {
  return {sim::compareOneStep(c.params, c.inputs, c.state, cpu, gpu), test::bitwiseDifference(cpu, gpu)};
}

// On llvmpipe every boid bit for bit; on any renderer, no boid off tolerance without an edge to
// explain it, and edge cases a rounding accident (at most 1%), never a pattern.
void expectParity(const Comparison& result) {
  EXPECT_TRUE(result.report.unexplained.empty())
      << result.report.unexplained.size() << " boids differ, first id " << result.report.unexplained.front();
  EXPECT_TRUE(result.report.passed({}));
  if (test::bitwiseParityExpected()) {
    EXPECT_EQ(result.bitwiseDifference, "") << "llvmpipe: not bit for bit";
  }
}

// ---------------------------------------------------------------------------------------------
// Grid build

TEST(FlockPipeline, GridMatchesTheHostCellOrderIncludingMultiLevelScans) {
  sim::Scene scene = sim::defaultDensityScene(3000, 3);
  // R = 1 in a 200 x 100 x 200 world: 4,000,000 cells, a three-level scan.
  scene.model.perceptionRadius = 1.0f;
  scene.model.separationRadius = 0.5f;
  const sim::FlockState state = sim::spawnFlock(scene);
  for (const sim::ModelParams& params : {sim::defaultDensityScene(3000, 3).model, scene.model}) {
    FlockPipeline& gpu = pipeline();
    gpu.upload(state);
    gpu.step(params, {});
    const GridSnapshot grid = gpu.gridSnapshot();
    const sim::GridSpec spec = sim::makeGridSpec(params);
    ASSERT_EQ(gpu.grid().cells, spec.cells);
    sim::CellOrder host;
    sim::WorkerPool serial(1);
    host.build(spec, state.position, serial);
    EXPECT_EQ(grid.cellOf, host.cellOf);
    EXPECT_EQ(grid.cellStart, host.cellStart);
    EXPECT_EQ(grid.order, host.order);
    ASSERT_EQ(grid.cellCount.size(), spec.cellCount());
    for (std::uint32_t c = 0; c < spec.cellCount(); ++c)
      ASSERT_EQ(grid.cellCount[c], host.cellStart[c + 1] - host.cellStart[c]) << "cell " << c;
    std::printf("  %u cells (%u x %u x %u)\n", spec.cellCount(), spec.cells.x, spec.cells.y, spec.cells.z);
  }
}

// ---------------------------------------------------------------------------------------------
// One step against the CPU reference

TEST(FlockPipeline, OneStepMatchesTheCpuReferenceInEveryFeature) {
  const std::size_t errorsBefore = test::glErrorCount();
  Coverage total;
  for (const Case& c : modelCases()) {
    const Coverage covered = coverage(c);
    total += covered;
    std::printf(
        "  %-44s sep %zu ali %zu coh %zu inside %zu ahead %zu bounds %zu goal %zu front-blocked %zu "
        "flee %zu cruise %zu pursuit %zu roost %zu cohesion-withheld %zu | pairs: fov-hidden %zu "
        "across-seam %zu coincident %zu comfort %zu | at rest %zu\n",
        c.name.c_str(), covered.separation, covered.alignment, covered.cohesion, covered.inside,
        covered.ahead, covered.bounds, covered.goal, covered.frontBlocked, covered.flee, covered.cruise,
        covered.pursuit, covered.roost, covered.cohesionWithheld, covered.fovHidden, covered.acrossSeam,
        covered.coincident, covered.comfort, covered.atRest);
    SCOPED_TRACE(c.name);
    FlockPipeline& gpu = pipeline();
    gpu.upload(c.state);
    gpu.step(c.params, c.inputs);
    const sim::FlockState gpuState = gpu.download();

    sim::FlockState cpuState = c.state;
    sim::CpuSimulator(sim::NeighbourSearch::Grid, 2).step(c.params, c.inputs, cpuState);
    const Comparison result = compare(c, gpuState, cpuState);
    std::printf("  %-44s N=%zu: max |dp| %.3g, max |dv| %.3g, bitwise %s, edge cases %zu\n", c.name.c_str(),
                c.state.size(), result.report.maxPositionError, result.report.maxVelocityError,
                result.bitwiseDifference.empty() ? "equal" : "different", result.report.explainedByEdge);
    expectParity(result);
    EXPECT_EQ(gpuState.group, c.state.group);
  }
  for (std::size_t count :
       {total.separation, total.alignment, total.cohesion, total.inside, total.ahead, total.bounds,
        total.goal, total.frontBlocked, total.flee, total.cruise, total.fovHidden, total.acrossSeam,
        total.coincident, total.atRest, total.pursuit, total.roost, total.comfort, total.cohesionWithheld})
    EXPECT_GT(count, 0u) << "a feature of the model is not exercised";
  EXPECT_EQ(test::glErrorCount(), errorsBefore);
}

TEST(FlockPipeline, OneStepMatchesTheNaiveSearchToo) {
  Case c = modelCases()[1];
  FlockPipeline& gpu = pipeline();
  gpu.upload(c.state);
  gpu.step(c.params, c.inputs);
  sim::FlockState cpuState = c.state;
  sim::CpuSimulator(sim::NeighbourSearch::Naive, 2).step(c.params, c.inputs, cpuState);
  expectParity(compare(c, gpu.download(), cpuState));
}

// Topological neighbours on a lattice, where the K nearest often cut through a tie in distance: the
// GPU step equals the CPU's and (on llvmpipe) the brute force's, bit for bit.
TEST(FlockPipeline, TopologicalNeighboursEqualTheBruteForce) {
  constexpr int kSide = 12;
  const sim::Scene scene = test::latticeScene(kSide, 2);
  const Case c{"lattice-topological-k7", scene.model, sim::staticInputs(scene, scene.groups),
               test::latticeFlock(scene, kSide, 5)};
  FlockPipeline& gpu = pipeline();
  gpu.upload(c.state);
  gpu.step(c.params, c.inputs);
  const sim::FlockState gpuState = gpu.download();
  sim::FlockState cpuState = c.state;
  sim::CpuSimulator(sim::NeighbourSearch::Grid, 2).step(c.params, c.inputs, cpuState);
  expectParity(compare(c, gpuState, cpuState));
  if (test::bitwiseParityExpected()) {
    const sim::FlockState expected = test::bruteForceTopologicalStep(c.params, c.inputs, c.state);
    EXPECT_EQ(gpuState.velocity, expected.velocity);
    EXPECT_EQ(gpuState.position, expected.position);
  }
}

// boids.turn_rate: the stored headings step for step, bit for bit on llvmpipe, in a dense 3D wrap
// flock (60 degrees/s: headings lag) and a 2D contain one with obstacles and walls of the box
// (200 degrees/s); the rate turned off drops them on both sides and turned on again restarts them
// from the velocities; a state uploaded with headings continues from them. What a renderer draws
// is the heading at the velocity's speed.
TEST(FlockPipeline, TurnRateEqualsTheCpuStepByStep) {
  std::vector<Case> cases;
  {
    sim::Scene scene = sim::fixedNeighbourScene(3000, 20.0f, 3);
    scene.model.fovDegrees = 270.0f;
    scene.model.turnRate = 60.0f;
    cases.push_back(makeCase("3d-wrap-dense-turn-rate-60", scene, 2));
    addSpecialBoids(cases.back());
  }
  {
    sim::Scene scene = sim::defaultDensityScene(3000, 2);
    scene.spawn = sim::Spawn::Box;
    scene.model.margin = 4.0f;
    scene.model.turnRate = 200.0f;
    scene.model.topologicalNeighbours = 5;
    scene.obstacles = {{{0.0f, 0.0f, 0.0f}, 12.0f}, {{40.0f, 0.0f, 30.0f}, 8.0f}};
    cases.push_back(makeCase("2d-contain-obstacles-topological-turn-rate-200", scene, 1));
    addSpecialBoids(cases.back());
  }
  for (Case& c : cases) {
    SCOPED_TRACE(c.name);
    FlockPipeline& gpu = pipeline();
    gpu.upload(c.state);
    sim::FlockState cpuState = c.state;
    sim::CpuSimulator cpu(sim::NeighbourSearch::Grid, 2);
    std::size_t lagging = 0;
    for (int s = 0; s < 40; ++s) {
      sim::ModelParams params = c.params;
      if (s == 20) params.turnRate = 0.0f;  // dropped on both sides
      gpu.step(params, c.inputs);
      cpu.step(params, c.inputs, cpuState);
      const sim::FlockState gpuState = gpu.download();
      ASSERT_EQ(gpuState.heading.size(), s == 20 ? 0u : c.state.size()) << "step " << s;
      if (test::bitwiseParityExpected()) {
        ASSERT_EQ(test::bitwiseDifference(cpuState, gpuState), "") << "step " << s;
      }
      if (s == 30) gpu.upload(cpuState);  // uploaded with its headings, the GPU state goes on from them
    }
    // A renderer draws each bird along its heading at its speed, the leader flag in w (boid i at
    // its slot, as a renderer finds it).
    const std::vector<glm::vec4> drawn = gpu.drawnVelocityBuffer().download<glm::vec4>(cpuState.size());
    const std::vector<std::uint32_t> slots = gpu.slotBuffer().download<std::uint32_t>(cpuState.size());
    for (std::size_t i = 0; i < cpuState.size(); ++i) {
      if (glm::dot(cpuState.heading[i], sim::heading(cpuState.velocity[i])) < 0.9999f) ++lagging;
      const glm::vec4 boid = drawn[slots[i]];
      ASSERT_LT(glm::length(glm::vec3(boid) - cpuState.heading[i] * glm::length(cpuState.velocity[i])), 1e-5f)
          << "boid " << i;
      ASSERT_EQ(boid.w, float(cpuState.leader[i])) << "boid " << i;
    }
    std::printf("  %-48s N=%zu: %zu headings behind their velocities after 40 steps\n", c.name.c_str(),
                cpuState.size(), lagging);
    EXPECT_GT(lagging, 0u);
  }
}

// Starlings ([model] kind = "starling"): the stored headings and the banks step for step, bit for
// bit on llvmpipe, with the metric rule among obstacles and with K = 7 packed as the murmuration
// under its roost and height band; a state uploaded with banks alone (as --init reads it) goes on
// from them as the CPU's does.
TEST(FlockPipeline, StarlingsEqualTheCpuStepByStep) {
  std::vector<Case> cases;
  {
    sim::Scene scene = sim::fixedNeighbourScene(3000, 20.0f, 3);
    scene.model.unitModel = sim::UnitModel::Starling;
    scene.model.boundary = sim::Boundary::Contain;
    scene.model.margin = 3.0f;
    scene.model.fovDegrees = 300.0f;
    const glm::vec3 mid = 0.5f * (scene.model.worldMin + scene.model.worldMax);
    scene.obstacles = {{mid, 3.0f}};
    cases.push_back(makeCase("3d-contain-obstacle-starlings", scene, 2));
    addSpecialBoids(cases.back());
  }
  {
    sim::Scene scene = sim::fixedNeighbourScene(3000, 250.0f, 3);
    scene.model.unitModel = sim::UnitModel::Starling;
    scene.model.boundary = sim::Boundary::Contain;
    scene.model.topologicalNeighbours = 7;
    scene.model.roostCenter = 0.5f * (scene.model.worldMin + scene.model.worldMax);
    scene.model.roostRadius = 2.0f;
    scene.model.roostHeightBand = 1.0f;
    cases.push_back(makeCase("3d-packed-topological-roost-starlings", scene, 1));
  }
  for (Case& c : cases) {
    SCOPED_TRACE(c.name);
    FlockPipeline& gpu = pipeline();
    gpu.upload(c.state);
    sim::FlockState cpuState = c.state;
    sim::CpuSimulator cpu(sim::NeighbourSearch::Grid, 2);
    for (int s = 0; s < 40; ++s) {
      gpu.step(c.params, c.inputs);
      cpu.step(c.params, c.inputs, cpuState);
      const sim::FlockState gpuState = gpu.download();
      ASSERT_EQ(gpuState.attitude.size(), c.state.size()) << "step " << s;
      if (test::bitwiseParityExpected()) {
        ASSERT_EQ(test::bitwiseDifference(cpuState, gpuState), "") << "step " << s;
        ASSERT_EQ(gpuState.attitude, cpuState.attitude) << "step " << s;
      }
      if (s == 30) {
        cpuState.heading.clear();  // banks alone: the headings are the velocities' again
        gpu.upload(cpuState);
      }
    }
    std::size_t banked = 0;
    for (const float bank : cpuState.attitude) banked += std::abs(bank) > 0.01f;
    std::printf("  %-48s N=%zu: %zu birds banked over 0.01 rad after 40 steps\n", c.name.c_str(),
                cpuState.size(), banked);
    EXPECT_GT(banked, cpuState.size() / 4);
  }
}

TEST(FlockPipeline, HandlesEmptySingleAndRaggedFlocks) {
  sim::Scene scene = sim::defaultDensityScene(1000, 3);
  for (std::uint32_t count : {0u, 1u, 2u, 127u, 129u, 1000u + 13u}) {
    SCOPED_TRACE(count);
    scene.count = count;
    scene.groups = 2;
    Case c{"n", scene.model, sim::staticInputs(scene, 2), sim::spawnFlock(scene)};
    FlockPipeline& gpu = pipeline();
    gpu.upload(c.state);
    gpu.step(c.params, c.inputs);
    const sim::FlockState gpuState = gpu.download();
    ASSERT_EQ(gpuState.size(), count);
    sim::FlockState cpuState = c.state;
    sim::CpuSimulator(sim::NeighbourSearch::Grid, 1).step(c.params, c.inputs, cpuState);
    expectParity(compare(c, gpuState, cpuState));
    const std::vector<sim::GroupSummary> summaries = gpu.groupSummaries();
    ASSERT_EQ(summaries.size(), 2u);
    EXPECT_EQ(summaries[0].count + summaries[1].count, count);
  }
}

TEST(FlockPipeline, AllBoidsInOneCell) {
  sim::Scene scene = sim::defaultDensityScene(1000, 3);
  scene.groups = 2;
  Case c{"one cell", scene.model, {}, sim::spawnFlock(scene)};
  // Inside the cell around the origin, clear of its faces.
  const sim::GridSpec spec = sim::makeGridSpec(c.params);
  const glm::vec3 lo = spec.origin + glm::vec3(spec.cellCoord(glm::vec3(0.0f))) * spec.cellSize;
  sim::Pcg32 rng(3);
  for (glm::vec3& p : c.state.position)
    for (int k = 0; k < 3; ++k) p[k] = lo[k] + spec.cellSize[k] * rng.uniform(0.1f, 0.9f);
  FlockPipeline& gpu = pipeline();
  gpu.upload(c.state);
  gpu.step(c.params, c.inputs);
  const GridSnapshot grid = gpu.gridSnapshot();
  EXPECT_EQ(*std::max_element(grid.cellCount.begin(), grid.cellCount.end()), 1000u);
  sim::FlockState cpuState = c.state;
  sim::CpuSimulator(sim::NeighbourSearch::Grid, 2).step(c.params, c.inputs, cpuState);
  expectParity(compare(c, gpu.download(), cpuState));
}

TEST(FlockPipeline, StepsAreReproducible) {
  const Case c = modelCases()[0];
  std::vector<sim::FlockState> runs;
  for (int run = 0; run < 2; ++run) {
    FlockPipeline& gpu = pipeline();
    gpu.upload(c.state);
    for (int step = 0; step < 10; ++step) gpu.step(c.params, c.inputs);
    runs.push_back(gpu.download());
  }
  EXPECT_EQ(runs[0].position, runs[1].position);
  EXPECT_EQ(runs[0].velocity, runs[1].velocity);
}

// ---------------------------------------------------------------------------------------------
// Reduction, capacity, timers

TEST(FlockPipeline, GroupSummariesMatchTheHost) {
  sim::Scene scene = sim::defaultDensityScene(5000, 3);
  scene.groups = 5;
  sim::FlockState state = sim::spawnFlock(scene);
  for (std::size_t i = 0; i < state.size(); ++i)
    state.group[i] = (i * 7 / 3) % 5 == 4 ? 4 : state.group[i] % 4;
  FlockPipeline& gpu = pipeline();
  gpu.upload(state);
  for (int phase = 0; phase < 2; ++phase) {
    // Phase 0: right after the upload (reduced on demand); phase 1: after a step.
    if (phase == 1) gpu.step(scene.model, {});
    const sim::FlockState current = gpu.download();
    const std::vector<sim::GroupSummary> expected = sim::summarizeGroups(current);
    const std::vector<sim::GroupSummary> actual = gpu.groupSummaries();
    ASSERT_EQ(actual.size(), expected.size());
    for (std::size_t g = 0; g < expected.size(); ++g) {
      EXPECT_EQ(actual[g].count, expected[g].count) << "group " << g;
      EXPECT_EQ(actual[g].leaders, expected[g].leaders) << "group " << g;
      for (int k = 0; k < 3; ++k) {
        EXPECT_NEAR(actual[g].centroid[k], expected[g].centroid[k], 1e-3f) << "group " << g;
        EXPECT_NEAR(actual[g].meanVelocity[k], expected[g].meanVelocity[k], 1e-4f) << "group " << g;
      }
    }
  }
}

// The leader flags the force pass records (velocities.w) and the reduction's counts of them equal
// the rule applied by brute force to the state the step read, in every case of the model.
TEST(FlockPipeline, LeadersEqualTheBruteForceRule) {
  for (Case& c : modelCases()) {
    SCOPED_TRACE(c.name);
    c.state.leader.resize(c.state.size());
    const std::vector<std::uint8_t> expected = test::bruteForceLeaders(c.params, c.state);
    const std::vector<std::uint32_t> expectedPerGroup = test::leadersPerGroup(c.state, expected);
    const std::size_t leaders = std::count(expected.begin(), expected.end(), std::uint8_t{1});
    ASSERT_GT(leaders, 0u);
    ASSERT_LT(leaders, c.state.size());
    FlockPipeline& gpu = pipeline();
    gpu.upload(c.state);
    sim::StepInputs recording = c.inputs;
    recording.recordLeaders = true;
    gpu.step(c.params, recording);
    EXPECT_EQ(gpu.download().leader, expected);
    const std::vector<sim::GroupSummary> summaries = gpu.groupSummaries();
    for (std::uint32_t g = 0; g < c.state.groups; ++g)
      EXPECT_EQ(summaries[g].leaders, expectedPerGroup[g]) << "group " << g;
    sim::StepInputs unrecorded = c.inputs;
    unrecorded.recordLeaders = false;
    gpu.upload(c.state);
    gpu.step(c.params, unrecorded);
    // A step that steers by its leaders records them unasked; one that does not, none.
    EXPECT_EQ(gpu.download().leader, sim::leadersUsed(c.params, unrecorded, c.state.groups)
                                         ? expected
                                         : std::vector<std::uint8_t>(c.state.size(), 0));
  }
}

TEST(FlockPipeline, RefusesMoreBoidsThanABufferHoldsNamingCountAndLimit) {
  const ContextInfo& info = test::glContext().info();
  const std::uint64_t limit = FlockPipeline::maxBoids(info);
  EXPECT_EQ(limit, static_cast<std::uint64_t>(info.maxShaderStorageBlockSize) / 16);
  EXPECT_NO_THROW(FlockPipeline::requireCapacity(info, limit));
  try {
    FlockPipeline::requireCapacity(info, limit + 1);
    FAIL();
  } catch (const CapacityError& e) {
    EXPECT_EQ(e.boids(), limit + 1);
    EXPECT_EQ(e.limit(), limit);
    const std::string message = e.what();
    EXPECT_NE(message.find(std::to_string(limit + 1)), std::string::npos) << message;
    EXPECT_NE(message.find(std::to_string(limit)), std::string::npos) << message;
  }
}

// Every stage of a step is timed; the group reduction runs (and is timed) only on steps whose
// summaries something reads.
TEST(FlockPipeline, TimesEveryStageAndReducesOnlyWhenRead) {
  const Case c = modelCases()[0];
  FlockPipeline& gpu = pipeline();
  gpu.upload(c.state);
  gpu.timer().resolve();  // stamps of earlier tests land before the reset
  gpu.timer().reset();
  for (int step = 0; step < 3; ++step) gpu.step(c.params, c.inputs);
  gpu.timer().resolve();
  // Hash and count once, after the upload (then the force pass does their work); the reduction
  // not at all.
  const auto expected = [](std::size_t k, std::uint64_t steps, std::uint64_t reductions) -> std::uint64_t {
    const auto stage = static_cast<FlockStage>(k);
    if (stage == FlockStage::Reduce) return reductions;
    return FlockPipeline::foldedIntoForces(stage) ? 1 : steps;
  };
  for (std::size_t k = 0; k < FlockPipeline::kStages.size(); ++k) {
    const StageTime* time = gpu.timer().stage(FlockPipeline::kStages[k]);
    const std::uint64_t samples = time != nullptr ? time->samples : 0;
    EXPECT_EQ(samples, expected(k, 3, 0)) << FlockPipeline::kStages[k];
  }
  const std::vector<sim::BoidProbe> probes{{glm::vec3(0.0f), 10.0f}};
  for (int step = 0; step < 3; ++step) {
    gpu.requestPerception(probes, 2);
    gpu.step(c.params, c.inputs);
  }
  (void)gpu.recentGroupSummaries();  // a fourth reduction, of the state after the steps
  (void)gpu.groupSummaries();        // the same state: no fifth
  gpu.timer().resolve();
  for (std::size_t k = 0; k < FlockPipeline::kStages.size(); ++k) {
    const StageTime* time = gpu.timer().stage(FlockPipeline::kStages[k]);
    ASSERT_NE(time, nullptr) << FlockPipeline::kStages[k];
    EXPECT_EQ(time->samples, expected(k, 6, 4)) << FlockPipeline::kStages[k];
  }
}

// A step computes with an empty framebuffer bound (llvmpipe's timestamps go astray under one with
// pixels) and gives the caller's framebuffer back.
TEST(FlockPipeline, StepLeavesTheCallersFramebufferBound) {
  const sim::Scene scene = sim::defaultDensityScene(500, 3);
  FlockPipeline& gpu = pipeline();
  gpu.upload(sim::spawnFlock(scene));
  const Framebuffer target("test target");
  target.bind();
  gpu.step(scene.model, sim::staticInputs(scene, 1));
  GLint draw = 0, read = 0;
  glGetIntegerv(GL_DRAW_FRAMEBUFFER_BINDING, &draw);
  glGetIntegerv(GL_READ_FRAMEBUFFER_BINDING, &read);
  EXPECT_EQ(static_cast<GLuint>(draw), target.id());
  EXPECT_EQ(static_cast<GLuint>(read), target.id());
  glBindFramebuffer(GL_FRAMEBUFFER, 0);
}

}  // namespace
}  // namespace murmur::gpu
