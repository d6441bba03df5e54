// Where the CPU waits for the GPU (gpu::blockingWaitCount, counted by the GL wrappers): never in a
// step, nor in a tick of a world with agents (their perception comes back through fenced,
// persistently mapped read-backs a step late), nor in reading group summaries for display; exactly
// the documented reads in download() and at the end of a run.
#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <vector>

#include "gl_test_env.hpp"
#include "gpu/flock_pipeline.hpp"
#include "gpu/gl_objects.hpp"
#include "session/scene_sections.hpp"
#include "sim/builders.hpp"
#include "sim/scene_loader.hpp"
#include "world/world.hpp"

namespace murmur::gpu {
namespace {

TEST(BlockingWaits, AStepNeverWaitsAndADownloadReadsThreeBuffers) {
  FlockPipeline pipeline(test::glContext(), test::shaderLibrary(), gpu::Arithmetic::Exact);
  const sim::Scene scene = sim::defaultDensityScene(2000, 3);
  pipeline.upload(sim::spawnFlock(scene));
  const std::uint64_t before = blockingWaitCount();
  for (int step = 0; step < 5; ++step) pipeline.step(scene.model, {});
  EXPECT_EQ(blockingWaitCount(), before) << "a step waited for the GPU";
  const sim::FlockState state = pipeline.download();
  EXPECT_EQ(state.size(), 2000u);
  EXPECT_EQ(blockingWaitCount(), before + 3) << "download(): the slots' ids, positions and velocities";
}

// `murmur run --backend gpu` with agents, through the library world it ticks (at 3,000 boids for
// predator.toml, lab.toml's own 80): no wait in any tick; at the end the state (three reads) and the
// group summaries (one), as cmd_run.cpp reads them.
class BlockingWaitsInARun : public testing::TestWithParam<std::string> {};

TEST_P(BlockingWaitsInARun, TicksWithAgentsNeverWaitAndTheEndReadsFour) {
  world::WorldDescription description{
      sim::loadScene(MURMUR_SOURCE_DIR "/scenes/" + GetParam(), session::kSceneSections),
      "",
      {MURMUR_MAPS_DIR}};
  description.scene.count = std::min(description.scene.count, 3000u);
  world::World world(description, world::makeBackend("gpu", -1, &test::glContext()));
  ASSERT_NE(world.director(), nullptr);
  const std::uint64_t before = blockingWaitCount();
  for (int tick = 0; tick < 60; ++tick) {
    world.tick();
    ASSERT_EQ(blockingWaitCount(), before) << "tick " << tick << " waited for the GPU";
  }
  const sim::FlockState final = world.backend().state();
  EXPECT_EQ(blockingWaitCount(), before + 3) << "the final state: the slots' ids, positions and velocities";
  const std::vector<sim::GroupSummary> groups = world.backend().groupSummaries();
  EXPECT_EQ(blockingWaitCount(), before + 4) << "the final group summaries";
  std::uint32_t boids = 0;
  for (const sim::GroupSummary& g : groups) boids += g.count;
  EXPECT_EQ(boids, final.size());
}

INSTANTIATE_TEST_SUITE_P(Scenes, BlockingWaitsInARun, testing::Values("predator.toml", "lab.toml"),
                         [](const testing::TestParamInfo<std::string>& scene) {
                           return scene.param.substr(0, scene.param.find('.'));
                         });

// The demo's frame: a few steps, then the panel's figures (recentGroupSummaries; the camera's
// follow reads them too): never a wait, and they are those of the frame before (none at the first).
// Between frames the test reads what the next frame should show (one counted wait each).
TEST(BlockingWaits, DisplayedSummariesAreAFrameOldAndNeverWait) {
  FlockPipeline pipeline(test::glContext(), test::shaderLibrary(), gpu::Arithmetic::Exact);
  const sim::Scene scene = sim::defaultDensityScene(2000, 3);
  pipeline.upload(sim::spawnFlock(scene));
  std::uint64_t waits = blockingWaitCount();
  EXPECT_TRUE(pipeline.recentGroupSummaries().empty()) << "nothing read back before the first frame";
  EXPECT_EQ(blockingWaitCount(), waits);
  for (int frame = 1; frame < 5; ++frame) {
    const std::vector<sim::GroupSummary> previousFrame = pipeline.groupSummaries();
    EXPECT_EQ(blockingWaitCount(), ++waits);
    for (int step = 0; step < 3; ++step) pipeline.step(scene.model, {});
    const std::vector<sim::GroupSummary> shown = pipeline.recentGroupSummaries();
    ASSERT_EQ(blockingWaitCount(), waits) << "frame " << frame << " waited for the GPU";
    ASSERT_EQ(shown.size(), previousFrame.size()) << "frame " << frame;
    for (std::size_t g = 0; g < shown.size(); ++g) {
      EXPECT_EQ(shown[g].count, previousFrame[g].count) << "frame " << frame << ", group " << g;
      EXPECT_EQ(shown[g].centroid, previousFrame[g].centroid) << "frame " << frame << ", group " << g;
      EXPECT_EQ(shown[g].meanVelocity, previousFrame[g].meanVelocity) << "frame " << frame << ", group " << g;
    }
  }
}

// The headless demo's following camera frames a sample of the flock's positions: at most one
// blocking read, of 4,096 boids' (64 runs of 64 ids), where download() reads two whole buffers.
TEST(BlockingWaits, ThePositionSampleIsOneSmallRead) {
  FlockPipeline pipeline(test::glContext(), test::shaderLibrary(), gpu::Arithmetic::Exact);
  const sim::Scene scene = sim::defaultDensityScene(6000, 3);
  pipeline.upload(sim::spawnFlock(scene));
  for (int frame = 0; frame < 3; ++frame) {
    for (int step = 0; step < 3; ++step) pipeline.step(scene.model, {});
    const std::uint64_t before = blockingWaitCount();
    const std::vector<glm::vec3> sample = pipeline.positionSample();
    EXPECT_LE(blockingWaitCount(), before + 1) << "frame " << frame;  // none when the copies are done
    EXPECT_EQ(sample.size(), 4096u) << "64 runs of 64 boids";
    EXPECT_EQ(sample, sim::samplePositions(pipeline.download())) << "frame " << frame;
  }
  // The sample's ids are uploaded once for a flock size, and again when the size changes.
  for (const std::uint32_t count : {300u, 6000u}) {
    pipeline.upload(sim::spawnFlock(sim::defaultDensityScene(count, 3)));
    pipeline.step(scene.model, {});
    const std::vector<glm::vec3> sample = pipeline.positionSample();
    EXPECT_EQ(sample.size(), std::min<std::size_t>(count, 4096u)) << count << " boids";
    EXPECT_EQ(sample, sim::samplePositions(pipeline.download())) << count << " boids";
  }
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
