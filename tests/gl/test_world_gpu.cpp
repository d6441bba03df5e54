// The library world on the gpu backend (world/world.hpp, in the test's GL context) against the same
// world on the cpu backend, ticked in compare's lockstep (both worlds' agents steer on what the cpu
// world perceives, then both step): scenes/maze2d.toml (map walls, a path-finding leader, goals),
// scenes/predator.toml (leaders, a hunting predator, three groups), scenes/lab.toml (chasers,
// interceptors, a player) and scenes/lab-book.toml (the same with the book's rigid-body units). Each tick the
// gpu world also perceives what the cpu world does: the flock one step late, read back without a wait.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <ostream>
#include <string>
#include <vector>

#include "core/error.hpp"
#include "gl_test_env.hpp"
#include "session/scene_sections.hpp"
#include "sim/parity.hpp"
#include "sim/scene_loader.hpp"
#include "world/world.hpp"

namespace murmur {
namespace {

struct SceneCase {
  std::string file;     // under scenes/
  std::uint32_t boids;  // 0: the scene's count
  bool perceivesBoids;  // some agent perceives a boid within the ticks (not a test of empty answers)
  int ticks = 20;       // on llvmpipe (elsewhere one)
};
// How gtest lists a case (ctest -N, failures): by its fields, not its bytes (a string's pointer).
void PrintTo(const SceneCase& scene, std::ostream* out) {
  *out << scene.file << ", " << scene.boids << " boids, " << scene.ticks << " ticks";
}

class WorldGpu : public testing::TestWithParam<SceneCase> {};

// The case's scene, with its boid count.
world::WorldDescription describe(const SceneCase& scene) {
  world::WorldDescription description{
      sim::loadScene(MURMUR_SOURCE_DIR "/scenes/" + scene.file, session::kSceneSections),
      "",
      {MURMUR_MAPS_DIR}};
  if (scene.boids > 0) description.scene.count = scene.boids;
  return description;
}

// The same perception, but for the order of the group reduction's sums (centroids and mean
// velocities within rounding).
void expectSamePerception(const world::AgentPerception& cpu, const world::AgentPerception& gpu, int tick) {
  EXPECT_EQ(gpu.boids, cpu.boids) << "tick " << tick;
  ASSERT_EQ(gpu.groups.size(), cpu.groups.size()) << "tick " << tick;
  for (std::size_t g = 0; g < cpu.groups.size(); ++g) {
    EXPECT_EQ(gpu.groups[g].count, cpu.groups[g].count) << "tick " << tick << ", group " << g;
    EXPECT_EQ(gpu.groups[g].leaders, cpu.groups[g].leaders) << "tick " << tick << ", group " << g;
    for (int k = 0; k < 3; ++k) {
      EXPECT_NEAR(gpu.groups[g].centroid[k], cpu.groups[g].centroid[k], 1e-3f)
          << "tick " << tick << ", group " << g;
      EXPECT_NEAR(gpu.groups[g].meanVelocity[k], cpu.groups[g].meanVelocity[k], 1e-3f)
          << "tick " << tick << ", group " << g;
    }
  }
}

TEST_P(WorldGpu, TicksAsTheCpuWorldInLockstep) {
  const std::size_t errorsBefore = test::glErrorCount();
  const world::WorldDescription description = describe(GetParam());
  world::World cpu(description, world::makeBackend("cpu"));
  world::World gpu(description, world::makeBackend("gpu-exact", -1, &test::glContext()));
  ASSERT_EQ(gpu.backend().name(), "gpu-exact");
  ASSERT_NE(gpu.director(), nullptr);
  EXPECT_EQ(test::bitwiseDifference(cpu.initial(), gpu.backend().state()), "")
      << "the initial flock uploaded";

  // On llvmpipe every tick bit for bit; elsewhere one tick within compare's tolerances.
  const int ticks = test::bitwiseParityExpected() ? GetParam().ticks : 1;
  std::size_t boidsSeen = 0;
  for (int s = 0; s < ticks; ++s) {
    const sim::FlockState before = cpu.backend().state();
    const world::AgentPerception seen = cpu.perceive();
    if (test::bitwiseParityExpected()) expectSamePerception(seen, gpu.perceive(), s);
    for (const std::uint32_t count : seen.boids.counts) boidsSeen += count;
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
  if (test::bitwiseParityExpected() && GetParam().perceivesBoids) {
    EXPECT_GT(boidsSeen, 0u) << "the agents perceived boids";
  }
  EXPECT_EQ(test::glErrorCount(), errorsBefore);
}

// The fast arithmetic (the gpu backend: the compiler may fuse multiply-adds and reorder) from the
// same state and inputs as the CPU: each of ten ticks within compare's tolerances, every boid over
// them explained by a neighbour or obstacle within rounding of a perception edge. (llvmpipe fuses
// nothing without fast-math, so there it gives the exact arithmetic's bits; the tolerances are
// what a real card is held to.)
TEST_P(WorldGpu, TheFastArithmeticStaysWithinCompareTolerances) {
  const world::WorldDescription description = describe(GetParam());
  world::World cpu(description, world::makeBackend("cpu"));
  world::World gpu(description, world::makeBackend("gpu", -1, &test::glContext()));
  ASSERT_EQ(gpu.backend().name(), "gpu");
  for (int s = 0; s < 10; ++s) {
    const sim::FlockState before = cpu.backend().state();
    gpu.backend().setState(before);  // each tick from the CPU's state: rounding does not compound
    const world::AgentPerception seen = cpu.perceive();
    cpu.steerAgents(seen);
    gpu.steerAgents(seen);
    cpu.stepFlock();
    gpu.stepFlock();
    const sim::FlockState reference = cpu.backend().state();
    const sim::FlockState candidate = gpu.backend().state();
    const sim::ParityReport report =
        sim::compareOneStep(cpu.scene().model, cpu.inputs(), before, reference, candidate);
    EXPECT_TRUE(report.passed({})) << "tick " << s << ": " << report.overTolerance << " over tolerance";
    EXPECT_TRUE(report.unexplained.empty()) << "tick " << s;
  }
}

INSTANTIATE_TEST_SUITE_P(Scenes, WorldGpu,
                         // The lab's guard watches the player's course: behind its random rocks it sees no
                         // boid in the first 80 ticks (its perception is still compared every tick).
                         testing::Values(SceneCase{"maze2d.toml", 0, false},
                                         SceneCase{"predator.toml", 3000, true},
                                         SceneCase{"lab.toml", 0, false},
                                         // The lab's units: 10 s, through their chases, rocks and spins.
                                         SceneCase{"lab-book.toml", 0, false, 600}),
                         [](const testing::TestParamInfo<SceneCase>& scene) {
                           std::string name = scene.param.file.substr(0, scene.param.file.find('.'));
                           std::replace(name.begin(), name.end(), '-', '_');
                           return name;
                         });

// A model changed in place (the demo panel's sliders do so) past the lab's stability rule: the
// world stops at the first non-finite step with StateError naming the step, the first such boid and
// the key likeliest to blame; the same step on cpu and on gpu-exact (its checks, read back without a
// wait, come in at once on llvmpipe).
TEST(WorldGpuStability, AWorldStopsAtTheFirstNonFiniteStep) {
  const world::WorldDescription book{
      sim::loadScene(MURMUR_SOURCE_DIR "/scenes/lab-book.toml", session::kSceneSections), "", {}};
  std::vector<std::string> messages;
  for (const char* backend : {"cpu", "gpu-exact"}) {
    world::World world(book, world::makeBackend(backend, -1, &test::glContext()));
    world.model().maxForce = 500.0f;  // the push's term 7.27: a close neighbour's push overshoots the drag
    std::uint64_t steps = 0;
    try {
      for (; steps < 600; ++steps) world.tick();
      FAIL() << backend << ": 600 steps stayed finite";
    } catch (const StateError& error) {
      messages.emplace_back(error.what());
    }
    // Every step before it was finite: the state a step earlier is.
    EXPECT_EQ(world.steps(), steps + 1) << backend;
  }
  ASSERT_EQ(messages.size(), 2u);
  for (const std::string& message : messages) {
    EXPECT_NE(
        message.find("the key likeliest to blame: boids.max_force (the speed one step can reach over the "
                     "drag's stable speed is 7.27"),
        std::string::npos)
        << message;
  }
  const auto step = [](const std::string& m) { return m.substr(m.find("non-finite at step "), 30); };
  EXPECT_EQ(step(messages[0]).substr(0, 19), "non-finite at step ");
  EXPECT_EQ(step(messages[0]), step(messages[1]));
}

}  // namespace
}  // namespace murmur
