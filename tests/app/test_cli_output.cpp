// What the command line prints and where: --json keeps stdout pure JSON, bare `murmur` lists the
// commands, the default backend says which it chose and why, and a scene's data is found through the
// search path (the error naming every place tried).
#include <gtest/gtest.h>

#include <cstdlib>
#include <fstream>
#include <string>

#include <nlohmann/json.hpp>

#include "ai/scene_agents.hpp"
#include "brute_force_leaders.hpp"
#include "cli.hpp"
#include "session/scene_sections.hpp"
#include "sim/scene_loader.hpp"
#include "sim/state_csv.hpp"
#include "world/world.hpp"

namespace murmur::test {
namespace {

namespace fs = std::filesystem;

// stdout must be a JSON document: python3 -m json.tool reads it back.
void expectJsonDocument(const std::string& text, const std::string& name) {
  const fs::path file = scratchDir(name) / "out.json";
  std::ofstream(file) << text;
  const std::string command = "python3 -m json.tool '" + file.string() + "' > /dev/null";
  EXPECT_EQ(std::system(command.c_str()), 0) << "not JSON:\n" << text;
}

TEST(CliOutput, RunJsonPrintsOnlyJsonOnStdout) {
  const CliResult r = runMurmur("run --scene scenes/free.toml --boids 200 --steps 5 --backend cpu --json");
  ASSERT_EQ(r.exitCode, 0) << r.err;
  expectJsonDocument(r.out, "run_json");
  EXPECT_NE(r.out.find("\"boids\":200"), std::string::npos) << r.out;
  // The human summary is still there, on stderr.
  EXPECT_NE(r.err.find("boid updates/s"), std::string::npos) << r.err;
}

// The gpu backend's stage times leave each stage's first dispatch (the driver's program build)
// out of its mean and report it apart: over 6 steps of a flock without agents the scan, scatter and
// forces run every step (means of the 5 after the first), the hash and count on the first step
// only (first dispatches alone), and the reduction at most once, for the end of the run's summary
// (timed if its stamps have landed when the summary is written). The summary on stderr says the
// same in its two lines.
TEST(CliOutput, RunJsonSeparatesEachGpuStagesFirstDispatch) {
  const CliResult r = runMurmur("run --scene scenes/free.toml --boids 500 --steps 6 --backend gpu --json");
  ASSERT_EQ(r.exitCode, 0) << r.err;
  const nlohmann::ordered_json json = nlohmann::ordered_json::parse(r.out);
  std::vector<std::string> repeated, first;
  for (const auto& [stage, ms] : json.at("gpu_stage_ms").items()) {
    repeated.push_back(stage);
    EXPECT_GT(ms.get<double>(), 0.0) << stage;
  }
  for (const auto& [stage, ms] : json.at("gpu_first_dispatch_ms").items()) {
    first.push_back(stage);
    EXPECT_GT(ms.get<double>(), 0.0) << stage;
  }
  EXPECT_EQ(repeated, (std::vector<std::string>{"scan", "scatter", "forces"}));
  if (first.size() == 6 && first.back() == "reduce") first.pop_back();
  EXPECT_EQ(first, (std::vector<std::string>{"hash", "count", "scan", "scatter", "forces"}));
  EXPECT_NE(r.err.find("gpu stages (ms, mean after the first dispatch): scan "), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("gpu first dispatches (ms): hash "), std::string::npos) << r.err;
}

// run --json reports each group's emergent leaders of the last step: those of the rule applied by
// brute force to the state that step read (the dump of a run one step shorter); the lab's pursuing
// flocks steer by them.
TEST(CliOutput, RunJsonReportsTheLeadersOfEachGroup) {
  const fs::path dump = scratchDir("run_leaders") / "before.csv";
  const std::string common = "run --scene scenes/lab.toml --backend cpu";
  const CliResult before = runMurmur(common + " --steps 19 --dump '" + dump.string() + "'");
  ASSERT_EQ(before.exitCode, 0) << before.err;
  const CliResult r = runMurmur(common + " --steps 20 --json");
  ASSERT_EQ(r.exitCode, 0) << r.err;
  const sim::Scene scene =
      sim::loadScene(std::string(MURMUR_SOURCE_DIR) + "/scenes/lab.toml", session::kSceneSections);
  const sim::FlockState state = sim::readStateCsv(dump.string(), scene.model);
  const std::vector<std::uint32_t> expected = leadersPerGroup(state, bruteForceLeaders(scene.model, state));
  const nlohmann::json groups = nlohmann::json::parse(r.out).at("groups");
  ASSERT_EQ(groups.size(), expected.size());
  std::uint32_t total = 0;
  for (std::size_t g = 0; g < expected.size(); ++g) {
    EXPECT_EQ(groups[g].at("leaders").get<std::uint32_t>(), expected[g]) << "group " << g;
    total += expected[g];
  }
  EXPECT_GT(total, 0u);
  EXPECT_NE(r.err.find("\nemergent leaders per group:"), std::string::npos) << r.err;
}

glm::vec3 vectorOf(const nlohmann::json& json) {
  return {json.at(0).get<float>(), json.at(1).get<float>(), json.at(2).get<float>()};
}

// run --every N measures the flock's shape and the agents' states every N steps: a line each on the
// summary, and "samples" in --json; the last sample, at the final step, is the final summary's.
TEST(CliOutput, RunEverySamplesTheShapeAndTheAgentsOverTime) {
  const CliResult r =
      runMurmur("run --scene scenes/predator.toml --boids 900 --backend cpu --json --steps 40 --every 20");
  ASSERT_EQ(r.exitCode, 0) << r.err;
  const nlohmann::json json = nlohmann::json::parse(r.out);
  const nlohmann::json& samples = json.at("samples");
  ASSERT_EQ(samples.size(), 2u);
  EXPECT_EQ(samples[0].at("step"), 20);
  EXPECT_EQ(samples[1].at("step"), 40);
  EXPECT_NEAR(samples[1].at("seconds").get<double>(), 40.0 / 60.0, 1e-6);  // 40 float dt of 1/60 s
  EXPECT_EQ(samples[1].at("shape"), json.at("shape"));
  EXPECT_EQ(samples[1].at("agents"), json.at("agents"));
  EXPECT_EQ(samples[1].at("groups"), json.at("groups"));  // counts and leaders per group
  EXPECT_NE(samples[0].at("shape"), json.at("shape")) << "measured at step 20, not at the end";
  EXPECT_NE(r.err.find("t = 0.3 s (step 20): largest flock"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("t = 0.7 s (step 40): largest flock"), std::string::npos) << r.err;
  // predator's 3D flocks do not steer by emergent leaders: none are recorded or printed.
  EXPECT_EQ(r.err.find("leaders per group"), std::string::npos) << r.err;
  for (const nlohmann::json& g : json.at("groups")) EXPECT_EQ(g.at("leaders"), 0) << r.err;
}

// run --json lists every agent as the last update left it: the same as a world of the same scene
// ticked as many times on the same backend (the cpu backend is deterministic), field by field.
TEST(CliOutput, RunJsonListsEveryAgentWithItsState) {
  const int steps = 240;
  const CliResult r = runMurmur("run --scene scenes/predator.toml --boids 900 --backend cpu --json --steps " +
                                std::to_string(steps));
  ASSERT_EQ(r.exitCode, 0) << r.err;
  const nlohmann::json agents = nlohmann::json::parse(r.out).at("agents");

  sim::Scene scene =
      sim::loadScene(std::string(MURMUR_SOURCE_DIR) + "/scenes/predator.toml", session::kSceneSections);
  scene.count = 900;
  world::World world({scene, "", {}}, world::makeBackend("cpu"));
  for (int s = 0; s < steps; ++s) world.tick();
  const ai::AgentDirector& director = *world.director();

  ASSERT_EQ(agents.size(), director.size());
  ASSERT_EQ(agents.size(), 4u) << "three leaders and a predator";
  for (std::size_t i = 0; i < director.size(); ++i) {
    const nlohmann::json& agent = agents[i];
    SCOPED_TRACE("agent " + std::to_string(i));
    EXPECT_EQ(agent.at("kind"), i < 3 ? "leader" : "predator");
    EXPECT_EQ(agent.at("state"), std::string(director.stateName(i)));
    ASSERT_TRUE(director.action(i).has_value());
    EXPECT_EQ(agent.at("action"), std::string(ai::toString(*director.action(i))));
    EXPECT_EQ(vectorOf(agent.at("position")), director.position(i));
    EXPECT_EQ(vectorOf(agent.at("velocity")), director.velocity(i));
    if (i < 3) {
      EXPECT_EQ(agent.at("group"), i);
    } else {
      EXPECT_TRUE(agent.at("group").is_null());
    }
    const std::optional<glm::vec3> goal = director.goal(i);
    ASSERT_EQ(agent.at("goal").is_null(), !goal.has_value());
    if (goal) {
      EXPECT_EQ(vectorOf(agent.at("goal")), *goal);
    }
    const auto target = director.target(i);
    ASSERT_EQ(agent.at("target").is_null(), !target.has_value());
    if (target) {
      EXPECT_EQ(agent.at("target").at("group"), target->group);
      EXPECT_EQ(agent.at("target").at("boid"), target->boid);
    }
  }
  // A third of a second in: the leader of group 1 leads its flock to the first waypoint of its route
  // (scenes/predator.toml: [-70, 0, 40]); the leaders of groups 0 and 2 wait (their flocks spawned
  // farther than 60 units away) and go nowhere; the predator hunts a boid it perceives now (it
  // closes within 5 units of the boid it perceived a step before at step 29, and rests).
  const CliResult early =
      runMurmur("run --scene scenes/predator.toml --boids 900 --backend cpu --json --steps 20");
  ASSERT_EQ(early.exitCode, 0) << early.err;
  const nlohmann::json first = nlohmann::json::parse(early.out).at("agents");
  EXPECT_EQ(first.at(1).at("state"), "lead");
  EXPECT_EQ(vectorOf(first.at(1).at("goal")), glm::vec3(-70.0f, 0.0f, 40.0f));
  EXPECT_EQ(first.at(0).at("state"), "wait");
  EXPECT_TRUE(first.at(0).at("goal").is_null());
  EXPECT_EQ(first.at(3).at("state"), "hunt");
  ASSERT_FALSE(first.at(3).at("target").is_null());
  EXPECT_TRUE(first.at(3).at("target").at("perceived_now").get<bool>());
  EXPECT_EQ(first.at(3).at("goal"), first.at(3).at("target").at("position")) << "it steers at the boid";
  EXPECT_NE(r.err.find("agent 3 predator | state "), std::string::npos) << r.err;

  // The lab's player: no state machine (state "player", no action), steering for its first course
  // waypoint (scenes/lab.toml: [40, 0, -40]) a second in.
  const CliResult lab = runMurmur("run --scene scenes/lab.toml --backend cpu --json --steps 60");
  ASSERT_EQ(lab.exitCode, 0) << lab.err;
  const nlohmann::json player = nlohmann::json::parse(lab.out).at("agents").at(0);
  EXPECT_EQ(player.at("name"), "player");
  EXPECT_EQ(player.at("kind"), "player");
  EXPECT_EQ(player.at("state"), "player");
  EXPECT_TRUE(player.at("action").is_null());
  EXPECT_EQ(vectorOf(player.at("goal")), glm::vec3(40.0f, 0.0f, -40.0f));
}

TEST(CliOutput, CompareJsonPrintsOnlyJsonOnStdout) {
  const CliResult r = runMurmur("compare --scene scenes/free.toml --boids 300 --steps 3 --json");
  ASSERT_EQ(r.exitCode, 0) << r.err;
  expectJsonDocument(r.out, "compare_json");
  EXPECT_NE(r.out.find("\"command\":\"compare\""), std::string::npos) << r.out;
  EXPECT_NE(r.err.find("one step: position error"), std::string::npos) << r.err;
}

TEST(CliOutput, BareMurmurListsTheCommands) {
  const CliResult r = runMurmur("");
  EXPECT_EQ(r.exitCode, 0) << r.err;
  for (const char* command : {"demo", "run", "compare", "path", "devices"})
    EXPECT_NE(r.out.find(std::string("\n  ") + command + " "), std::string::npos) << command << ":\n"
                                                                                  << r.out;
}

// The default backend is gpu on a hardware GL device and cpu on a software renderer (llvmpipe on
// CI), saying which and why; --backend overrides.
TEST(CliOutput, DefaultBackendFollowsTheGlDevice) {
  const CliResult gpu = runMurmur("run --scene scenes/free.toml --boids 300 --steps 2 --backend gpu");
  ASSERT_EQ(gpu.exitCode, 0) << gpu.err;
  // "backend gpu (GL_RENDERER)"
  const std::size_t open = gpu.out.find("backend gpu (");
  ASSERT_NE(open, std::string::npos) << gpu.out;
  const std::string renderer = gpu.out.substr(open + 13, gpu.out.find(") |", open) - open - 13);
  const bool software = renderer.find("llvmpipe") != std::string::npos ||
                        renderer.find("softpipe") != std::string::npos ||
                        renderer.find("swrast") != std::string::npos;

  const CliResult chosen = runMurmur("run --scene scenes/free.toml --boids 300 --steps 2");
  ASSERT_EQ(chosen.exitCode, 0) << chosen.err;
  if (software) {
    EXPECT_NE(chosen.out.find("backend cpu"), std::string::npos) << chosen.out;
    EXPECT_NE(chosen.err.find("backend cpu: the GL device is a software renderer (" + renderer),
              std::string::npos)
        << chosen.err;
  } else {
    EXPECT_NE(chosen.out.find("backend gpu"), std::string::npos) << chosen.out;
    EXPECT_NE(chosen.err.find("backend gpu: a hardware GL device (" + renderer), std::string::npos)
        << chosen.err;
  }
}

// A scene copied out of the repository finds its map in the data directory; a missing map names
// the scene's directory, --data-dir and MURMUR_DATA_DIR, in that order.
TEST(CliOutput, SceneDataIsSearchedBesideTheSceneThenInTheDataDirectories) {
  const fs::path dir = scratchDir("data_dir");
  fs::copy_file(fs::path(MURMUR_SOURCE_DIR) / "scenes/maze2d.toml", dir / "maze2d.toml");
  const CliResult copied = runMurmur("run --scene " + (dir / "maze2d.toml").string() +
                                     " --steps 2 --backend cpu --data-dir " MURMUR_MAPS_DIR);
  EXPECT_EQ(copied.exitCode, 0) << copied.err;

  std::string text = readFile(dir / "maze2d.toml");
  const std::string map = "map = \"maps/rooms-65-81.map\"";
  ASSERT_NE(text.find(map), std::string::npos);
  text.replace(text.find(map), map.size(), "map = \"maps/no-such.map\"");
  std::ofstream(dir / "missing.toml") << text;
  const ScopedEnv env("MURMUR_DATA_DIR", "/from/the/environment");
  const CliResult missing = runMurmur("run --scene " + (dir / "missing.toml").string() +
                                      " --steps 2 --backend cpu --data-dir /given/on/the/command/line");
  EXPECT_EQ(missing.exitCode, 2);
  EXPECT_EQ(countLines(missing.err), 1u) << missing.err;
  const std::size_t beside = missing.err.find((dir / "maps/no-such.map").string());
  const std::size_t given = missing.err.find("/given/on/the/command/line/maps/no-such.map");
  const std::size_t environment = missing.err.find("/from/the/environment/maps/no-such.map");
  EXPECT_NE(beside, std::string::npos) << missing.err;
  EXPECT_NE(given, std::string::npos) << missing.err;
  EXPECT_NE(environment, std::string::npos) << missing.err;
  EXPECT_LT(beside, given);
  EXPECT_LT(given, environment);
}

}  // namespace
}  // namespace murmur::test
