// MovingAI map and scenario loaders: what parses, and one-line errors with the right line.
#include <filesystem>
#include <sstream>
#include <string>

#include <gtest/gtest.h>

#include "ai/movingai.hpp"
#include "ai/nav.hpp"
#include "core/error.hpp"
#include "movingai_data.hpp"

namespace murmur::ai {
namespace {

const std::filesystem::path kData = test::movingAiDir();

GridMap parseMap(const std::string& text) {
  std::istringstream in(text);
  return parseMovingAiMap(in, "test.map");
}

// The error parsing text gives; fails the test when it parses.
InputError mapError(const std::string& text) {
  try {
    parseMap(text);
  } catch (const InputError& error) {
    return error;
  }
  ADD_FAILURE() << "parsed without error:\n" << text;
  return InputError("", 0, "", "none");
}

InputError scenarioError(const std::string& text) {
  try {
    std::istringstream in(text);
    parseMovingAiScenarios(in, "test.scen");
  } catch (const InputError& error) {
    return error;
  }
  ADD_FAILURE() << "parsed without error:\n" << text;
  return InputError("", 0, "", "none");
}

TEST(MovingAiMap, ParsesEveryTerrain) {
  const GridMap map = parseMap("type octile\nheight 2\nwidth 4\nmap\n.GS@\nOTW.\n");
  EXPECT_EQ(map.width(), 4);
  EXPECT_EQ(map.height(), 2);
  const bool expected[2][4] = {{true, true, true, false}, {false, false, false, true}};
  for (std::int32_t y = 0; y < 2; ++y)
    for (std::int32_t x = 0; x < 4; ++x) EXPECT_EQ(map.passable(Cell{x, y}), expected[y][x]) << x << "," << y;
  EXPECT_EQ(map.passableCount(), 4u);
  EXPECT_FALSE(map.passable(Cell{-1, 0}));
  EXPECT_FALSE(map.passable(Cell{4, 1}));
  EXPECT_FALSE(map.passable(Cell{0, 2}));
}

TEST(MovingAiMap, AcceptsCrlfWidthFirstAndTrailingBlankLines) {
  const GridMap map = parseMap("type octile\r\nwidth 3\r\nheight 1\r\nmap\r\n.@.\r\n\r\n\n");
  EXPECT_EQ(map.width(), 3);
  EXPECT_EQ(map.height(), 1);
  EXPECT_TRUE(map.passable(Cell{2, 0}));
  EXPECT_FALSE(map.passable(Cell{1, 0}));
}

TEST(MovingAiMap, BadHeaderNamesItsLine) {
  InputError error = mapError("type hex\nheight 1\nwidth 1\nmap\n.\n");
  EXPECT_EQ(error.line(), 1u);
  EXPECT_EQ(error.key(), "type");
  EXPECT_EQ(error.file(), "test.map");

  error = mapError("type octile\nheight -3\nwidth 1\nmap\n.\n");
  EXPECT_EQ(error.line(), 2u);
  EXPECT_EQ(error.key(), "height");

  error = mapError("type octile\nheight 1\nwidth x\nmap\n.\n");
  EXPECT_EQ(error.line(), 3u);
  EXPECT_EQ(error.key(), "width");

  error = mapError("type octile\nheight 1\nheight 1\nmap\n.\n");
  EXPECT_EQ(error.line(), 3u);

  error = mapError("type octile\nheight 1\nwidth 1\nmaps\n.\n");
  EXPECT_EQ(error.line(), 4u);
  EXPECT_EQ(error.key(), "map");

  error = mapError("");
  EXPECT_EQ(error.line(), 1u);
}

TEST(MovingAiMap, WrongRowLengthNamesItsLine) {
  const InputError error = mapError("type octile\nheight 3\nwidth 4\nmap\n....\n...\n....\n");
  EXPECT_EQ(error.line(), 6u);
  EXPECT_NE(std::string(error.what()).find("test.map:6:"), std::string::npos) << error.what();
  EXPECT_NE(std::string(error.what()).find("3 characters, expected 4"), std::string::npos) << error.what();
}

TEST(MovingAiMap, BadCharacterNamesLineAndColumn) {
  const InputError error = mapError("type octile\nheight 2\nwidth 4\nmap\n....\n..x.\n");
  EXPECT_EQ(error.line(), 6u);
  EXPECT_NE(std::string(error.what()).find("'x' at column 3"), std::string::npos) << error.what();
}

TEST(MovingAiMap, MissingRowsAndExtraText) {
  InputError error = mapError("type octile\nheight 3\nwidth 2\nmap\n..\n..\n");
  EXPECT_EQ(error.line(), 7u);  // the missing third row
  error = mapError("type octile\nheight 1\nwidth 2\nmap\n..\n..\n");
  EXPECT_EQ(error.line(), 6u);
}

TEST(MovingAiMap, ErrorsAreOneLine) {
  const InputError error = mapError("type octile\nheight 1\nwidth 2\nmap\n.\t\n");
  EXPECT_EQ(std::string(error.what()).find('\n'), std::string::npos) << error.what();
  EXPECT_NE(std::string(error.what()).find("0x09"), std::string::npos) << error.what();
}

TEST(MovingAiMap, MissingFile) {
  EXPECT_THROW(loadMovingAiMap(kData / "no-such.map"), InputError);
}

TEST(MovingAiMap, LoadsDataMap) {
  const GridMap map = loadMovingAiMap(kData / "den312d.map");
  EXPECT_EQ(map.width(), 65);
  EXPECT_EQ(map.height(), 81);
  EXPECT_EQ(map.passableCount(), 2445u);  // its '.' cells
}

TEST(MovingAiScenario, Parses) {
  std::istringstream in("version 1\n3\tmaps/x.map\t8\t4\t1\t2\t7\t3\t6.41421356\n\n0 x.map 8 4 0 0 0 0 0\n");
  const std::vector<Scenario> scenarios = parseMovingAiScenarios(in, "test.scen");
  ASSERT_EQ(scenarios.size(), 2u);
  EXPECT_EQ(scenarios[0].bucket, 3u);
  EXPECT_EQ(scenarios[0].map, "maps/x.map");
  EXPECT_EQ(scenarios[0].mapWidth, 8);
  EXPECT_EQ(scenarios[0].mapHeight, 4);
  EXPECT_EQ(scenarios[0].start, (Cell{1, 2}));
  EXPECT_EQ(scenarios[0].goal, (Cell{7, 3}));
  EXPECT_DOUBLE_EQ(scenarios[0].optimalLength, 6.41421356);
  EXPECT_EQ(scenarios[0].line, 2u);
  EXPECT_EQ(scenarios[1].line, 4u);
}

TEST(MovingAiScenario, Errors) {
  InputError error = scenarioError("version 2\n");
  EXPECT_EQ(error.line(), 1u);
  EXPECT_EQ(error.key(), "version");
  error = scenarioError("version 1\n0 x.map 8 4 1 2 7 3\n");
  EXPECT_EQ(error.line(), 2u);
  error = scenarioError("version 1\n0 x.map 8 4 1 2 7 3 1\n0 x.map 8 4 8 2 7 3 1\n");
  EXPECT_EQ(error.line(), 3u);
  EXPECT_EQ(error.key(), "start x");  // 8 is outside a width of 8
  error = scenarioError("version 1\n0 x.map 8 4 1 2 7 3 -1\n");
  EXPECT_EQ(error.key(), "optimal length");
  EXPECT_THROW(loadMovingAiScenarios(kData / "no-such.scen"), InputError);
}

TEST(MovingAiScenario, FindsTheMapBesideTheScenarioFile) {
  // The row names the map by its place in the benchmark set; the file lies beside the scenario file.
  EXPECT_EQ(findScenarioMap(kData / "arena.map.scen", "maps/dao/arena.map"), kData / "arena.map");
  EXPECT_EQ(findScenarioMap(kData / "den312d-random-1.scen", "den312d.map"), kData / "den312d.map");
  EXPECT_TRUE(findScenarioMap(kData / "den312d-random-1.scen", "nowhere.map").empty());
}

// The one optimum check (murmur path --scen, the A* benchmarks, the scenario tests): within 1e-3 of
// the file's length, and for a search only a found path.
TEST(MovingAiScenario, OptimalLengthIsWithinATolerance) {
  Scenario scenario;
  scenario.optimalLength = 6.41421356;
  EXPECT_TRUE(isOptimalLength(scenario, 6.41421356));
  EXPECT_TRUE(isOptimalLength(scenario, 6.4152));   // 0.00099 longer
  EXPECT_FALSE(isOptimalLength(scenario, 6.4153));  // 0.00109 longer
  EXPECT_FALSE(isOptimalLength(scenario, 6.4131));  // 0.00111 shorter
  PathResult found;
  found.status = PathStatus::Found;
  found.length = 6.41421356;
  EXPECT_TRUE(isOptimalPath(scenario, found));
  PathResult cut = found;
  cut.status = PathStatus::BudgetExhausted;
  EXPECT_FALSE(isOptimalPath(scenario, cut));
  // start == goal: length 0 is optimal only when a path was found.
  scenario.optimalLength = 0.0;
  PathResult none;
  EXPECT_FALSE(isOptimalPath(scenario, none));
  found.length = 0.0;
  EXPECT_TRUE(isOptimalPath(scenario, found));
}

}  // namespace
}  // namespace murmur::ai
