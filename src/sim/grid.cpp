#include "sim/grid.hpp"

#include <algorithm>
#include <bit>
#include <limits>

namespace murmur::sim {

GridSpec makeGridSpec(const ModelParams& params, std::uint32_t maxCells) {
  GridSpec grid;
  grid.origin = params.worldMin;
  grid.wrap = params.boundary == Boundary::Wrap;
  const glm::vec3 size = params.worldSize();
  // The search radius > 0 for a valid scene; a zero one would never grow below.
  float minCell = std::max(params.searchRadius() * (1.0f + 1e-5f), std::numeric_limits<float>::min());
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

namespace {

// The slots [first, last), whole cells of `cells`, each cell's boids put in order of ids[index]
// (slotOf kept the inverse). The counting sort leaves them in order of index; a flock kept in its
// last step's cell order moves a few boids a step from cell to cell, which come in the order of
// their last slots: most cells are in id order already, the others a boid or two out of place,
// which an insertion sort moves in a few steps.
void orderCellsById(CellOrder& cells, std::span<const std::uint32_t> ids, std::size_t first,
                    std::size_t last) {
  std::uint32_t* order = cells.order.data();
  for (std::size_t begin = first; begin < last;) {
    const std::size_t end = cells.cellStart[cells.cellOfSlot[begin] + 1];
    bool moved = false;
    for (std::size_t s = begin + 1; s < end; ++s) {
      const std::uint32_t index = order[s], id = ids[index];
      std::size_t t = s;
      for (; t > begin && ids[order[t - 1]] > id; --t) order[t] = order[t - 1];
      order[t] = index;
      moved |= t != s;
    }
    if (moved)
      for (std::size_t s = begin; s < end; ++s) cells.slotOf[order[s]] = static_cast<std::uint32_t>(s);
    begin = end;
  }
}

}  // namespace

void CellOrder::build(const GridSpec& grid, std::span<const glm::vec3> positions, WorkerPool& pool,
                      std::span<const std::uint32_t> ids) {
  const std::size_t n = positions.size();
  const std::uint32_t cellCount = grid.cellCount();
  cellOf.resize(n);
  order.resize(n);
  slotOf.resize(n);
  cellOfSlot.resize(n);
  cellStart.resize(std::size_t(cellCount) + 1);
  // A stable counting sort in two passes, each parallel (issue 22: one pass on one thread was half
  // of a 16-thread step at 1M boids): the boids by bucket (a run of 2^shift cells) in chunks of
  // ids, each chunk writing its own ranges, then each bucket's boids by cell. The chunks and
  // buckets depend on n and the grid alone, so the result is the same on any thread count; and a
  // bucket's cells, starts and slots fit in the caches where the one pass sorted them across the
  // whole grid's tables. At most kSortChunks chunks of at least kParallelMinBoids ids (a small
  // flock sorts on the calling thread, as it steps); about kSortBucketBoids boids a bucket, at most
  // 2^kSortBucketBits buckets (more buckets, more streams for the first pass to write: 864 of them
  // made `neighbours18` at 64k boids 3-6% slower than the one-pass sort).
  const int bucketBits = std::min(kSortBucketBits, static_cast<int>(std::bit_width(n / kSortBucketBoids)));
  const int shift = std::max(0, static_cast<int>(std::bit_width(std::max(cellCount, 1u) - 1u)) - bucketBits);
  const std::size_t buckets = ((std::size_t(cellCount) - 1) >> shift) + 1;
  const std::size_t chunkIds = std::max(kParallelMinBoids, (n + kSortChunks - 1) / kSortChunks);
  const std::size_t chunks = (n + chunkIds - 1) / chunkIds;
  // Per chunk and bucket: the chunk's boids in the bucket, then where the first of them goes.
  bucketSlots.assign(chunks * buckets, 0u);
  byBucket.resize(n);
  pool.forChunks(chunks, 1, [&](std::size_t first, std::size_t last) {
    for (std::size_t k = first; k < last; ++k) {
      std::uint32_t* counts = bucketSlots.data() + k * buckets;
      for (std::size_t i = k * chunkIds, end = std::min(n, i + chunkIds); i < end; ++i) {
        const std::uint32_t c = grid.cellIndex(grid.cellCoord(positions[i]));
        cellOf[i] = c;
        ++counts[c >> shift];
      }
    }
  });
  bucketStart.resize(buckets + 1);
  std::uint32_t next = 0;
  for (std::size_t b = 0; b < buckets; ++b) {
    bucketStart[b] = next;
    for (std::size_t k = 0; k < chunks; ++k) {
      std::uint32_t& slot = bucketSlots[k * buckets + b];
      const std::uint32_t count = slot;
      slot = next;
      next += count;
    }
  }
  bucketStart[buckets] = next;
  pool.forChunks(chunks, 1, [&](std::size_t first, std::size_t last) {
    for (std::size_t k = first; k < last; ++k) {
      std::uint32_t* slots = bucketSlots.data() + k * buckets;
      for (std::size_t i = k * chunkIds, end = std::min(n, i + chunkIds); i < end; ++i)
        byBucket[slots[cellOf[i] >> shift]++] = static_cast<std::uint32_t>(i);
    }
  });
  // Each bucket writes only cellStart[c + 1] of its cells c: first the count of c, then its start
  // (the cursor of the placement), which the placement advances to c's end, the start of c + 1.
  cellStart[0] = 0;
  const std::size_t bucketChunk = chunks > 1 ? std::max<std::size_t>(1, buckets / kSortChunks) : buckets;
  pool.forChunks(buckets, bucketChunk, [&](std::size_t first, std::size_t last) {
    for (std::size_t b = first; b < last; ++b) {
      const std::uint32_t c0 = static_cast<std::uint32_t>(b << shift);
      const std::uint32_t c1 = static_cast<std::uint32_t>(std::min<std::size_t>(cellCount, (b + 1) << shift));
      std::fill(cellStart.begin() + c0 + 1, cellStart.begin() + c1 + 1, 0u);
      for (std::uint32_t s = bucketStart[b]; s < bucketStart[b + 1]; ++s)
        ++cellStart[cellOf[byBucket[s]] + 1];
      std::uint32_t start = bucketStart[b];
      for (std::uint32_t c = c0; c < c1; ++c) {
        const std::uint32_t count = cellStart[c + 1];
        cellStart[c + 1] = start;
        start += count;
      }
      for (std::uint32_t s = bucketStart[b]; s < bucketStart[b + 1]; ++s) {
        const std::uint32_t i = byBucket[s];
        const std::uint32_t cell = cellOf[i];
        const std::uint32_t slot = cellStart[cell + 1]++;
        order[slot] = i;
        slotOf[i] = slot;
        cellOfSlot[slot] = cell;
      }
      if (!ids.empty()) orderCellsById(*this, ids, bucketStart[b], bucketStart[b + 1]);
    }
  });
}

namespace {

// Whether the block around c is one run of cells per row, none needing the minimum image: always
// in a contained world; in a wrapped one away from the seams, on axes of 5 cells or more (as
// neighbourRuns decides; in 2D the y axis is inactive).
bool plainBlock(const GridSpec& grid, glm::ivec3 c, int dims) {
  if (!grid.wrap) return true;
  for (int axis = 0; axis < 3; ++axis) {
    if (axis == 1 && dims == 2) continue;
    if (grid.cells[axis] < 5 || c[axis] < 1 || c[axis] > grid.cells[axis] - 2) return false;
  }
  return true;
}

}  // namespace

std::uint32_t plainRowSpanEnd(const GridSpec& grid, std::uint32_t cell, int dims, int maxSpan) {
  const std::uint32_t cellsX = static_cast<std::uint32_t>(grid.cells.x);
  const std::uint32_t row = cell / cellsX, x = cell % cellsX;
  const glm::ivec3 c(static_cast<int>(x), static_cast<int>(row % std::uint32_t(grid.cells.y)),
                     static_cast<int>(row / std::uint32_t(grid.cells.y)));
  if (!plainBlock(grid, c, dims)) return cell;
  // Along x the block stays plain up to the row's end (contained) or its last cell but one (wrapped).
  const int lastX = grid.wrap ? grid.cells.x - 2 : grid.cells.x - 1;
  return cell + static_cast<std::uint32_t>(std::max(0, std::min(maxSpan, lastX - c.x)));
}

SlotRuns neighbourSlotRuns(const GridSpec& grid, const CellOrder& order, glm::vec3 low, glm::vec3 high,
                           float reach, int dims, CellRuns& around, int spanX) {
  const glm::ivec3 c = grid.cellCoord(low);
  const std::uint32_t cell = grid.cellIndex(c);
  const RowReach reachable(grid, c, low, high, reach, dims);
  SlotRuns out;
  // Without branches on which rows and runs are kept: they are as good as random (a fifth of the
  // corner rows left out, a quarter of the runs empty in the density workload), and mispredicted
  // they cost a fifth of a step. Every run is written and counted only when kept. The counts are
  // locals: in the structures they would be reloaded after every run's store (a bool may alias
  // them).
  int count = 0;
  if (spanX > 0 || (around.cell != cell && plainBlock(grid, c, dims))) {
    // The rows read straight from the cell starts, in forEachNeighbourRange's order, and kept
    // while they are read: a sparse flock (a boid or less a cell) builds the runs for nearly
    // every boid, and the general walk below cost it a quarter of a step.
    const std::uint32_t* cellStart = order.cellStart.data();
    const int x0 = std::max(c.x - 1, 0), x1 = std::min(c.x + spanX + 1, grid.cells.x - 1);
    const int y0 = std::max(c.y - 1, 0), y1 = std::min(c.y + 1, grid.cells.y - 1);
    const int z0 = std::max(c.z - 1, 0), z1 = std::min(c.z + 1, grid.cells.z - 1);
    int cached = 0;
    for (int z = z0; z <= z1; ++z)
      for (int y = y0; y <= y1; ++y) {
        const std::uint32_t row = grid.cellIndex({0, y, z});
        const SlotRun run{cellStart[row + std::uint32_t(x0)], cellStart[row + std::uint32_t(x1) + 1], false};
        const bool occupied = run.begin < run.end;
        around.runs[std::size_t(cached)] = {run, y, z, false};
        cached += static_cast<int>(occupied);
        out.runs[std::size_t(count)] = run;
        count += static_cast<int>(occupied & reachable(y, z, false));
      }
    // A span's runs are not one cell's: the next boids build their own.
    around.cell = spanX > 0 ? std::numeric_limits<std::uint32_t>::max() : cell;
    around.count = cached;
    out.count = count;
    return out;
  }
  if (around.cell != cell) {
    around.cell = cell;
    int cached = 0, y = 0, z = 0;
    bool rowImaged = false;
    forEachNeighbourRange(
        grid, order, c, dims,
        [&](std::uint32_t begin, std::uint32_t end, bool imaged) {
          around.runs[std::size_t(cached)] = {{begin, end, imaged}, y, z, rowImaged};
          cached += static_cast<int>(begin < end);
        },
        [&](int rowY, int rowZ, bool imaged) {
          y = rowY;
          z = rowZ;
          rowImaged = imaged;
          return true;
        });
    around.count = cached;
  }
  for (int r = 0; r < around.count; ++r) {
    const CellRuns::Run& run = around.runs[std::size_t(r)];
    out.runs[std::size_t(count)] = run.slots;
    count += static_cast<int>(reachable(run.y, run.z, run.rowImaged));
  }
  out.count = count;
  return out;
}

SlotRuns nearSlotRuns(const GridSpec& grid, const CellOrder& order, glm::vec3 p, float reach, int dims) {
  const glm::ivec3 c = grid.cellCoord(p);
  const float reach2 = reach * reach * 1.0001f;
  // Per axis, the squared gaps to the cells at c - 1, c and c + 1 (cellGaps).
  std::array<std::array<float, 3>, 3> gap2{};
  for (int axis = 0; axis < 3; ++axis) {
    if ((axis == 1 && dims == 2) || (grid.wrap && grid.cells[axis] < 5)) continue;
    const std::array<float, 2> gaps = cellGaps(grid, c, p, axis);
    gap2[std::size_t(axis)] = {gaps[0] * gaps[0], 0.0f, gaps[1] * gaps[1]};
  }
  // The gap to cell q of an axis, q within one cell of c (across the seam when wrapping).
  const auto gapTo = [&](int axis, int q) {
    int delta = q - c[axis];
    if (delta > 1) delta -= grid.cells[axis];
    if (delta < -1) delta += grid.cells[axis];
    return gap2[std::size_t(axis)][std::size_t(std::clamp(delta, -1, 1) + 1)];
  };
  const AxisRuns xs = neighbourRuns(c.x, grid.cells.x, grid.wrap);
  const AxisRuns ys = neighbourRuns(c.y, grid.cells.y, grid.wrap && dims == 3);
  const AxisRuns zs = neighbourRuns(c.z, grid.cells.z, grid.wrap);
  const std::uint32_t* cellStart = order.cellStart.data();
  SlotRuns out;
  for (int iz = 0; iz < zs.count; ++iz)
    for (int z = zs.runs[iz].first; z <= zs.runs[iz].last; ++z) {
      const float gz2 = gapTo(2, z);
      if (gz2 > reach2) continue;
      for (int iy = 0; iy < ys.count; ++iy)
        for (int y = ys.runs[iy].first; y <= ys.runs[iy].last; ++y) {
          const float row2 = gz2 + gapTo(1, y);
          if (row2 > reach2) continue;
          for (int ix = 0; ix < xs.count; ++ix) {
            // The cells kept of a run are those next to c's column: trimmed from its ends.
            int first = xs.runs[ix].first, last = xs.runs[ix].last;
            while (first <= last && row2 + gapTo(0, first) > reach2) ++first;
            while (last >= first && row2 + gapTo(0, last) > reach2) --last;
            if (first > last) continue;
            const std::uint32_t begin = cellStart[grid.cellIndex({first, y, z})];
            const std::uint32_t end = cellStart[grid.cellIndex({last, y, z}) + 1];
            if (begin < end)
              out.runs[std::size_t(out.count++)] = {
                  begin, end, xs.runs[ix].imaged || ys.runs[iy].imaged || zs.runs[iz].imaged};
          }
        }
    }
  return out;
}

}  // namespace murmur::sim
