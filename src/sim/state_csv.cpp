#include "sim/state_csv.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdio>
#include <optional>
#include <string_view>
#include <utility>

#include <fmt/format.h>

#include "core/error.hpp"
#include "core/input_file.hpp"
#include "core/output_path.hpp"
#include "core/parse_number.hpp"
#include "sim/scene_loader.hpp"
#include "sim/stability.hpp"
#include "sim/starling_model.hpp"

namespace murmur::sim {
namespace {

constexpr std::array<std::string_view, 8> kColumns = {"id", "group", "x", "y", "z", "vx", "vy", "vz"};
// A starling's bank, radians: the ninth column of a starling scene's state (docs/model.md, The
// starlings' flight).
constexpr std::string_view kBankColumn = "bank";

// What is wrong with a starling's bank; nothing when it is within +-most (model.max_bank, radians:
// starlingBody's maxBank).
std::optional<std::string> bankProblem(float most, float bank) {
  if (std::abs(bank) <= most) return std::nullopt;
  return fmt::format("{} is beyond +-{:.9g} radians (model.max_bank)", bank, most);
}

std::string_view trimLineEnd(std::string_view line) {
  while (!line.empty() && (line.back() == '\r' || line.back() == '\n')) line.remove_suffix(1);
  return line;
}

std::vector<std::string_view> splitFields(std::string_view line) {
  std::vector<std::string_view> fields;
  std::size_t start = 0;
  for (;;) {
    const std::size_t comma = line.find(',', start);
    fields.push_back(
        line.substr(start, comma == std::string_view::npos ? std::string_view::npos : comma - start));
    if (comma == std::string_view::npos) return fields;
    start = comma + 1;
  }
}

class RowParser {
 public:
  RowParser(const std::string& path, std::size_t line) : path_(path), line_(line) {}

  std::uint64_t integer(std::string_view text, std::string_view column) const {
    const std::optional<std::uint64_t> value = core::parseNumber<std::uint64_t>(text);
    if (!value) fail(column, fmt::format("not a non-negative integer: '{}'", text));
    return *value;
  }

  float real(std::string_view text, std::string_view column) const {
    const std::optional<float> value = core::parseNumber<float>(text);
    if (!value) fail(column, fmt::format("not a number: '{}'", text));
    if (!std::isfinite(*value)) fail(column, fmt::format("not a finite number: '{}'", text));
    return *value;
  }

  [[noreturn]] void fail(std::string_view column, const std::string& message) const {
    throw InputError(path_, line_, std::string(column), message);
  }

 private:
  const std::string& path_;
  std::size_t line_;
};

// What is wrong with one boid of a state for `params`: the column to blame and why; nothing when
// it is good. Its numbers are finite (checked where they are read).
std::optional<std::pair<std::string_view, std::string>> boidProblem(const ModelParams& params, glm::vec3 p,
                                                                    glm::vec3 v) {
  for (int k = 0; k < 3; ++k)
    if (std::abs(double(v[k])) > kMaxMagnitude)
      return std::pair{kColumns[5 + k],
                       fmt::format("{} is beyond +-{:g} (docs/model.md, Limits)", v[k], kMaxMagnitude)};
  if (params.unitModel == UnitModel::Lab) {
    const double speed = std::sqrt(double(v.x) * v.x + double(v.y) * v.y + double(v.z) * v.z);
    if (speed > labStableSpeed(params)) {
      const int k = std::abs(v.x) >= std::abs(v.z) ? 0 : 2;
      return std::pair{
          kColumns[5 + k],
          fmt::format("a speed of {:.3g} is above the {:.3g} at which the lab's drag steps stably "
                      "(max_speed^2 / (max_force x dt); docs/model.md, Stability)",
                      speed, labStableSpeed(params))};
    }
  }
  if (params.dims == 2 && (p.y != 0.0f || v.y != 0.0f))
    return std::pair{p.y != 0.0f ? kColumns[3] : kColumns[6], std::string("must be 0 in a 2D scene")};
  for (int k = 0; k < 3; ++k) {
    if (k == 1 && params.dims == 2) continue;
    const bool above =
        params.boundary == Boundary::Wrap ? p[k] >= params.worldMax[k] : p[k] > params.worldMax[k];
    if (p[k] < params.worldMin[k] || above)
      return std::pair{kColumns[2 + k], fmt::format("{} is outside the world box [{}, {}]", p[k],
                                                    params.worldMin[k], params.worldMax[k])};
  }
  return std::nullopt;
}

}  // namespace

void checkState(FlockState& state, const ModelParams& params, const std::string& source) {
  const std::size_t n = state.position.size();
  if (state.velocity.size() != n || state.group.size() != n)
    throw InputError(source, 0, "",
                     fmt::format("{} positions, {} velocities and {} groups: one each per boid", n,
                                 state.velocity.size(), state.group.size()));
  if (n > std::size_t(kMaxBoids))
    throw InputError(source, 0, "",
                     fmt::format("{} boids: more than {} (docs/model.md, Limits)", n, kMaxBoids));
  std::uint32_t maxGroup = 0;
  for (std::size_t i = 0; i < n; ++i) {
    const glm::vec3 p = state.position[i], v = state.velocity[i];
    for (int k = 0; k < 3; ++k) {
      if (!std::isfinite(p[k]))
        throw InputError(source, 0, fmt::format("boid {}: {}", i, kColumns[2 + k]), "not a finite number");
      if (!std::isfinite(v[k]))
        throw InputError(source, 0, fmt::format("boid {}: {}", i, kColumns[5 + k]), "not a finite number");
    }
    if (state.group[i] >= kMaxStateGroups)
      throw InputError(source, 0, fmt::format("boid {}: group", i),
                       fmt::format("group {} is not below {}", state.group[i], kMaxStateGroups));
    if (const auto problem = boidProblem(params, p, v))
      throw InputError(source, 0, fmt::format("boid {}: {}", i, problem->first), problem->second);
    maxGroup = std::max(maxGroup, state.group[i]);
  }
  // A starling's bank is kept where there is one a boid; the rest starts as a file's does.
  if (params.unitModel == UnitModel::Starling && state.attitude.size() == n) {
    const float most = starlingBody(params).maxBank;
    for (std::size_t i = 0; i < n; ++i) {
      if (!std::isfinite(state.attitude[i]))
        throw InputError(source, 0, fmt::format("boid {}: {}", i, kBankColumn), "not a finite number");
      if (const auto problem = bankProblem(most, state.attitude[i]))
        throw InputError(source, 0, fmt::format("boid {}: {}", i, kBankColumn), *problem);
    }
  } else {
    state.attitude.clear();
  }
  state.leader.clear();  // as a file gives it: no flags before the first step
  state.heading.clear();
  state.groups = maxGroup + 1;
}

FlockState readStateCsv(const std::string& path, const ModelParams& params) {
  core::InputFile file(path, kMaxStateCsvBytes, "state file");
  return core::withMemoryReport(path, [&] { return parseStateCsv(file.stream(), path, params); });
}

FlockState parseStateCsv(std::istream& in, const std::string& path, const ModelParams& params) {
  std::string lineText;
  if (!core::readBoundedLine(in, lineText, kMaxStateCsvLineBytes, path, 1))
    throw InputError(path, 1, "", "empty file: expected the header id,group,x,y,z,vx,vy,vz");
  const std::vector<std::string_view> header = splitFields(trimLineEnd(lineText));
  const bool starlings = params.unitModel == UnitModel::Starling;
  const std::string_view rule = starlings
                                    ? "header must be exactly id,group,x,y,z,vx,vy,vz with an optional ,bank"
                                    : "header must be exactly id,group,x,y,z,vx,vy,vz";
  for (std::size_t c = 0; c < kColumns.size(); ++c)
    if (c >= header.size() || header[c] != kColumns[c])
      throw InputError(path, 1, std::string(kColumns[c]),
                       fmt::format("{} (column {} is '{}')", rule, c + 1,
                                   c < header.size() ? header[c] : std::string_view("missing")));
  // A starling's bank: a ninth column, else every bird starts level.
  const bool banks = starlings && header.size() == kColumns.size() + 1 && header.back() == kBankColumn;
  const std::size_t columns = kColumns.size() + (banks ? 1 : 0);
  if (header.size() != columns)
    throw InputError(path, 1, std::string(header[kColumns.size()]), fmt::format("{} (extra column)", rule));

  FlockState state;
  const float mostBank = starlingBody(params).maxBank;
  std::uint32_t maxGroup = 0;
  std::size_t line = 1;
  while (core::readBoundedLine(in, lineText, kMaxStateCsvLineBytes, path, line + 1)) {
    ++line;
    const std::string_view row = trimLineEnd(lineText);
    if (row.empty()) continue;
    const RowParser parse(path, line);
    const std::vector<std::string_view> fields = splitFields(row);
    if (fields.size() != columns)
      parse.fail(fields.size() < kColumns.size() ? kColumns[fields.size()] : (banks ? kBankColumn : ""),
                 fmt::format("expected {} fields, found {}", columns, fields.size()));
    const std::uint64_t id = parse.integer(fields[0], "id");
    if (id >= std::uint64_t(kMaxBoids))
      parse.fail("id", fmt::format("more than {} rows (docs/model.md, Limits)", kMaxBoids));
    if (id != state.size())
      parse.fail("id", fmt::format("expected id {} (rows in id order from 0)", state.size()));
    const std::uint64_t group = parse.integer(fields[1], "group");
    if (group >= kMaxStateGroups)
      parse.fail("group", fmt::format("group {} is not below {}", group, kMaxStateGroups));
    glm::vec3 p, v;
    for (int k = 0; k < 3; ++k) {
      p[k] = parse.real(fields[2 + k], kColumns[2 + k]);
      v[k] = parse.real(fields[5 + k], kColumns[5 + k]);
    }
    if (const auto problem = boidProblem(params, p, v)) parse.fail(problem->first, problem->second);
    if (banks) {
      const float bank = parse.real(fields[kColumns.size()], kBankColumn);
      if (const auto problem = bankProblem(mostBank, bank)) parse.fail(kBankColumn, *problem);
      state.attitude.push_back(bank);
    }
    state.position.push_back(p);
    state.velocity.push_back(v);
    state.group.push_back(static_cast<std::uint32_t>(group));
    maxGroup = std::max(maxGroup, static_cast<std::uint32_t>(group));
  }
  if (in.bad()) throw InputError(path, line, "", "read error");
  state.groups = maxGroup + 1;
  return state;
}

bool writeStateCsvText(std::FILE* file, const FlockState& state, UnitModel units) {
  const bool banks = units == UnitModel::Starling && state.attitude.size() == state.size();
  std::string text = banks ? "id,group,x,y,z,vx,vy,vz,bank\n" : "id,group,x,y,z,vx,vy,vz\n";
  bool ok = std::fwrite(text.data(), 1, text.size(), file) == text.size();
  for (std::size_t i = 0; i < state.size() && ok && core::stopSignal() == 0; ++i) {
    const glm::vec3 p = state.position[i], v = state.velocity[i];
    text = fmt::format("{},{},{:.9g},{:.9g},{:.9g},{:.9g},{:.9g},{:.9g}", i, state.group[i], p.x, p.y, p.z,
                       v.x, v.y, v.z);
    text += banks ? fmt::format(",{:.9g}\n", state.attitude[i]) : "\n";
    ok = std::fwrite(text.data(), 1, text.size(), file) == text.size();
  }
  return ok && core::stopSignal() == 0;
}

void writeStateCsv(const std::string& path, const FlockState& state, const std::string& option,
                   UnitModel units) {
  core::writeFileAtomically(path, option,
                            [&](std::FILE* file) { return writeStateCsvText(file, state, units); });
}

}  // namespace murmur::sim
