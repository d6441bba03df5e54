#include "sim/run_cost.hpp"

#include <vector>

#include <fmt/format.h>

#include "core/error.hpp"
#include "sim/grid.hpp"

namespace murmur::sim {

RunCost estimateRunCost(const ModelParams& params, std::span<const glm::vec3> positions, std::uint64_t steps) {
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
  double tests = 0.0;
  for (const glm::ivec3& c : occupied) {
    // The same cells the searches visit, each once even where a wrapped axis has fewer than 3.
    const AxisRuns xs = neighbourRuns(c.x, grid.cells.x, grid.wrap);
    const AxisRuns ys = neighbourRuns(c.y, grid.cells.y, grid.wrap && params.dims == 3);
    const AxisRuns zs = neighbourRuns(c.z, grid.cells.z, grid.wrap);
    double around = 0.0;
    for (int iz = 0; iz < zs.count; ++iz)
      for (int z = zs.runs[iz].first; z <= zs.runs[iz].last; ++z)
        for (int iy = 0; iy < ys.count; ++iy)
          for (int y = ys.runs[iy].first; y <= ys.runs[iy].last; ++y)
            for (int ix = 0; ix < xs.count; ++ix)
              for (int x = xs.runs[ix].first; x <= xs.runs[ix].last; ++x) around += inCell[grid.cellIndex({x, y, z})];
    tests += double(inCell[grid.cellIndex(c)]) * around;
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

}  // namespace

void checkRunCost(const RunCost& cost, const std::string& path, const std::string& forceFlag) {
  const std::string perStep =
      fmt::format("{} boids x {:.0f} candidates = {:.2g} candidate tests a step, about {} a step on one core", cost.boids,
                  cost.candidatesPerBoid, cost.testsPerStep(), duration(cost.testsPerStep() / kReferenceTestsPerSecond));
  if (cost.testsPerStep() > kMaxStepCandidateTests)
    throw InputError(path, 0, "boids.count",
                     fmt::format("the flock is packed too densely: {} (the limit is {:.2g} a step); lower the count "
                                 "(--boids) or pass {} to run anyway",
                                 perStep, kMaxStepCandidateTests, forceFlag));
  if (cost.totalTests() > kMaxRunCandidateTests)
    throw InputError(path, 0, "sim.steps",
                     fmt::format("the run is too long: {} steps x {:.2g} candidate tests = {:.2g}, about {} on one core "
                                 "(the limit is {:.2g}); lower the steps (--steps) or the count (--boids), or pass {} to "
                                 "run anyway",
                                 cost.steps, cost.testsPerStep(), cost.totalTests(),
                                 duration(cost.totalTests() / kReferenceTestsPerSecond), kMaxRunCandidateTests, forceFlag));
}

}  // namespace murmur::sim
