// scenes/murmuration.toml at 20,000 boids (CI's size; the scene has 100,000), falcon included, on the
// CPU backend: after 20 s of settling, sampled every 5 s to 50 s, one flock (connected at R) holds
// at least 90% of the boids and is a sheet (thinnest principal extent at most a third of the
// longest) at every sample, and its polarization is between 0.6 and 0.95 at some sample (the flock
// turning over the roost, not flying straight nor milling).
#include <gtest/gtest.h>

#include <cstdio>

#include "session/scene_sections.hpp"
#include "sim/metrics.hpp"
#include "sim/scene_loader.hpp"
#include "world/world.hpp"

namespace murmur::world {
namespace {

TEST(MurmurationScene, OneThinFlockTurnsOverTheRoost) {
  sim::Scene scene = sim::loadScene(MURMUR_SOURCE_DIR "/scenes/murmuration.toml", session::kSceneSections);
  ASSERT_EQ(scene.model.topologicalNeighbours, 7u);
  ASSERT_GT(scene.model.roostRadius, 0.0f);
  scene.count = 20000;
  World world(WorldDescription{scene, "", {}}, makeBackend("cpu"));
  ASSERT_NE(world.director(), nullptr);
  constexpr int kSettle = 1200, kEvery = 300, kEnd = 3000;  // steps of 1/60 s
  bool turning = false;
  for (int step = 1; step <= kEnd; ++step) {
    world.tick();
    if (step < kSettle || step % kEvery != 0) continue;
    const sim::FlockShape shape = sim::measureFlockShape(world.scene().model, world.backend().state());
    std::printf(
        "  t = %4.1f s: largest flock %.1f%% (%zu flocks), polarization %.3f, extents %.1f %.1f %.1f "
        "(thinness %.2f)\n",
        step / 60.0, 100.0 * shape.largestFraction, shape.flocks, shape.polarization, shape.extents.x,
        shape.extents.y, shape.extents.z, shape.thinness);
    EXPECT_GE(shape.largestFraction, 0.9) << "step " << step;
    EXPECT_LE(shape.thinness, 1.0 / 3.0) << "step " << step;
    turning = turning || (shape.polarization >= 0.6 && shape.polarization <= 0.95);
  }
  EXPECT_TRUE(turning) << "the flock never turned with polarization in [0.6, 0.95]";
}

}  // namespace
}  // namespace murmur::world
