// The wall term (docs/model.md, step 6b) on the GPU against the CPU reference: a 2D flock in a
// maze-like grid of wall cells, one step from the same state, judged by sim::compareOneStep.
#include <gtest/gtest.h>

#include <glm/geometric.hpp>

#include "gl_test_env.hpp"
#include "gpu/flock_pipeline.hpp"
#include "sim/builders.hpp"
#include "sim/cpu_simulator.hpp"
#include "sim/parity.hpp"
#include "sim/random.hpp"
#include "sim/rules.hpp"

namespace murmur {
namespace {

// A 2D world of 200 x 200 units over a 50 x 50 grid of 4-unit cells, 25% of them walls.
struct WallWorld {
  sim::Scene scene;
  sim::StepInputs inputs;
  sim::FlockState state;
};

WallWorld wallWorld(int dims, sim::Boundary boundary) {
  WallWorld w;
  w.scene = sim::defaultDensityScene(3000, dims);
  w.scene.model.worldMin = {-100, -50, -100};
  w.scene.model.worldMax = {100, 50, 100};
  w.scene.model.boundary = boundary;
  w.scene.seed = 11;
  auto walls = std::make_shared<sim::WallGrid>();
  walls->origin = {-100.0f, -100.0f};
  walls->cellSize = 4.0f;
  walls->width = walls->height = 50;
  sim::Pcg32 rng(5);
  for (std::uint32_t c = 0; c < 2500; ++c) walls->blocked.push_back(rng.uniform() < 0.25f ? 1 : 0);
  w.inputs = sim::staticInputs(w.scene, 1);
  w.inputs.walls = walls;
  w.state = sim::spawnFlock(w.scene);
  return w;
}

TEST(Walls, OneGpuStepMatchesTheCpuReference) {
  for (const int dims : {2, 3}) {
    for (const sim::Boundary boundary : {sim::Boundary::Contain, sim::Boundary::Wrap}) {
      WallWorld w = wallWorld(dims, boundary);
      // The wall term must act on many boids, inside cells and ahead of them.
      const sim::PackedInputs packed = sim::packInputs(w.scene.model, w.inputs, 1);
      const sim::StepContext ctx = sim::makeStepContext(w.scene.model, packed);
      std::size_t inside = 0, steered = 0;
      for (std::size_t i = 0; i < w.state.size(); ++i) {
        const sim::BoidView self{w.state.position[i], w.state.velocity[i], sim::heading(w.state.velocity[i]),
                                 static_cast<std::uint32_t>(i), 0};
        inside += w.inputs.walls->blockedAt(self.position);
        steered += glm::length(sim::wallForce(ctx, self)) > 0.0f;
      }
      EXPECT_GT(inside, 100u);
      EXPECT_GT(steered, 1000u);

      gpu::FlockPipeline pipeline(test::glContext(), test::shaderLibrary(), gpu::Arithmetic::Exact);
      pipeline.upload(w.state);
      pipeline.step(w.scene.model, w.inputs);
      const sim::FlockState gpuNext = pipeline.download();
      sim::FlockState cpuNext = w.state;
      sim::CpuSimulator(sim::NeighbourSearch::Grid).step(w.scene.model, w.inputs, cpuNext);
      const sim::ParityReport report =
          sim::compareOneStep(w.scene.model, w.inputs, w.state, cpuNext, gpuNext);
      EXPECT_TRUE(report.passed({})) << "dims " << dims << ": " << report.overTolerance << " over tolerance, "
                                     << report.unexplained.size() << " unexplained";
      EXPECT_LT(report.maxPositionError, 1e-4);
      if (test::bitwiseParityExpected()) {
        EXPECT_EQ(test::bitwiseDifference(cpuNext, gpuNext), "")
            << "dims " << dims << ": llvmpipe not bit for bit";
      }
    }
  }
}

}  // namespace
}  // namespace murmur
