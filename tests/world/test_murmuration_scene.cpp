// scenes/murmuration.toml at 20,000 birds (CI's size; the scene has 100,000), falcon included, on the
// CPU backend, measured against the field (STARFLAG, Ballerini et al., Animal Behaviour 76:201,
// 2008; docs/model.md, The murmuration against the field): after 25 s of settling, sampled every
// 5 s to 50 s, one flock (connected at R) holds at least 90% of the birds, thin but not flat
// (thickness / length 0.10-0.30, width / length 0.35-0.75), its thinnest axis within 30 degrees of
// the vertical, its polarization 0.80-0.99; and it wheels over the roost rather than flying away.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>

#include "session/scene_sections.hpp"
#include "sim/metrics.hpp"
#include "sim/scene_loader.hpp"
#include "world/world.hpp"

namespace murmur::world {
namespace {

TEST(MurmurationScene, OneFlockOfTheFieldsProportionsWheelsOverTheRoost) {
  sim::Scene scene = sim::loadScene(MURMUR_SOURCE_DIR "/scenes/murmuration.toml", session::kSceneSections);
  ASSERT_EQ(scene.model.unitModel, sim::UnitModel::Starling);
  ASSERT_EQ(scene.model.topologicalNeighbours, 7u);
  ASSERT_GT(scene.model.roostRadius, 0.0f);
  scene.count = 20000;
  World world(WorldDescription{scene, "", {}}, makeBackend("cpu"));
  ASSERT_NE(world.director(), nullptr);
  constexpr int kSettle = 1500, kEvery = 300, kEnd = 3000;  // steps of 1/60 s
  const glm::vec3 roost = scene.model.roostCenter;
  float farthest = 0.0f;
  for (int step = 1; step <= kEnd; ++step) {
    world.tick();
    if (step < kSettle || step % kEvery != 0) continue;
    const sim::FlockState state = world.backend().state();
    const sim::FlockShape shape = sim::measureFlockShape(world.scene().model, state);
    const sim::GroupSummary group = sim::summarizeGroups(state).at(0);
    const float away = std::hypot(group.centroid.x - roost.x, group.centroid.z - roost.z);
    farthest = std::max(farthest, away);
    std::printf(
        "  t = %4.1f s: largest flock %.1f%% (%zu flocks), polarization %.3f, extents %.1f %.1f %.1f "
        "(thinness %.2f, width %.2f, thinnest axis %.0f degrees from vertical), %.0f from the roost\n",
        step / 60.0, 100.0 * shape.largestFraction, shape.flocks, shape.polarization, shape.extents.x,
        shape.extents.y, shape.extents.z, shape.thinness, shape.widthRatio, shape.thinAxisTilt, away);
    EXPECT_GE(shape.largestFraction, 0.9) << "step " << step;
    EXPECT_GE(shape.thinness, 0.10) << "step " << step;
    EXPECT_LE(shape.thinness, 0.30) << "step " << step;
    EXPECT_GE(shape.widthRatio, 0.35) << "step " << step;
    EXPECT_LE(shape.widthRatio, 0.75) << "step " << step;
    EXPECT_LE(shape.thinAxisTilt, 30.0) << "step " << step;
    EXPECT_GE(shape.polarization, 0.80) << "step " << step;
    EXPECT_LE(shape.polarization, 0.99) << "step " << step;
  }
  // The roost's circle is 150 units; a flock flying straight on would be 400 away by now.
  EXPECT_LT(farthest, 2.0f * scene.model.roostRadius) << "the flock flew away from the roost";
}

}  // namespace
}  // namespace murmur::world
