// A* against a brute-force Dijkstra on random grids, path validity, statuses and options.
#include <cmath>
#include <filesystem>
#include <limits>
#include <numbers>
#include <ostream>
#include <queue>
#include <random>
#include <stdexcept>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "ai/movingai.hpp"
#include "ai/nav.hpp"
#include "random_map.hpp"

namespace murmur::ai {
namespace {

using test::randomMap;

constexpr double kInfinity = std::numeric_limits<double>::infinity();

// Textbook Dijkstra over all cells, same move rules as the search under test: distances from start.
std::vector<double> dijkstra(const GridMap& map, Cell start, Connectivity connectivity) {
  const auto index = [&](Cell cell) { return static_cast<std::size_t>(cell.y * map.width() + cell.x); };
  std::vector<double> distance(static_cast<std::size_t>(map.width() * map.height()), kInfinity);
  if (!map.passable(start)) return distance;
  using Item = std::pair<double, std::size_t>;
  std::priority_queue<Item, std::vector<Item>, std::greater<>> queue;
  distance[index(start)] = 0.0;
  queue.emplace(0.0, index(start));
  while (!queue.empty()) {
    auto [d, i] = queue.top();
    queue.pop();
    if (d > distance[i]) continue;
    const Cell cell{static_cast<std::int32_t>(i) % map.width(), static_cast<std::int32_t>(i) / map.width()};
    for (std::int32_t dy = -1; dy <= 1; ++dy) {
      for (std::int32_t dx = -1; dx <= 1; ++dx) {
        if (dx == 0 && dy == 0) continue;
        const bool diagonal = dx != 0 && dy != 0;
        if (diagonal && connectivity == Connectivity::Four) continue;
        const Cell next{cell.x + dx, cell.y + dy};
        if (!map.passable(next)) continue;
        if (diagonal &&
            (!map.passable(Cell{cell.x + dx, cell.y}) || !map.passable(Cell{cell.x, cell.y + dy})))
          continue;
        const double nd = d + (diagonal ? std::numbers::sqrt2 : 1.0);
        if (nd < distance[index(next)]) {
          distance[index(next)] = nd;
          queue.emplace(nd, index(next));
        }
      }
    }
  }
  return distance;
}

// Returns a failure message, or "" when path is a valid path from start to goal under the rules.
std::string pathProblem(const GridMap& map, const std::vector<Cell>& path, Cell start,
                        Connectivity connectivity) {
  if (path.empty()) return "empty path";
  if (path.front() != start) return "does not begin at the start";
  for (std::size_t i = 0; i < path.size(); ++i) {
    if (!map.passable(path[i])) return "blocked cell " + std::to_string(i);
    if (i == 0) continue;
    const std::int32_t dx = path[i].x - path[i - 1].x;
    const std::int32_t dy = path[i].y - path[i - 1].y;
    if (std::abs(dx) > 1 || std::abs(dy) > 1 || (dx == 0 && dy == 0))
      return "not adjacent at " + std::to_string(i);
    if (dx != 0 && dy != 0) {
      if (connectivity == Connectivity::Four) return "diagonal step in a 4-connected path";
      if (!map.passable(Cell{path[i - 1].x + dx, path[i - 1].y}) ||
          !map.passable(Cell{path[i - 1].x, path[i - 1].y + dy}))
        return "corner cut at " + std::to_string(i);
    }
  }
  return "";
}

struct RandomCase {
  Connectivity connectivity;
  Heuristic heuristic;
};
// "FourManhattan", "EightOctile", ...: the case's test name, and how gtest lists it (ctest -N,
// failures) rather than by its bytes.
std::string describeCase(const RandomCase& param) {
  const char* heuristics[] = {"Manhattan", "Octile", "Euclidean"};
  return std::string(param.connectivity == Connectivity::Four ? "Four" : "Eight") +
         heuristics[static_cast<int>(param.heuristic)];
}
void PrintTo(const RandomCase& param, std::ostream* out) {
  *out << describeCase(param);
}

class AStarVersusDijkstra : public ::testing::TestWithParam<RandomCase> {};

TEST_P(AStarVersusDijkstra, SameLengthsAndReachability) {
  const RandomCase param = GetParam();
  std::mt19937 random(1234 + static_cast<unsigned>(param.connectivity) * 10 +
                      static_cast<unsigned>(param.heuristic));
  SearchOptions options;
  options.connectivity = param.connectivity;
  options.heuristic = param.heuristic;
  std::size_t found = 0;
  std::size_t noPath = 0;
  for (double density : {0.0, 0.1, 0.25, 0.35, 0.45}) {
    for (int mapIndex = 0; mapIndex < 4; ++mapIndex) {
      std::uniform_int_distribution<std::int32_t> side(1, 40);
      GridMap map = randomMap(random, side(random), side(random), density);
      PathFinder finder(map);  // one finder for all queries on a map: exercises the generation counter
      std::uniform_int_distribution<std::int32_t> column(0, map.width() - 1);
      std::uniform_int_distribution<std::int32_t> row(0, map.height() - 1);
      for (int sourceIndex = 0; sourceIndex < 6; ++sourceIndex) {
        const Cell start{column(random), row(random)};
        const std::vector<double> distance = dijkstra(map, start, param.connectivity);
        for (int query = 0; query < 25; ++query) {
          const Cell goal{column(random), row(random)};
          const double expected = distance[static_cast<std::size_t>(goal.y * map.width() + goal.x)];
          const PathResult result = finder.findPath(start, goal, options);
          SCOPED_TRACE(testing::Message()
                       << "density " << density << " map " << map.width() << "x" << map.height() << " ("
                       << start.x << "," << start.y << ") -> (" << goal.x << "," << goal.y << ")");
          if (expected == kInfinity) {
            ++noPath;
            EXPECT_EQ(result.status, PathStatus::NoPath);
            EXPECT_TRUE(result.path.empty());
            continue;
          }
          ++found;
          ASSERT_EQ(result.status, PathStatus::Found);
          EXPECT_NEAR(result.length, expected, 1e-4);
          EXPECT_EQ(pathProblem(map, result.path, start, param.connectivity), "");
          EXPECT_EQ(result.path.back(), goal);
          EXPECT_NEAR(pathLength(result.path), result.length, 1e-9);
          EXPECT_GE(result.expansions, 1u);
        }
      }
    }
  }
  // Both outcomes must really be exercised.
  EXPECT_GT(found, 500u);
  EXPECT_GT(noPath, 50u);
}

std::string caseName(const ::testing::TestParamInfo<RandomCase>& info) {
  return describeCase(info.param);
}

INSTANTIATE_TEST_SUITE_P(Rules, AStarVersusDijkstra,
                         ::testing::Values(RandomCase{Connectivity::Four, Heuristic::Manhattan},
                                           RandomCase{Connectivity::Four, Heuristic::Octile},
                                           RandomCase{Connectivity::Four, Heuristic::Euclidean},
                                           RandomCase{Connectivity::Eight, Heuristic::Octile},
                                           RandomCase{Connectivity::Eight, Heuristic::Euclidean}),
                         caseName);

TEST(GridMap, MovesFollowPassability) {
  std::mt19937 random(99);
  GridMap map = randomMap(random, 13, 9, 0.3);
  std::uniform_int_distribution<std::int32_t> column(0, map.width() - 1);
  std::uniform_int_distribution<std::int32_t> row(0, map.height() - 1);
  for (int round = 0; round < 50; ++round) {
    const Cell toggled{column(random), row(random)};
    map.setPassable(toggled, !map.passable(toggled));
    for (std::int32_t y = 0; y < map.height(); ++y) {
      for (std::int32_t x = 0; x < map.width(); ++x) {
        unsigned expected = 0;
        for (unsigned m = 0; m < 8; ++m) {
          const Move& move = kMoves[m];
          const bool diagonal = move.dx != 0 && move.dy != 0;
          if (map.passable(Cell{x + move.dx, y + move.dy}) &&
              (!diagonal || (map.passable(Cell{x + move.dx, y}) && map.passable(Cell{x, y + move.dy}))))
            expected |= 1u << m;
        }
        ASSERT_EQ(map.nodeMoves(map.nodeIndex(Cell{x, y})), expected) << x << "," << y << " round " << round;
      }
    }
  }
}

TEST(AStar, NoCornerCutting) {
  // .@
  // @.   the diagonal (0,0) -> (1,1) squeezes between two blocked cells: refused.
  GridMap map(2, 2);
  map.setPassable(Cell{1, 0}, false);
  map.setPassable(Cell{0, 1}, false);
  PathFinder finder(map);
  EXPECT_EQ(finder.findPath(Cell{0, 0}, Cell{1, 1}).status, PathStatus::NoPath);
  // One blocked side is enough to refuse the diagonal: the path goes around, length 2.
  map.setPassable(Cell{0, 1}, true);
  const PathResult result = finder.findPath(Cell{0, 0}, Cell{1, 1});
  ASSERT_EQ(result.status, PathStatus::Found);
  EXPECT_DOUBLE_EQ(result.length, 2.0);
  EXPECT_EQ(result.path, (std::vector<Cell>{{0, 0}, {0, 1}, {1, 1}}));
}

TEST(AStar, DiagonalCostsSqrt2) {
  GridMap map(5, 5);
  PathFinder finder(map);
  const PathResult result = finder.findPath(Cell{0, 0}, Cell{3, 4});
  ASSERT_EQ(result.status, PathStatus::Found);
  EXPECT_DOUBLE_EQ(result.length, 1.0 + 3.0 * std::numbers::sqrt2);
  EXPECT_EQ(result.path.size(), 5u);
  // On an open map the exact heuristic and the tie-break toward deeper nodes keep the search on the
  // path (rounding in f may let a sibling or two in).
  EXPECT_LE(result.expansions, 7u);
  const PathResult four = finder.findPath(Cell{0, 0}, Cell{3, 4}, searchOptions(Connectivity::Four));
  EXPECT_DOUBLE_EQ(four.length, 7.0);
}

TEST(AStar, StartIsGoal) {
  GridMap map(3, 3);
  PathFinder finder(map);
  const PathResult result = finder.findPath(Cell{1, 1}, Cell{1, 1});
  EXPECT_EQ(result.status, PathStatus::Found);
  EXPECT_EQ(result.path, (std::vector<Cell>{{1, 1}}));
  EXPECT_EQ(result.length, 0.0);
}

TEST(AStar, BlockedEndpointsHaveNoPath) {
  GridMap map(3, 3);
  map.setPassable(Cell{2, 2}, false);
  PathFinder finder(map);
  EXPECT_EQ(finder.findPath(Cell{0, 0}, Cell{2, 2}).status, PathStatus::NoPath);
  EXPECT_EQ(finder.findPath(Cell{2, 2}, Cell{0, 0}).status, PathStatus::NoPath);
}

TEST(AStar, PreconditionsThrow) {
  GridMap map(3, 3);
  PathFinder finder(map);
  EXPECT_THROW(finder.findPath(Cell{-1, 0}, Cell{0, 0}), std::out_of_range);
  EXPECT_THROW(finder.findPath(Cell{0, 0}, Cell{0, 3}), std::out_of_range);
  SearchOptions overestimating;
  overestimating.connectivity = Connectivity::Eight;
  overestimating.heuristic = Heuristic::Manhattan;
  EXPECT_THROW(finder.findPath(Cell{0, 0}, Cell{2, 2}, overestimating), std::invalid_argument);
  EXPECT_FALSE(isAdmissible(Heuristic::Manhattan, Connectivity::Eight));
  EXPECT_TRUE(isAdmissible(Heuristic::Octile, Connectivity::Four));
}

TEST(AStar, HeuristicValues) {
  EXPECT_DOUBLE_EQ(heuristicDistance(Heuristic::Manhattan, Cell{0, 0}, Cell{3, -4}), 7.0);
  EXPECT_DOUBLE_EQ(heuristicDistance(Heuristic::Octile, Cell{0, 0}, Cell{3, -4}),
                   1.0 + 3.0 * std::numbers::sqrt2);
  EXPECT_DOUBLE_EQ(heuristicDistance(Heuristic::Euclidean, Cell{0, 0}, Cell{3, -4}), 5.0);
  EXPECT_EQ(defaultHeuristic(Connectivity::Four), Heuristic::Manhattan);
  EXPECT_EQ(defaultHeuristic(Connectivity::Eight), Heuristic::Octile);
}

// A wall with one gap far from the straight line: start and goal are close by air, far by path.
GridMap wallWithGap() {
  GridMap map(30, 30);
  for (std::int32_t y = 0; y < 29; ++y) map.setPassable(Cell{15, y}, false);  // gap at (15, 29)
  return map;
}

TEST(AStar, BudgetExhaustedReturnsPartialPathTowardTheGoal) {
  GridMap map = wallWithGap();
  PathFinder finder(map);
  const Cell start{10, 5};
  const Cell goal{20, 5};
  const PathResult full = finder.findPath(start, goal);
  ASSERT_EQ(full.status, PathStatus::Found);

  SearchOptions options;
  options.maxExpansions = 30;
  const PathResult partial = finder.findPath(start, goal, options);
  EXPECT_EQ(partial.status, PathStatus::BudgetExhausted);
  EXPECT_EQ(partial.expansions, 30u);
  ASSERT_FALSE(partial.path.empty());
  EXPECT_EQ(pathProblem(map, partial.path, start, Connectivity::Eight), "");
  EXPECT_NEAR(pathLength(partial.path), partial.length, 1e-9);
  // It ends at a reached cell closer to the goal than the start (here: against the wall).
  const double endH = heuristicDistance(Heuristic::Octile, partial.path.back(), goal);
  EXPECT_LT(endH, heuristicDistance(Heuristic::Octile, start, goal));
  EXPECT_EQ(partial.path.back().x, 14);

  options.maxExpansions = full.expansions;  // exactly enough
  EXPECT_EQ(finder.findPath(start, goal, options).status, PathStatus::Found);
  options.maxExpansions = full.expansions - 1;
  EXPECT_EQ(finder.findPath(start, goal, options).status, PathStatus::BudgetExhausted);
}

TEST(AStar, BudgetNeverBeatsNoPath) {
  // An enclosed goal: the open list empties before the budget is spent.
  GridMap map(10, 10);
  for (std::int32_t x = 0; x < 10; ++x) map.setPassable(Cell{x, 5}, false);
  PathFinder finder(map);
  SearchOptions options;
  options.maxExpansions = 1000;
  const PathResult result = finder.findPath(Cell{0, 0}, Cell{0, 9}, options);
  EXPECT_EQ(result.status, PathStatus::NoPath);
  EXPECT_EQ(result.expansions, 50u);  // every cell on the start's side
}

TEST(AStar, MaxLengthBoundsTheSearch) {
  GridMap map = wallWithGap();
  PathFinder finder(map);
  const PathResult full = finder.findPath(Cell{10, 5}, Cell{20, 5});
  ASSERT_EQ(full.status, PathStatus::Found);
  SearchOptions options;
  options.maxLength = full.length;
  EXPECT_EQ(finder.findPath(Cell{10, 5}, Cell{20, 5}, options).status, PathStatus::Found);
  options.maxLength = full.length - 0.01;
  const PathResult bounded = finder.findPath(Cell{10, 5}, Cell{20, 5}, options);
  EXPECT_EQ(bounded.status, PathStatus::NoPath);
  EXPECT_LT(bounded.expansions, full.expansions);
  options.maxLength = 9.0;  // shorter than the straight line: nothing is expanded
  EXPECT_EQ(finder.findPath(Cell{10, 5}, Cell{20, 5}, options).expansions, 0u);
}

TEST(AStar, MapChangesBetweenQueries) {
  GridMap map(8, 1);
  PathFinder finder(map);
  EXPECT_EQ(finder.findPath(Cell{0, 0}, Cell{7, 0}).status, PathStatus::Found);
  map.setPassable(Cell{4, 0}, false);
  EXPECT_EQ(finder.findPath(Cell{0, 0}, Cell{7, 0}).status, PathStatus::NoPath);
  map = GridMap(9, 2);  // another size: the finder resizes its nodes
  const PathResult result = finder.findPath(Cell{0, 0}, Cell{8, 1});
  EXPECT_EQ(result.status, PathStatus::Found);
  EXPECT_DOUBLE_EQ(result.length, 7.0 + std::numbers::sqrt2);
}

TEST(AStar, StatusNames) {
  EXPECT_EQ(toString(PathStatus::Found), "found");
  EXPECT_EQ(toString(PathStatus::NoPath), "no-path");
  EXPECT_EQ(toString(PathStatus::BudgetExhausted), "budget-exhausted");
}

// The project's own maps (data/maps, scripts/make_maps.py): every free cell reachable from every
// other, and each scenario's optimal length (written by the generator from Murmur's A*) equal to
// the brute-force Dijkstra's, so the files are a real check and not A* agreeing with itself.
TEST(OwnMaps, ScenarioLengthsAreDijkstrasAndEveryFreeCellIsReachable) {
  const std::filesystem::path dir = std::filesystem::path(MURMUR_MAPS_DIR) / "maps";
  std::size_t files = 0;
  for (const char* name : {"rooms-65-81.map", "maze-64-64-2.map"}) {
    SCOPED_TRACE(name);
    const GridMap map = loadMovingAiMap(dir / name);
    const std::vector<Scenario> scenarios = loadMovingAiScenarios(dir / (std::string(name) + ".scen"));
    ASSERT_EQ(scenarios.size(), 100u);
    ++files;
    std::size_t free = 0;
    for (std::int32_t y = 0; y < map.height(); ++y)
      for (std::int32_t x = 0; x < map.width(); ++x) free += map.passable(Cell{x, y});
    const std::vector<double> fromFirst = dijkstra(map, scenarios.front().start, Connectivity::Eight);
    std::size_t reached = 0;
    for (const double d : fromFirst) reached += d < kInfinity;
    EXPECT_EQ(reached, free);
    for (const Scenario& scenario : scenarios) {
      EXPECT_EQ(scenario.map, name);
      EXPECT_EQ(scenario.mapWidth, map.width());
      EXPECT_EQ(scenario.mapHeight, map.height());
      const std::vector<double> distance = dijkstra(map, scenario.start, Connectivity::Eight);
      const double expected = distance[std::size_t(scenario.goal.y * map.width() + scenario.goal.x)];
      EXPECT_NEAR(scenario.optimalLength, expected, 1e-6) << "line " << scenario.line;
    }
  }
  EXPECT_EQ(files, 2u);
}

}  // namespace
}  // namespace murmur::ai
