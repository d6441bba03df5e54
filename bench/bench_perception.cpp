// The agents' perception query (sim/nearest_boids.hpp; docs/ai.md, Perception of individual boids)
// against one flock step: the `world` workload at 100k boids, four agents' probes (or one probe
// that sees the whole world, as the murmuration's falcon sees most of its flock), k =
// AgentDirector::kPerceivedBoids, on the cpu backend (CpuSimulator, all threads) and the GPU
// pipeline. The benchmark's time is the query's (wall clock, the GPU's read-back included: what the
// director waits for); step_ms is the mean wall time of the flock steps run first (each waited for on
// the GPU), query_per_step the ratio of the two.
#include <omp.h>

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include <fmt/format.h>
#include <glm/geometric.hpp>

#include "ai/director.hpp"
#include "bench_common.hpp"
#include "gpu/flock_pipeline.hpp"
#include "sim/cpu_simulator.hpp"
#include "sim/nearest_boids.hpp"

namespace murmur::bench {
namespace {

constexpr std::uint32_t kBoids = 100'000;
constexpr int kTimedSteps = 8;
// The default hearing_range (docs/ai.md, [[agents]]): the larger of an agent's default senses.
constexpr float kProbeRadius = 60.0f;

using Clock = std::chrono::steady_clock;

double millisecondsSince(Clock::time_point start) {
  return std::chrono::duration<double, std::milli>(Clock::now() - start).count();
}

enum class View : std::uint8_t { Agents, World };

// Four agents spread over the world, at mid height; or one in the middle that sees all of it.
std::vector<sim::BoidProbe> agentProbes(const sim::ModelParams& params, View view) {
  std::vector<sim::BoidProbe> probes;
  if (view == View::World) {
    probes.push_back({params.worldMin + 0.5f * params.worldSize(), glm::length(params.worldSize())});
    return probes;
  }
  for (const float x : {0.25f, 0.75f})
    for (const float z : {0.25f, 0.75f})
      probes.push_back({params.worldMin + params.worldSize() * glm::vec3(x, 0.5f, z), kProbeRadius});
  return probes;
}

// The query timed over the benchmark's iterations, reported beside the step.
template <class Query>
void timeQuery(benchmark::State& state, const std::vector<sim::BoidProbe>& probes, double stepMs,
               Query&& query) {
  sim::NearestBoids answer;
  const Clock::time_point start = Clock::now();
  for (auto _ : state) {
    answer = query();
    benchmark::DoNotOptimize(answer.counts.data());
  }
  const double queryMs = millisecondsSince(start) /
                         static_cast<double>(std::max<benchmark::IterationCount>(state.iterations(), 1));
  std::uint32_t found = 0;
  for (const std::uint32_t count : answer.counts) found += count;
  state.counters["probes"] = static_cast<double>(probes.size());
  state.counters["found"] = found;
  state.counters["step_ms"] = stepMs;
  state.counters["query_per_step"] = queryMs / stepMs;
}

void runCpu(benchmark::State& state, View view) {
  const PreparedCase& prepared = prepare(workload("world"), kBoids);
  const sim::ModelParams& params = prepared.scene.model;
  const std::vector<sim::BoidProbe> probes = agentProbes(params, view);
  sim::FlockState flock = prepared.flock;
  sim::CpuSimulator simulator(sim::NeighbourSearch::Grid, omp_get_max_threads());
  for (int k = 0; k < kWarmupSteps; ++k) simulator.step(params, prepared.inputs, flock);
  const Clock::time_point start = Clock::now();
  for (int k = 0; k < kTimedSteps; ++k) simulator.step(params, prepared.inputs, flock);
  const double stepMs = millisecondsSince(start) / kTimedSteps;
  timeQuery(state, probes, stepMs,
            [&] { return simulator.nearestBoids(flock, probes, ai::AgentDirector::kPerceivedBoids); });
  state.counters["threads"] = simulator.threads();
}

void runGpu(benchmark::State& state, View view) {
  gpu::Context* context = glContext();
  if (context == nullptr) {
    state.SkipWithError(("no OpenGL context: " + glContextError()).c_str());
    return;
  }
  const PreparedCase& prepared = prepare(workload("world"), kBoids);
  const sim::ModelParams& params = prepared.scene.model;
  const std::vector<sim::BoidProbe> probes = agentProbes(params, view);
  gpu::FlockPipeline pipeline(*context, gpu::ShaderLibrary(), gpu::Arithmetic::Fast);
  pipeline.upload(prepared.flock);
  for (int k = 0; k < kWarmupSteps; ++k) pipeline.step(params, prepared.inputs);
  glFinish();
  const Clock::time_point start = Clock::now();
  for (int k = 0; k < kTimedSteps; ++k) {
    pipeline.step(params, prepared.inputs);
    glFinish();
  }
  const double stepMs = millisecondsSince(start) / kTimedSteps;
  timeQuery(state, probes, stepMs,
            [&] { return pipeline.nearestBoids(probes, ai::AgentDirector::kPerceivedBoids); });
  if (!glContextInHeader()) state.SetLabel(context->info().renderer);
}

}  // namespace

void registerPerceptionBenchmarks() {
  for (const View view : {View::Agents, View::World}) {
    const std::string_view probes = view == View::World ? "view:world/" : "";
    benchmark::RegisterBenchmark(fmt::format("perception/cpu/{}n:{}", probes, kBoids).c_str(),
                                 [view](benchmark::State& state) { runCpu(state, view); })
        ->Unit(benchmark::kMillisecond)
        ->UseRealTime();
    registerGlBenchmark(fmt::format("perception/gpu/{}n:{}", probes, kBoids),
                        [view](benchmark::State& state) { runGpu(state, view); })
        ->Unit(benchmark::kMillisecond)
        ->UseRealTime();
  }
}

}  // namespace murmur::bench
