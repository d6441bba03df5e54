// The parameter table (sim/param_table.hpp): its rows are consistent, they are ModelParams's
// defaults, the demo panel's sliders cover every row and keep the scene valid wherever they are,
// the view modes, and docs/model.md's tables say what the rows say. (The loader's side, every row
// accepted in range and rejected out of it, is in test_scene.cpp.)
#include <cstdlib>
#include <fstream>
#include <set>
#include <sstream>
#include <string>
#include <string_view>
#include <vector>

#include <gtest/gtest.h>

#include "sim/param_table.hpp"
#include "sim/scene.hpp"
#include "sim/scene_loader.hpp"

namespace murmur::sim {
namespace {

TEST(ParamTable, RowsHaveUniqueKeysDefaultsInRangeAndKnownBounds) {
  std::set<std::string> keys;
  for (const ModelParam& param : modelParams()) {
    EXPECT_TRUE(keys.insert(param.key()).second) << param.key();
    EXPECT_TRUE(param.inRange(param.defaultValue)) << param.key();
    EXPECT_FALSE(param.unit.empty()) << param.key();
    EXPECT_FALSE(param.meaning.empty()) << param.key();
    EXPECT_EQ(param.meaning.find('|'), std::string_view::npos) << param.key();  // a markdown cell
    EXPECT_EQ(&modelParam(param.key()), &param);
    if (!param.atMost.empty()) {
      EXPECT_LE(param.defaultValue, modelParam(param.atMost).defaultValue) << param.key();
    }
  }
  EXPECT_EQ(keys.size(), 40u);  // 29 parameters and 11 weights
  EXPECT_THROW(modelParam("weights.wind"), std::logic_error);
}

TEST(ParamTable, RowsAreTheDefaultsOfModelParams) {
  const ModelParams defaults;
  for (const ModelParam& param : modelParams())
    EXPECT_EQ(param.field.of(defaults), param.defaultValue) << param.key();
  // Hand-written, so that a row and its member cannot be swapped unnoticed.
  EXPECT_EQ(defaults.maxSpeed, 10.0f);
  EXPECT_EQ(defaults.minSpeed, 2.0f);
  EXPECT_EQ(defaults.dt, 1.0f / 60.0f);
  EXPECT_EQ(defaults.weights.separation, 1.5f);
  EXPECT_EQ(defaults.weights.walls, 3.0f);
}

TEST(ParamTable, RangeRulesAreTheLoadersMessages) {
  EXPECT_EQ(modelParam("sim.dt").rangeRule(), "must be in (0, 1]");
  EXPECT_EQ(modelParam("perception.fov_degrees").rangeRule(), "must be in (0, 360]");
  EXPECT_EQ(modelParam("boids.mass").rangeRule(), "must be above 0");
  EXPECT_EQ(modelParam("world.margin").rangeRule(), "must be at least 0");
  EXPECT_EQ(modelParam("weights.walls").rangeRule(), "must be at least 0");
}

// ---- The demo panel's sliders ----

Scene worldScene(glm::vec3 min, glm::vec3 max, int dims, Boundary boundary) {
  Scene scene;
  scene.model.worldMin = min;
  scene.model.worldMax = max;
  scene.model.dims = dims;
  scene.model.boundary = boundary;
  return scene;
}

std::vector<Scene> panelWorlds() {
  return {Scene{}, worldScene({0, 0, 0}, {30, 1, 30}, 2, Boundary::Wrap),
          worldScene({0, 0, 0}, {60, 1, 40}, 2, Boundary::Contain),
          worldScene({-1000, -1000, -1000}, {1000, 1000, 1000}, 3, Boundary::Contain),
          worldScene({0, 0, 0}, {40, 40, 40}, 3, Boundary::Wrap)};
}

TEST(ParamPanel, TheSliderListCoversEveryRowInTableOrder) {
  for (const Scene& scene : panelWorlds()) {
    const std::vector<EditRange> ranges = editRanges(scene.model);
    ASSERT_EQ(ranges.size(), modelParams().size());
    for (std::size_t i = 0; i < ranges.size(); ++i) EXPECT_EQ(ranges[i].param, &modelParams()[i]);
  }
}

// Wherever a slider is (its ends and middle), the panel's model is a valid scene, with the others
// as they are (after the panel's clampToAtMost).
TEST(ParamPanel, EverySliderPositionKeepsTheSceneValid) {
  for (const Scene& world : panelWorlds()) {
    ASSERT_NO_THROW(validateScene(world));
    for (const EditRange& range : editRanges(world.model)) {
      const ModelParam& param = *range.param;
      ASSERT_LE(range.low, range.high) << param.key();
      EXPECT_TRUE(param.inRange(range.low)) << param.key();
      EXPECT_TRUE(param.inRange(range.high)) << param.key();
      for (const float value : {range.low, 0.5f * (range.low + range.high), range.high}) {
        Scene scene = world;
        param.field.of(scene.model) = value;
        clampToAtMost(scene.model);
        EXPECT_NO_THROW(validateScene(scene)) << param.key() << " = " << value;
      }
    }
  }
}

TEST(ParamPanel, RangesFollowTheWorldAndTheBoundingParameter) {
  // 200 x 100 x 200, containing: R from 200/128 to a quarter of 100; the margin leaves an interior.
  const ModelParams defaults;
  EXPECT_EQ(editRange(modelParam("perception.radius"), defaults).low, 1.5625f);
  EXPECT_EQ(editRange(modelParam("perception.radius"), defaults).high, 25.0f);
  EXPECT_EQ(editRange(modelParam("world.margin"), defaults).high, 40.0f);
  EXPECT_EQ(editRange(modelParam("boids.min_speed"), defaults).high, 10.0f);
  EXPECT_EQ(editRange(modelParam("perception.separation_radius"), defaults).high, 5.0f);
  EXPECT_EQ(editRange(modelParam("weights.walls"), defaults).high, 10.0f);
  // Wrapping 30 x 30: up to half the extent, the slider's own floor below.
  const ModelParams wrap = worldScene({0, 0, 0}, {30, 1, 30}, 2, Boundary::Wrap).model;
  EXPECT_EQ(editRange(modelParam("perception.radius"), wrap).low, 0.5f);
  EXPECT_EQ(editRange(modelParam("perception.radius"), wrap).high, 15.0f);
  EXPECT_EQ(editRange(modelParam("world.margin"), wrap).high, 50.0f);
}

TEST(ParamPanel, ClampToAtMostLowersOnlyWhatExceedsItsBound) {
  ModelParams model;
  model.maxSpeed = 1.5f;
  model.perceptionRadius = 3.0f;
  model.cruiseSpeed = 9.0f;
  clampToAtMost(model);
  EXPECT_EQ(model.minSpeed, 1.5f);
  EXPECT_EQ(model.separationRadius, 2.0f);
  EXPECT_EQ(model.cruiseSpeed, 9.0f);
}

TEST(ParamPanel, ViewModeComboSetsBothValues) {
  ModelParams model;
  EXPECT_EQ(viewModeOf(model), nullptr);  // the defaults: R = 5 with fov 270 is no view of L = 0.1
  model.bodyLength = 0.5f;
  for (const ViewMode& mode : viewModes()) {
    applyViewMode(model, mode);
    EXPECT_EQ(model.fovDegrees, mode.fovDegrees);
    EXPECT_EQ(model.perceptionRadius, mode.name == "wide" ? 25.0f : mode.radiusLengths * 0.5f)
        << mode.name << ": kept on its slider (at most a quarter of the world's 100 high)";
    EXPECT_EQ(model.separationRadius, 2.5f);  // 5 body lengths
    EXPECT_EQ(viewModeOf(model), mode.name == "wide" ? nullptr : &mode);
  }
  EXPECT_EQ(model.fovDegrees, 90.0f);  // narrow, the last
  EXPECT_EQ(model.perceptionRadius, 25.0f);
  model.fovDegrees = 100.0f;
  EXPECT_EQ(viewModeOf(model), nullptr);
  // In a world 2000 wide the radius stays on its slider (at least 2000/128).
  ModelParams large = worldScene({-1000, -1000, -1000}, {1000, 1000, 1000}, 3, Boundary::Contain).model;
  applyViewMode(large, viewModes()[2]);
  EXPECT_EQ(large.fovDegrees, 90.0f);
  EXPECT_EQ(large.perceptionRadius, 15.625f);
}

// ---- docs/model.md ----

std::string trim(std::string_view cell) {
  const std::size_t first = cell.find_first_not_of(' ');
  if (first == std::string_view::npos) return "";
  return std::string(cell.substr(first, cell.find_last_not_of(' ') - first + 1));
}

std::string unquoted(const std::string& cell) {
  return cell.size() >= 2 && cell.front() == '`' && cell.back() == '`' ? cell.substr(1, cell.size() - 2)
                                                                       : cell;
}

// The rows under the header line `header` of a markdown table in `text` (the separator skipped),
// each as its trimmed cells.
std::vector<std::vector<std::string>> markdownRows(const std::string& text, const std::string& header) {
  std::istringstream lines(text);
  std::string line;
  while (std::getline(lines, line) && line != header) {
  }
  std::vector<std::vector<std::string>> rows;
  if (!lines || !std::getline(lines, line)) return rows;  // the |---| line
  while (std::getline(lines, line) && line.starts_with("| ")) {
    std::vector<std::string> cells;
    std::size_t start = 1;
    for (std::size_t bar = line.find('|', start); bar != std::string::npos; bar = line.find('|', start)) {
      cells.push_back(trim(std::string_view(line).substr(start, bar - start)));
      start = bar + 1;
    }
    rows.push_back(cells);
  }
  return rows;
}

// A number as model.md writes it: "0.25", "1e9", "1/60", "∞".
float docNumber(const std::string& text) {
  if (text == "∞") return kUnbounded;
  const std::size_t slash = text.find('/');
  if (slash != std::string::npos)
    return float(std::strtod(text.substr(0, slash).c_str(), nullptr) /
                 std::strtod(text.substr(slash + 1).c_str(), nullptr));
  char* end = nullptr;
  const double value = std::strtod(text.c_str(), &end);
  EXPECT_EQ(*end, '\0') << "not a number: " << text;
  return float(value);
}

std::string modelDoc() {
  std::ifstream file(std::string(MURMUR_SOURCE_DIR) + "/docs/model.md");
  std::stringstream text;
  text << file.rdbuf();
  return text.str();
}

TEST(ParamDocs, ModelMdHasEveryRowWithItsDefaultRangeUnitAndMeaning) {
  const std::vector<std::vector<std::string>> rows =
      markdownRows(modelDoc(), "| Key | Default | Range | Unit | Meaning |");
  ASSERT_EQ(rows.size(), modelParams().size());
  for (std::size_t i = 0; i < rows.size(); ++i) {
    const ModelParam& param = modelParams()[i];
    const std::vector<std::string>& row = rows[i];
    ASSERT_EQ(row.size(), 5u) << param.key();
    EXPECT_EQ(unquoted(row[0]), param.key());
    EXPECT_EQ(docNumber(row[1]), param.defaultValue) << param.key();
    // "[0, 1e9]", "(0, 360]", "[0, ∞)", "[0, 1e9], at most `boids.max_speed`"
    const std::string& range = row[2];
    const std::size_t comma = range.find(", "), close = range.find_first_of("])", comma);
    ASSERT_NE(close, std::string::npos) << range;
    EXPECT_EQ(range.front() == '[', param.minimumIncluded) << param.key();
    EXPECT_EQ(docNumber(range.substr(1, comma - 1)), param.minimum) << param.key();
    EXPECT_EQ(docNumber(range.substr(comma + 2, close - comma - 2)), param.maximum) << param.key();
    EXPECT_EQ(range[close], param.maximum == kUnbounded ? ')' : ']') << param.key();
    const std::string atMost = range.substr(close + 1);
    EXPECT_EQ(atMost, param.atMost.empty() ? "" : ", at most `" + std::string(param.atMost) + "`")
        << param.key();
    EXPECT_EQ(row[3], param.unit) << param.key();
    EXPECT_EQ(row[4], param.meaning) << param.key();
  }
}

TEST(ParamDocs, ModelMdHasEveryViewMode) {
  const std::vector<std::vector<std::string>> rows = markdownRows(
      modelDoc(), "| View | Field of view (degrees) | Perception radius (body lengths) | Sees |");
  ASSERT_EQ(rows.size(), viewModes().size());
  for (std::size_t i = 0; i < rows.size(); ++i) {
    const ViewMode& mode = viewModes()[i];
    ASSERT_EQ(rows[i].size(), 4u) << mode.name;
    EXPECT_EQ(unquoted(rows[i][0]), mode.name);
    EXPECT_EQ(docNumber(rows[i][1]), mode.fovDegrees) << mode.name;
    EXPECT_EQ(docNumber(rows[i][2]), mode.radiusLengths) << mode.name;
    EXPECT_EQ(rows[i][3], mode.sees);
  }
}

}  // namespace
}  // namespace murmur::sim
