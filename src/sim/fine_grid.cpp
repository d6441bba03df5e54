#include "sim/fine_grid.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

#include "sim/grid.hpp"

namespace murmur::sim {

void FineGrid::build(const SortedFlock& sorted, std::size_t n, float radius, int dims) {
  glm::vec3 low(std::numeric_limits<float>::infinity()), high(-std::numeric_limits<float>::infinity());
  for (std::size_t k = 0; k < n; ++k) {
    const glm::vec3 p{sorted.x[k], sorted.y[k], sorted.z[k]};
    if (!std::isfinite(p.x) || !std::isfinite(p.y) || !std::isfinite(p.z)) continue;
    low = glm::min(low, p);
    high = glm::max(high, p);
  }
  if (!(low.x <= high.x)) low = high = glm::vec3(0.0f);
  if (dims == 2) high.y = low.y;
  const glm::vec3 size = high - low;
  // The cells' width: R / kFineCellsPerRadius, grown until the box holds at most
  // kFineCellsPerBoid cells a boid (and a 32-bit count).
  const double most =
      std::min<double>(double(std::max<std::size_t>(n, 1)) * kFineCellsPerBoid, double(1u << 30));
  double width = std::max(double(radius) / double(kFineCellsPerRadius), 1e-6);
  const auto cellsFor = [&](double w) {
    return glm::dvec3(std::floor(double(size.x) / w) + 1, std::floor(double(size.y) / w) + 1,
                      std::floor(double(size.z) / w) + 1);
  };
  const auto total = [](glm::dvec3 c) { return c.x * c.y * c.z; };
  while (total(cellsFor(width)) > most) width *= 1.25;
  origin = low;
  cellWidth = float(width);
  cells = glm::ivec3(cellsFor(width));
  const std::size_t count = std::size_t(cells.x) * std::size_t(cells.y) * std::size_t(cells.z);
  // A counting sort by fine cell, stable in slot.
  cellStart.assign(count + 1, 0);
  fineSlot.resize(n);
  for (std::size_t k = 0; k < n; ++k) {
    const std::uint32_t cell = cellIndex(cellCoord({sorted.x[k], sorted.y[k], sorted.z[k]}));
    fineSlot[k] = cell;
    ++cellStart[cell + 1];
  }
  for (std::size_t c = 0; c < count; ++c) cellStart[c + 1] += cellStart[c];
  nextFree.assign(cellStart.begin(), cellStart.end() - 1);
  slot.resize(n);
  for (std::size_t k = 0; k < n; ++k) {
    const std::uint32_t f = nextFree[fineSlot[k]]++;
    fineSlot[k] = f;
    slot[f] = static_cast<std::uint32_t>(k);
  }
  for (std::vector<float>* axis : {&x, &y, &z}) {
    axis->resize(n + kSweepPadding);
    std::fill(axis->begin() + std::ptrdiff_t(n), axis->end(), std::numeric_limits<float>::infinity());
  }
  heading.resize(n);
  group.resize(n + kSweepPadding);
  id.resize(n);
  for (std::size_t f = 0; f < n; ++f) {
    const std::uint32_t k = slot[f];
    x[f] = sorted.x[k];
    y[f] = sorted.y[k];
    z[f] = sorted.z[k];
    heading[f] = sorted.heading[k];
    group[f] = sorted.group[k];
    id[f] = sorted.id[k];
  }
}

}  // namespace murmur::sim
