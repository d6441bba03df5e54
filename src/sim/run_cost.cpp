#include "sim/run_cost.hpp"

#include <algorithm>
#include <cmath>
#include <numbers>
#include <vector>

#include <fmt/format.h>

#include "core/error.hpp"
#include "sim/grid.hpp"
#include "sim/neighbour_sweep.hpp"

namespace murmur::sim {

RunCost estimateRunCost(const ModelParams& params, std::span<const glm::vec3> positions,
                        std::uint64_t steps) {
  RunCost cost;
  cost.boids = positions.size();
  cost.steps = steps;
  if (positions.empty()) return cost;
  const GridSpec grid = makeGridSpec(params);
  std::vector<std::uint32_t> inCell(grid.cellCount(), 0);
  std::vector<glm::ivec3> occupied;
  for (const glm::vec3& p : positions) {
    const glm::ivec3 c = grid.cellCoord(p);
    if (inCell[grid.cellIndex(c)]++ == 0) occupied.push_back(c);
  }
  // The topological rule's sweep (sim/neighbour_sweep), where the cell holds more than
  // kSeedingCellPerNeighbour K boids, tests its own cell, then the cells within its reach: about
  // the radius that holds K + 1 boids at the cell's density, or Rs where larger (the front cone,
  // when tested, is usually filled within it). A boid evenly placed in its cell has the cell across
  // a face within that reach with odds reach / width (at most 1), on each axis.
  const std::uint32_t k = params.topologicalNeighbours;
  glm::vec3 cellVolumeAxes = grid.cellSize;
  if (params.dims == 2) cellVolumeAxes.y = 1.0f;
  const float cellVolume = cellVolumeAxes.x * cellVolumeAxes.y * cellVolumeAxes.z;
  double tests = 0.0;
  for (const glm::ivec3& c : occupied) {
    const std::uint32_t own = inCell[grid.cellIndex(c)];
    glm::vec3 odds(1.0f);
    const bool seeded = k != 0 && own > kSeedingCellPerNeighbour * k;
    if (seeded) {
      const double density = double(own) / double(cellVolume);
      const double holdsK = params.dims == 3
                                ? std::cbrt(3.0 * double(k + 1) / (4.0 * std::numbers::pi * density))
                                : std::sqrt(double(k + 1) / (std::numbers::pi * density));
      const double reach =
          std::min(std::max(holdsK, double(params.separationRadius)), double(params.searchRadius()));
      for (int axis = 0; axis < 3; ++axis)
        if (!(grid.wrap && grid.cells[axis] < 5))
          odds[axis] = float(std::min(reach / double(grid.cellSize[axis]), 1.0));
    }
    // The same cells the searches visit, each once even where a wrapped axis has fewer than 3.
    const AxisRuns xs = neighbourRuns(c.x, grid.cells.x, grid.wrap);
    const AxisRuns ys = neighbourRuns(c.y, grid.cells.y, grid.wrap && params.dims == 3);
    const AxisRuns zs = neighbourRuns(c.z, grid.cells.z, grid.wrap);
    const auto weight = [&](int axis, int q) { return q == c[axis] ? 1.0 : double(odds[axis]); };
    double around = seeded ? double(own) : 0.0;  // the topological sweep's first pass
    for (int iz = 0; iz < zs.count; ++iz)
      for (int z = zs.runs[iz].first; z <= zs.runs[iz].last; ++z)
        for (int iy = 0; iy < ys.count; ++iy)
          for (int y = ys.runs[iy].first; y <= ys.runs[iy].last; ++y)
            for (int ix = 0; ix < xs.count; ++ix)
              for (int x = xs.runs[ix].first; x <= xs.runs[ix].last; ++x)
                around += weight(0, x) * weight(1, y) * weight(2, z) * inCell[grid.cellIndex({x, y, z})];
    tests += double(own) * around;
  }
  cost.candidatesPerBoid = tests / double(positions.size());
  return cost;
}

namespace {

std::string duration(double seconds) {
  if (seconds < 120.0) return fmt::format("{:.0f} s", seconds);
  if (seconds < 7200.0) return fmt::format("{:.0f} min", seconds / 60.0);
  if (seconds < 172800.0) return fmt::format("{:.1f} h", seconds / 3600.0);
  return fmt::format("{:.0f} days", seconds / 86400.0);
}

// What a packed flock may do instead (checkSpawnCost, checkRunCost); `widen`: by how much at least.
std::string packedWaysOut(const std::string& widen, const std::string& forceFlag) {
  return fmt::format(
      "lower --boids, widen the world{} ([world] min, max), take a scene made for it (murmuration), or pass "
      "{}",
      widen, forceFlag);
}

}  // namespace

void checkSpawnCost(const ModelParams& params, std::uint64_t boids, const std::string& path,
                    const std::string& forceFlag) {
  const double cells = double(makeGridSpec(params).cellCount());
  const double tests = double(boids) * double(boids) / cells;
  if (tests <= kMaxStepCandidateTests) return;
  const double widen = std::pow(tests / kMaxStepCandidateTests, 1.0 / (params.dims == 2 ? 2.0 : 3.0));
  throw InputError(
      path, 0, "boids.count",
      fmt::format("the flock would be packed too densely: {} boids in the world's {:.0f} grid "
                  "cells test at least {:.2g} candidates a step, about {} a step on one core "
                  "(the limit is {:.2g}); {}",
                  boids, cells, tests, duration(tests / kReferenceTestsPerSecond), kMaxStepCandidateTests,
                  packedWaysOut(fmt::format(" at least {:.1f}x on each axis", widen), forceFlag)));
}

void checkRunCost(const RunCost& cost, const std::string& path, const std::string& forceFlag) {
  const std::string perStep = fmt::format(
      "{} boids x {:.0f} candidates = {:.2g} candidate tests a step, about {} a step on one core", cost.boids,
      cost.candidatesPerBoid, cost.testsPerStep(), duration(cost.testsPerStep() / kReferenceTestsPerSecond));
  if (cost.testsPerStep() > kMaxStepCandidateTests)
    throw InputError(path, 0, "boids.count",
                     fmt::format("the flock is packed too densely: {} (the limit is {:.2g} a step); {}",
                                 perStep, kMaxStepCandidateTests, packedWaysOut("", forceFlag)));
  if (cost.totalTests() > kMaxRunCandidateTests)
    throw InputError(
        path, 0, "sim.steps",
        fmt::format("the run is too long: {} steps x ({:.2g} candidate tests + {:g} for the step's own "
                    "work) = {:.2g}, about {} on one core (the limit is {:.2g}); lower the steps (--steps) "
                    "or the count (--boids), or pass {} to run anyway",
                    cost.steps, cost.testsPerStep(), kStepOverheadTests, cost.totalTests(),
                    duration(cost.totalTests() / kReferenceTestsPerSecond), kMaxRunCandidateTests,
                    forceFlag));
}

}  // namespace murmur::sim
