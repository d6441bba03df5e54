// `murmur compare` answers "how much faster" as well as "does it agree": ms a step and boid updates
// a second per side, the speed-up, `passed` and `speedup` at the top of the JSON, per-boid drift
// after the free run, and a note when the GL device is a software renderer.
#include <gtest/gtest.h>

#include <string>

#include <nlohmann/json.hpp>

#include "cli.hpp"

namespace murmur::test {
namespace {

TEST(CompareSpeed, SpeedFieldsFollowFromTheTimingsAndIdenticalBackendsDoNotDrift) {
  // The two CPU searches give byte-identical states (README): no boid drifts.
  const CliResult r = runMurmur(
      "compare --scene scenes/free.toml --boids 400 --steps 11 --reference cpu --candidate cpu-naive --json");
  ASSERT_EQ(r.exitCode, 0) << r.err;
  const nlohmann::ordered_json json = nlohmann::ordered_json::parse(r.out);
  // The answers first.
  auto key = json.begin();
  EXPECT_EQ(key.key(), "command");
  EXPECT_EQ((++key).key(), "passed");
  EXPECT_EQ((++key).key(), "speedup");
  EXPECT_EQ(json.at("passed"), true);
  EXPECT_EQ(json.at("software_renderer"), false);
  EXPECT_EQ(json.at("free_steps"), 10);
  const auto& reference = json.at("reference");
  const auto& candidate = json.at("candidate");
  for (const auto* side : {&reference, &candidate}) {
    const double seconds = side->at("wall_seconds").get<double>();
    ASSERT_GT(seconds, 0.0);
    EXPECT_NEAR(side->at("ms_per_step").get<double>(), seconds * 1e3 / 10.0, 1e-9 * seconds * 1e3);
    EXPECT_NEAR(side->at("boid_updates_per_second").get<double>(), 10.0 * 400.0 / seconds,
                1e-6 * 4000.0 / seconds);
  }
  EXPECT_NEAR(json.at("speedup").get<double>(),
              reference.at("ms_per_step").get<double>() / candidate.at("ms_per_step").get<double>(), 1e-9);
  EXPECT_EQ(json.at("drift").at("max"), 0.0);
  EXPECT_EQ(json.at("drift").at("p99"), 0.0);
  EXPECT_EQ(json.at("drift").at("mean"), 0.0);
  EXPECT_NE(r.err.find("speed-up "), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("ms per step"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("per-boid drift between the two: max 0, p99 0"), std::string::npos) << r.err;
  EXPECT_EQ(r.err.find("software renderer"), std::string::npos) << r.err;
}

// CI's GL device is llvmpipe: the note says the "GPU" figures are the CPU's.
TEST(CompareSpeed, ASoftwareRendererIsNamed) {
  const CliResult r = runMurmur("compare --scene scenes/free.toml --boids 300 --steps 3 --json");
  ASSERT_EQ(r.exitCode, 0) << r.err;
  const nlohmann::json json = nlohmann::json::parse(r.out);
  const std::string renderer = json.at("candidate").at("gl_device").at("renderer");
  const bool software = renderer.find("llvmpipe") != std::string::npos;
  EXPECT_EQ(json.at("software_renderer"), software) << renderer;
  EXPECT_EQ(json.at("candidate").at("software_renderer"), software);
  EXPECT_EQ(r.err.find("note: the GL device is a software renderer") != std::string::npos, software) << r.err;
  EXPECT_GE(json.at("drift").at("max").get<double>(), json.at("drift").at("p99").get<double>());
  EXPECT_GE(json.at("drift").at("p99").get<double>(), 0.0);
}

// compare --exact runs the gpu backend in its exact arithmetic and asks for the same bits: on
// llvmpipe (CI) the predator scene's agents, obstacles and flock agree with the cpu's for 40 steps.
// Without --exact the same comparison runs the fast arithmetic, under its tolerances.
TEST(CompareSpeed, ExactComparesTheExactArithmeticBitForBit) {
  const std::string workload = "compare --scene scenes/predator.toml --boids 1500 --steps 40 --json";
  const CliResult exact = runMurmur(workload + " --exact");
  ASSERT_EQ(exact.exitCode, 0) << exact.err;
  const nlohmann::json json = nlohmann::json::parse(exact.out);
  EXPECT_EQ(json.at("exact"), true);
  EXPECT_EQ(json.at("candidate").at("backend"), "gpu-exact");
  EXPECT_EQ(json.at("reference").at("backend"), "cpu");
  EXPECT_EQ(json.at("one_step").at("max_position_error"), 0.0);
  EXPECT_EQ(json.at("one_step").at("max_velocity_error"), 0.0);
  EXPECT_EQ(json.at("drift").at("max"), 0.0);
  EXPECT_NE(exact.err.find("exact: the one step bit for bit, the 40 steps bit for bit -> PASS"),
            std::string::npos)
      << exact.err;
  const CliResult fast = runMurmur(workload);
  ASSERT_EQ(fast.exitCode, 0) << fast.err;
  const nlohmann::json fastJson = nlohmann::json::parse(fast.out);
  EXPECT_EQ(fastJson.at("exact"), false);
  EXPECT_EQ(fastJson.at("candidate").at("backend"), "gpu");
}

}  // namespace
}  // namespace murmur::test
