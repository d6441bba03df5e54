// Where the CPU waits for the GPU (gpu::blockingWaitCount, counted by the GL wrappers): never in a
// step, exactly the documented reads in download().
#include <gtest/gtest.h>

#include "gl_test_env.hpp"
#include "gpu/flock_pipeline.hpp"
#include "gpu/gl_objects.hpp"
#include "sim/builders.hpp"

namespace murmur::gpu {
namespace {

TEST(BlockingWaits, AStepNeverWaitsAndADownloadReadsTwoBuffers) {
  FlockPipeline pipeline(test::glContext(), test::shaderLibrary());
  const sim::Scene scene = sim::defaultDensityScene(2000, 3);
  pipeline.upload(sim::spawnFlock(scene));
  const std::uint64_t before = blockingWaitCount();
  for (int step = 0; step < 5; ++step) pipeline.step(scene.model, {});
  EXPECT_EQ(blockingWaitCount(), before) << "a step waited for the GPU";
  const sim::FlockState state = pipeline.download();
  EXPECT_EQ(state.size(), 2000u);
  EXPECT_EQ(blockingWaitCount(), before + 2) << "download(): positions and velocities";
}

// The counter counts: a buffer read is a wait, and a query result that is not ready yet is one.
TEST(BlockingWaits, ABufferReadCounts) {
  const Buffer buffer("blocking wait probe", 16);
  const std::uint64_t before = blockingWaitCount();
  (void)buffer.download<std::uint32_t>(4);
  EXPECT_EQ(blockingWaitCount(), before + 1);
}

}  // namespace
}  // namespace murmur::gpu
