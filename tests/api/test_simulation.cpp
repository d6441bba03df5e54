// The public API (include/murmur) as a program uses it: through libmurmur.so alone. The gpu cases
// run on llvmpipe through EGL on CI (a missing context fails them, never skips).
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <string>
#include <thread>
#include <vector>

#include <murmur/murmur.hpp>

namespace {

murmur::Simulation make(const char* scene, murmur::Backend backend, std::int64_t boids,
                        std::int64_t seed = 1) {
  murmur::Options options;
  options.backend = backend;
  options.boids = boids;
  options.seed = seed;
  return murmur::Simulation::fromScene(scene, options);
}

template <class T>
bool sameBytes(std::span<const T> a, std::span<const T> b) {
  return a.size() == b.size() && std::memcmp(a.data(), b.data(), a.size_bytes()) == 0;
}

bool sameFlock(murmur::Simulation& a, murmur::Simulation& b) {
  return sameBytes(a.positions(), b.positions()) && sameBytes(a.velocities(), b.velocities()) &&
         sameBytes(a.groups(), b.groups()) && sameBytes(a.leaders(), b.leaders());
}

TEST(Simulation, TheReadmesSmallestUse) {
  auto sim = murmur::Simulation::fromScene("free", murmur::Backend::Cpu);
  sim.step(5);
  const std::size_t n = sim.positions().size();
  EXPECT_EQ(n, 10000u);
  EXPECT_EQ(sim.steps(), 5u);
  EXPECT_EQ(sim.backend(), "cpu");
  EXPECT_NEAR(sim.time(), 5.0 * sim.param("sim.dt"), 1e-9);
  EXPECT_TRUE(std::isfinite(sim.positions()[n - 1].z));
}

TEST(Simulation, TwoGpuSimulationsSteppedInTurnEachEqualTheirCpuTwins) {
  auto gpuFree = make("free", murmur::Backend::GpuExact, 1500, 3);
  auto gpuPredator = make("predator", murmur::Backend::GpuExact, 900, 4);
  auto cpuFree = make("free", murmur::Backend::Cpu, 1500, 3);
  auto cpuPredator = make("predator", murmur::Backend::Cpu, 900, 4);
  EXPECT_EQ(gpuFree.backend(), "gpu-exact");
  for (int round = 0; round < 4; ++round) {
    gpuFree.step(3);
    gpuPredator.step(2);
    cpuFree.step(3);
    cpuPredator.step(2);
    EXPECT_TRUE(sameFlock(gpuFree, cpuFree)) << "free, round " << round;
    EXPECT_TRUE(sameFlock(gpuPredator, cpuPredator)) << "predator, round " << round;
  }
  EXPECT_GT(gpuPredator.agents().size(), 0u);
}

TEST(Simulation, AGpuSimulationSteppedFromAnotherThread) {
  auto gpu = make("free", murmur::Backend::GpuExact, 800);
  auto cpu = make("free", murmur::Backend::Cpu, 800);
  gpu.step(2);
  std::thread([&] { gpu.step(3); }).join();
  cpu.step(5);
  EXPECT_TRUE(sameFlock(gpu, cpu));
}

TEST(Simulation, AHeldViewKeepsItsStepWhileTheSimulationMovesOn) {
  auto sim = make("free", murmur::Backend::Cpu, 500);
  sim.step(2);
  std::span<const murmur::Vec3> before = sim.positions();
  const std::vector<murmur::Vec3> copy(before.begin(), before.end());
  std::shared_ptr<const void> held = sim.holdViews();
  sim.step(1);
  EXPECT_TRUE(sameBytes(before, std::span<const murmur::Vec3>(copy)));
  EXPECT_FALSE(sameBytes(sim.positions(), std::span<const murmur::Vec3>(copy)));
  // Without a holder the next step's read reuses the buffer: the view of now.
  const murmur::Vec3* now = sim.positions().data();
  held.reset();
  sim.step(1);
  EXPECT_EQ(sim.positions().data(), now);
}

TEST(Simulation, SetParamValidatesAndChangesNothingOnError) {
  auto sim = make("free", murmur::Backend::Cpu, 300);
  const float radius = sim.param("perception.radius");
  try {
    sim.setParam("perception.radius", -2.0f);
    FAIL() << "accepted a negative radius";
  } catch (const murmur::InputError& e) {
    EXPECT_EQ(e.key(), "perception.radius");
    EXPECT_NE(std::string(e.what()).find("-2 is refused: must be above 0"), std::string::npos) << e.what();
  }
  EXPECT_EQ(sim.param("perception.radius"), radius);
  EXPECT_THROW(sim.setParam("perception.neighbours", 2.5f), murmur::InputError);
  EXPECT_THROW(sim.setParam("perception.neighbours", 17.0f), murmur::InputError);
  EXPECT_THROW(sim.setParam("no.such", 1.0f), murmur::InputError);
  EXPECT_THROW(sim.param("no.such"), murmur::InputError);
  // A limit between parameters: the separation radius may not exceed the perception radius.
  EXPECT_THROW(sim.setParam("perception.separation_radius", radius * 2.0f), murmur::InputError);
  sim.setParam("perception.neighbours", 5.0f);
  EXPECT_EQ(sim.param("perception.neighbours"), 5.0f);
}

TEST(Simulation, SetStateIsTheInitialFlockAndBadStatesChangeNothing) {
  auto sim = make("free", murmur::Backend::Cpu, 200);
  sim.step(3);
  const std::vector<murmur::Vec3> p(sim.positions().begin(), sim.positions().end());
  const std::vector<murmur::Vec3> v(sim.velocities().begin(), sim.velocities().end());
  const std::vector<std::uint32_t> g(sim.groups().begin(), sim.groups().end());

  auto twin = make("free", murmur::Backend::Cpu, 50);
  twin.setState(p, v, g);
  EXPECT_EQ(twin.size(), 200u);
  EXPECT_EQ(twin.steps(), 0u);
  EXPECT_TRUE(sameBytes(twin.positions(), std::span<const murmur::Vec3>(p)));
  sim.step(4);
  twin.step(4);
  EXPECT_TRUE(sameBytes(twin.positions(), sim.positions()));
  twin.reset();  // back to the state given
  EXPECT_TRUE(sameBytes(twin.positions(), std::span<const murmur::Vec3>(p)));

  std::vector<murmur::Vec3> bad = p;
  bad[7].y = std::nanf("");
  EXPECT_THROW(twin.setState(bad, v, g), murmur::InputError);
  bad = p;
  bad[3].x = 1e6f;  // outside the world box
  try {
    twin.setState(bad, v, g);
    FAIL();
  } catch (const murmur::InputError& e) {
    EXPECT_EQ(e.key(), "boid 3: x");
  }
  std::vector<std::uint32_t> badGroups = g;
  badGroups[0] = 5000;
  EXPECT_THROW(twin.setState(p, v, badGroups), murmur::InputError);
  EXPECT_THROW(twin.setState(p, std::span<const murmur::Vec3>(v).first(10), g), murmur::InputError);
  EXPECT_EQ(twin.size(), 200u);
  EXPECT_TRUE(sameBytes(twin.positions(), std::span<const murmur::Vec3>(p)));
}

TEST(Simulation, ScenesFromTomlAndBadScenes) {
  murmur::Options options;
  options.backend = murmur::Backend::Cpu;
  auto sim = murmur::Simulation::fromToml("[boids]\ncount = 64\n[world]\ndims = 2\n", options, "inline.toml");
  EXPECT_EQ(sim.size(), 64u);
  sim.step(1);
  for (const murmur::Vec3& p : sim.positions()) EXPECT_EQ(p.y, 0.0f);
  try {
    murmur::Simulation::fromToml("[boids]\ncount = -3\n", options, "inline.toml");
    FAIL();
  } catch (const murmur::InputError& e) {
    EXPECT_EQ(e.file(), "inline.toml");
    EXPECT_EQ(e.line(), 2u);
    EXPECT_EQ(e.key(), "boids.count");
  }
  EXPECT_THROW(murmur::Simulation::fromScene("no-such-scene", options), murmur::InputError);
  EXPECT_THROW(murmur::backendFromName("warp"), murmur::InputError);
  options.threads = -1;
  EXPECT_THROW(murmur::Simulation::fromScene("free", options), murmur::InputError);
}

TEST(Simulation, ShippedScenesAndTheParameterTable) {
  const std::vector<std::string> names = murmur::scenes();
  for (const char* name : {"free", "lab", "maze2d", "murmuration", "predator"})
    EXPECT_NE(std::find(names.begin(), names.end(), name), names.end()) << name;
  bool radius = false;
  for (const murmur::ParamInfo& p : murmur::params()) radius = radius || p.key == "perception.radius";
  EXPECT_TRUE(radius);
}

std::vector<std::string> logged;
void keep(std::string_view message) {
  logged.emplace_back(message);
}

TEST(Simulation, TheLogHookHearsWhatAutoChose) {
  murmur::setLogFcn(keep);
  auto sim = make("free", murmur::Backend::Auto, 100);
  murmur::setLogFcn(nullptr);
  // llvmpipe: the cpu backend, said so; its GL context's debug messages come too.
  EXPECT_TRUE(std::any_of(logged.begin(), logged.end(), [](const std::string& m) {
    return m.rfind("backend cpu: the GL device is a software renderer", 0) == 0;
  })) << (logged.empty() ? "nothing logged" : logged.front());
}

TEST(Simulation, RenderDrawsTheFlock) {
  auto sim = make("free", murmur::Backend::Cpu, 2000);
  sim.step(2);
  const std::vector<std::uint8_t> rgba = sim.render(96, 64);
  ASSERT_EQ(rgba.size(), 96u * 64u * 4u);
  std::vector<std::uint32_t> colours;
  for (std::size_t i = 0; i < rgba.size(); i += 4) {
    std::uint32_t c;
    std::memcpy(&c, &rgba[i], 4);
    colours.push_back(c);
  }
  std::sort(colours.begin(), colours.end());
  EXPECT_GT(std::unique(colours.begin(), colours.end()) - colours.begin(), 10);
  EXPECT_THROW(sim.render(8, 8), murmur::InputError);
  EXPECT_EQ(sim.steps(), 2u);  // drawing leaves the flock and its steps as they were
  sim.step(1);
  EXPECT_EQ(sim.render(96, 64).size(), rgba.size());
  EXPECT_EQ(sim.steps(), 3u);
}

}  // namespace
