// A* queries per second on grid maps (every scenario of each file, 8-connected, diagonal sqrt(2), no
// corner cutting), against a textbook A* with the same rules: std::priority_queue with lazy deletion
// and std::unordered_map for costs and parents. Items per second = queries.
// The rows: the project's own maps (data/maps, made by scripts/make_maps.py; share/murmur/data in a
// build or bundle), always; MovingAI's benchmark maps when a data directory holds them (movingai/ in
// $MURMUR_DATA_DIR: third-party, README "Maps").
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <functional>
#include <map>
#include <numbers>
#include <queue>
#include <string>
#include <system_error>
#include <unordered_map>
#include <utility>
#include <vector>

#include <benchmark/benchmark.h>
#include <fmt/format.h>

#include "ai/movingai.hpp"
#include "ai/nav.hpp"
#include "bench_common.hpp"
#include "core/error.hpp"
#include "core/install_dirs.hpp"

namespace {

using murmur::ai::Cell;
using murmur::ai::GridMap;

struct ScenarioSet {
  GridMap map;
  std::vector<murmur::ai::Scenario> scenarios;
  std::string error;  // non-empty when the files could not be loaded
};

// The scenario file (a path relative to a data directory) in the first data directory that holds it:
// $MURMUR_DATA_DIR, then share/murmur/data found from the program's own path; no path is compiled in.
// Empty when none does.
std::filesystem::path findInDataDirectories(const std::filesystem::path& relative) {
  for (const std::filesystem::path& dir : murmur::core::dataDirectories()) {
    std::error_code error;
    if (std::filesystem::is_regular_file(dir / relative, error)) return dir / relative;
  }
  return {};
}

// Loads a scenario file and the map its rows name, once per process.
const ScenarioSet& scenarioSet(const std::filesystem::path& file) {
  static std::map<std::filesystem::path, ScenarioSet> cache;
  auto [slot, added] = cache.try_emplace(file);
  ScenarioSet& set = slot->second;
  if (!added) return set;
  try {
    set.scenarios = murmur::ai::loadMovingAiScenarios(file);
    if (set.scenarios.empty()) throw murmur::InputError(file.string(), 0, "", "no scenarios");
    const std::filesystem::path mapFile = murmur::ai::findScenarioMap(file, set.scenarios.front().map);
    if (mapFile.empty()) throw murmur::InputError(file.string(), 0, "map", "map file not found");
    set.map = murmur::ai::loadMovingAiMap(mapFile);
  } catch (const murmur::InputError& error) {
    set.error = error.what();
  }
  return set;
}

// The textbook version: f-ordered std::priority_queue where stale entries are skipped when popped
// (lazy deletion instead of decrease-key), costs and parents in hash maps keyed by cell index.
// Returns the path length, or -1 when there is no path. The path is rebuilt as the real search does.
double textbookAStar(const GridMap& map, Cell start, Cell goal, std::vector<Cell>& path) {
  const auto key = [&](Cell cell) { return static_cast<std::uint32_t>(cell.y * map.width() + cell.x); };
  const auto cellOf = [&](std::uint32_t k) {
    return Cell{static_cast<std::int32_t>(k) % map.width(), static_cast<std::int32_t>(k) / map.width()};
  };
  const auto octile = [&](Cell cell) {
    const double dx = std::abs(goal.x - cell.x);
    const double dy = std::abs(goal.y - cell.y);
    return std::max(dx, dy) + (std::numbers::sqrt2 - 1.0) * std::min(dx, dy);
  };
  using Entry = std::pair<double, std::uint32_t>;  // f, cell key
  std::priority_queue<Entry, std::vector<Entry>, std::greater<>> open;
  std::unordered_map<std::uint32_t, double> cost;
  std::unordered_map<std::uint32_t, std::uint32_t> parent;
  path.clear();
  if (!map.passable(start) || !map.passable(goal)) return -1.0;
  cost[key(start)] = 0.0;
  open.emplace(octile(start), key(start));
  while (!open.empty()) {
    const auto [f, k] = open.top();
    open.pop();
    const Cell cell = cellOf(k);
    const double g = cost[k];
    if (f > g + octile(cell) + 1e-9) continue;  // stale: the cell was reached more cheaply since
    if (k == key(goal)) {
      for (std::uint32_t at = k;; at = parent[at]) {
        path.push_back(cellOf(at));
        if (at == key(start)) break;
      }
      std::reverse(path.begin(), path.end());
      return g;
    }
    for (std::int32_t dy = -1; dy <= 1; ++dy) {
      for (std::int32_t dx = -1; dx <= 1; ++dx) {
        if (dx == 0 && dy == 0) continue;
        const Cell next{cell.x + dx, cell.y + dy};
        if (!map.passable(next)) continue;
        const bool diagonal = dx != 0 && dy != 0;
        if (diagonal &&
            (!map.passable(Cell{cell.x + dx, cell.y}) || !map.passable(Cell{cell.x, cell.y + dy})))
          continue;
        const double nextCost = g + (diagonal ? std::numbers::sqrt2 : 1.0);
        auto [found, inserted] = cost.try_emplace(key(next), nextCost);
        if (!inserted && nextCost >= found->second) continue;
        found->second = nextCost;
        parent[key(next)] = k;
        open.emplace(nextCost + octile(next), key(next));
      }
    }
  }
  return -1.0;
}

void BM_AStar(benchmark::State& state, const std::filesystem::path& scenarioFile) {
  const ScenarioSet& set = scenarioSet(scenarioFile);
  if (!set.error.empty()) {
    state.SkipWithError(set.error.c_str());
    return;
  }
  murmur::ai::PathFinder finder(set.map);
  const murmur::ai::SearchOptions options = murmur::ai::searchOptions(murmur::ai::Connectivity::Eight);
  std::size_t expansions = 0;
  for (auto _ : state) {
    for (const murmur::ai::Scenario& scenario : set.scenarios) {
      const murmur::ai::PathResult result = finder.findPath(scenario.start, scenario.goal, options);
      if (!murmur::ai::isOptimalPath(scenario, result)) {
        state.SkipWithError("A* length differs from the scenario file's optimal length");
        return;
      }
      expansions += result.expansions;
      benchmark::DoNotOptimize(result.path.data());
    }
  }
  state.SetItemsProcessed(static_cast<std::int64_t>(state.iterations() * set.scenarios.size()));
  state.counters["expansions/query"] = benchmark::Counter(
      double(expansions) / double(state.iterations() * set.scenarios.size()), benchmark::Counter::kDefaults);
}

void BM_AStarTextbook(benchmark::State& state, const std::filesystem::path& scenarioFile) {
  const ScenarioSet& set = scenarioSet(scenarioFile);
  if (!set.error.empty()) {
    state.SkipWithError(set.error.c_str());
    return;
  }
  std::vector<Cell> path;
  for (auto _ : state) {
    for (const murmur::ai::Scenario& scenario : set.scenarios) {
      const double length = textbookAStar(set.map, scenario.start, scenario.goal, path);
      if (!murmur::ai::isOptimalLength(scenario, length)) {
        state.SkipWithError("textbook A* length differs from the scenario file's optimal length");
        return;
      }
      benchmark::DoNotOptimize(path.data());
    }
  }
  state.SetItemsProcessed(static_cast<std::int64_t>(state.iterations() * set.scenarios.size()));
}

}  // namespace

namespace murmur::bench {

void registerAStarBenchmarks() {
  // Row name, scenario file relative to a data directory. The project's maps first: they are always
  // there. A MovingAI row is registered only when its file is found, so a run never has rows that
  // cannot run for want of third-party data.
  const std::pair<const char*, const char*> rows[] = {
      {"rooms_65_81", "maps/rooms-65-81.map.scen"},
      {"maze_64_64_2", "maps/maze-64-64-2.map.scen"},
      {"arena", "movingai/arena.map.scen"},
      {"maze_32_32_2", "movingai/maze-32-32-2-random-1.scen"},
      {"room_32_32_4", "movingai/room-32-32-4-random-1.scen"},
      {"random_64_64_10", "movingai/random-64-64-10-random-1.scen"},
      {"den312d", "movingai/den312d-random-1.scen"},
      {"lak303d", "movingai/lak303d-random-1.scen"},
  };
  for (const auto& [name, relative] : rows) {
    const std::filesystem::path file = findInDataDirectories(relative);
    if (file.empty()) continue;
    benchmark::RegisterBenchmark(fmt::format("{}/{}", kAStarFamily, name).c_str(), BM_AStar, file)
        ->Unit(benchmark::kMillisecond);
    benchmark::RegisterBenchmark(fmt::format("{}/{}", kAStarTextbookFamily, name).c_str(), BM_AStarTextbook,
                                 file)
        ->Unit(benchmark::kMillisecond);
  }
}

}  // namespace murmur::bench
