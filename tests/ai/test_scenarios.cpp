// Every MovingAI scenario in the data directory: A* finds the file's optimal length. The data is
// third-party and lives outside the repository ($MURMUR_DATA_DIR); a missing directory is a failure,
// not a skip, so that CI cannot pass without running these.
#include <algorithm>
#include <filesystem>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "ai/movingai.hpp"
#include "ai/nav.hpp"
#include "movingai_data.hpp"

namespace murmur::ai {
namespace {

const std::filesystem::path kData = test::movingAiDir();

std::vector<std::filesystem::path> scenarioFiles() {
  std::vector<std::filesystem::path> files;
  std::error_code error;
  for (const auto& entry : std::filesystem::directory_iterator(kData, error))
    if (entry.path().extension() == ".scen") files.push_back(entry.path());
  std::sort(files.begin(), files.end());
  return files;
}

TEST(MovingAiScenarios, DataIsThere) {
  ASSERT_TRUE(std::filesystem::is_directory(kData)) << kData << " is missing (MURMUR_DATA_DIR)";
  // The six sets listed in its SOURCES.txt.
  EXPECT_GE(scenarioFiles().size(), 6u);
}

TEST(MovingAiScenarios, EveryScenarioHasItsOptimalLength) {
  const std::vector<std::filesystem::path> files = scenarioFiles();
  ASSERT_FALSE(files.empty()) << "no .scen files in " << kData;
  std::size_t total = 0;
  for (const std::filesystem::path& file : files) {
    SCOPED_TRACE(file.filename().string());
    const std::vector<Scenario> scenarios = loadMovingAiScenarios(file);
    ASSERT_FALSE(scenarios.empty());
    struct LoadedMap {
      GridMap map;
      std::unique_ptr<PathFinder> finder;  // on map; one per map, reused across queries
    };
    std::map<std::string, LoadedMap> maps;  // by the name the rows give (node addresses are stable)
    std::size_t mismatches = 0;
    for (const Scenario& scenario : scenarios) {
      auto [slot, added] = maps.try_emplace(scenario.map);
      if (added) {
        const std::filesystem::path mapFile = findScenarioMap(file, scenario.map);
        ASSERT_FALSE(mapFile.empty()) << "map " << scenario.map << " not found beside " << file;
        slot->second.map = loadMovingAiMap(mapFile);
        slot->second.finder = std::make_unique<PathFinder>(slot->second.map);
      }
      const GridMap& map = slot->second.map;
      ASSERT_EQ(map.width(), scenario.mapWidth);
      ASSERT_EQ(map.height(), scenario.mapHeight);
      const PathResult result =
          slot->second.finder->findPath(scenario.start, scenario.goal, searchOptions(Connectivity::Eight));
      if (!isOptimalPath(scenario, result)) {
        ++mismatches;
        ADD_FAILURE() << "line " << scenario.line << ": " << toString(result.status) << " length "
                      << result.length << ", expected " << scenario.optimalLength;
      }
      ++total;
    }
    EXPECT_EQ(mismatches, 0u);
  }
  EXPECT_GE(total, 3834u);  // 160 + 333 + 341 + 1000 + 1000 + 1000
}

}  // namespace
}  // namespace murmur::ai
