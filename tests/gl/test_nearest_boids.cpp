// The GPU nearest-boids query (query/NearestBoids.comp.glsl through gpu::FlockPipeline) against the
// CPU: the brute force over the positions the step started from on any renderer, and on llvmpipe
// (bit-for-bit steps) the CpuSimulator's grid answer too.
#include <gtest/gtest.h>

#include <cstdint>
#include <stdexcept>
#include <vector>

#include "gl_test_env.hpp"
#include "gpu/flock_pipeline.hpp"
#include "gpu/gl_objects.hpp"
#include "sim/builders.hpp"
#include "sim/cpu_simulator.hpp"
#include "sim/nearest_boids.hpp"

namespace murmur::gpu {
namespace {

TEST(NearestBoidsGpu, EqualsTheCpuOnRandomFlocksWithTies) {
  const std::size_t errorsBefore = test::glErrorCount();
  FlockPipeline gpu(test::glContext(), test::shaderLibrary(), gpu::Arithmetic::Exact);
  for (const int dims : {3, 2}) {
    SCOPED_TRACE(testing::Message() << "dims " << dims);
    sim::Scene scene = sim::defaultDensityScene(dims == 3 ? 3000 : 1500, dims);
    scene.groups = 3;
    const sim::ModelParams& params = scene.model;
    sim::FlockState before = sim::spawnFlock(scene);
    for (std::size_t i = 0; i < 40; ++i) {  // ties: same place, same group, different ids
      before.position[i + 40] = before.position[i];
      before.group[i + 40] = before.group[i];
    }
    const glm::vec3 mid = 0.5f * (params.worldMin + params.worldMax);
    const glm::vec3 size = params.worldSize();
    // Four agents' probes, plus the edge cases: outside the world, all of it, radius 0.
    const std::vector<sim::BoidProbe> probes{{before.position[0], 3.0f * params.perceptionRadius},
                                             {before.position[1], 0.1f * size.x},
                                             {mid, 0.2f * size.x},
                                             {params.worldMin, 0.3f * size.x},
                                             {params.worldMax + glm::vec3(2.0f), 0.25f * size.x},
                                             {mid, 2.0f * size.x},
                                             {before.position[7], 0.0f}};

    gpu.upload(before);
    EXPECT_EQ(gpu.nearestBoids(probes, 4), sim::NearestBoids(probes.size(), 3, 4)) << "before the first step";
    gpu.step(params, {});
    const sim::FlockState gpuNow = gpu.download();
    sim::CpuSimulator cpu(sim::NeighbourSearch::Grid, 2);
    sim::FlockState cpuNow = before;
    cpu.step(params, {}, cpuNow);
    for (const std::uint32_t k : {1u, 4u, sim::kMaxNearestBoids}) {
      const sim::NearestBoids answer = gpu.nearestBoids(probes, k);
      EXPECT_EQ(answer, sim::nearestBoids(gpuNow, before.position, probes, k)) << "k " << k;
      if (test::bitwiseParityExpected()) {
        EXPECT_EQ(answer, cpu.nearestBoids(cpuNow, probes, k)) << "k " << k;
      }
      std::uint32_t found = 0;
      for (const std::uint32_t count : answer.counts) found += count;
      EXPECT_GT(found, probes.size());  // not a test of empty answers
    }
  }
  EXPECT_EQ(test::glErrorCount(), errorsBefore);
}

// A probe's box is cut into slices of rows (one work group each, at most 256: kMaxNearestSlices)
// and merged: the answer stays the one-pass answer when the cap makes slices uneven. At 20,000
// boids the default density's grid is 49 x 24 x 49 cells, so a probe over the whole world has 1,176
// rows (y fastest, then z): 256 slices of 4 or 5 rows. Group 1 is 8 boids alone in the rows where
// a cut goes wrong first (the first and last rows, each side of a slice's first lap and of its
// fifth row), so with k = 8 each list of group 1 must hold all 8, wherever the probe is.
TEST(NearestBoidsGpu, AWorldWideProbeCutIntoUnevenSlicesGivesTheOnePassAnswer) {
  const std::size_t errorsBefore = test::glErrorCount();
  FlockPipeline gpu(test::glContext(), test::shaderLibrary(), gpu::Arithmetic::Exact);
  sim::Scene scene = sim::defaultDensityScene(20000, 3);
  scene.groups = 2;
  const sim::ModelParams& params = scene.model;
  sim::FlockState before = sim::spawnFlock(scene);
  gpu.upload(before);
  gpu.step(params, {});
  const sim::GridSpec grid = gpu.grid();
  ASSERT_EQ(grid.cells, glm::ivec3(49, 24, 49)) << "the grid the comment above counts rows on";
  for (std::size_t i = 0; i < before.size(); ++i) before.group[i] = 0;
  const int rows[] = {0, 1, 255, 256, 511, 1023, 1174, 1175};
  for (std::size_t i = 0; i < std::size(rows); ++i) {
    const int row = rows[i];
    const glm::ivec3 cell(static_cast<int>(7 * i) % grid.cells.x, row % grid.cells.y, row / grid.cells.y);
    before.position[i] = grid.origin + (glm::vec3(cell) + 0.5f) * grid.cellSize;
    before.group[i] = 1;
  }
  const glm::vec3 mid = 0.5f * (params.worldMin + params.worldMax);
  const std::vector<sim::BoidProbe> probes{{mid, 2.0f * params.worldSize().x},
                                           {params.worldMin, 2.0f * params.worldSize().x},
                                           {before.position[20], 4.0f * params.perceptionRadius}};
  gpu.upload(before);
  gpu.step(params, {});
  const sim::FlockState gpuNow = gpu.download();
  sim::CpuSimulator cpu(sim::NeighbourSearch::Grid, 2);
  sim::FlockState cpuNow = before;
  cpu.step(params, {}, cpuNow);
  for (const std::uint32_t k : {1u, sim::kMaxNearestBoids}) {
    const sim::NearestBoids answer = gpu.nearestBoids(probes, k);
    EXPECT_EQ(answer, sim::nearestBoids(gpuNow, before.position, probes, k)) << "k " << k;
    if (test::bitwiseParityExpected()) {
      EXPECT_EQ(answer, cpu.nearestBoids(cpuNow, probes, k)) << "k " << k;
    }
    EXPECT_EQ(answer.counts[0], k) << "group 0 around the middle";
    EXPECT_EQ(answer.counts[2], k) << "group 0 around a corner";
    EXPECT_EQ(answer.counts[1], k) << "group 1 from the middle";
    EXPECT_EQ(answer.counts[3], k) << "group 1 from a corner";
  }
  EXPECT_EQ(test::glErrorCount(), errorsBefore);
}

// The agents' perception read back a step late (requestPerception before a step, perception()
// after it): the same answer the blocking calls give before the step, with no wait; k is checked
// before anything is recorded; a new request replaces one never read.
TEST(NearestBoidsGpu, APerceptionRequestedBeforeAStepIsThatStatesAnswerAfterIt) {
  const std::size_t errorsBefore = test::glErrorCount();
  FlockPipeline gpu(test::glContext(), test::shaderLibrary(), gpu::Arithmetic::Exact);
  sim::Scene scene = sim::defaultDensityScene(3000, 3);
  scene.groups = 3;
  const sim::ModelParams& params = scene.model;
  const glm::vec3 mid = 0.5f * (params.worldMin + params.worldMax);
  const std::vector<sim::BoidProbe> probes{{mid, 0.2f * params.worldSize().x}, {params.worldMin, 30.0f}};
  gpu.upload(sim::spawnFlock(scene));
  EXPECT_THROW((void)gpu.perception(), std::logic_error) << "nothing requested";
  EXPECT_THROW(gpu.requestPerception(probes, 0), std::invalid_argument);
  EXPECT_THROW(gpu.requestPerception(probes, sim::kMaxNearestBoids + 1), std::invalid_argument);

  gpu.requestPerception(probes, 4);
  gpu.step(params, {});
  const FlockPipeline::Perception initial = gpu.perception();
  EXPECT_EQ(initial.boids, sim::NearestBoids(probes.size(), 3, 4)) << "no grid before the first step";
  std::uint32_t initialCount = 0;
  for (const sim::GroupSummary& g : initial.groups) initialCount += g.count;
  EXPECT_EQ(initialCount, 3000u);

  for (int step = 0; step < 3; ++step) {
    const std::vector<sim::GroupSummary> groups = gpu.groupSummaries();
    const sim::NearestBoids boids = gpu.nearestBoids(probes, 4);
    gpu.requestPerception(probes, sim::kMaxNearestBoids);  // replaced, never read
    const std::uint64_t waits = blockingWaitCount();
    gpu.requestPerception(probes, 4);
    gpu.step(params, {});
    const FlockPipeline::Perception late = gpu.perception();
    EXPECT_EQ(blockingWaitCount(), waits) << "step " << step;
    EXPECT_EQ(late.boids, boids) << "step " << step;
    ASSERT_EQ(late.groups.size(), groups.size());
    for (std::size_t g = 0; g < groups.size(); ++g) {
      EXPECT_EQ(late.groups[g].count, groups[g].count) << "step " << step << ", group " << g;
      EXPECT_EQ(late.groups[g].leaders, groups[g].leaders) << "step " << step << ", group " << g;
      EXPECT_EQ(late.groups[g].centroid, groups[g].centroid) << "step " << step << ", group " << g;
      EXPECT_EQ(late.groups[g].meanVelocity, groups[g].meanVelocity) << "step " << step << ", group " << g;
    }
    std::uint32_t found = 0;
    for (const std::uint32_t count : late.boids.counts) found += count;
    EXPECT_GT(found, 0u) << "not a test of empty answers";
  }
  EXPECT_EQ(test::glErrorCount(), errorsBefore);
}

}  // namespace
}  // namespace murmur::gpu
