// The one grow-on-demand buffer (gpu/dynamic_buffer.hpp) and the one view of the pipeline's buffers
// the renderer draws from (render::boidBuffers).
#include <gtest/gtest.h>

#include <cstdint>
#include <numeric>
#include <span>
#include <vector>

#include "gl_test_env.hpp"
#include "gpu/dynamic_buffer.hpp"
#include "gpu/flock_pipeline.hpp"
#include "render/boid_buffers.hpp"
#include "sim/builders.hpp"

namespace murmur {
namespace {

TEST(DynamicBuffer, GrowsHalfAsLargeAgainOnlyWhenOutgrownAndNeverShrinks) {
  gpu::DynamicBuffer buffer("test dynamic buffer");
  EXPECT_EQ(buffer.id(), 0u);  // nothing allocated before the first use
  const GLuint first = buffer.reserve(100).id();
  EXPECT_EQ(buffer.buffer().size(), 150u);
  EXPECT_EQ(buffer.reserve(150).id(), first);  // fits: the same buffer
  EXPECT_EQ(buffer.reserve(10).id(), first);   // smaller: kept, not shrunk
  EXPECT_EQ(buffer.buffer().size(), 150u);
  buffer.reserve(151);
  EXPECT_EQ(buffer.buffer().size(), 226u);  // 151 + 75

  std::vector<std::uint32_t> values(100);
  std::iota(values.begin(), values.end(), 7u);
  buffer.write(std::span<const std::uint32_t>(values));  // 400 bytes outgrow 226: 600
  EXPECT_EQ(buffer.buffer().size(), 600u);
  EXPECT_EQ(buffer.buffer().download<std::uint32_t>(values.size()), values);
}

TEST(BoidBuffers, ThePipelinesOwnBuffersWithGroupsInPositionWAndLeaders) {
  const sim::Scene scene = sim::defaultDensityScene(500, 2);
  gpu::FlockPipeline pipeline(test::glContext(), test::shaderLibrary(), gpu::Arithmetic::Exact);
  pipeline.upload(sim::spawnFlock(scene));
  const render::BoidBuffers boids = render::boidBuffers(pipeline);
  EXPECT_EQ(boids.position, pipeline.positionBuffer().id());
  EXPECT_EQ(boids.velocity, pipeline.velocityBuffer().id());
  EXPECT_EQ(boids.positionOffset, 0);
  EXPECT_EQ(boids.velocityOffset, 0);
  EXPECT_EQ(boids.groupSource, render::GroupSource::PositionW);
  EXPECT_TRUE(boids.leaders);
  EXPECT_EQ(boids.count, 500u);
}

}  // namespace
}  // namespace murmur
