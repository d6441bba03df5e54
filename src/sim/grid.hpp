#pragma once
// The uniform grid both the CPU grid search and the GPU pipeline use: cells at least the search
// radius (ModelParams::searchRadius: R, or the leader radius where larger) wide, so every neighbour
// of a boid lies in its own or an adjacent cell (3x3x3 cells; 3x3 in 2D).
#include <algorithm>
#include <cmath>
#include <array>
#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

#include <glm/common.hpp>
#include <glm/vec3.hpp>

#include "sim/params.hpp"

namespace murmur::sim {

struct GridSpec {
  glm::vec3 origin{0.0f};     // world min
  glm::vec3 cellSize{1.0f};   // >= R (1 + 1e-5) on every axis, so float rounding never skips a cell
  glm::ivec3 cells{1};        // per axis; y is 1 in 2D
  bool wrap = false;          // neighbour cells wrap around (torus)

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

// Below this many boids a step runs on one thread: forking and joining OpenMP threads costs more
// than the work (and idle threads spinning at barriers starve everything else on a busy machine).
inline constexpr std::size_t kParallelMinBoids = 4096;

// Boids sorted by cell: a counting sort, stable in id, so every sum over neighbours visits them in
// the same order whatever the thread count.
struct CellOrder {
  std::vector<std::uint32_t> cellOf;     // per boid id: its cell index
  std::vector<std::uint32_t> cellStart;  // per cell: first sorted slot; cellCount + 1 entries
  std::vector<std::uint32_t> order;      // per sorted slot: the boid id

  void build(const GridSpec& grid, std::span<const glm::vec3> positions, int threads);
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

AxisRuns neighbourRuns(int c, int cells, bool wrap);

// Calls visit(beginSlot, endSlot, imaged) for each run of sorted slots in the cells around c
// (3x3x3; in 2D 3x3), each cell exactly once even when a wrapped axis has fewer than 3 cells.
template <class Visit>
void forEachNeighbourRange(const GridSpec& grid, const CellOrder& order, glm::ivec3 c, int dims,
                           Visit&& visit) {
  const AxisRuns xs = neighbourRuns(c.x, grid.cells.x, grid.wrap);
  // In 2D the y axis is inactive (one cell, every d.y = 0): it never needs the image.
  const AxisRuns ys = neighbourRuns(c.y, grid.cells.y, grid.wrap && dims == 3);
  const AxisRuns zs = neighbourRuns(c.z, grid.cells.z, grid.wrap);
  const std::uint32_t* cellStart = order.cellStart.data();
  for (int iz = 0; iz < zs.count; ++iz)
    for (int z = zs.runs[iz].first; z <= zs.runs[iz].last; ++z)
      for (int iy = 0; iy < ys.count; ++iy)
        for (int y = ys.runs[iy].first; y <= ys.runs[iy].last; ++y)
          for (int ix = 0; ix < xs.count; ++ix)
            visit(cellStart[grid.cellIndex({xs.runs[ix].first, y, z})],
                  cellStart[grid.cellIndex({xs.runs[ix].last, y, z}) + 1],
                  xs.runs[ix].imaged || ys.runs[iy].imaged || zs.runs[iz].imaged);
}

}  // namespace murmur::sim
