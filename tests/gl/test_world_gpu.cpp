// The library world on the gpu backend (world/world.hpp, in the test's GL context) against the same
// world on the cpu backend: scenes/maze2d.toml (map walls, a path-finding leader, goals), ticked in
// compare's lockstep (both worlds' agents steer on the cpu flock's summaries, then both step).
#include <gtest/gtest.h>

#include <cstddef>
#include <vector>

#include "gl_test_env.hpp"
#include "app/scene_sections.hpp"
#include "sim/parity.hpp"
#include "sim/scene_loader.hpp"
#include "world/world.hpp"

namespace murmur {
namespace {

TEST(WorldGpu, TicksAsTheCpuWorldInLockstep) {
  const std::size_t errorsBefore = test::glErrorCount();
  world::WorldDescription description{
      sim::loadScene(MURMUR_SOURCE_DIR "/scenes/maze2d.toml", app::kSceneSections), "", {MURMUR_MAPS_DIR}};
  world::World cpu(description, world::makeBackend("cpu"));
  world::World gpu(description, world::makeBackend("gpu", -1, &test::glContext()));
  ASSERT_EQ(gpu.backend().name(), "gpu");
  ASSERT_NE(gpu.inputs().walls, nullptr);
  ASSERT_NE(gpu.director(), nullptr);
  EXPECT_EQ(test::bitwiseDifference(cpu.initial(), gpu.backend().state()), "") << "the initial flock uploaded";

  // On llvmpipe every tick bit for bit; elsewhere one tick within compare's tolerances.
  const int ticks = test::bitwiseParityExpected() ? 20 : 1;
  for (int s = 0; s < ticks; ++s) {
    const sim::FlockState before = cpu.backend().state();
    const world::AgentPerception seen = cpu.perceive();
    cpu.steerAgents(seen);
    gpu.steerAgents(seen);
    ASSERT_EQ(gpu.inputs().goal, cpu.inputs().goal) << "tick " << s;
    cpu.stepFlock();
    gpu.stepFlock();
    const sim::FlockState reference = cpu.backend().state();
    const sim::FlockState candidate = gpu.backend().state();
    if (test::bitwiseParityExpected()) {
      ASSERT_EQ(test::bitwiseDifference(reference, candidate), "") << "llvmpipe, tick " << s;
    } else {
      const sim::ParityReport report =
          sim::compareOneStep(cpu.scene().model, cpu.inputs(), before, reference, candidate);
      EXPECT_TRUE(report.passed({}));
      EXPECT_TRUE(report.unexplained.empty());
    }
  }
  EXPECT_EQ(test::glErrorCount(), errorsBefore);
}

}  // namespace
}  // namespace murmur
