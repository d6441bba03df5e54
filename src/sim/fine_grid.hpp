#pragma once
// The topological rule's adaptive range (docs/model.md, step 2): a grid finer than the search
// radius over the flock's box, holding the cell order's boids again, so that each boid's search
// reaches about as far as its K-th nearest did last step (and a margin) rather than the 3x3x3
// cells of R. The neighbours it settles are exactly those the search of R finds: where the range
// misses any of them, that boid is searched again over R (sim/neighbour_sweep).
#include <cstddef>
#include <cstdint>
#include <vector>

#include <glm/vec3.hpp>

#include "sim/grid.hpp"
#include "sim/neighbour_sweep.hpp"
#include "sim/params.hpp"

namespace murmur::sim {

// Fine cells per search radius R: a typical range (the K-th nearest and the margin, about a
// quarter of R in the murmuration) then spans 2 or 3 cells an axis (docs/architecture.md, Tuning
// constants).
inline constexpr float kFineCellsPerRadius = 3.0f;
// The margin a boid's range gets over last step's, in max_speed dt (the most a boid moves in a
// step): wider settles a few more boids and tests more candidates for all of them.
inline constexpr float kRangeMargin = 0.3f;
// At most this many fine cells per boid: a flock spread wide grows the cells instead.
inline constexpr std::size_t kFineCellsPerBoid = 4;

struct FineGrid {
  glm::vec3 origin{0.0f};  // the flock's box's low corner
  float cellWidth = 1.0f;
  glm::ivec3 cells{1};
  std::vector<std::uint32_t> cellStart;  // per fine cell: its first fine slot; cellCount + 1 entries
  std::vector<std::uint32_t> slot;       // per fine slot: the boid's slot in the cell order
  std::vector<std::uint32_t> fineSlot;   // per slot of the cell order: its fine slot
  // Per fine slot, as SortedFlock's (positions and groups padded by kSweepPadding).
  std::vector<float> x, y, z;
  std::vector<glm::vec3> heading;
  std::vector<std::uint32_t> group, id;
  std::vector<std::uint32_t> nextFree;  // the sort's scratch: each cell's next fine slot

  // The cell-ordered flock's n boids sorted again by fine cell, stable in slot; cells of R /
  // kFineCellsPerRadius, wider where the box would need more than kFineCellsPerBoid a boid.
  // A non-finite coordinate goes to the first cell along its axis, as the grid's do.
  void build(const SortedFlock& sorted, std::size_t n, float radius, int dims);

  SortedFlock flock() const {
    return {x.data(), y.data(), z.data(), heading.data(), group.data(), id.data()};
  }
  glm::ivec3 cellCoord(glm::vec3 p) const {
    const glm::vec3 c = (p - origin) / cellWidth;
    return {GridSpec::clampedCell(c.x, cells.x), GridSpec::clampedCell(c.y, cells.y),
            GridSpec::clampedCell(c.z, cells.z)};
  }
  std::uint32_t cellIndex(glm::ivec3 c) const {
    return static_cast<std::uint32_t>((c.z * cells.y + c.y) * cells.x + c.x);
  }
};

// What a step's sweep needs of the adaptive range: the fine grid, and each boid's range (by id),
// read and written by its own sweep: last step's distance to its K-th nearest, 0 where unknown
// (then the search of R runs). margin: how much farther this step's is tried (kRangeMargin).
struct AdaptiveRange {
  const FineGrid* grid = nullptr;
  float* range = nullptr;
  float margin = 0.0f;
};

// Where the grid search takes the adaptive range: the topological rule in a world that does not
// wrap (the fine grid spans the flock's box, which a torus has no single one of).
inline bool usesAdaptiveRange(const ModelParams& params, const GridSpec& grid) {
  return params.topologicalNeighbours != 0 && !grid.wrap;
}

}  // namespace murmur::sim
