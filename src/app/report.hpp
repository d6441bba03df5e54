#pragma once
// The --json summaries of run, compare and path: JSON values built with nlohmann-json, keys in the
// order they are added, printed as one line.
#include <cerrno>
#include <cmath>
#include <cstdio>
#include <string>
#include <string_view>
#include <system_error>
#include <utility>
#include <vector>

#include <fmt/format.h>
#include <glm/vec3.hpp>
#include <nlohmann/json.hpp>

#include "ai/director.hpp"
#include "gpu/context.hpp"
#include "gpu/timer.hpp"
#include "sim/metrics.hpp"
#include "world/backend.hpp"

namespace murmur::app {

// Keys stay in insertion order (nlohmann::json would sort them).
using OrderedJson = nlohmann::ordered_json;

// Where a command's human-readable summary goes: stdout, or stderr under --json so that stdout holds
// only the JSON object (`murmur run --json > run.json` is a JSON file).
inline std::FILE* summaryStream(bool json) {
  return json ? stderr : stdout;
}

// Flushes a sample as it comes, also into a pipe or a file; std::system_error when the write fails
// (EPIPE: the reader has gone, which main ends the command for).
inline void flushSample(std::FILE* stream) {
  if (std::fflush(stream) != 0)
    throw std::system_error(errno, std::generic_category(), "cannot write the output");
}

// A measurement: JSON has no NaN or infinity, so a non-finite value is null (said here, not left to
// the library's default). Finite values print round-trippable (the shortest text that reads back as
// the same double).
inline OrderedJson jsonNumber(double value) {
  return std::isfinite(value) ? OrderedJson(value) : OrderedJson(nullptr);
}

inline OrderedJson jsonVector(glm::vec3 v) {
  return OrderedJson::array({jsonNumber(v.x), jsonNumber(v.y), jsonNumber(v.z)});
}

// The GPU stage lines of a summary (`where`: "" or ", gpu backend"): each stage that ran more than
// once as the mean of its dispatches after the first, then every stage's first dispatch, which holds
// the driver's program builds (hundreds of ms on NVIDIA's) and a first step's first writes into
// new buffers. The hash and count run on a flock's first step only (the force pass does their work
// after it), so they are in the second line alone. Empty on the CPU.
inline std::string stageLines(const std::vector<gpu::StageTime>& stages, std::string_view where = "") {
  if (stages.empty()) return "";
  std::string repeated = fmt::format("gpu stages (ms{}, mean after the first dispatch):", where);
  std::string first = fmt::format("gpu first dispatches (ms{}):", where);
  for (const gpu::StageTime& stage : stages) {
    if (stage.repeated()) repeated += fmt::format(" {} {:.4f}", stage.name, stage.laterMeanMs());
    first += fmt::format(" {} {:.4f}", stage.name, stage.firstMs);
  }
  return repeated + "\n" + first + "\n";
}

// The JSON of stageLines: {"gpu_stage_ms": {...}, "gpu_first_dispatch_ms": {...}} as two values.
inline std::pair<OrderedJson, OrderedJson> stageJson(const std::vector<gpu::StageTime>& stages) {
  OrderedJson repeated = OrderedJson::object(), first = OrderedJson::object();
  for (const gpu::StageTime& stage : stages) {
    if (stage.repeated()) repeated[stage.name] = jsonNumber(stage.laterMeanMs());
    first[stage.name] = jsonNumber(stage.firstMs);
  }
  return {repeated, first};
}

// stdout: the one-line JSON object (text that is not UTF-8, such as a path, gets U+FFFD).
inline void printJson(const OrderedJson& json) {
  fmt::print("{}\n", json.dump(-1, ' ', false, OrderedJson::error_handler_t::replace));
}

inline OrderedJson metricsJson(const sim::FlockMetrics& m) {
  return {{"local_polarization", jsonNumber(m.localPolarization)},
          {"mean_speed", jsonNumber(m.meanSpeed)},
          {"min_speed", jsonNumber(m.minSpeed)},
          {"max_speed", jsonNumber(m.maxSpeed)},
          {"mean_nearest_distance", jsonNumber(m.meanNearestDistance)},
          {"min_pair_distance", jsonNumber(m.minPairDistance)},
          {"nearest_along_heading", jsonNumber(m.nearestAlongHeading)},
          {"non_finite", m.nonFinite}};
}

inline OrderedJson optionalVector(const std::optional<glm::vec3>& v) {
  return v ? jsonVector(*v) : OrderedJson(nullptr);
}

// Every agent of a world (none: an empty array), in scene order, as the last update left it: what it
// is, the state it is in, where it is and what it is after (goal: the point its action steers to or
// away from; target: the boid it perceived last).
inline OrderedJson agentsJson(const ai::AgentDirector* director) {
  OrderedJson out = OrderedJson::array();
  for (std::size_t i = 0; director != nullptr && i < director->size(); ++i) {
    const std::optional<ai::AgentDirector::PerceivedTarget> target = director->target(i);
    OrderedJson targetJson = nullptr;
    if (target)
      targetJson = {{"group", target->group},
                    {"boid", target->boid},
                    {"position", jsonVector(target->position)},
                    {"perceived_now", target->perceivedNow}};
    const bool leader = director->kind(i) == ai::AgentKind::Leader;
    const std::optional<ai::Action> action = director->action(i);  // none for a player
    out.push_back({{"name", director->name(i)},
                   {"kind", ai::toString(director->kind(i))},
                   {"group", leader ? OrderedJson(director->group(i)) : OrderedJson(nullptr)},
                   {"state", director->stateName(i)},
                   {"action", action ? OrderedJson(ai::toString(*action)) : OrderedJson(nullptr)},
                   {"position", jsonVector(director->position(i))},
                   {"velocity", jsonVector(director->velocity(i))},
                   {"goal", optionalVector(director->goal(i))},
                   {"target", targetJson}});
  }
  return out;
}

// The GL device a backend runs on (null for the CPU backends): what a shared result must name.
inline OrderedJson glDeviceJson(const world::FlockBackend& backend) {
  const gpu::ContextInfo* info = backend.glDevice();
  if (info == nullptr) return nullptr;
  return {{"vendor", info->vendor},
          {"renderer", info->renderer},
          {"driver", info->driver},
          {"gl_version", info->version},
          {"memory_total_bytes", info->memoryTotalBytes},
          {"memory_free_bytes", info->memoryFreeBytes},
          {"memory_source", info->memorySource},
          {"software", info->software},
          {"context", info->platform}};
}

// One line on stderr when a GL backend runs on a software renderer: it works, but its speed is a
// CPU's (a GPU machine whose vendor EGL is missing falls back to llvmpipe silently otherwise).
inline void warnIfSoftware(const world::FlockBackend& backend) {
  const gpu::ContextInfo* info = backend.glDevice();
  if (info != nullptr && info->software)
    fmt::print(stderr,
               "murmur: warning: --backend {} runs on a software renderer ({}): CPU speed, not a GPU's\n",
               backend.name(), info->renderer);
}

// What --backend auto chose and why (world::makeBackend's autoChoice), else warnIfSoftware: printed
// once the input has passed its checks.
inline void noteBackendChoice(const std::string& autoChoice, const world::FlockBackend& backend,
                              const std::string& countNote = {}) {
  if (autoChoice.empty())
    warnIfSoftware(backend);
  else
    fmt::print(stderr, "murmur: {}\n", autoChoice);
  if (!countNote.empty()) fmt::print(stderr, "murmur: {}\n", countNote);
}

inline OrderedJson groupsJson(const std::vector<sim::GroupSummary>& groups) {
  OrderedJson out = OrderedJson::array();
  for (const sim::GroupSummary& s : groups)
    out.push_back({{"count", s.count},
                   {"leaders", s.leaders},
                   {"centroid", jsonVector(s.centroid)},
                   {"mean_velocity", jsonVector(s.meanVelocity)}});
  return out;
}

}  // namespace murmur::app
