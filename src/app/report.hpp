#pragma once
// Flock measurements as JSON for the --json summaries of run and compare.
#include <cstdio>
#include <string>
#include <vector>

#include "app/backend.hpp"
#include "app/json.hpp"
#include "gpu/context.hpp"
#include "sim/metrics.hpp"

namespace murmur::app {

// Where a command's human-readable summary goes: stdout, or stderr under --json so that stdout holds
// only the JSON object (`murmur run --json > run.json` is a JSON file).
inline std::FILE* summaryStream(bool json) { return json ? stderr : stdout; }

inline JsonObject metricsJson(const sim::FlockMetrics& m) {
  JsonObject json;
  json.add("local_polarization", m.localPolarization)
      .add("mean_speed", m.meanSpeed)
      .add("min_speed", m.minSpeed)
      .add("max_speed", m.maxSpeed)
      .add("mean_nearest_distance", m.meanNearestDistance)
      .add("min_pair_distance", m.minPairDistance)
      .add("non_finite", m.nonFinite);
  return json;
}

// The GL device a backend runs on ("null" for the CPU backends): what a shared result must name.
inline std::string glDeviceJson(const FlockBackend& backend) {
  const gpu::ContextInfo* info = backend.glDevice();
  if (info == nullptr) return "null";
  return JsonObject()
      .add("vendor", info->vendor)
      .add("renderer", info->renderer)
      .add("driver", info->driver)
      .add("gl_version", info->version)
      .add("memory_total_bytes", info->memoryTotalBytes)
      .add("memory_free_bytes", info->memoryFreeBytes)
      .add("memory_source", info->memorySource)
      .add("context", info->platform)
      .str();
}

inline std::string groupsJson(const std::vector<sim::GroupSummary>& groups) {
  std::string out = "[";
  for (std::size_t g = 0; g < groups.size(); ++g) {
    const sim::GroupSummary& s = groups[g];
    out += (g ? "," : "") + JsonObject()
                                .add("count", s.count)
                                .add("leaders", s.leaders)
                                .raw("centroid", fmt::format("[{:.9g},{:.9g},{:.9g}]", s.centroid.x, s.centroid.y,
                                                             s.centroid.z))
                                .raw("mean_velocity", fmt::format("[{:.9g},{:.9g},{:.9g}]", s.meanVelocity.x,
                                                                  s.meanVelocity.y, s.meanVelocity.z))
                                .str();
  }
  return out + "]";
}

}  // namespace murmur::app
