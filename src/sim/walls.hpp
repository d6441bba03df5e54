#pragma once
// Walls for the boids: a grid of blocked cells in the x-z plane (infinite in y), e.g. a MovingAI
// map rasterised into the world by the ai module. The model's wall term (docs/model.md, step 6b)
// samples it ahead of each boid; cells outside the grid are free.
#include <cstdint>
#include <vector>

#include <glm/vec2.hpp>
#include <glm/vec3.hpp>

namespace murmur::sim {

struct WallGrid {
  glm::vec2 origin{0.0f};   // world x, z of the corner of cell (0, 0)
  float cellSize = 1.0f;    // units, > 0 (square cells)
  std::uint32_t width = 0;  // cells along x
  std::uint32_t height = 0; // cells along z
  std::vector<std::uint8_t> blocked;  // width * height, row-major (x fastest); 1 = wall

  // The cell containing world point p, or -1 outside the grid.
  std::int64_t cellAt(glm::vec3 p) const {
    const float fx = (p.x - origin.x) / cellSize, fz = (p.z - origin.y) / cellSize;
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
    const auto cx = static_cast<float>(cell % std::int64_t(width)), cz = static_cast<float>(cell / std::int64_t(width));
    return {origin.x + (cx + 0.5f) * cellSize, 0.0f, origin.y + (cz + 0.5f) * cellSize};
  }
};

}  // namespace murmur::sim
