// What the command line prints and where: --json keeps stdout pure JSON, bare `murmur` lists the
// commands, the default backend says which it chose and why, and a scene's data is found through the
// search path (the error naming every place tried).
#include <gtest/gtest.h>

#include <cstdlib>
#include <fstream>
#include <string>

#include <nlohmann/json.hpp>

#include "brute_force_leaders.hpp"
#include "cli.hpp"
#include "sim/scene_loader.hpp"
#include "sim/state_csv.hpp"

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

// run --json reports each group's emergent leaders of the last step: those of the rule applied by
// brute force to the state that step read (the dump of a run one step shorter).
TEST(CliOutput, RunJsonReportsTheLeadersOfEachGroup) {
  const fs::path dump = scratchDir("run_leaders") / "before.csv";
  const std::string common = "run --scene scenes/predator.toml --boids 900 --backend cpu";
  const CliResult before = runMurmur(common + " --steps 19 --dump '" + dump.string() + "'");
  ASSERT_EQ(before.exitCode, 0) << before.err;
  const CliResult r = runMurmur(common + " --steps 20 --json");
  ASSERT_EQ(r.exitCode, 0) << r.err;
  const sim::Scene scene = sim::loadScene(std::string(MURMUR_SOURCE_DIR) + "/scenes/predator.toml");
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
  EXPECT_NE(r.err.find("leaders per group:"), std::string::npos) << r.err;
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
    EXPECT_NE(r.out.find(std::string("\n  ") + command + " "), std::string::npos) << command << ":\n" << r.out;
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
    EXPECT_NE(chosen.err.find("backend gpu: a hardware GL device (" + renderer), std::string::npos) << chosen.err;
  }
}

// A scene copied out of the repository finds its map in the data directory; a missing map names
// the scene's directory, --data-dir and MURMUR_DATA_DIR, in that order.
TEST(CliOutput, SceneDataIsSearchedBesideTheSceneThenInTheDataDirectories) {
  const fs::path dir = scratchDir("data_dir");
  fs::copy_file(fs::path(MURMUR_SOURCE_DIR) / "scenes/maze2d.toml", dir / "maze2d.toml");
  const CliResult copied = runMurmur("run --scene " + (dir / "maze2d.toml").string() +
                                     " --steps 2 --backend cpu --data-dir " MURMUR_DATA_DIR);
  EXPECT_EQ(copied.exitCode, 0) << copied.err;

  std::string text = readFile(dir / "maze2d.toml");
  const std::string map = "movingai/den312d.map";
  ASSERT_NE(text.find(map), std::string::npos);
  text.replace(text.find(map), map.size(), "movingai/no-such.map");
  std::ofstream(dir / "missing.toml") << text;
  const ScopedEnv env("MURMUR_DATA_DIR", "/from/the/environment");
  const CliResult missing = runMurmur("run --scene " + (dir / "missing.toml").string() +
                                      " --steps 2 --backend cpu --data-dir /given/on/the/command/line");
  EXPECT_EQ(missing.exitCode, 2);
  EXPECT_EQ(countLines(missing.err), 1u) << missing.err;
  const std::size_t beside = missing.err.find((dir / "movingai/no-such.map").string());
  const std::size_t given = missing.err.find("/given/on/the/command/line/movingai/no-such.map");
  const std::size_t environment = missing.err.find("/from/the/environment/movingai/no-such.map");
  EXPECT_NE(beside, std::string::npos) << missing.err;
  EXPECT_NE(given, std::string::npos) << missing.err;
  EXPECT_NE(environment, std::string::npos) << missing.err;
  EXPECT_LT(beside, given);
  EXPECT_LT(given, environment);
}

}  // namespace
}  // namespace murmur::test
