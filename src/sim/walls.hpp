#pragma once
// Walls for the boids: a grid of blocked cells in the x-z plane (infinite in y), e.g. a MovingAI
// map rasterised into the world by the ai module. The model's wall term (docs/model.md, step 6b)
// samples it ahead of each boid; cells outside the grid are free.
#include <cstdint>
#include <vector>

#include <glm/vec2.hpp>
#include <glm/vec3.hpp>

namespace murmur::sim {

// Where a grid of square cells lies in the world's x-z plane: cell (i, j) covers world x in
// [origin.x + i * cellSize, + cellSize) and z in [origin.y + j * cellSize, + cellSize); world y
// (height) is ignored. The one world <-> cell rule of the walls (below, and wallCellAt in
// shaders/common/Rules.glsl, bit for bit) and of the agents' navigation grid (ai/nav.hpp).
struct GridPlacement {
  glm::vec2 origin{0.0f};  // world x, z of the corner of cell (0, 0)
  float cellSize = 1.0f;   // units, > 0 (square cells)

  // World point p in cell units along x and z (cell (i, j) holds i <= u < i + 1, j <= v < j + 1), in
  // float as Rules.glsl computes it.
  glm::vec2 gridUnits(glm::vec3 p) const {
    return {(p.x - origin.x) / cellSize, (p.z - origin.y) / cellSize};
  }
  // The world point at the centre of cell (cx, cz), at world height y.
  glm::vec3 centreOf(float cx, float cz, float y = 0.0f) const {
    return {origin.x + (cx + 0.5f) * cellSize, y, origin.y + (cz + 0.5f) * cellSize};
  }
};

struct WallGrid : GridPlacement {
  std::uint32_t width = 0;            // cells along x
  std::uint32_t height = 0;           // cells along z
  std::vector<std::uint8_t> blocked;  // width * height, row-major (x fastest); 1 = wall

  // The cell containing world point p, or -1 outside the grid.
  std::int64_t cellAt(glm::vec3 p) const {
    const glm::vec2 units = gridUnits(p);
    const float fx = units.x, fz = units.y;
    // Range-checked as floats before the casts (a far point, 1e30, has no int64 value); also
    // rejects NaN. float(width) may round up, hence the integer check after.
    if (!(fx >= 0.0f && fx < float(width)) || !(fz >= 0.0f && fz < float(height))) return -1;
    const auto cx = static_cast<std::int64_t>(fx), cz = static_cast<std::int64_t>(fz);
    if (cx >= std::int64_t(width) || cz >= std::int64_t(height)) return -1;
    return cz * std::int64_t(width) + cx;
  }
  bool blockedAt(glm::vec3 p) const {
    const std::int64_t cell = cellAt(p);
    return cell >= 0 && blocked[static_cast<std::size_t>(cell)] != 0;
  }
  // World x, z of a cell's centre (y = 0).
  glm::vec3 cellCentre(std::int64_t cell) const {
    return centreOf(static_cast<float>(cell % std::int64_t(width)),
                    static_cast<float>(cell / std::int64_t(width)));
  }
};

}  // namespace murmur::sim
