// The CPU reference's building blocks for threads: the worker pool, the grid's cell order built on
// it, and the rows of cells the grid search leaves out, each against a plain serial computation
// (the vector sweep is checked on every instruction set by test_cpu_simulator's parity tests).
#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <bit>
#include <numeric>
#include <random>
#include <vector>

#include "sim/grid.hpp"
#include "sim/rules.hpp"
#include "sim/worker_pool.hpp"

namespace murmur::sim {
namespace {

TEST(WorkerPool, EveryItemRunsExactlyOnceOnAnyThreadCount) {
  for (int threads : {1, 2, 3, 8}) {
    WorkerPool pool(threads);
    EXPECT_EQ(pool.threads(), threads);
    for (std::size_t n :
         {std::size_t{0}, std::size_t{1}, std::size_t{7}, std::size_t{1000}, std::size_t{100003}}) {
      for (std::size_t chunk : {std::size_t{1}, std::size_t{64}, std::size_t{4096}}) {
        std::vector<std::atomic<int>> hits(n);
        std::atomic<std::size_t> longest{0};
        pool.forChunks(n, chunk, [&](std::size_t begin, std::size_t end) {
          for (std::size_t i = begin; i < end; ++i) hits[i].fetch_add(1);
          std::size_t seen = longest.load();
          while (end - begin > seen && !longest.compare_exchange_weak(seen, end - begin)) {
          }
        });
        // One thread runs the loop as one call; more split it into chunks.
        if (threads > 1) {
          EXPECT_LE(longest.load(), chunk);
        }
        for (std::size_t i = 0; i < n; ++i)
          ASSERT_EQ(hits[i].load(), 1) << threads << " " << n << " " << chunk << " " << i;
      }
    }
  }
}

// Many short loops back to back: a worker that wakes late for one loop must never run a chunk of
// the next as if it were the old one (the generation guards it).
TEST(WorkerPool, ManyShortLoopsInARow) {
  WorkerPool pool(3);
  std::vector<std::uint64_t> sums(20000);
  for (std::size_t loop = 0; loop < sums.size(); ++loop) {
    std::atomic<std::uint64_t> sum{0};
    pool.forChunks(64, 4, [&](std::size_t begin, std::size_t end) {
      for (std::size_t i = begin; i < end; ++i) sum.fetch_add(i + loop);
    });
    sums[loop] = sum.load();
  }
  for (std::size_t loop = 0; loop < sums.size(); ++loop)
    ASSERT_EQ(sums[loop], 64 * 63 / 2 + 64 * loop) << loop;
}

// Loops of changing sizes back to back: a worker still looking at a finished loop must not claim a
// chunk past its end because the next loop, being written, has more chunks (it then ran a chunk of
// the next loop early, or with the old loop's body, whose frame was gone: the murmuration scene
// crashed once in a hundred runs).
TEST(WorkerPool, LoopsOfChangingSizesRunEachItemOnce) {
  WorkerPool pool(3);
  for (std::size_t loop = 0; loop < 200000; ++loop) {
    const std::size_t n = loop % 2 == 0 ? 8 : 64;  // 2 chunks, then 16
    std::vector<std::atomic<std::uint8_t>> runs(n);
    pool.forChunks(n, 4, [&](std::size_t begin, std::size_t end) {
      for (std::size_t i = begin; i < end; ++i) runs[i].fetch_add(1, std::memory_order_relaxed);
    });
    for (std::size_t i = 0; i < n; ++i) ASSERT_EQ(runs[i].load(), 1u) << "loop " << loop << " item " << i;
  }
}

ModelParams gridParams(int dims, Boundary boundary) {
  ModelParams params;
  params.dims = dims;
  params.boundary = boundary;
  params.worldMin = glm::vec3(-20.0f, dims == 2 ? 0.0f : -20.0f, -20.0f);
  params.worldMax = glm::vec3(20.0f, dims == 2 ? 0.0f : 20.0f, 20.0f);
  params.perceptionRadius = 3.0f;
  return params;
}

std::vector<glm::vec3> randomPositions(std::size_t n, const ModelParams& params, unsigned seed, float spill) {
  std::mt19937 rng(seed);
  std::vector<glm::vec3> positions(n);
  for (glm::vec3& p : positions)
    for (int k = 0; k < 3; ++k) {
      // Some boids a little outside the world: cellCoord clamps them into the edge cells.
      std::uniform_real_distribution<float> axis(params.worldMin[k] - spill, params.worldMax[k] + spill);
      p[k] = params.dims == 2 && k == 1 ? 0.0f : axis(rng);
    }
  return positions;
}

// The cell order of `positions` on 1, 2 and 5 threads against std::stable_sort by cell.
void expectStableSortByCell(const GridSpec& grid, const std::vector<glm::vec3>& positions) {
  std::vector<std::uint32_t> expected(positions.size());
  std::iota(expected.begin(), expected.end(), 0u);
  std::stable_sort(expected.begin(), expected.end(), [&](std::uint32_t a, std::uint32_t b) {
    return grid.cellIndex(grid.cellCoord(positions[a])) < grid.cellIndex(grid.cellCoord(positions[b]));
  });
  for (int threads : {1, 2, 5}) {
    WorkerPool pool(threads);
    CellOrder cells;
    cells.build(grid, positions, pool);
    EXPECT_EQ(cells.order, expected) << threads;
    ASSERT_EQ(cells.cellStart.size(), std::size_t(grid.cellCount()) + 1);
    EXPECT_EQ(cells.cellStart.back(), positions.size());
    for (std::uint32_t c = 0; c < grid.cellCount(); ++c)
      for (std::uint32_t s = cells.cellStart[c]; s < cells.cellStart[c + 1]; ++s) {
        ASSERT_EQ(cells.cellOf[cells.order[s]], c) << threads << " cell " << c;
        ASSERT_EQ(cells.cellOfSlot[s], c) << threads << " slot " << s;
      }
    ASSERT_EQ(cells.slotOf.size(), positions.size());
    for (std::uint32_t s = 0; s < positions.size(); ++s)
      ASSERT_EQ(cells.slotOf[cells.order[s]], s) << threads;
  }
}

// The cell order is the stable counting sort by cell (ids increasing within a cell), whatever the
// thread count; cellStart brackets each cell's ids, cellOfSlot names them; slotOf is the order's
// inverse (the CPU step gathers its results into id order through it). Flocks of no boid, one, one
// chunk of ids, a few and the most; a grid of more cells than the sort has buckets, not a multiple
// of them.
TEST(CellOrder, EqualsTheStableSortByCellOnAnyThreadCount) {
  ModelParams params = gridParams(3, Boundary::Contain);
  params.perceptionRadius = params.leaderRadius = 1.5f;  // 26^3 cells
  const GridSpec grid = makeGridSpec(params);
  ASSERT_GT(grid.cellCount(), 1u << CellOrder::kSortBucketBits);
  ASSERT_NE(std::popcount(grid.cellCount()), 1);
  for (const std::size_t n : {std::size_t{0}, std::size_t{1}, kParallelMinBoids, 3 * kParallelMinBoids + 5,
                              CellOrder::kSortChunks * kParallelMinBoids + 7}) {
    SCOPED_TRACE(n);
    expectStableSortByCell(grid, randomPositions(n, params, 7, 2.0f));
  }
}

// Positions given in another order than the ids (a flock kept in its last step's cell order, as
// sim::CpuSimulator keeps it), with their ids: each cell lists its boids by id, so that the cells'
// boids are those, in the order, of a build from id order, on any thread count. The positions
// come in the cell order of themselves moved a little (most cells in id order, some a boid or more
// out of it) and in a random order (every cell out of it).
TEST(CellOrder, FromAnotherOrderWithItsIdsEqualsTheBuildFromIdOrder) {
  ModelParams params = gridParams(3, Boundary::Contain);
  params.perceptionRadius = params.leaderRadius = 1.5f;
  const GridSpec grid = makeGridSpec(params);
  const std::vector<glm::vec3> byId = randomPositions(3 * kParallelMinBoids + 5, params, 13, 2.0f);
  WorkerPool serial(1);
  CellOrder expected;
  expected.build(grid, byId, serial);
  std::vector<glm::vec3> moved = byId;
  std::mt19937 rng(5);
  std::uniform_real_distribution<float> nudge(-0.5f, 0.5f);
  for (glm::vec3& p : moved) p += glm::vec3(nudge(rng), nudge(rng), nudge(rng));
  CellOrder before;
  before.build(grid, moved, serial);
  std::vector<std::uint32_t> shuffled(byId.size());
  std::iota(shuffled.begin(), shuffled.end(), 0u);
  std::shuffle(shuffled.begin(), shuffled.end(), rng);
  for (const std::vector<std::uint32_t>* ids : {&before.order, &shuffled}) {
    std::vector<glm::vec3> positions(byId.size());
    for (std::size_t s = 0; s < ids->size(); ++s) positions[s] = byId[(*ids)[s]];
    for (int threads : {1, 2, 5}) {
      SCOPED_TRACE(threads);
      WorkerPool pool(threads);
      CellOrder byIndex, cells;
      byIndex.build(grid, positions, pool);
      std::size_t outOfIdOrder = 0;
      for (std::size_t s = 0; s < byIndex.order.size(); ++s)
        outOfIdOrder += (*ids)[byIndex.order[s]] != expected.order[s];
      EXPECT_GT(outOfIdOrder, 0u) << "the test needs cells out of id order";
      cells.build(grid, positions, pool, *ids);
      EXPECT_EQ(cells.cellStart, expected.cellStart);
      EXPECT_EQ(cells.cellOfSlot, expected.cellOfSlot);
      for (std::size_t s = 0; s < cells.order.size(); ++s) {
        ASSERT_EQ((*ids)[cells.order[s]], expected.order[s]) << "slot " << s;
        ASSERT_EQ(cells.slotOf[cells.order[s]], s) << "slot " << s;
        ASSERT_EQ(cells.cellOf[cells.order[s]], cells.cellOfSlot[s]) << "slot " << s;
      }
    }
  }
}

// No boid within R lies in a row the grid search leaves out, and rows are left out (the test
// would otherwise pass with a RowReach that keeps everything).
TEST(RowReach, NoRowLeftOutHoldsABoidWithinReach) {
  for (const auto& [dims, boundary] :
       {std::pair{3, Boundary::Contain}, std::pair{3, Boundary::Wrap}, std::pair{2, Boundary::Contain}}) {
    const ModelParams params = gridParams(dims, boundary);
    const GridSpec grid = makeGridSpec(params);
    const float spill = boundary == Boundary::Wrap ? 0.0f : 2.0f;
    const std::vector<glm::vec3> positions = randomPositions(20000, params, 11, spill);
    WorkerPool pool(1);
    CellOrder cells;
    cells.build(grid, positions, pool);
    const float r2 = params.perceptionRadius * params.perceptionRadius;
    std::size_t leftOut = 0;
    for (std::size_t i = 0; i < positions.size(); i += 7) {
      const glm::vec3 p = positions[i];
      const glm::ivec3 home = grid.cellCoord(p);
      const RowReach reach(grid, home, p, params.perceptionRadius, dims);
      forEachNeighbourRange(
          grid, cells, home, dims, [](std::uint32_t, std::uint32_t, bool) {},
          [&](int y, int z, bool imaged) {
            if (reach(y, z, imaged)) return true;
            ++leftOut;
            for (std::uint32_t s = 0; s < positions.size(); ++s) {
              const glm::ivec3 c = grid.cellCoord(positions[s]);
              if (c.y != y || c.z != z) continue;
              glm::vec3 d = positions[s] - p;
              if (boundary == Boundary::Wrap) d = minimumImage(d, params.worldSize());
              EXPECT_GE(glm::dot(d, d), r2) << "boid " << s << " within R of boid " << i;
            }
            return false;
          });
    }
    if (dims == 3) {
      EXPECT_GT(leftOut, 0u) << "dims " << dims;
    }
  }
}

// The rows a box's RowReach leaves out (the boids of one cell swept together: sim/neighbour_sweep)
// hold no boid within R of any boid of the box, and rows are left out.
TEST(RowReach, NoRowLeftOutForABoxHoldsABoidWithinReachOfItsPoints) {
  const ModelParams params = gridParams(3, Boundary::Contain);
  const GridSpec grid = makeGridSpec(params);
  const std::vector<glm::vec3> positions = randomPositions(20000, params, 13, 2.0f);
  WorkerPool pool(1);
  CellOrder cells;
  cells.build(grid, positions, pool);
  const float r2 = params.perceptionRadius * params.perceptionRadius;
  std::size_t boxes = 0, leftOut = 0;
  for (std::uint32_t k = 0; k + 2 < positions.size(); k += 5) {
    const glm::vec3 a = positions[cells.order[k]], b = positions[cells.order[k + 1]],
                    c = positions[cells.order[k + 2]];
    const glm::ivec3 home = grid.cellCoord(a);
    if (grid.cellCoord(b) != home || grid.cellCoord(c) != home) continue;
    ++boxes;
    const RowReach reach(grid, home, glm::min(glm::min(a, b), c), glm::max(glm::max(a, b), c),
                         params.perceptionRadius, 3);
    forEachNeighbourRange(
        grid, cells, home, 3, [](std::uint32_t, std::uint32_t, bool) {},
        [&](int y, int z, bool imaged) {
          if (reach(y, z, imaged)) return true;
          ++leftOut;
          for (const glm::vec3& s : positions) {
            const glm::ivec3 cs = grid.cellCoord(s);
            if (cs.y != y || cs.z != z) continue;
            for (const glm::vec3& p : {a, b, c}) EXPECT_GE(glm::dot(s - p, s - p), r2) << "slot " << k;
          }
          return false;
        });
  }
  EXPECT_GT(boxes, 100u);
  EXPECT_GT(leftOut, 0u);
}

// Steps of a run as ThreadChoice (for 2 threads) decides them, threaded ones taking `threaded`
// seconds, serial ones `serial`; which ran serially.
std::vector<bool> chooseThreads(ThreadChoice& choice, std::size_t steps, double threaded, double serial) {
  std::vector<bool> ran;
  for (std::size_t s = 0; s < steps; ++s) {
    ran.push_back(choice.serial());
    choice.record(ran.back() ? serial : threaded);
  }
  return ran;
}
std::size_t serialSteps(const std::vector<bool>& ran, std::size_t from = 0) {
  return std::size_t(std::count(ran.begin() + std::ptrdiff_t(from), ran.end(), true));
}

// The steps run the faster way, and trials of the other come after 400 steps (2 threads), then
// 800, 1,600 and 3,200 at most: threaded on a quiet machine (20 serial steps in 10,000), serially on
// a busy one, and back and forth as the machine changes, each found by the next trial.
TEST(ThreadChoice, RunsTheFasterWayAndTriesTheOtherNowAndThen) {
  constexpr std::size_t kTrial = ThreadChoice::kTrialSteps;
  const std::size_t trials[] = {400, 1204, 2808, 6012, 9216};
  {
    ThreadChoice quiet(2);
    EXPECT_EQ(quiet.firstWait(), 400u);
    const std::vector<bool> ran = chooseThreads(quiet, 10000, 5e-3, 9e-3);
    for (const std::size_t trial : trials) {
      EXPECT_FALSE(ran[trial - 1]) << trial;
      EXPECT_TRUE(ran[trial] && ran[trial + kTrial - 1]) << trial;
      EXPECT_FALSE(ran[trial + kTrial]) << trial;
    }
    EXPECT_EQ(serialSteps(ran), std::size(trials) * kTrial);
    EXPECT_FALSE(quiet.chosenSerial());
  }
  {
    // Noise within the choice does not flip it: threaded steps of 5 and 7 ms in turn against 9.
    ThreadChoice noisy(2);
    std::size_t serial = 0;
    for (int s = 0; s < 10000; ++s) {
      const bool alone = noisy.serial();
      serial += alone ? 1 : 0;
      noisy.record(alone ? 9e-3 : (s % 2 == 0 ? 5e-3 : 7e-3));
    }
    EXPECT_EQ(serial, std::size(trials) * kTrial);
  }
  {
    ThreadChoice busy(2);
    const std::vector<bool> ran = chooseThreads(busy, 10000, 10e-3, 6e-3);
    EXPECT_FALSE(ran[399]);
    EXPECT_TRUE(ran[400] && ran[404] && ran[803] && !ran[804] && !ran[807] && ran[808])
        << "serial from the first trial";
    // Threaded: the first 400 steps and the trials after 400, 800, 1,600, 3,200 and 3,200 serial steps.
    EXPECT_EQ(serialSteps(ran), 10000u - 400u - 5u * kTrial);
    EXPECT_TRUE(busy.chosenSerial()) << "what the backend reports as 1 of 2 threads";
  }
  {
    ThreadChoice changing(2);
    EXPECT_EQ(serialSteps(chooseThreads(changing, 5000, 5e-3, 9e-3)), 3u * kTrial);  // at 400, 1204, 2808
    // A core gets busy: the next trial (at most the longest wait away) finds it; serial from then
    // on but for the trials of threads.
    const std::size_t found = changing.longestWait() + kTrial;
    const std::vector<bool> busy = chooseThreads(changing, 5000, 10e-3, 6e-3);
    EXPECT_GE(serialSteps(busy, found), 5000u - found - 2u * kTrial);
    // And quiet again: threaded from the next trial of threads on (2,028 steps in), but for the
    // trials of one thread after 400, 800 and 1,600 steps.
    const std::vector<bool> quietAgain = chooseThreads(changing, 5000, 5e-3, 9e-3);
    EXPECT_TRUE(quietAgain[2027] && !quietAgain[2028] && !quietAgain[2032]);
    EXPECT_TRUE(quietAgain[2432] && quietAgain[3236] && quietAgain[4840]);
    EXPECT_EQ(serialSteps(quietAgain, 2028), 3u * kTrial);
  }
  {
    ThreadChoice one(1);
    EXPECT_EQ(serialSteps(chooseThreads(one, 5000, 10e-3, 6e-3)), 0u) << "one thread: nothing to try";
  }
}

// 4,000 boids sorted on the grid of R in a 40-unit world, contained (some a little outside it) or
// wrapped, 3D or 2D: the cases of the slot-run tests. With R = 9 a wrapped axis has 4 cells.
struct RunCase {
  int dims;
  Boundary boundary;
  float radius;
};
constexpr RunCase kRunCases[] = {{3, Boundary::Contain, 3.0f},
                                 {3, Boundary::Wrap, 3.0f},
                                 {2, Boundary::Contain, 3.0f},
                                 {2, Boundary::Wrap, 3.0f},
                                 {3, Boundary::Wrap, 9.0f}};
struct SortedBoids {
  ModelParams params;
  GridSpec grid;
  std::vector<glm::vec3> positions;
  CellOrder cells;
};
SortedBoids sortedBoids(const RunCase& c, unsigned seed) {
  SortedBoids out;
  out.params = gridParams(c.dims, c.boundary);
  out.params.perceptionRadius = c.radius;
  out.grid = makeGridSpec(out.params);
  out.positions = randomPositions(4000, out.params, seed, c.boundary == Boundary::Wrap ? 0.0f : 2.0f);
  WorkerPool pool(1);
  out.cells.build(out.grid, out.positions, pool);
  return out;
}

// The runs the neighbour sweep tests are forEachNeighbourRange's non-empty runs in its order, the
// rows RowReach leaves out dropped: read straight from the cell starts where the block needs no
// minimum image (contained worlds, and wrapped ones away from the seams), by the general walk
// elsewhere (seams, axes of under 5 cells), kept while consecutive boids share a cell and reused
// with another reach.
TEST(NeighbourSlotRuns, AreTheGeneralWalksRowsWithinReachInItsOrder) {
  for (const RunCase& c : kRunCases) {
    SCOPED_TRACE(testing::Message() << c.dims << "D wrap " << (c.boundary == Boundary::Wrap) << " R "
                                    << c.radius);
    const auto [params, grid, positions, cells] = sortedBoids(c, 17);
    CellRuns around;
    std::size_t reused = 0, rowsLeftOut = 0;
    for (std::uint32_t k = 0; k < positions.size(); ++k) {
      const glm::vec3 p = positions[cells.order[k]];
      const glm::ivec3 cell = grid.cellCoord(p);
      const float reach = k % 3 == 0 ? 0.6f * c.radius : c.radius;
      const RowReach reachable(grid, cell, p, reach, c.dims);
      std::vector<SlotRun> expected;
      forEachNeighbourRange(
          grid, cells, cell, c.dims,
          [&](std::uint32_t begin, std::uint32_t end, bool imaged) {
            if (begin < end) expected.push_back({begin, end, imaged});
          },
          [&](int y, int z, bool imaged) {
            const bool kept = reachable(y, z, imaged);
            rowsLeftOut += kept ? 0 : 1;
            return kept;
          });
      reused += around.cell == grid.cellIndex(cell) ? 1 : 0;
      const SlotRuns runs = neighbourSlotRuns(grid, cells, p, reach, c.dims, around);
      ASSERT_EQ(runs.count, int(expected.size())) << "slot " << k;
      for (std::size_t r = 0; r < expected.size(); ++r) {
        ASSERT_EQ(runs.runs[r].begin, expected[r].begin) << "slot " << k << " run " << r;
        ASSERT_EQ(runs.runs[r].end, expected[r].end) << "slot " << k << " run " << r;
        ASSERT_EQ(runs.runs[r].imaged, expected[r].imaged) << "slot " << k << " run " << r;
      }
    }
    EXPECT_GT(reused, 500u) << "boids share cells";
    // On an axis of under 5 wrapped cells every row is imaged, and kept.
    if (grid.cells.x >= 5) {
      EXPECT_GT(rowsLeftOut, 0u) << "rows are left out";
    }
  }
}

// The topological sweep's runs (nearSlotRuns): every boid within the reach of p lies in one of
// them; they are disjoint, in increasing slot order (the order the sums run in) and within p's
// 3x3x3 cells; and a reach below R leaves cells out (the test would otherwise pass with runs of
// the whole block). With R = 9 a wrapped axis has 4 cells: every cell is kept there.
TEST(NearSlotRuns, HoldEveryBoidWithinReachInSlotOrder) {
  for (const RunCase& c : kRunCases) {
    SCOPED_TRACE(testing::Message() << c.dims << "D wrap " << (c.boundary == Boundary::Wrap) << " R "
                                    << c.radius);
    const auto [params, grid, positions, cells] = sortedBoids(c, 13);
    std::size_t kept = 0, block = 0;
    for (std::size_t i = 0; i < positions.size(); i += 5) {
      const glm::vec3 p = positions[i];
      std::vector<bool> inBlock(positions.size(), false);
      forEachNeighbourRange(grid, cells, grid.cellCoord(p), c.dims,
                            [&](std::uint32_t begin, std::uint32_t end, bool) {
                              for (std::uint32_t s = begin; s < end; ++s) inBlock[s] = true;
                              block += end - begin;
                            });
      for (const float reach : {0.2f * c.radius, 0.5f * c.radius, c.radius}) {
        const SlotRuns runs = nearSlotRuns(grid, cells, p, reach, c.dims);
        std::vector<bool> inRuns(positions.size(), false);
        for (int r = 0; r < runs.count; ++r) {
          const SlotRun run = runs.runs[std::size_t(r)];
          ASSERT_LT(run.begin, run.end);
          if (r > 0) {
            ASSERT_LE(runs.runs[std::size_t(r - 1)].end, run.begin);
          }
          for (std::uint32_t s = run.begin; s < run.end; ++s) {
            ASSERT_TRUE(inBlock[s]) << "slot " << s;
            inRuns[s] = true;
          }
          if (reach < c.radius) kept += run.end - run.begin;
        }
        for (std::uint32_t s = 0; s < positions.size(); ++s) {
          glm::vec3 d = positions[cells.order[s]] - p;
          if (c.boundary == Boundary::Wrap) d = minimumImage(d, params.worldSize());
          if (glm::dot(d, d) < reach * reach) {
            ASSERT_TRUE(inRuns[s]) << "boid " << cells.order[s] << " within " << reach << " of boid " << i;
          }
        }
      }
    }
    // Two reaches below R: without cells left out the runs would hold twice the block.
    if (c.radius < 9.0f) {
      EXPECT_LT(kept, block) << "cells are left out";
    }
  }
}

}  // namespace
}  // namespace murmur::sim
