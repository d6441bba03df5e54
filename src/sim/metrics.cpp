#include "sim/metrics.hpp"

#include <algorithm>
#include <atomic>
#include <bit>
#include <cmath>
#include <cstdlib>
#include <limits>
#include <span>

#include <glm/geometric.hpp>
#include <glm/trigonometric.hpp>

#include "core/output_path.hpp"
#include "sim/grid.hpp"
#include "sim/rules.hpp"

namespace murmur::sim {
namespace {

constexpr std::size_t kSummaryCellsPerBoid = 8;

// The squared distance from the boid in sorted slot `slot` (in cell `home` of `grid`) to its
// nearest other boid, at most `best2`, the nearest in the 3x3x3 cells around `home` (rings 0 and 1,
// already searched). Searches the cells in rings of growing Chebyshev radius k >= 2 around `home`:
// a boid in a cell k or more cells away on some axis is at least (k - 1) cell widths away (also
// through the wrap, where offsets are taken at their minimum image), so the search stops once
// best2 is within that. On a grid of a few cells per boid this is a ring or two however sparse the
// flock, instead of a scan of every boid.
template <class Distance2>
float nearestByRings(const GridSpec& grid, const CellOrder& cells, std::span<const glm::vec3> sortedPositions,
                     int dims, std::size_t slot, glm::ivec3 home, float best2, const Distance2& distance2) {
  glm::ivec3 lo, hi;  // the cell offsets that reach each cell of an axis exactly once
  float width = std::numeric_limits<float>::infinity();
  int rings = 0;
  for (int k = 0; k < 3; ++k) {
    const int n = grid.cells[k];
    if (grid.wrap) {
      lo[k] = -(n - 1) / 2;
      hi[k] = n / 2;
    } else {
      lo[k] = -home[k];
      hi[k] = n - 1 - home[k];
    }
    rings = std::max({rings, -lo[k], hi[k]});
    if (!(k == 1 && dims == 2)) width = std::min(width, grid.cellSize[k]);
  }
  const auto wrapped = [&](int c, int n) { return c < 0 ? c + n : c >= n ? c - n : c; };
  const auto visitCell = [&](int x, int y, int z) {
    const std::uint32_t cell =
        grid.cellIndex({wrapped(x, grid.cells.x), wrapped(y, grid.cells.y), wrapped(z, grid.cells.z)});
    for (std::uint32_t s = cells.cellStart[cell]; s < cells.cellStart[cell + 1]; ++s)
      if (s != slot) best2 = std::min(best2, distance2(sortedPositions[s]));
  };
  for (int k = 2; k <= rings; ++k) {
    const float reach = float(k - 1) * width;  // every boid not yet visited is at least this far
    if (best2 <= reach * reach) break;
    for (int dz = std::max(lo.z, -k); dz <= std::min(hi.z, k); ++dz)
      for (int dy = std::max(lo.y, -k); dy <= std::min(hi.y, k); ++dy) {
        if (std::abs(dz) == k || std::abs(dy) == k) {  // a face of the ring: every x
          for (int dx = std::max(lo.x, -k); dx <= std::min(hi.x, k); ++dx)
            visitCell(home.x + dx, home.y + dy, home.z + dz);
        } else {  // inside: only the two x ends
          if (-k >= lo.x) visitCell(home.x - k, home.y + dy, home.z + dz);
          if (k <= hi.x) visitCell(home.x + k, home.y + dy, home.z + dz);
        }
      }
  }
  return best2;
}

// The grid the summaries search: cells of at least R, at most kSummaryCellsPerBoid a boid, so the
// table stays O(N) in a sparse world (a step's grid of up to 2^24 cells, allocated afresh, cost more
// than the whole summary).
GridSpec summaryGrid(const ModelParams& params, std::size_t boids) {
  return makeGridSpec(params, static_cast<std::uint32_t>(
                                  std::min<std::size_t>(boids * kSummaryCellsPerBoid, kDefaultMaxCells)));
}

// The exponent bits all set: an infinity or a NaN.
bool anyNonFinite(std::span<const float> values) {
  std::uint32_t bad = 0;
  for (const float x : values)
    bad |= std::uint32_t((std::bit_cast<std::uint32_t>(x) & 0x7f800000u) == 0x7f800000u);
  return bad != 0;
}

std::span<const float> floats(const std::vector<glm::vec3>& v) {
  return {&v.data()->x, 3 * v.size()};
}

bool boidFinite(const FlockState& state, std::size_t i) {
  const auto finite = [](glm::vec3 v) {
    return std::isfinite(v.x) && std::isfinite(v.y) && std::isfinite(v.z);
  };
  return finite(state.position[i]) && finite(state.velocity[i]) &&
         (state.heading.empty() || finite(state.heading[i])) &&
         (state.attitude.empty() || std::isfinite(state.attitude[i]));
}

}  // namespace

bool allFinite(const FlockState& state) {
  if (state.position.empty()) return true;
  return !anyNonFinite(floats(state.position)) && !anyNonFinite(floats(state.velocity)) &&
         (state.heading.empty() || !anyNonFinite(floats(state.heading))) && !anyNonFinite(state.attitude);
}

std::optional<std::size_t> firstNonFinite(const FlockState& state) {
  for (std::size_t i = 0; i < state.size(); ++i)
    if (!boidFinite(state, i)) return i;
  return std::nullopt;
}

std::vector<IdRun> positionSampleRuns(std::size_t boids) {
  constexpr std::size_t kRuns = 64, kRunLength = 64;
  if (boids <= kRuns * kRunLength) return boids == 0 ? std::vector<IdRun>{} : std::vector<IdRun>{{0, boids}};
  std::vector<IdRun> runs(kRuns);
  for (std::size_t r = 0; r < kRuns; ++r) runs[r] = {r * (boids - kRunLength) / (kRuns - 1), kRunLength};
  return runs;
}

std::vector<glm::vec3> samplePositions(const FlockState& state) {
  std::vector<glm::vec3> sample;
  for (const IdRun& run : positionSampleRuns(state.size()))
    sample.insert(sample.end(), state.position.begin() + std::ptrdiff_t(run.first),
                  state.position.begin() + std::ptrdiff_t(run.first + run.count));
  return sample;
}

std::vector<GroupSummary> summarizeGroups(const FlockState& state) {
  std::vector<GroupSummary> groups(state.groups);
  std::vector<glm::dvec3> positionSum(state.groups, glm::dvec3(0.0)),
      velocitySum(state.groups, glm::dvec3(0.0));
  for (std::size_t i = 0; i < state.size(); ++i) {
    const std::uint32_t g = state.group[i];
    ++groups[g].count;
    if (i < state.leader.size()) groups[g].leaders += state.leader[i];
    positionSum[g] += glm::dvec3(state.position[i]);
    velocitySum[g] += glm::dvec3(state.velocity[i]);
  }
  for (std::uint32_t g = 0; g < state.groups; ++g) {
    if (groups[g].count == 0) continue;
    groups[g].centroid = glm::vec3(positionSum[g] / double(groups[g].count));
    groups[g].meanVelocity = glm::vec3(velocitySum[g] / double(groups[g].count));
  }
  return groups;
}

FlockMetrics measureFlock(const ModelParams& params, const FlockState& state) {
  FlockMetrics m;
  const std::size_t n = state.size();
  if (n == 0) return m;
  const bool wrap = params.boundary == Boundary::Wrap;
  const glm::vec3 size = params.worldSize();
  const float r2 = params.perceptionRadius * params.perceptionRadius;
  WorkerPool pool;
  const GridSpec grid = summaryGrid(params, n);
  CellOrder cells;
  cells.build(grid, state.position, pool);
  // Positions, headings and groups in cell order, and the boids visited in that order: neighbouring
  // boids are read contiguously and stay in cache from one boid to the next.
  std::vector<glm::vec3> sortedPositions(n), sortedHeadings(n);
  std::vector<std::uint32_t> sortedGroups(n);
  for (std::size_t s = 0; s < n; ++s) {
    const std::uint32_t i = cells.order[s];
    sortedPositions[s] = state.position[i];
    sortedHeadings[s] = heading(state.velocity[i]);
    sortedGroups[s] = state.group[i];
  }
  std::vector<double> polarization(n), nearest(n), along(n);  // per boid id; along -1: none within R
  std::atomic<std::uint64_t> nonFinite{0};
  pool.forChunks(n, boidChunk(n, 256), [&](std::size_t first, std::size_t last) {
    if (core::stopSignal() != 0) return;  // a dense million takes a minute: a stop is seen within a chunk
    for (std::size_t slot = first; slot < last; ++slot) {
      const std::uint32_t i = cells.order[slot];
      const glm::vec3 pi = sortedPositions[slot];
      const glm::vec3 vi = state.velocity[i];
      if (!std::isfinite(pi.x + pi.y + pi.z + vi.x + vi.y + vi.z))
        nonFinite.fetch_add(1, std::memory_order_relaxed);
      glm::dvec3 headingSum(sortedHeadings[slot]);
      std::size_t count = 1;
      float best2 = std::numeric_limits<float>::infinity();
      glm::vec3 bestOffset(0.0f);
      auto offsetTo = [&](glm::vec3 pj) {
        const glm::vec3 d = pj - pi;
        return wrap ? minimumImage(d, size) : d;
      };
      auto distance2 = [&](glm::vec3 pj) {
        const glm::vec3 d = offsetTo(pj);
        return glm::dot(d, d);
      };
      const glm::ivec3 home = grid.cellCoord(pi);
      forEachNeighbourRange(grid, cells, home, params.dims,
                            [&](std::uint32_t begin, std::uint32_t end, bool) {
                              for (std::uint32_t s = begin; s < end; ++s) {
                                if (s == slot) continue;
                                const glm::vec3 d = offsetTo(sortedPositions[s]);
                                const float d2 = glm::dot(d, d);
                                if (d2 < best2) {
                                  best2 = d2;
                                  bestOffset = d;
                                }
                                if (d2 < r2 && sortedGroups[s] == sortedGroups[slot]) {
                                  headingSum += glm::dvec3(sortedHeadings[s]);
                                  ++count;
                                }
                              }
                            });
      if (!(best2 < r2))  // nothing within R: the nearest boid may lie beyond the adjacent cells
        best2 = nearestByRings(grid, cells, sortedPositions, params.dims, slot, home, best2, distance2);
      const double bestDistance = std::sqrt(double(best2));
      along[i] =
          best2 < r2 && bestDistance > 0.0
              ? std::abs(glm::dot(glm::dvec3(sortedHeadings[slot]), glm::dvec3(bestOffset))) / bestDistance
              : -1.0;
      polarization[i] = count > 1 ? glm::length(headingSum / double(count)) : -1.0;  // -1: isolated
      nearest[i] = bestDistance;
    }
  });
  core::throwIfStopRequested();
  double polarizationSum = 0.0, speedSum = 0.0, nearestSum = 0.0, alongSum = 0.0;
  std::size_t withNeighbours = 0, withNearest = 0;
  m.minSpeed = std::numeric_limits<double>::infinity();
  m.maxSpeed = 0.0;
  m.minPairDistance = std::numeric_limits<double>::infinity();
  for (std::size_t i = 0; i < n; ++i) {
    const double speed = glm::length(glm::dvec3(state.velocity[i]));
    if (polarization[i] >= 0.0) {
      polarizationSum += polarization[i];
      ++withNeighbours;
    }
    speedSum += speed;
    nearestSum += nearest[i];
    if (along[i] >= 0.0) {
      alongSum += along[i];
      ++withNearest;
    }
    m.minSpeed = std::min(m.minSpeed, speed);
    m.maxSpeed = std::max(m.maxSpeed, speed);
    m.minPairDistance = std::min(m.minPairDistance, nearest[i]);
  }
  m.localPolarization = withNeighbours > 0 ? polarizationSum / double(withNeighbours) : 0.0;
  m.boidsWithNeighbours = withNeighbours;
  m.meanSpeed = speedSum / double(n);
  m.meanNearestDistance = n > 1 ? nearestSum / double(n) : 0.0;
  m.nearestAlongHeading = withNearest > 0 ? alongSum / double(withNearest) : 0.0;
  if (n < 2) m.minPairDistance = 0.0;
  m.nonFinite = nonFinite.load();
  return m;
}

}  // namespace murmur::sim

namespace murmur::sim {
namespace {

// Union-find with path halving and union by size.
class Components {
 public:
  explicit Components(std::size_t n) : parent_(n), size_(n, 1) {
    for (std::size_t i = 0; i < n; ++i) parent_[i] = static_cast<std::uint32_t>(i);
  }
  std::uint32_t find(std::uint32_t i) {
    while (parent_[i] != i) i = parent_[i] = parent_[parent_[i]];
    return i;
  }
  void join(std::uint32_t a, std::uint32_t b) {
    a = find(a);
    b = find(b);
    if (a == b) return;
    if (size_[a] < size_[b]) std::swap(a, b);
    parent_[b] = a;
    size_[a] += size_[b];
  }
  std::size_t sizeOf(std::uint32_t root) const { return size_[root]; }

 private:
  std::vector<std::uint32_t> parent_;
  std::vector<std::size_t> size_;
};

// The eigenvalues of a symmetric 3x3 matrix, largest first (the trigonometric closed form of
// O. K. Smith, "Eigenvalues of a symmetric 3x3 matrix", CACM 4(4), 1961).
glm::dvec3 symmetricEigenvalues(const double a[3][3]) {
  const double offDiagonal = a[0][1] * a[0][1] + a[0][2] * a[0][2] + a[1][2] * a[1][2];
  glm::dvec3 e;
  if (offDiagonal == 0.0) {
    e = {a[0][0], a[1][1], a[2][2]};
  } else {
    const double q = (a[0][0] + a[1][1] + a[2][2]) / 3.0;
    const double p2 = (a[0][0] - q) * (a[0][0] - q) + (a[1][1] - q) * (a[1][1] - q) +
                      (a[2][2] - q) * (a[2][2] - q) + 2.0 * offDiagonal;
    const double p = std::sqrt(p2 / 6.0);
    double b[3][3];
    for (int r = 0; r < 3; ++r)
      for (int c = 0; c < 3; ++c) b[r][c] = (a[r][c] - (r == c ? q : 0.0)) / p;
    const double det = b[0][0] * (b[1][1] * b[2][2] - b[1][2] * b[2][1]) -
                       b[0][1] * (b[1][0] * b[2][2] - b[1][2] * b[2][0]) +
                       b[0][2] * (b[1][0] * b[2][1] - b[1][1] * b[2][0]);
    const double phi = std::acos(std::clamp(det / 2.0, -1.0, 1.0)) / 3.0;
    constexpr double kThird = 2.0943951023931954923;  // 2 pi / 3
    e.x = q + 2.0 * p * std::cos(phi);
    e.z = q + 2.0 * p * std::cos(phi + kThird);
    e.y = 3.0 * q - e.x - e.z;
  }
  if (e.x < e.y) std::swap(e.x, e.y);
  if (e.y < e.z) std::swap(e.y, e.z);
  if (e.x < e.y) std::swap(e.x, e.y);
  return e;
}

// A unit eigenvector of the symmetric 3x3 matrix a for its eigenvalue lambda: the largest cross
// product of two rows of a - lambda I. Where lambda is a double eigenvalue (every cross product
// near zero against the largest eigenvalue, largest), the vector of its plane nearest `toward`;
// where it is a triple one, `toward`.
glm::dvec3 symmetricEigenvector(const double a[3][3], double lambda, double largest, glm::dvec3 toward) {
  const glm::dvec3 rows[3] = {{a[0][0] - lambda, a[0][1], a[0][2]},
                              {a[1][0], a[1][1] - lambda, a[1][2]},
                              {a[2][0], a[2][1], a[2][2] - lambda}};
  constexpr double kRelative = 1e-12;
  const double big = largest * largest;
  glm::dvec3 best(0.0), row(0.0);
  for (int i = 0; i < 3; ++i) {
    const glm::dvec3 c = glm::cross(rows[i], rows[(i + 1) % 3]);
    if (glm::dot(c, c) > glm::dot(best, best)) best = c;
    if (glm::dot(rows[i], rows[i]) > glm::dot(row, row)) row = rows[i];
  }
  if (glm::dot(best, best) > kRelative * big * big) return glm::normalize(best);
  if (glm::dot(row, row) <= kRelative * big) return toward;
  // Rank 1: the eigenvectors are the plane normal to the row left.
  const glm::dvec3 n = glm::normalize(row);
  const glm::dvec3 inPlane = toward - glm::dot(toward, n) * n;
  if (glm::dot(inPlane, inPlane) > kRelative) return glm::normalize(inPlane);
  return glm::normalize(glm::cross(n, std::abs(n.x) < 0.9 ? glm::dvec3(1, 0, 0) : glm::dvec3(0, 0, 1)));
}

}  // namespace

FlockShape measureFlockShape(const ModelParams& params, const FlockState& state) {
  FlockShape shape;
  const std::size_t n = state.size();
  if (n == 0) return shape;
  const bool wrap = params.boundary == Boundary::Wrap;
  const glm::vec3 size = params.worldSize();
  const float r2 = params.perceptionRadius * params.perceptionRadius;
  WorkerPool pool;
  const GridSpec grid = summaryGrid(params, n);
  CellOrder cells;
  cells.build(grid, state.position, pool);
  Components components(n);
  for (std::size_t slot = 0; slot < n; ++slot) {
    if (slot % 4096 == 0) core::throwIfStopRequested();
    const std::uint32_t i = cells.order[slot];
    const glm::vec3 pi = state.position[i];
    forEachNeighbourRange(grid, cells, grid.cellCoord(pi), params.dims,
                          [&](std::uint32_t begin, std::uint32_t end, bool) {
                            for (std::uint32_t s = begin; s < end; ++s) {
                              const std::uint32_t j = cells.order[s];
                              if (j <= i) continue;  // each pair once
                              glm::vec3 d = state.position[j] - pi;
                              if (wrap) d = minimumImage(d, size);
                              if (glm::dot(d, d) < r2) components.join(i, j);
                            }
                          });
  }
  std::uint32_t largestRoot = 0;
  for (std::uint32_t i = 0; i < n; ++i) {
    const std::uint32_t root = components.find(i);
    if (root != i) continue;
    ++shape.flocks;
    if (components.sizeOf(root) > shape.largest) {
      shape.largest = components.sizeOf(root);
      largestRoot = root;
    }
  }
  shape.largestFraction = double(shape.largest) / double(n);
  glm::dvec3 headingSum(0.0), mean(0.0);
  for (std::uint32_t i = 0; i < n; ++i)
    if (components.find(i) == largestRoot) {
      headingSum += glm::dvec3(heading(state.velocity[i]));
      mean += glm::dvec3(state.position[i]);
    }
  const double count = double(shape.largest);
  shape.polarization = glm::length(headingSum / count);
  mean /= count;
  double covariance[3][3] = {};
  for (std::uint32_t i = 0; i < n; ++i)
    if (components.find(i) == largestRoot) {
      const glm::dvec3 d = glm::dvec3(state.position[i]) - mean;
      for (int r = 0; r < 3; ++r)
        for (int c = 0; c < 3; ++c) covariance[r][c] += d[r] * d[c] / count;
    }
  const glm::dvec3 variances = symmetricEigenvalues(covariance);
  shape.extents = {std::sqrt(std::max(variances.x, 0.0)), std::sqrt(std::max(variances.y, 0.0)),
                   std::sqrt(std::max(variances.z, 0.0))};
  shape.thinness = shape.extents.x > 0.0 ? shape.extents.z / shape.extents.x : 0.0;
  shape.widthRatio = shape.extents.x > 0.0 ? shape.extents.y / shape.extents.x : 0.0;
  constexpr glm::dvec3 kUp(0.0, 1.0, 0.0);
  const glm::dvec3 thin = symmetricEigenvector(covariance, variances.z, variances.x, kUp);
  shape.thinAxisTilt = glm::degrees(std::acos(std::clamp(std::abs(thin.y), 0.0, 1.0)));
  return shape;
}

}  // namespace murmur::sim
