// murmur path: A* on a MovingAI map, one query (--from/--to) or every scenario of a .scen file
// (--scen), checked against the file's optimal lengths.
#include <algorithm>
#include <array>
#include <chrono>
#include <cstdint>
#include <filesystem>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <system_error>
#include <vector>

#include <fmt/format.h>

#include "ai/movingai.hpp"
#include "ai/nav.hpp"
#include "app/cli_checks.hpp"
#include "app/command.hpp"
#include "app/progress.hpp"
#include "app/report.hpp"
#include "core/error.hpp"
#include "core/install_dirs.hpp"
#include "core/memory.hpp"
#include "core/output_path.hpp"
#include "core/parse_number.hpp"
#include "render/png_writer.hpp"
#include "session/session.hpp"

namespace murmur::app {
namespace {

namespace fs = std::filesystem;
using ai::Cell;

// Mismatches listed one by one in the text output; the count covers all of them.
constexpr std::size_t kMismatchesListed = 10;

// "X,Y" -> a cell; option names the flag in errors.
Cell parsePoint(const std::string& text, const std::string& option) {
  const std::size_t comma = text.find(',');
  const std::string_view all(text);
  const std::optional<std::int32_t> x =
      comma == std::string::npos ? std::nullopt : core::parseNumber<std::int32_t>(all.substr(0, comma));
  const std::optional<std::int32_t> y =
      comma == std::string::npos ? std::nullopt : core::parseNumber<std::int32_t>(all.substr(comma + 1));
  if (!x || !y) throw InputError("", 0, option, fmt::format("expected X,Y (two integers), got '{}'", text));
  return Cell{*x, *y};
}

// A query endpoint must be a passable cell of the map.
void checkEndpoint(const ai::GridMap& map, const std::string& mapFile, Cell cell, const std::string& option) {
  if (!map.contains(cell))
    throw InputError(
        mapFile, 0, option,
        fmt::format("({},{}) is outside the {}x{} map", cell.x, cell.y, map.width(), map.height()));
  if (!map.passable(cell))
    throw InputError(mapFile, 0, option, fmt::format("({},{}) is a blocked cell", cell.x, cell.y));
}

OrderedJson cellJson(Cell cell) {
  return OrderedJson::array({cell.x, cell.y});
}

OrderedJson pathJson(const std::vector<Cell>& path) {
  OrderedJson json = OrderedJson::array();
  for (const Cell& cell : path) json.push_back(cellJson(cell));
  return json;
}

// A --map or --scen file: the path itself when it is a file; else, relative, in each data directory
// ($MURMUR_DATA_DIR, then share/murmur/data beside murmur), directly or under maps/ (the project's)
// or movingai/ (MovingAI's). InputError naming every place tried.
std::string findDataFile(const std::string& given, const std::string& option) {
  const fs::path path(given);
  std::error_code error;
  if (fs::is_regular_file(path, error) || path.is_absolute()) return given;
  std::vector<fs::path> tried{path};
  for (const fs::path& dir : core::dataDirectories())
    for (const fs::path& sub : {fs::path(), fs::path("maps"), fs::path("movingai")})
      tried.push_back(dir / sub / path);
  for (const fs::path& candidate : tried)
    if (fs::is_regular_file(candidate, error)) return candidate.lexically_normal().string();
  std::string places;
  for (const fs::path& candidate : tried)
    places += (places.empty() ? "" : ", ") + candidate.lexically_normal().string();
  throw InputError(given, 0, option, fmt::format("no such file (tried {})", places));
}

// --png: a map of at most kMaxPictureSide cells a side is drawn, at 1 to kMaxCellPixels pixels a
// cell: as many as fit the map's longer side into kPicturePixels, one for a larger map.
constexpr std::int32_t kMaxPictureSide = 4096;
constexpr int kMaxCellPixels = 16;
constexpr int kPicturePixels = 1024;

// The map and a route as RGBA pixels, a square of `scale` pixels a cell: open cells light, blocked
// dark, the route red, its start green and its goal blue.
std::vector<std::uint8_t> routePicture(const ai::GridMap& map, const std::vector<Cell>& route, Cell start,
                                       Cell goal, int scale) {
  using Colour = std::array<std::uint8_t, 3>;
  std::vector<Colour> cells(std::size_t(map.width()) * std::size_t(map.height()));
  const auto at = [&](Cell c) -> Colour& {
    return cells[std::size_t(c.y) * std::size_t(map.width()) + std::size_t(c.x)];
  };
  for (std::int32_t y = 0; y < map.height(); ++y)
    for (std::int32_t x = 0; x < map.width(); ++x)
      at({x, y}) = map.passable({x, y}) ? Colour{236, 236, 230} : Colour{40, 44, 52};
  for (const Cell& c : route) at(c) = {214, 40, 40};
  at(start) = {30, 160, 60};
  at(goal) = {40, 90, 220};
  const std::size_t width = std::size_t(map.width()) * std::size_t(scale);
  std::vector<std::uint8_t> rgba(width * std::size_t(map.height()) * std::size_t(scale) * 4);
  for (std::size_t py = 0; py < rgba.size() / 4 / width; ++py)
    for (std::size_t px = 0; px < width; ++px) {
      const Colour& c = cells[py / std::size_t(scale) * std::size_t(map.width()) + px / std::size_t(scale)];
      std::uint8_t* pixel = &rgba[(py * width + px) * 4];
      pixel[0] = c[0];
      pixel[1] = c[1];
      pixel[2] = c[2];
      pixel[3] = 255;
    }
  return rgba;
}

double secondsSince(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

class PathCommand final : public Command {
 public:
  void configure(CLI::App& sub) override {
    sub.add_option(
           "--map", map_,
           "Map file in the MovingAI format, also looked for in the data directories ($MURMUR_DATA_DIR, "
           "share/murmur/data) and their maps/ and movingai/ (optional with --scen: the rows name their map)")
        ->type_name("FILE")
        ->check(nonEmpty());
    sub.add_option("--from", from_, "Start cell (column, row; 0,0 is the top-left)")
        ->type_name("X,Y")
        ->check(nonEmpty());
    sub.add_option("--to", to_, "Goal cell")->type_name("X,Y")->check(nonEmpty());
    sub.add_option(
           "--scen", scen_,
           "Scenario file (.scen; looked for like --map): run every scenario and check its optimal length")
        ->type_name("FILE")
        ->check(nonEmpty());
    sub.add_option("--connect", connect_, "Neighbours of a cell, 4 or 8 (default 8; --scen needs 8)")
        ->type_name("4|8")
        ->check(integerIn(4, 8))
        ->check(CLI::IsMember({4, 8}));
    sub.add_option("--heuristic", heuristic_,
                   "A* heuristic: manhattan (4-connected only), octile or euclidean (default: the tightest "
                   "admissible one, manhattan for 4, octile for 8)")
        ->type_name("NAME")
        ->check(nonEmpty());
    sub.add_flag(
        "--force", force_,
        "Run a scenario file even when its worst case (every cell of each row's map expanded) is over the "
        "limit");
    sub.add_option("--png", png_,
                   fmt::format("Draw the map and the route of --from/--to into this PNG (maps up to {} cells "
                               "a side, 1 to {} pixels a cell)",
                               kMaxPictureSide, kMaxCellPixels))
        ->type_name("FILE")
        ->check(nonEmpty());
    sub.add_flag("--json", json_,
                 "Print only a JSON summary object on stdout (the human summary goes to stderr)");
    sub.footer(
        "Examples:\n  murmur path --map rooms-65-81.map --from 8,4 --to 56,76\n"
        "  murmur path --map rooms-65-81.map --from 8,4 --to 56,76 --png route.png\n"
        "  murmur path --scen rooms-65-81.map.scen");
  }

  int run() override {
    if (!map_.empty()) map_ = findDataFile(map_, "--map");
    if (!scen_.empty()) scen_ = findDataFile(scen_, "--scen");
    const bool query = !from_.empty() || !to_.empty();
    if (query && !scen_.empty())
      throw InputError("", 0, "--scen", "give either --from/--to or --scen, not both");
    if (!png_.empty() && !query) throw InputError("", 0, "--png", "draws the route of --from/--to");
    if (!png_.empty()) core::checkOutputFile(png_, "--png");
    if (query) return runQuery();
    if (!scen_.empty()) return runScenarios();
    throw InputError("", 0, "", "give --from X,Y --to X,Y or --scen F.scen");
  }

 private:
  int runQuery() {
    if (from_.empty() || to_.empty())
      throw InputError("", 0, from_.empty() ? "--from" : "--to", "--from and --to go together");
    if (map_.empty()) throw InputError("", 0, "--map", "required with --from/--to");
    const Cell start = parsePoint(from_, "--from");
    const Cell goal = parsePoint(to_, "--to");
    const ai::GridMap map = ai::loadMovingAiMap(map_);
    core::checkMemory(ai::PathFinder::bytesFor(map.nodeCount()),
                      fmt::format("the A* nodes of the {}x{} map", map.width(), map.height()), map_, 0,
                      "--map");
    checkEndpoint(map, map_, start, "--from");
    checkEndpoint(map, map_, goal, "--to");
    const std::int32_t side = std::max(map.width(), map.height());
    if (!png_.empty() && side > kMaxPictureSide)
      throw InputError(map_, 0, "--png",
                       fmt::format("the map is {}x{} cells; --png draws maps up to {} cells a side",
                                   map.width(), map.height(), kMaxPictureSide));

    const ai::SearchOptions options = searchOptions(connectivity());
    ai::PathFinder finder(map);
    const auto begin = std::chrono::steady_clock::now();
    const ai::PathResult result = finder.findPath(start, goal, options);
    const double seconds = secondsSince(begin);

    fmt::print(summaryStream(json_), "map {} ({}x{}) | {}-connected | {} | ({},{}) -> ({},{})\n", map_,
               map.width(), map.height(), connect_, ai::toString(options.heuristic), start.x, start.y, goal.x,
               goal.y);
    fmt::print(summaryStream(json_), "status {} | length {:.8f} | expansions {} | {:.3f} ms\n",
               ai::toString(result.status), result.length, result.expansions, seconds * 1e3);
    std::string cells;
    for (const Cell& cell : result.path) cells += fmt::format(" ({},{})", cell.x, cell.y);
    fmt::print(summaryStream(json_), "path{}\n", cells.empty() ? " none" : cells);
    if (!png_.empty()) {
      const int scale = std::clamp(kPicturePixels / side, 1, kMaxCellPixels);
      std::vector<render::TextTag> tags = session::programTags();
      tags.insert(tags.end(), {{"map", fs::absolute(map_).lexically_normal().string()},
                               {"from", from_},
                               {"to", to_},
                               {"connect", std::to_string(connect_)},
                               {"heuristic", std::string(ai::toString(options.heuristic))},
                               {"status", std::string(ai::toString(result.status))},
                               {"length", fmt::format("{:.8f}", result.length)}});
      render::writePng(png_, map.width() * scale, map.height() * scale,
                       routePicture(map, result.path, start, goal, scale), "--png", tags);
      fmt::print(summaryStream(json_), "route drawn to {} ({} pixels a cell)\n", png_, scale);
    }
    if (json_)
      printJson({{"command", "path"},
                 {"map", map_},
                 {"connect", connect_},
                 {"heuristic", ai::toString(options.heuristic)},
                 {"from", cellJson(start)},
                 {"to", cellJson(goal)},
                 {"status", ai::toString(result.status)},
                 {"length", jsonNumber(result.length)},
                 {"expansions", result.expansions},
                 {"seconds", jsonNumber(seconds)},
                 {"path", pathJson(result.path)}});
    return 0;
  }

  int runScenarios() {
    if (connect_ != 8)
      throw InputError("", 0, "--connect", "--scen checks the scenario files' 8-connected optimal lengths");
    const std::vector<ai::Scenario> scenarios = ai::loadMovingAiScenarios(scen_);
    if (scenarios.empty()) throw InputError(scen_, 0, "", "no scenarios in the file");
    const double worstCase = ai::worstCaseCellVisits(scenarios);
    if (!force_ && worstCase > ai::kMaxScenarioCellVisits)
      throw InputError(
          scen_, 0, "--scen",
          fmt::format("{} scenarios on maps of {:.2g} cells in all: up to {:.2g} cell expansions, over the "
                      "limit of {:.2g}; split the file or pass --force to run anyway",
                      scenarios.size(), worstCase, worstCase, ai::kMaxScenarioCellVisits));

    // Maps by file, each with its finder; loaded before timing starts.
    struct LoadedMap {
      ai::GridMap map;
      std::unique_ptr<ai::PathFinder> finder;
    };
    std::map<fs::path, LoadedMap> maps;
    std::vector<LoadedMap*> mapOf;  // per scenario
    std::uint64_t mapCells = 0;     // of the maps loaded, each with its finder
    for (const ai::Scenario& scenario : scenarios) {
      fs::path file = map_;
      if (file.empty()) {
        file = ai::findScenarioMap(scen_, scenario.map);
        if (file.empty())
          throw InputError(
              scen_, scenario.line, "map",
              fmt::format("map '{}' not found beside the scenario file (or give --map)", scenario.map));
      }
      auto [slot, added] = maps.try_emplace(file);
      if (added) {
        mapCells += std::uint64_t(scenario.mapWidth) * std::uint64_t(scenario.mapHeight);
        core::checkMemory(ai::PathFinder::bytesFor(mapCells),
                          fmt::format("the A* nodes of the {} map{} up to this row", maps.size(),
                                      maps.size() == 1 ? "" : "s"),
                          scen_, scenario.line, "map");
        slot->second.map = ai::loadMovingAiMap(file);
        slot->second.finder = std::make_unique<ai::PathFinder>(slot->second.map);
      }
      const ai::GridMap& map = slot->second.map;
      if (map.width() != scenario.mapWidth || map.height() != scenario.mapHeight)
        throw InputError(scen_, scenario.line, "width",
                         fmt::format("the row's map is {}x{}, {} is {}x{}", scenario.mapWidth,
                                     scenario.mapHeight, file.string(), map.width(), map.height()));
      mapOf.push_back(&slot->second);
    }

    const ai::SearchOptions options = searchOptions(ai::Connectivity::Eight);
    std::vector<ai::PathResult> results;
    results.reserve(scenarios.size());
    ProgressBar progress(scenarios.size(), "scenario");
    const auto begin = std::chrono::steady_clock::now();
    for (std::size_t i = 0; i < scenarios.size(); ++i) {
      core::throwIfStopRequested();
      results.push_back(mapOf[i]->finder->findPath(scenarios[i].start, scenarios[i].goal, options));
      progress.update(i + 1);
    }
    const double seconds = secondsSince(begin);

    std::vector<std::size_t> mismatches;  // indices
    std::uint64_t expansions = 0;
    for (std::size_t i = 0; i < scenarios.size(); ++i) {
      expansions += results[i].expansions;
      if (!ai::isOptimalPath(scenarios[i], results[i])) mismatches.push_back(i);
    }
    const double count = double(scenarios.size());
    const double microsecondsPerQuery = seconds * 1e6 / count;

    std::string mapNames;
    for (const auto& [file, loaded] : maps) mapNames += (mapNames.empty() ? "" : ", ") + file.string();
    fmt::print(summaryStream(json_), "scenarios {} | {} | map {} | {}\n", scenarios.size(), scen_, mapNames,
               ai::toString(options.heuristic));
    fmt::print(summaryStream(json_), "mismatches {}\n", mismatches.size());
    for (std::size_t k = 0; k < mismatches.size() && k < kMismatchesListed; ++k) {
      const ai::Scenario& s = scenarios[mismatches[k]];
      const ai::PathResult& r = results[mismatches[k]];
      fmt::print(summaryStream(json_), "  line {}: ({},{}) -> ({},{}) optimal {:.8f}, got {} {:.8f}\n",
                 s.line, s.start.x, s.start.y, s.goal.x, s.goal.y, s.optimalLength, ai::toString(r.status),
                 r.length);
    }
    if (mismatches.size() > kMismatchesListed)
      fmt::print(summaryStream(json_), "  ... {} more\n", mismatches.size() - kMismatchesListed);
    fmt::print(summaryStream(json_), "time per query {:.2f} us | total {:.4f} s | mean expansions {:.1f}\n",
               microsecondsPerQuery, seconds, double(expansions) / count);
    if (json_) {
      OrderedJson lines = OrderedJson::array();
      for (const std::size_t k : mismatches) lines.push_back(scenarios[k].line);
      printJson({{"command", "path"},
                 {"scen", scen_},
                 {"map", mapNames},
                 {"connect", 8},
                 {"heuristic", ai::toString(options.heuristic)},
                 {"scenarios", scenarios.size()},
                 {"mismatches", mismatches.size()},
                 {"mismatch_lines", lines},
                 {"seconds", jsonNumber(seconds)},
                 {"us_per_query", jsonNumber(microsecondsPerQuery)},
                 {"mean_expansions", jsonNumber(double(expansions) / count)}});
    }
    return mismatches.empty() ? 0 : 1;
  }

  ai::Connectivity connectivity() const {
    return connect_ == 4 ? ai::Connectivity::Four : ai::Connectivity::Eight;
  }

  // --heuristic (validated: a known name, admissible for the connectivity), or the connectivity's default.
  ai::SearchOptions searchOptions(ai::Connectivity connectivity) const {
    ai::SearchOptions options = ai::searchOptions(connectivity);
    if (heuristic_.empty()) return options;
    const std::optional<ai::Heuristic> named = ai::heuristicNamed(heuristic_);
    if (!named)
      throw InputError(
          "", 0, "--heuristic",
          fmt::format("unknown heuristic \"{}\" (accepted: {})", heuristic_, ai::heuristicNames()));
    if (!ai::isAdmissible(*named, connectivity))
      throw InputError(
          "", 0, "--heuristic",
          fmt::format("{} overestimates with {}-connected moves, so A* would miss shortest paths", heuristic_,
                      static_cast<int>(connectivity)));
    options.heuristic = *named;
    return options;
  }

  std::string map_;
  std::string from_;
  std::string to_;
  std::string scen_;
  std::string png_;
  int connect_ = 8;
  std::string heuristic_;
  bool force_ = false;
  bool json_ = false;
};

}  // namespace

MURMUR_REGISTER_COMMAND(PathCommand, "path", "A* on a MovingAI map: one query or a whole scenario file");

}  // namespace murmur::app
