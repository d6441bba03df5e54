#include "ai/movingai.hpp"

#include <cmath>
#include <istream>
#include <limits>
#include <optional>
#include <string_view>
#include <system_error>

#include <fmt/format.h>

#include "core/error.hpp"
#include "core/input_file.hpp"
#include "core/parse_number.hpp"

namespace murmur::ai {

namespace {

// Reads lines, counting them (1-based) and dropping a trailing '\r'.
class LineReader {
 public:
  LineReader(std::istream& in, const std::string& source) : in_(in), source_(source) {}

  // A map row is at most kMaxSide cells: a longer line is refused as it is read, never held whole.
  bool next() {
    if (!core::readBoundedLine(in_, text_, kMaxMapLineBytes, source_, number_ + 1)) return false;
    ++number_;
    return true;
  }
  const std::string& text() const { return text_; }
  std::size_t number() const { return number_; }

  [[noreturn]] void fail(const std::string& key, const std::string& message) const {
    throw InputError(source_, number_, key, message);
  }
  // For "the file ended early": names the line that is missing.
  [[noreturn]] void failAtEnd(const std::string& key, const std::string& message) const {
    throw InputError(source_, number_ + 1, key, message);
  }

 private:
  std::istream& in_;
  const std::string& source_;
  std::string text_;
  std::size_t number_ = 0;
};

std::vector<std::string_view> splitWords(std::string_view text) {
  std::vector<std::string_view> words;
  std::size_t position = 0;
  while (position < text.size()) {
    position = text.find_first_not_of(" \t", position);
    if (position == std::string_view::npos) break;
    std::size_t end = text.find_first_of(" \t", position);
    if (end == std::string_view::npos) end = text.size();
    words.push_back(text.substr(position, end - position));
    position = end;
  }
  return words;
}

bool isBlank(std::string_view text) {
  return text.find_first_not_of(" \t") == std::string_view::npos;
}

// A map's side from a header line "height N" / "width N".
std::int32_t parseSide(const LineReader& reader, std::string_view word, const std::string& key) {
  const std::optional<std::int32_t> side = core::parseNumber<std::int32_t>(word);
  if (!side || *side < 1 || *side > GridMap::kMaxSide)
    reader.fail(key, fmt::format("expected an integer in 1..{}, got '{}'", GridMap::kMaxSide, word));
  return *side;
}

// MovingAI terrain: which characters are passable from ground, which are blocked.
enum class Terrain { Passable, Blocked, Unknown };
Terrain terrainOf(char c) {
  switch (c) {
    case '.':
    case 'G':
    case 'S':  // swamp: passable
      return Terrain::Passable;
    case '@':
    case 'O':
    case 'T':  // trees
    case 'W':  // water: not entered from ground
      return Terrain::Blocked;
    default:
      return Terrain::Unknown;
  }
}

}  // namespace

GridMap loadMovingAiMap(const std::filesystem::path& file) {
  core::InputFile in(file.string(), kMaxMapBytes, "map file");
  return core::withMemoryReport(file.string(), [&] { return parseMovingAiMap(in.stream(), file.string()); });
}

GridMap parseMovingAiMap(std::istream& in, const std::string& source) {
  LineReader reader(in, source);
  if (!reader.next()) reader.failAtEnd("type", "empty file, expected 'type octile'");
  {
    std::vector<std::string_view> words = splitWords(reader.text());
    if (words.size() != 2 || words[0] != "type") reader.fail("type", "expected 'type octile'");
    if (words[1] != "octile") reader.fail("type", fmt::format("unsupported map type '{}'", words[1]));
  }
  std::int32_t height = 0;
  std::int32_t width = 0;
  while (height == 0 || width == 0) {
    if (!reader.next()) reader.failAtEnd("", "file ends in the header, expected 'height H' and 'width W'");
    std::vector<std::string_view> words = splitWords(reader.text());
    if (words.size() == 2 && words[0] == "height" && height == 0) {
      height = parseSide(reader, words[1], "height");
    } else if (words.size() == 2 && words[0] == "width" && width == 0) {
      width = parseSide(reader, words[1], "width");
    } else {
      reader.fail("", fmt::format("expected '{}'", height == 0 ? "height H" : "width W"));
    }
  }
  if (!reader.next()) reader.failAtEnd("map", "file ends in the header, expected 'map'");
  if (reader.text() != "map") reader.fail("map", "expected 'map'");

  GridMap map(width, height, false);
  for (std::int32_t y = 0; y < height; ++y) {
    if (!reader.next()) reader.failAtEnd("", fmt::format("file ends after {} of {} map rows", y, height));
    const std::string& row = reader.text();
    if (row.size() != static_cast<std::size_t>(width))
      reader.fail("", fmt::format("map row {} has {} characters, expected {}", y, row.size(), width));
    for (std::int32_t x = 0; x < width; ++x) {
      const char c = row[static_cast<std::size_t>(x)];
      const Terrain terrain = terrainOf(c);
      if (terrain == Terrain::Unknown) {
        const bool printable = c > ' ' && c < 127;
        reader.fail("", fmt::format("unexpected character {} at column {} (expected one of . G S @ O T W)",
                                    printable ? fmt::format("'{}'", c)
                                              : fmt::format("0x{:02x}", static_cast<unsigned char>(c)),
                                    x + 1));
      }
      if (terrain == Terrain::Passable) map.setPassable(Cell{x, y}, true);
    }
  }
  while (reader.next())
    if (!isBlank(reader.text())) reader.fail("", fmt::format("text after the {} map rows", height));
  return map;
}

std::vector<Scenario> loadMovingAiScenarios(const std::filesystem::path& file) {
  core::InputFile in(file.string(), kMaxScenarioBytes, "scenario file");
  return core::withMemoryReport(file.string(),
                                [&] { return parseMovingAiScenarios(in.stream(), file.string()); });
}

std::vector<Scenario> parseMovingAiScenarios(std::istream& in, const std::string& source) {
  LineReader reader(in, source);
  if (!reader.next()) reader.failAtEnd("version", "empty file, expected 'version 1'");
  {
    std::vector<std::string_view> words = splitWords(reader.text());
    if (words.size() != 2 || words[0] != "version") reader.fail("version", "expected 'version 1'");
    if (words[1] != "1" && words[1] != "1.0")
      reader.fail("version", fmt::format("unsupported scenario version '{}'", words[1]));
  }
  std::vector<Scenario> scenarios;
  while (reader.next()) {
    if (isBlank(reader.text())) continue;
    std::vector<std::string_view> words = splitWords(reader.text());
    if (words.size() != 9)
      reader.fail("", fmt::format("expected 9 fields (bucket map width height start-x start-y goal-x "
                                  "goal-y optimal-length), got {}",
                                  words.size()));
    Scenario scenario;
    scenario.line = reader.number();
    scenario.map = std::string(words[1]);
    auto integer = [&](std::size_t field, const char* key, std::int32_t low, std::int32_t high) {
      const std::optional<std::int32_t> value = core::parseNumber<std::int32_t>(words[field]);
      if (!value || *value < low || *value > high)
        reader.fail(key, fmt::format("expected an integer in {}..{}, got '{}'", low, high, words[field]));
      return *value;
    };
    scenario.bucket =
        static_cast<std::uint32_t>(integer(0, "bucket", 0, std::numeric_limits<std::int32_t>::max()));
    scenario.mapWidth = integer(2, "width", 1, GridMap::kMaxSide);
    scenario.mapHeight = integer(3, "height", 1, GridMap::kMaxSide);
    scenario.start.x = integer(4, "start x", 0, scenario.mapWidth - 1);
    scenario.start.y = integer(5, "start y", 0, scenario.mapHeight - 1);
    scenario.goal.x = integer(6, "goal x", 0, scenario.mapWidth - 1);
    scenario.goal.y = integer(7, "goal y", 0, scenario.mapHeight - 1);
    const std::optional<double> optimalLength = core::parseNumber<double>(words[8]);
    if (!optimalLength || !std::isfinite(*optimalLength) || *optimalLength < 0.0)
      reader.fail("optimal length", fmt::format("expected a length >= 0, got '{}'", words[8]));
    scenario.optimalLength = *optimalLength;
    scenarios.push_back(std::move(scenario));
  }
  return scenarios;
}

std::filesystem::path findScenarioMap(const std::filesystem::path& scenarioFile, const std::string& mapName) {
  const std::filesystem::path directory = scenarioFile.parent_path();
  const std::filesystem::path named(mapName);
  for (const std::filesystem::path& candidate : {directory / named, directory / named.filename()}) {
    std::error_code error;
    if (std::filesystem::is_regular_file(candidate, error)) return candidate;
  }
  return {};
}

double worstCaseCellVisits(const std::vector<Scenario>& scenarios) {
  double cells = 0.0;
  for (const Scenario& scenario : scenarios) cells += double(scenario.mapWidth) * double(scenario.mapHeight);
  return cells;
}

bool isOptimalLength(const Scenario& scenario, double length) {
  return std::abs(length - scenario.optimalLength) <= kOptimalLengthTolerance;
}

bool isOptimalPath(const Scenario& scenario, const PathResult& result) {
  return result.status == PathStatus::Found && isOptimalLength(scenario, result.length);
}

}  // namespace murmur::ai
