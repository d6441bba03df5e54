#pragma once
// The uniform grid both the CPU grid search and the GPU pipeline use: cells at least the search
// radius (ModelParams::searchRadius: R, or the leader radius where larger) wide, so every neighbour
// of a boid lies in its own or an adjacent cell (3x3x3 cells; 3x3 in 2D).
#include <algorithm>
#include <array>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <span>
#include <utility>
#include <vector>

#include <glm/common.hpp>
#include <glm/vec3.hpp>

#include "sim/params.hpp"
#include "sim/worker_pool.hpp"

namespace murmur::sim {

struct GridSpec {
  glm::vec3 origin{0.0f};    // world min
  glm::vec3 cellSize{1.0f};  // >= R (1 + 1e-5) on every axis, so float rounding never skips a cell
  glm::ivec3 cells{1};       // per axis; y is 1 in 2D
  bool wrap = false;         // neighbour cells wrap around (torus)

  bool operator==(const GridSpec&) const = default;

  std::uint32_t cellCount() const {
    return static_cast<std::uint32_t>(cells.x) * static_cast<std::uint32_t>(cells.y) *
           static_cast<std::uint32_t>(cells.z);
  }
  glm::ivec3 cellCoord(glm::vec3 p) const {
    const glm::vec3 c = (p - origin) / cellSize;
    return {clampedCell(c.x, cells.x), clampedCell(c.y, cells.y), clampedCell(c.z, cells.z)};
  }
  // floor(c) clamped to [0, n - 1], clamped as a float first: a far or non-finite coordinate has no
  // int value (NaN goes to 0).
  static int clampedCell(float c, int n) {
    if (!(c >= 0.0f)) return 0;
    if (c >= float(n - 1)) return n - 1;
    return static_cast<int>(c);
  }
  std::uint32_t cellIndex(glm::ivec3 c) const {
    return static_cast<std::uint32_t>((c.z * cells.y + c.y) * cells.x + c.x);
  }
};

// Cells of at least R per active axis; when that would exceed maxCells the cells grow (still
// correct: every cell stays at least R wide, only more candidates are tested). Scene validation
// refuses worlds where they would grow beyond kMaxCellWidening R (docs/model.md, Limits).
inline constexpr std::uint32_t kDefaultMaxCells = 1u << 24;
inline constexpr float kMaxCellWidening = 4.0f;
GridSpec makeGridSpec(const ModelParams& params, std::uint32_t maxCells = kDefaultMaxCells);

// Below this many boids a step runs on one thread: waking and joining the workers costs more than
// the work.
inline constexpr std::size_t kParallelMinBoids = 4096;
// The chunk a loop over n boids hands each thread at a time: all of them (one thread) below
// kParallelMinBoids.
inline std::size_t boidChunk(std::size_t n, std::size_t chunk) {
  return n < kParallelMinBoids ? n : chunk;
}

// Boids sorted by cell: a counting sort, stable in id (in the positions' order, then by the ids
// given), so every sum over neighbours visits them in the same order whatever the thread count and
// whatever order the flock is kept in.
struct CellOrder {
  // Indices are those of the positions build was given: the boids' ids unless ids were given.
  std::vector<std::uint32_t> cellOf;      // per index: its cell
  std::vector<std::uint32_t> cellStart;   // per cell: first sorted slot; cellCount + 1 entries
  std::vector<std::uint32_t> order;       // per sorted slot: the index of its boid
  std::vector<std::uint32_t> slotOf;      // per index: its sorted slot (order's inverse)
  std::vector<std::uint32_t> cellOfSlot;  // per sorted slot: its boid's cell (which boids share it)

  // On the pool's threads: the same result on any thread count. Where the positions' indices are
  // not the boids' ids (ids given: index s is boid ids[s], a flock kept in its last step's cell
  // order, sim::CpuSimulator), each cell's boids in order of id, so that the cells list their boids
  // in the order a build from id order gives; order, slotOf and cellOf stay in the positions'
  // indices.
  void build(const GridSpec& grid, std::span<const glm::vec3> positions, WorkerPool& pool,
             std::span<const std::uint32_t> ids = {});

  // The sort's first pass (build): ids by buckets of cells, per chunk of ids the slot of its next
  // boid in each bucket, and each bucket's first slot. Kept between builds to spare the
  // allocations (a step allocates nothing once sized).
  std::vector<std::uint32_t> byBucket, bucketSlots, bucketStart;
  static constexpr std::size_t kSortChunks =
      64;                                     // at most, of ids in the first pass, of buckets in the second
  static constexpr int kSortBucketBits = 10;  // at most 2^10 buckets
  static constexpr std::size_t kSortBucketBoids = 1024;  // boids a bucket, about
};

// Neighbour cells along one axis, as runs of consecutive cell coordinates [first, last].
// `imaged` marks runs whose offsets need the minimum image: a run across the wrap seam, or any run
// on an axis of fewer than 5 cells. Elsewhere |d| < 2.5 cells <= size / 2, where the minimum image
// returns d unchanged, so skipping it changes nothing.
struct CellRun {
  int first;
  int last;
  bool imaged;
};

struct AxisRuns {
  std::array<CellRun, 3> runs{};
  int count = 0;
};

// Inline: the neighbour sweep calls it three times a boid.
inline AxisRuns neighbourRuns(int c, int cells, bool wrap) {
  AxisRuns out;
  if (!wrap) {
    out.runs[0] = {std::max(c - 1, 0), std::min(c + 1, cells - 1), false};
    out.count = 1;
    return out;
  }
  if (cells <= 3) {  // every cell on this axis is a neighbour
    out.runs[0] = {0, cells - 1, true};
    out.count = 1;
    return out;
  }
  const bool smallAxis = cells < 5;
  if (c == 0) {
    out.runs[0] = {0, 1, smallAxis};
    out.runs[1] = {cells - 1, cells - 1, true};
    out.count = 2;
  } else if (c == cells - 1) {
    out.runs[0] = {0, 0, true};
    out.runs[1] = {cells - 2, cells - 1, smallAxis};
    out.count = 2;
  } else {
    out.runs[0] = {c - 1, c + 1, smallAxis};
    out.count = 1;
  }
  return out;
}

// Calls visit(beginSlot, endSlot, imaged) for each run of sorted slots in the cells around c
// (3x3x3; in 2D 3x3), each cell exactly once even when a wrapped axis has fewer than 3 cells.
// keepRow(y, z, imaged) may leave out a whole row of cells (a run along x); every row is kept by
// default.
template <class Visit, class KeepRow>
void forEachNeighbourRange(const GridSpec& grid, const CellOrder& order, glm::ivec3 c, int dims,
                           Visit&& visit, KeepRow&& keepRow) {
  const AxisRuns xs = neighbourRuns(c.x, grid.cells.x, grid.wrap);
  // In 2D the y axis is inactive (one cell, every d.y = 0): it never needs the image.
  const AxisRuns ys = neighbourRuns(c.y, grid.cells.y, grid.wrap && dims == 3);
  const AxisRuns zs = neighbourRuns(c.z, grid.cells.z, grid.wrap);
  const std::uint32_t* cellStart = order.cellStart.data();
  for (int iz = 0; iz < zs.count; ++iz)
    for (int z = zs.runs[iz].first; z <= zs.runs[iz].last; ++z)
      for (int iy = 0; iy < ys.count; ++iy)
        for (int y = ys.runs[iy].first; y <= ys.runs[iy].last; ++y) {
          if (!keepRow(y, z, ys.runs[iy].imaged || zs.runs[iz].imaged)) continue;
          for (int ix = 0; ix < xs.count; ++ix)
            visit(cellStart[grid.cellIndex({xs.runs[ix].first, y, z})],
                  cellStart[grid.cellIndex({xs.runs[ix].last, y, z}) + 1],
                  xs.runs[ix].imaged || ys.runs[iy].imaged || zs.runs[iz].imaged);
        }
}

template <class Visit>
void forEachNeighbourRange(const GridSpec& grid, const CellOrder& order, glm::ivec3 c, int dims,
                           Visit&& visit) {
  forEachNeighbourRange(grid, order, c, dims, std::forward<Visit>(visit),
                        [](int, int, bool) { return true; });
}

// The gaps from p to the cells below and above its cell c on one axis (the distance to the near
// face of each, 0 where p lies on it), less a margin that float rounding of the cell bounds and of
// the offsets cannot cross: a boid of such a cell lies at least that far from p along the axis.
// A NaN coordinate (its boid sorted into cell 0) gives 0, which leaves nothing out: std::max keeps
// its first argument unless the second is greater.
inline std::array<float, 2> cellGaps(const GridSpec& grid, glm::ivec3 c, glm::vec3 p, int axis) {
  const float size = grid.cellSize[axis], origin = grid.origin[axis], x = p[axis];
  const float slack = 1e-5f * (std::abs(origin) + std::abs(x) + size);
  const float lo = origin + float(c[axis]) * size, hi = lo + size;
  return {std::max(0.0f, x - lo - slack), std::max(0.0f, hi - x - slack)};
}

// Whether a row of cells (y, z; a run along x) around boid p's cell c may hold a boid within
// `reach` of p: false only when the row's slab lies wholly farther (cellGaps), so leaving such rows
// out changes no result (in 3D, 21% of each corner row on average). Rows across a wrap seam
// (imaged) are always kept; the others lie at c - 1, c or c + 1 on each axis.
class RowReach {
 public:
  RowReach(const GridSpec& grid, glm::ivec3 c, glm::vec3 p, float reach, int dims)
      : RowReach(grid, c, p, p, reach, dims) {}
  // For the points of the box [low, high] in cell c (boids of one cell swept together): the rows
  // that may hold a boid within reach of any of them (a few more where the nearest point to a row
  // is a corner of the box no boid is at).
  RowReach(const GridSpec& grid, glm::ivec3 c, glm::vec3 low, glm::vec3 high, float reach, int dims)
      : c_(c), reach2_(reach * reach * 1.0001f) {
    for (int axis : {1, 2}) {
      if (axis == 1 && dims == 2) continue;  // one cell; every row at gap 0
      float* gap = axis == 1 ? gapY_ : gapZ_;
      gap[0] = cellGaps(grid, c, low, axis)[0];   // to the row below: its top is this cell's bottom
      gap[2] = cellGaps(grid, c, high, axis)[1];  // to the row above
    }
  }
  bool operator()(int y, int z, bool imaged) const {
    if (imaged) return true;
    const float gy = gapY_[y - c_.y + 1], gz = gapZ_[z - c_.z + 1];
    return gy * gy + gz * gz <= reach2_;
  }

 private:
  glm::ivec3 c_;
  float reach2_;
  float gapY_[3] = {0.0f, 0.0f, 0.0f}, gapZ_[3] = {0.0f, 0.0f, 0.0f};
};

// The runs of sorted slots forEachNeighbourRange visits around the boids of one cell (p, or the box
// [low, high] of several) with RowReach's rows (reach) left out, in its order, empty runs
// dropped: for the neighbour sweep, whose loop is compiled for another instruction set and so
// cannot inline a visitor of this one (as a call per run it cost a tenth of a step at 1M boids).
// At most 9 rows of 2 runs.
struct SlotRun {
  std::uint32_t begin;
  std::uint32_t end;
  bool imaged;
};
struct SlotRuns {
  std::array<SlotRun, 18> runs;
  int count = 0;
};
// The non-empty runs around one cell with their rows, kept while consecutive boids share the cell
// (about 5 a cell in the neighbours18 workload): each of them then only tests its rows' reach. A
// fresh one (no cell) for every CellOrder built and every loop over its boids. neighbourSlotRuns
// fills it from the cell starts directly where the block needs no minimum image, else by
// forEachNeighbourRange's general walk.
struct CellRuns {
  struct Run {
    SlotRun slots;
    int y;
    int z;
    bool rowImaged;
  };
  std::uint32_t cell = std::numeric_limits<std::uint32_t>::max();
  std::array<Run, 18> runs;
  int count = 0;
};
// spanX > 0: the boids lie in the cells from low's to spanX cells further along x, in its row, each
// with a plain block (sim::plainRowSpanEnd); the runs then cover all their blocks, and `around` is
// left holding no cell's runs (the next boids build their own).
SlotRuns neighbourSlotRuns(const GridSpec& grid, const CellOrder& order, glm::vec3 low, glm::vec3 high,
                           float reach, int dims, CellRuns& around, int spanX = 0);
inline SlotRuns neighbourSlotRuns(const GridSpec& grid, const CellOrder& order, glm::vec3 p, float reach,
                                  int dims, CellRuns& around) {
  return neighbourSlotRuns(grid, order, p, p, reach, dims, around);
}

// The last cell, at most maxSpan cells along x from `cell` in its row, up to which every cell's
// block (3x3x3; 3x3 in 2D) is one run of cells per row needing no minimum image (always in a
// contained world; in a wrapped one away from the seams): the boids of those cells can be swept
// as one box (neighbourSlotRuns' spanX). `cell` itself where its own block is not such.
std::uint32_t plainRowSpanEnd(const GridSpec& grid, std::uint32_t cell, int dims, int maxSpan);

// The runs of sorted slots of the cells around boid p that may hold a boid within `reach` (at most
// the grid's search radius) of p, in forEachNeighbourRange's order, empty runs dropped: RowReach's
// test made for each cell, so a row also loses its end cells that lie wholly farther (on an axis
// that wraps with fewer than 5 cells every cell is kept). For the topological rule's sweep, whose
// reach shrinks to its K-th nearest boid (sim/neighbour_sweep).
SlotRuns nearSlotRuns(const GridSpec& grid, const CellOrder& order, glm::vec3 p, float reach, int dims);

}  // namespace murmur::sim
