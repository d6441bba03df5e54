#include "sim/grid.hpp"

#include <algorithm>
#include <atomic>
#include <limits>

namespace murmur::sim {

GridSpec makeGridSpec(const ModelParams& params, std::uint32_t maxCells) {
  GridSpec grid;
  grid.origin = params.worldMin;
  grid.wrap = params.boundary == Boundary::Wrap;
  const glm::vec3 size = params.worldSize();
  // R > 0 for a valid scene; a zero one would never grow below.
  float minCell = std::max(params.perceptionRadius * (1.0f + 1e-5f), std::numeric_limits<float>::min());
  for (;;) {
    glm::ivec3 cells(1);
    for (int k = 0; k < 3; ++k) {
      if (k == 1 && params.dims == 2) continue;
      // Clamped as a float before the cast: a huge world or a tiny R has no int cell count.
      const float wanted = std::floor(size[k] / minCell);
      const int most = static_cast<int>(std::min<std::uint32_t>(maxCells, std::numeric_limits<int>::max()));
      cells[k] = wanted >= float(most) ? most : wanted >= 1.0f ? static_cast<int>(wanted) : 1;
    }
    const double total = double(cells.x) * double(cells.y) * double(cells.z);
    if (total <= double(maxCells)) {
      grid.cells = cells;
      break;
    }
    minCell *= static_cast<float>(std::cbrt(total / double(maxCells))) * 1.01f;
  }
  grid.cellSize = size / glm::vec3(grid.cells);
  if (params.dims == 2) grid.cellSize.y = std::max(size.y, 1.0f);
  return grid;
}

void CellOrder::build(const GridSpec& grid, std::span<const glm::vec3> positions, WorkerPool& pool) {
  const std::size_t n = positions.size();
  const std::uint32_t cellCount = grid.cellCount();
  constexpr std::size_t kCellChunk = 1u << 14;
  const std::size_t boidChunkSize = boidChunk(n, 2048);
  const std::size_t cellChunk = n < kParallelMinBoids ? std::size_t(cellCount) + 1 : kCellChunk;
  cellOf.resize(n);
  cellStart.resize(std::size_t(cellCount) + 1);
  pool.forChunks(cellStart.size(), cellChunk, [&](std::size_t begin, std::size_t end) {
    std::fill(cellStart.begin() + std::ptrdiff_t(begin), cellStart.begin() + std::ptrdiff_t(end), 0u);
  });
  // Counts in cellStart[c + 1]; atomic increments, so any thread may count any boid.
  pool.forChunks(n, boidChunkSize, [&](std::size_t begin, std::size_t end) {
    for (std::size_t i = begin; i < end; ++i) {
      const std::uint32_t cell = grid.cellIndex(grid.cellCoord(positions[i]));
      cellOf[i] = cell;
      std::atomic_ref<std::uint32_t>(cellStart[cell + 1]).fetch_add(1, std::memory_order_relaxed);
    }
  });
  // Exclusive scan of the counts, by blocks: each block's total, the totals scanned, then each
  // block scanned from its offset.
  const std::size_t blocks = (cellStart.size() + cellChunk - 1) / cellChunk;
  blockTotal_.assign(blocks + 1, 0u);
  pool.forChunks(cellStart.size(), cellChunk, [&](std::size_t begin, std::size_t end) {
    std::uint32_t total = 0;
    for (std::size_t c = begin; c < end; ++c) total += cellStart[c];
    blockTotal_[begin / cellChunk + 1] = total;
  });
  for (std::size_t b = 0; b < blocks; ++b) blockTotal_[b + 1] += blockTotal_[b];
  pool.forChunks(cellStart.size(), cellChunk, [&](std::size_t begin, std::size_t end) {
    std::uint32_t running = blockTotal_[begin / cellChunk];
    for (std::size_t c = begin; c < end; ++c) running = cellStart[c] += running;
  });
  // Each boid takes the next free slot of its cell (cellStart doubles as the cursor, so no second
  // table of cellCount entries), in whatever order the threads reach them...
  order.resize(n);
  pool.forChunks(n, boidChunkSize, [&](std::size_t begin, std::size_t end) {
    for (std::size_t i = begin; i < end; ++i) {
      const std::uint32_t slot = std::atomic_ref<std::uint32_t>(cellStart[cellOf[i]]).fetch_add(1, std::memory_order_relaxed);
      order[slot] = static_cast<std::uint32_t>(i);
    }
  });
  // ...then every cursor has advanced to the next cell's start: shifting the table up by one
  // restores the starts, and sorting each cell's few ids makes the order stable in id, the same for
  // any thread count and for the serial counting sort.
  pool.forChunks(cellCount, cellChunk, [&](std::size_t begin, std::size_t end) {
    for (std::size_t c = begin; c < end; ++c) {
      const std::uint32_t first = c == 0 ? 0u : cellStart[c - 1];
      std::sort(order.begin() + first, order.begin() + cellStart[c]);
    }
  });
  std::copy_backward(cellStart.begin(), cellStart.end() - 1, cellStart.end());
  cellStart[0] = 0;
}

AxisRuns neighbourRuns(int c, int cells, bool wrap) {
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

}  // namespace murmur::sim
