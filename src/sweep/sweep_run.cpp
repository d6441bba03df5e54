#include "sweep/sweep_run.hpp"

#include <unistd.h>

#include <chrono>
#include <cmath>
#include <fstream>
#include <optional>
#include <sstream>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "build_info.hpp"
#include "core/error.hpp"
#include "core/output_path.hpp"
#include "record/trajectory.hpp"
#include "session/recording.hpp"
#include "session/scene_source.hpp"
#include "sim/metrics.hpp"
#include "sim/scene_toml.hpp"
#include "sim/state_csv.hpp"

namespace murmur::sweep {
namespace {

using Json = nlohmann::ordered_json;

Json number(double x) {
  return std::isfinite(x) ? Json(x) : Json(nullptr);
}

// A plan's TOML value as JSON: numbers and booleans as such, strings as strings, anything else as
// its TOML text.
Json valueJson(const std::string& text) {
  const toml::table parsed = toml::parse("v = " + text);
  const toml::node& v = *parsed.get("v");
  if (const auto* i = v.as_integer()) return i->get();
  if (const auto* f = v.as_floating_point()) return number(f->get());
  if (const auto* b = v.as_boolean()) return b->get();
  if (const auto* s = v.as_string()) return s->get();
  return text;
}

Json sample(const sim::Scene& scene, const sim::FlockState& state, std::uint64_t step) {
  const sim::FlockMetrics m = sim::measureFlock(scene.model, state);
  const sim::FlockShape shape = sim::measureFlockShape(scene.model, state);
  const Json values[] = {number(m.localPolarization),
                         number(m.meanSpeed),
                         number(m.minSpeed),
                         number(m.maxSpeed),
                         number(m.meanNearestDistance),
                         number(m.minPairDistance),
                         number(m.nearestAlongHeading),
                         m.nonFinite,
                         shape.flocks,
                         number(shape.largestFraction),
                         number(shape.polarization),
                         number(shape.extents.x),
                         number(shape.extents.y),
                         number(shape.extents.z),
                         number(shape.thinness),
                         number(shape.widthRatio),
                         number(shape.thinAxisTilt)};
  static_assert(std::size(values) == 17);
  Json out = {{"step", step}, {"seconds", number(double(step) * scene.model.dt)}};
  for (std::size_t i = 0; i < measureNames().size(); ++i) out[measureNames()[i]] = values[i];
  return out;
}

// A file of the --out directory, written after work began: a directory that vanished or changed
// since the sweep checked it is an OutputError (exit code 3).
void writeOutput(const std::filesystem::path& path, const std::string& text) {
  core::writeAfterWork(path.string(), "--out", [&] {
    core::writeFileAtomically(path.string(), "--out", [&](std::FILE* f) {
      return std::fwrite(text.data(), 1, text.size(), f) == text.size();
    });
  });
}

void writeJson(const std::filesystem::path& path, const Json& json) {
  writeOutput(path, json.dump(1) + "\n");
}

std::optional<Json> readJson(const std::filesystem::path& path) {
  std::error_code error;
  if (!std::filesystem::is_regular_file(path, error) || std::filesystem::file_size(path, error) > (64u << 20))
    return std::nullopt;
  std::ifstream in(path);
  Json json = Json::parse(in, nullptr, false);
  if (json.is_discarded() || !json.is_object()) return std::nullopt;
  return json;
}

std::string hostName() {
  char name[256] = {};
  return ::gethostname(name, sizeof name - 1) == 0 ? std::string(name) : std::string();
}

void writeStatus(const Plan& plan, const Runner& runner, const std::filesystem::path& runs,
                 const RunOutcome& outcome) {
  Json status = {{"id", plan.id},
                 {"status", outcome.ok ? "done" : "failed"},
                 {"error", outcome.error},
                 {"device", outcome.device},
                 {"host", hostName()},
                 {"rank", runner.rank},
                 {"wall_seconds", number(outcome.wallSeconds)}};
  writeJson(runs / runFileName(plan, ".status.json"), status);
}

// A runs.csv cell: quoted as CSV wants when it holds a comma, a quote or a line break.
std::string csvEscape(const std::string& text) {
  if (text.find_first_of(",\"\n\r") == std::string::npos) return text;
  std::string quoted = "\"";
  for (char c : text) quoted += c == '"' ? std::string("\"\"") : std::string(1, c);
  return quoted + "\"";
}

std::string cell(const Json& v) {
  if (v.is_null()) return "";
  return csvEscape(v.is_string() ? v.get<std::string>() : v.dump());
}

// A plan's TOML value in runs.csv: strings without their quotes.
std::string csvCell(const std::string& text) {
  return cell(valueJson(text));
}

}  // namespace

const std::vector<std::string>& measureNames() {
  static const std::vector<std::string> names = {
      "local_polarization", "speed_mean", "speed_min", "speed_max",        "nearest_mean",  "nearest_min",
      "nearest_along",      "non_finite", "flocks",    "largest_fraction", "polarization",  "extent_1",
      "extent_2",           "extent_3",   "thinness",  "width_ratio",      "thin_axis_tilt"};
  return names;
}

RunOutcome runPlan(const SweepFile& sweep, const Plan& plan, const Runner& runner,
                   const std::filesystem::path& dir, const std::vector<std::string>& dataDirs, bool force,
                   const std::atomic<bool>& cancel) {
  const std::filesystem::path runs = dir / "runs";
  RunOutcome outcome;
  const auto start = std::chrono::steady_clock::now();
  if (!plan.invalid.empty()) {
    outcome.error = plan.invalid;
    writeStatus(plan, runner, runs, outcome);
    return outcome;
  }
  try {
    session::SceneOptions options;
    options.scene = plan.scene;
    options.overrides = plan.overrides;
    options.dataDirs = dataDirs;
    options.threads = runner.threads;
    options.force = force;
    std::unique_ptr<world::FlockBackend> backend =
        session::makeBackendFor("backend", plan.backend, runner.device, nullptr, nullptr, runner.threads);
    const bool gpu = backend->gpuPipeline() != nullptr;
    world::World world(session::describeWorld(options, gpu).world, std::move(backend));
    session::checkRunCost(world, plan.steps, options);
    outcome.device = world.backend().device();
    const sim::Scene& scene = world.scene();

    std::optional<record::TrajectoryWriter> trajectory;
    sim::FlockState state;
    const std::string trajectoryPath = (runs / runFileName(plan, ".h5")).string();
    if (sweep.log.record > 0) {
      trajectory.emplace(trajectoryPath, "--out", session::trajectoryInfo(world), world.initial().size());
      world.backend().readState(state);
      trajectory->append(0, 0.0, state);
    }
    Json samples = Json::array();
    for (std::uint64_t s = 1; s <= plan.steps; ++s) {
      core::throwIfStopRequested();
      if (cancel.load(std::memory_order_relaxed)) throw StopRequested(0);
      world.tick();
      const bool logged = sweep.log.every > 0 && s % sweep.log.every == 0 && s < plan.steps;
      const bool recorded = trajectory && s % sweep.log.record == 0;
      if (!logged && !recorded) continue;
      world.backend().readState(state);
      world.requireFinite(state);
      if (logged) samples.push_back(sample(scene, state, s));
      if (recorded) trajectory->append(s, double(s) * scene.model.dt, state);
    }
    world.backend().readState(state);
    world.requireFinite(state);
    samples.push_back(sample(scene, state, plan.steps));  // the exit measures, also for steps = 0
    Json values = Json::object();
    for (std::size_t a = 0; a < sweep.axes.size(); ++a) values[sweep.axes[a].key] = valueJson(plan.values[a]);
    const Json run = {{"id", plan.id},
                      {"build", std::string(buildCommit())},
                      {"scene", plan.scene},
                      {"scene_hash", plan.sceneHash},
                      {"values", std::move(values)},
                      {"replicate", plan.replicate},
                      {"seed", plan.seed},
                      {"backend", plan.backend},
                      {"steps", plan.steps},
                      {"boids", state.size()},
                      {"dt", number(scene.model.dt)},
                      {"samples", std::move(samples)}};
    if (sweep.log.dump) {
      const std::string dump = (runs / runFileName(plan, ".csv")).string();
      core::writeAfterWork(dump, "--out",
                           [&] { sim::writeStateCsv(dump, state, "--out", scene.model.unitModel); });
    }
    if (trajectory) trajectory->commit();
    writeJson(runs / runFileName(plan, ".json"), run);  // last: its presence says the run is complete
    outcome.ok = true;
  } catch (const StopRequested&) {
    throw;
  } catch (const std::bad_alloc&) {
    outcome.error = "out of memory";
  } catch (const std::exception& e) {
    outcome.error = e.what();
  }
  outcome.wallSeconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  writeStatus(plan, runner, runs, outcome);
  return outcome;
}

namespace {

// The plan's run file when it (and its dump and trajectory when logged) is complete in dir.
std::optional<Json> completeRun(const SweepFile& sweep, const Plan& plan, const std::filesystem::path& dir) {
  const std::filesystem::path runs = dir / "runs";
  std::optional<Json> run = readJson(runs / runFileName(plan, ".json"));
  if (!run || run->value("id", std::string()) != plan.id) return std::nullopt;
  std::error_code error;
  if (sweep.log.dump && !std::filesystem::is_regular_file(runs / runFileName(plan, ".csv"), error))
    return std::nullopt;
  if (sweep.log.record > 0 && !std::filesystem::is_regular_file(runs / runFileName(plan, ".h5"), error))
    return std::nullopt;
  return run;
}

}  // namespace

bool runComplete(const SweepFile& sweep, const Plan& plan, const std::filesystem::path& dir) {
  return completeRun(sweep, plan, dir).has_value();
}

IndexCounts writeIndex(const SweepFile& sweep, const Expansion& expansion, const std::filesystem::path& dir) {
  const std::filesystem::path runs = dir / "runs";
  IndexCounts counts;
  std::string csv = "run,id";
  const bool sceneColumn = sweep.scenes.size() > 1;
  if (sceneColumn) csv += ",scene";
  for (const Axis& a : sweep.axes) csv += fmt::format(",{}", csvEscape(a.key));
  csv += ",replicate,seed,backend,device,status,step,seconds";
  for (const std::string& m : measureNames()) csv += fmt::format(",{}", m);
  csv += '\n';
  Json list = Json::array();
  for (const Plan& plan : expansion.plans) {
    const std::optional<Json> status = readJson(runs / runFileName(plan, ".status.json"));
    std::optional<Json> run = completeRun(sweep, plan, dir);
    const std::string state = run                                                 ? "done"
                              : status && status->value("status", "") == "failed" ? "failed"
                                                                                  : "missing";
    (state == "done" ? counts.done : state == "failed" ? counts.failed : counts.missing)++;
    const std::string device = status ? status->value("device", std::string()) : std::string();
    std::string head = fmt::format("{},{}", plan.index, plan.id);
    if (sceneColumn) head += fmt::format(",{}", csvEscape(plan.scene));
    for (const std::string& v : plan.values) head += fmt::format(",{}", csvCell(v));
    head +=
        fmt::format(",{},{},{},{},{}", plan.replicate, plan.seed, plan.backend, cell(Json(device)), state);
    if (run && (*run)["samples"].is_array()) {
      for (const Json& s : (*run)["samples"]) {
        csv += fmt::format("{},{},{}", head, cell(s.value("step", Json())), cell(s.value("seconds", Json())));
        for (const std::string& m : measureNames()) csv += fmt::format(",{}", cell(s.value(m, Json())));
        csv += '\n';
      }
    } else {
      csv += fmt::format("{},,{}\n", head, std::string(measureNames().size(), ','));
    }
    Json values = Json::object();
    for (std::size_t a = 0; a < sweep.axes.size(); ++a) values[sweep.axes[a].key] = valueJson(plan.values[a]);
    Json entry = {{"run", plan.index},
                  {"id", plan.id},
                  {"scene", plan.scene},
                  {"scene_hash", plan.sceneHash},
                  {"values", values},
                  {"replicate", plan.replicate},
                  {"seed", plan.seed},
                  {"backend", plan.backend},
                  {"steps", plan.steps},
                  {"status", state},
                  {"device", device},
                  {"host", status ? status->value("host", "") : ""},
                  {"rank", status ? status->value("rank", Json()) : Json()},
                  {"wall_seconds", status ? status->value("wall_seconds", Json()) : Json()}};
    if (state != "done") entry["error"] = status ? status->value("error", "") : "";
    list.push_back(std::move(entry));
  }
  Json axes = Json::array();
  if (sceneColumn) axes.push_back("scene");
  for (const Axis& a : sweep.axes) axes.push_back(a.key);
  const Json index = {{"sweep", sweep.path},
                      {"build",
                       {{"version", std::string(buildVersion())},
                        {"commit", std::string(buildCommit())},
                        {"type", std::string(buildType())}}},
                      {"scenes", sweep.scenes},
                      {"axes", axes},
                      {"backends", sweep.backends},
                      {"replicates", sweep.replicates},
                      {"measures", measureNames()},
                      {"counts",
                       {{"runs", expansion.plans.size()},
                        {"done", counts.done},
                        {"failed", counts.failed},
                        {"missing", counts.missing}}},
                      {"runs", std::move(list)}};
  writeOutput(dir / "runs.csv", csv);
  writeJson(dir / "sweep.json", index);
  return counts;
}

}  // namespace murmur::sweep
