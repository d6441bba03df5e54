// Scenes and maps found the way users type them: a shipped scene by name or by its scenes/ path from
// any working directory, `murmur scenes` listing them, `path --map` and `--scen` searching the data
// directories (share/murmur/data beside murmur holds the project's maps), and one-line errors
// naming every place tried.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>
#include <string>

#include <nlohmann/json.hpp>

#include "cli.hpp"

namespace murmur::test {
namespace {

namespace fs = std::filesystem;

// A working directory far from the source tree and the build tree, one per test (CTest runs them in
// parallel).
fs::path elsewhere() {
  return scratchDir(std::string("scene_lookup_") +
                    ::testing::UnitTest::GetInstance()->current_test_info()->name());
}

TEST(SceneLookup, ScenesListsEveryShippedSceneOnOneLine) {
  const CliResult r = runMurmurIn(elsewhere(), "scenes");
  ASSERT_EQ(r.exitCode, 0) << r.err;
  std::set<std::string> shipped;
  for (const auto& entry : fs::directory_iterator(fs::path(MURMUR_SOURCE_DIR) / "scenes"))
    if (entry.path().extension() == ".toml") shipped.insert(entry.path().stem().string());
  std::set<std::string> listed;
  std::istringstream lines(r.out);
  for (std::string line; std::getline(lines, line);) {
    const std::string name = line.substr(0, line.find(' '));
    listed.insert(name);
    // The name, then what the scene shows (its comment's first sentence).
    EXPECT_GT(line.size(), name.size() + 5) << line;
  }
  EXPECT_EQ(listed, shipped);
  EXPECT_EQ(countLines(r.out), shipped.size());
  // The summaries in one column, after the longest name.
  EXPECT_NE(r.out.find("maze2d      A map world\n"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("murmuration A murmuration\n"), std::string::npos) << r.out;
}

TEST(SceneLookup, AShippedSceneRunsByNameAndByItsPathFromAnotherDirectory) {
  const ScopedEnv noData("MURMUR_DATA_DIR", std::nullopt);
  for (const std::string scene : {"maze2d", "maze2d.toml", "scenes/maze2d.toml"}) {
    SCOPED_TRACE(scene);
    const CliResult r = runMurmurIn(elsewhere(), "run --scene " + scene + " --steps 2 --backend cpu --json");
    ASSERT_EQ(r.exitCode, 0) << r.err;
    const nlohmann::json json = nlohmann::json::parse(r.out);
    // The shipped file, found beside murmur (build/share/murmur/scenes), with its own map.
    EXPECT_EQ(fs::path(json.at("scene").get<std::string>()).filename(), "maze2d.toml");
    EXPECT_NE(json.at("scene").get<std::string>().find("share/murmur/scenes"), std::string::npos) << r.out;
  }
}

// The commands load a scene with the sections of every module besides sim's (session/scene_sections.hpp):
// every shipped scene runs, [render] is accepted beside ai's sections, and a misspelt section is
// refused at its line, listing them all.
TEST(SceneLookup, EveryShippedSceneRunsAndEveryModulesSectionIsAccepted) {
  for (const auto& entry : fs::directory_iterator(fs::path(MURMUR_SOURCE_DIR) / "scenes")) {
    if (entry.path().extension() != ".toml") continue;
    const std::string name = entry.path().stem().string();
    const CliResult r =
        runMurmurIn(elsewhere(), "run --scene " + name + " --boids 100 --steps 2 --backend cpu");
    EXPECT_EQ(r.exitCode, 0) << name << ": " << r.err;
  }
  const fs::path dir = elsewhere();
  const std::string predator = readFile(fs::path(MURMUR_SOURCE_DIR) / "scenes/predator.toml");
  std::ofstream(dir / "viewed.toml") << predator << "[render]\ncolour = \"speed\"\n";
  const CliResult viewed = runMurmurIn(dir, "run --scene viewed.toml --boids 100 --steps 2 --backend cpu");
  EXPECT_EQ(viewed.exitCode, 0) << viewed.err;
  std::ofstream(dir / "misspelt.toml") << predator << "[rendr]\ncolour = \"speed\"\n";
  const CliResult misspelt =
      runMurmurIn(dir, "run --scene misspelt.toml --boids 100 --steps 2 --backend cpu");
  EXPECT_EQ(misspelt.exitCode, 2);
  const std::string line = std::to_string(std::count(predator.begin(), predator.end(), '\n') + 1);
  EXPECT_NE(misspelt.err.find("misspelt.toml:" + line + ": rendr: unknown section (accepted: world, sim,"),
            std::string::npos)
      << misspelt.err;
  EXPECT_NE(misspelt.err.find(", groups, navigation, agents, render)"), std::string::npos) << misspelt.err;
}

TEST(SceneLookup, AFileInTheWorkingDirectoryComesFirst) {
  const fs::path dir = elsewhere();
  fs::create_directories(dir / "scenes");
  // A local maze2d.toml with another boid count shadows the shipped one.
  std::string text = readFile(fs::path(MURMUR_SOURCE_DIR) / "scenes/wrap2d.toml");
  std::ofstream(dir / "scenes/maze2d.toml") << text;
  const CliResult r = runMurmurIn(dir, "run --scene scenes/maze2d.toml --steps 1 --backend cpu --json");
  ASSERT_EQ(r.exitCode, 0) << r.err;
  EXPECT_EQ(nlohmann::json::parse(r.out).at("scene"), "scenes/maze2d.toml");
}

TEST(SceneLookup, AnUnknownSceneIsOneLineNamingThePlacesTried) {
  const CliResult r = runMurmurIn(elsewhere(), "run --scene no-such-scene --steps 1 --backend cpu");
  EXPECT_EQ(r.exitCode, 2);
  EXPECT_EQ(countLines(r.err), 1u) << r.err;
  EXPECT_NE(r.err.find("--scene"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("share/murmur/scenes/no-such-scene.toml"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("murmur scenes"), std::string::npos) << r.err;
  EXPECT_TRUE(r.out.empty()) << r.out;
}

TEST(SceneLookup, PathFindsTheProjectsMapsInTheDataDirectories) {
  const ScopedEnv noData("MURMUR_DATA_DIR", std::nullopt);
  // Room (0, 0)'s centre to room (3, 4)'s: across the map, through doors.
  const CliResult query = runMurmurIn(elsewhere(), "path --map rooms-65-81.map --from 8,8 --to 56,72 --json");
  ASSERT_EQ(query.exitCode, 0) << query.err;
  const nlohmann::json json = nlohmann::json::parse(query.out);
  EXPECT_EQ(json.at("status"), "found");
  // No shorter than the octile distance between the cells (48 x 64: 48 diagonal + 16 straight).
  EXPECT_GE(json.at("length").get<double>(), 48 * std::sqrt(2.0) + 16 - 1e-9);
  EXPECT_NE(json.at("map").get<std::string>().find("share/murmur/data/maps/rooms-65-81.map"),
            std::string::npos);
  // The generator's scenario file checks out against Murmur's A*, found the same way.
  const CliResult scen = runMurmurIn(elsewhere(), "path --scen maze-64-64-2.map.scen --json");
  ASSERT_EQ(scen.exitCode, 0) << scen.err;
  EXPECT_EQ(nlohmann::json::parse(scen.out).at("scenarios"), 100);
  EXPECT_EQ(nlohmann::json::parse(scen.out).at("mismatches"), 0);

  const CliResult missing = runMurmurIn(elsewhere(), "path --map no-such.map --from 1,1 --to 2,2");
  EXPECT_EQ(missing.exitCode, 2);
  EXPECT_EQ(countLines(missing.err), 1u) << missing.err;
  EXPECT_NE(missing.err.find("share/murmur/data/maps/no-such.map"), std::string::npos) << missing.err;
}

}  // namespace
}  // namespace murmur::test
