#pragma once
// MovingAI benchmark files (movingai.com/benchmarks/formats.html): grid maps and scenario lists,
// read into ai/nav.hpp's GridMap and cells.
#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <iosfwd>
#include <string>
#include <vector>

#include "ai/nav.hpp"

namespace murmur::ai {

// Limits checked before and while reading (docs/model.md, Limits): a file's size, and a map row's
// text without its ending (a row of the widest map).
inline constexpr std::uint64_t kMaxMapBytes = std::uint64_t(272) << 20;  // 16384 rows of 16384 cells, CRLF
inline constexpr std::uint64_t kMaxScenarioBytes = std::uint64_t(256) << 20;
inline constexpr std::size_t kMaxMapLineBytes = 16384;

// A map file: "type octile", "height H", "width W" (either order), "map", then H rows of exactly W
// characters. Passable: '.' 'G' 'S' (swamp); blocked: '@' 'O' 'T' (trees) 'W' (water: not entered
// from ground). Trailing blank lines and a '\r' before each newline are accepted.
// Throws murmur::InputError naming the file, the line and what is wrong.
GridMap loadMovingAiMap(const std::filesystem::path& file);
// Same from a stream; source names it in errors.
GridMap parseMovingAiMap(std::istream& in, const std::string& source);

struct Scenario {
  std::uint32_t bucket = 0;
  std::string map;  // the map file as the row names it (often a path the benchmark sets used)
  std::int32_t mapWidth = 0;
  std::int32_t mapHeight = 0;
  Cell start;
  Cell goal;
  double optimalLength = 0.0;  // cells, 8-connected, diagonal sqrt(2), no corner cutting
  std::size_t line = 0;        // 1-based line in the file, for messages
};

// A scenario file: "version 1" (or "version 1.0"), then one row per scenario: bucket, map, map width,
// map height, start x, start y, goal x, goal y, optimal length (tab or space separated). Points must
// lie inside the width and height the row gives. Throws murmur::InputError naming file and line.
std::vector<Scenario> loadMovingAiScenarios(const std::filesystem::path& file);
std::vector<Scenario> parseMovingAiScenarios(std::istream& in, const std::string& source);

// A found length further than this from a scenario's optimal length is a mismatch (the files print
// lengths with 5 to 8 decimals).
inline constexpr double kOptimalLengthTolerance = 1e-3;
// Whether length is the scenario's optimal length, within kOptimalLengthTolerance: the one check of
// `murmur path --scen`, the A* benchmarks and the scenario tests.
bool isOptimalLength(const Scenario& scenario, double length);
// Whether a search found a path of the scenario's optimal length.
bool isOptimalPath(const Scenario& scenario, const PathResult& result);

// A* expands each cell of a map at most once a search, so a scenario file's worst case is the sum of
// its rows' map cells. `murmur path --scen` refuses files over this before reading a map (about 15
// minutes at 100 ns a cell; the largest MovingAI benchmark sets stay below 1e9), unless --force.
inline constexpr double kMaxScenarioCellVisits = 1e10;
double worstCaseCellVisits(const std::vector<Scenario>& scenarios);

// The map file a scenario row names, looked up beside the scenario file: first the name as written
// (relative to the scenario file's directory, or absolute), then its file name alone (benchmark sets
// name maps by their place in the set, e.g. "maps/dao/arena.map"). Empty when neither exists.
std::filesystem::path findScenarioMap(const std::filesystem::path& scenarioFile, const std::string& mapName);

}  // namespace murmur::ai
