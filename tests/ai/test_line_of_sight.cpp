// Grid line of sight (cell centres and world segments) and path smoothing, against an exact
// brute-force test: a segment is clear when it meets no blocked cell's closed square (a segment
// through a corner meets all four cells around it, which is the no-corner-cutting rule).
#include <cmath>
#include <cstdint>
#include <random>
#include <vector>

#include <gtest/gtest.h>

#include "ai/nav.hpp"
#include "random_map.hpp"
#include "sim/walls.hpp"

namespace murmur::ai {
namespace {

using test::randomMap;

// t-interval ends as fractions numerator / denominator (denominator > 0), compared exactly.
struct Fraction {
  std::int64_t numerator;
  std::int64_t denominator;
};
bool lessOrEqual(Fraction a, Fraction b) {
  return a.numerator * b.denominator <= b.numerator * a.denominator;
}

// Whether the segment between the centres of a and b meets the closed square of cell. In doubled
// coordinates centres are odd integers and cell edges even ones, so everything is exact.
bool segmentMeetsCell(Cell a, Cell b, Cell cell) {
  Fraction low{0, 1};
  Fraction high{1, 1};
  const std::int64_t from[2] = {2 * a.x + 1, 2 * a.y + 1};
  const std::int64_t delta[2] = {2 * (b.x - a.x), 2 * (b.y - a.y)};
  const std::int64_t edge[2] = {2 * cell.x, 2 * cell.y};
  for (int axis = 0; axis < 2; ++axis) {
    const std::int64_t lo = edge[axis] - from[axis];
    const std::int64_t hi = edge[axis] + 2 - from[axis];
    if (delta[axis] == 0) {
      if (lo > 0 || hi < 0) return false;
      continue;
    }
    Fraction enter{lo, delta[axis]};
    Fraction leave{hi, delta[axis]};
    if (delta[axis] < 0) {
      enter = Fraction{-hi, -delta[axis]};
      leave = Fraction{-lo, -delta[axis]};
    }
    if (lessOrEqual(low, enter)) low = enter;
    if (lessOrEqual(leave, high)) high = leave;
  }
  return lessOrEqual(low, high);
}

bool bruteForceLineOfSight(const GridMap& map, Cell a, Cell b) {
  for (std::int32_t y = std::min(a.y, b.y) - 1; y <= std::max(a.y, b.y) + 1; ++y)
    for (std::int32_t x = std::min(a.x, b.x) - 1; x <= std::max(a.x, b.x) + 1; ++x)
      if (!map.passable(Cell{x, y}) && segmentMeetsCell(a, b, Cell{x, y})) return false;
  return true;
}

TEST(LineOfSight, CornersAndWalls) {
  // ..@
  // .@.
  // ...
  GridMap map(3, 3);
  map.setPassable(Cell{2, 0}, false);
  map.setPassable(Cell{1, 1}, false);
  EXPECT_TRUE(lineOfSight(map, Cell{0, 0}, Cell{1, 0}));
  EXPECT_FALSE(lineOfSight(map, Cell{0, 0}, Cell{2, 2}));  // through the blocked centre
  EXPECT_FALSE(lineOfSight(map, Cell{1, 0}, Cell{2, 1}));  // between (2,0) and (1,1): corner cut
  EXPECT_FALSE(lineOfSight(map, Cell{2, 1}, Cell{1, 0}));  // and back
  EXPECT_FALSE(lineOfSight(map, Cell{0, 1}, Cell{1, 2}));  // one blocked side is enough
  EXPECT_TRUE(lineOfSight(map, Cell{0, 2}, Cell{2, 2}));
  EXPECT_TRUE(lineOfSight(map, Cell{0, 0}, Cell{0, 0}));
  EXPECT_FALSE(lineOfSight(map, Cell{2, 0}, Cell{2, 0}));  // a blocked cell sees nothing
  EXPECT_FALSE(lineOfSight(map, Cell{0, 0}, Cell{0, 3}));  // outside the map blocks
}

TEST(LineOfSight, EqualsTheExactTest) {
  std::mt19937 random(7);
  std::size_t clear = 0;
  std::size_t blocked = 0;
  for (double density : {0.05, 0.2, 0.4}) {
    const GridMap map = randomMap(random, 24, 17, density);
    std::uniform_int_distribution<std::int32_t> column(0, map.width() - 1);
    std::uniform_int_distribution<std::int32_t> row(0, map.height() - 1);
    for (int i = 0; i < 3000; ++i) {
      const Cell a{column(random), row(random)};
      const Cell b{column(random), row(random)};
      const bool expected = bruteForceLineOfSight(map, a, b);
      ASSERT_EQ(lineOfSight(map, a, b), expected)
          << "(" << a.x << "," << a.y << ") -> (" << b.x << "," << b.y << ") density " << density;
      ASSERT_EQ(lineOfSight(map, b, a), expected);
      (expected ? clear : blocked) += 1;
    }
    // Exact diagonals go through corners: exercise those specifically.
    for (int i = 0; i < 2000; ++i) {
      const Cell a{column(random), row(random)};
      const std::int32_t run = column(random) % 6;
      const Cell b{a.x + run * (i % 2 ? 1 : -1), a.y + run * (i % 3 ? 1 : -1)};
      ASSERT_EQ(lineOfSight(map, a, b), bruteForceLineOfSight(map, a, b))
          << "(" << a.x << "," << a.y << ") -> (" << b.x << "," << b.y << ")";
    }
  }
  EXPECT_GT(clear, 1000u);
  EXPECT_GT(blocked, 1000u);
}

TEST(SmoothPath, NeverCrossesABlockedCellAndNeverGrows) {
  std::mt19937 random(11);
  std::size_t shortened = 0;
  for (double density : {0.1, 0.25, 0.35}) {
    for (int mapIndex = 0; mapIndex < 5; ++mapIndex) {
      const GridMap map = randomMap(random, 40, 30, density);
      PathFinder finder(map);
      std::uniform_int_distribution<std::int32_t> column(0, map.width() - 1);
      std::uniform_int_distribution<std::int32_t> row(0, map.height() - 1);
      for (int query = 0; query < 60; ++query) {
        const Cell start{column(random), row(random)};
        const Cell goal{column(random), row(random)};
        const PathResult result = finder.findPath(start, goal);
        if (result.status != PathStatus::Found) continue;
        const std::vector<Cell> smooth = smoothPath(map, result.path);
        ASSERT_GE(smooth.size(), 1u);
        EXPECT_EQ(smooth.front(), start);
        EXPECT_EQ(smooth.back(), goal);
        EXPECT_LE(smooth.size(), result.path.size());
        for (std::size_t i = 1; i < smooth.size(); ++i)
          ASSERT_TRUE(bruteForceLineOfSight(map, smooth[i - 1], smooth[i]))
              << "segment " << i << " (" << smooth[i - 1].x << "," << smooth[i - 1].y << ") -> ("
              << smooth[i].x << "," << smooth[i].y << ")";
        const double smoothLength = pathLength(smooth);
        EXPECT_LE(smoothLength, result.length + 1e-9);
        if (smoothLength < result.length - 1e-6) ++shortened;
      }
    }
  }
  EXPECT_GT(shortened, 100u);  // smoothing does something
}

TEST(SmoothPath, ShortPathsAreKept) {
  GridMap map(3, 3);
  EXPECT_TRUE(smoothPath(map, {}).empty());
  EXPECT_EQ(smoothPath(map, {{1, 1}}), (std::vector<Cell>{{1, 1}}));
  EXPECT_EQ(smoothPath(map, {{0, 0}, {1, 1}, {2, 2}}), (std::vector<Cell>{{0, 0}, {2, 2}}));
}

TEST(GridPlacement, CellsAndCentres) {
  const GridPlacement placement{glm::vec2(-10.0f, 4.0f), 2.0f};
  EXPECT_EQ(cellAt(placement, glm::vec3(-10.0f, 7.0f, 4.0f)), (Cell{0, 0}));
  EXPECT_EQ(cellAt(placement, glm::vec3(-7.5f, 0.0f, 9.9f)), (Cell{1, 2}));
  EXPECT_EQ(cellAt(placement, glm::vec3(-10.5f, 0.0f, 3.0f)), (Cell{-1, -1}));
  EXPECT_EQ(cellAt(placement, glm::vec3(1e30f, 0.0f, -1e30f)).x,
            GridMap::kMaxSide + 2);  // clamped, still outside
  const glm::vec3 centre = centerOf(placement, Cell{1, 2}, 3.0f);
  EXPECT_FLOAT_EQ(centre.x, -7.0f);
  EXPECT_FLOAT_EQ(centre.y, 3.0f);
  EXPECT_FLOAT_EQ(centre.z, 9.0f);
}

// The navigation grid and the boids' walls (sim::WallGrid, mirrored by Rules.glsl) place cells by one
// rule: for points on and around cell edges of an awkward placement, the same cell.
TEST(GridPlacement, NavigationAndWallsAgreeOnEveryCell) {
  sim::WallGrid walls;
  static_cast<GridPlacement&>(walls) = GridPlacement{glm::vec2(-13.7f, 5.3f), 0.7f};
  walls.width = 40;
  walls.height = 30;
  std::mt19937 random(5);
  std::uniform_real_distribution<float> jitter(-1e-5f, 1e-5f);
  std::size_t inside = 0;
  for (int j = -2; j <= 32; ++j) {
    for (int i = -2; i <= 42; ++i) {
      // The cell's corner (a float edge, where rounding decides) and a point jittered around it.
      const glm::vec3 corner = walls.centreOf(float(i) - 0.5f, float(j) - 0.5f, 2.0f);
      for (const glm::vec3& p : {corner, corner + glm::vec3(jitter(random), 0.0f, jitter(random))}) {
        const Cell cell = cellAt(walls, p);
        const std::int64_t wallCell = walls.cellAt(p);
        const bool onGrid = cell.x >= 0 && cell.y >= 0 && cell.x < 40 && cell.y < 30;
        ASSERT_EQ(wallCell, onGrid ? std::int64_t(cell.y) * 40 + cell.x : -1) << p.x << ", " << p.z;
        inside += onGrid ? 1 : 0;
      }
    }
  }
  EXPECT_GT(inside, 2000u);
}

// Whether the world segment (in grid units, placement at the origin with cell size 1) meets the
// inside of a blocked cell, by dense sampling: an independent check for random, non-degenerate segments.
bool sampledClear(const GridMap& map, glm::vec2 a, glm::vec2 b) {
  const int samples = 4000;
  for (int i = 0; i <= samples; ++i) {
    const glm::vec2 p = a + (b - a) * (float(i) / float(samples));
    if (!map.passable(
            Cell{static_cast<std::int32_t>(std::floor(p.x)), static_cast<std::int32_t>(std::floor(p.y))}))
      return false;
  }
  return true;
}

TEST(SegmentClear, AgreesWithSamplingAndIsNeverOptimistic) {
  std::mt19937 random(3);
  const GridMap map = randomMap(random, 20, 20, 0.2);
  const GridPlacement placement;  // origin 0, cell size 1: world x, z are grid units
  std::uniform_real_distribution<float> coordinate(0.0f, 20.0f);
  std::size_t disagreements = 0;
  for (int i = 0; i < 3000; ++i) {
    const glm::vec2 a(coordinate(random), coordinate(random));
    const glm::vec2 b(coordinate(random), coordinate(random));
    const bool clear = segmentClear(map, placement, glm::vec3(a.x, 1.0f, a.y), glm::vec3(b.x, -5.0f, b.y));
    const bool sampled = sampledClear(map, a, b);
    if (clear) {
      ASSERT_TRUE(sampled) << a.x << "," << a.y << " -> " << b.x << "," << b.y;
    }
    if (clear != sampled) ++disagreements;  // sampling can step over a cell's tip
  }
  EXPECT_LT(disagreements, 15u);
}

TEST(SegmentClear, CornersAndPlacement) {
  GridMap map(3, 3);
  map.setPassable(Cell{1, 0}, false);
  map.setPassable(Cell{0, 1}, false);
  const GridPlacement placement{glm::vec2(100.0f, -50.0f), 4.0f};
  const auto world = [&](float u, float v) { return glm::vec3(100.0f + 4.0f * u, 0.0f, -50.0f + 4.0f * v); };
  // Exactly through the corner between the two blocked cells.
  EXPECT_FALSE(segmentClear(map, placement, world(0.5f, 0.5f), world(1.5f, 1.5f)));
  EXPECT_TRUE(segmentClear(map, placement, world(1.5f, 1.5f), world(2.5f, 2.5f)));
  EXPECT_TRUE(segmentClear(map, placement, world(2.5f, 0.5f), world(2.5f, 2.9f)));
  EXPECT_FALSE(segmentClear(map, placement, world(2.5f, 0.5f), world(0.5f, 0.5f)));
  EXPECT_FALSE(segmentClear(map, placement, world(2.5f, 2.5f), world(3.5f, 2.5f)));  // leaves the map
}

}  // namespace
}  // namespace murmur::ai
