// CPU reference benchmarks: all-pairs against the uniform grid, one thread and all threads, in the
// default scene density and in the fixed-neighbour workload of OpenSteer's boids plugin.
// items_per_second = boid updates per second.
#include <benchmark/benchmark.h>
#include <omp.h>

#include <fmt/format.h>

#include "sim/builders.hpp"
#include "sim/cpu_backend.hpp"

namespace murmur::bench {
namespace {

void runCpuSteps(benchmark::State& state, const sim::Scene& scene, sim::NeighbourSearch search, int threads) {
  sim::FlockState flock = sim::spawnFlock(scene);
  const sim::StepInputs inputs = sim::staticInputs(scene, scene.groups);
  sim::CpuSimulator simulator(search, threads);
  simulator.step(scene.model, inputs, flock);  // warm-up: sizes the scratch buffers
  for (auto _ : state) {
    simulator.step(scene.model, inputs, flock);
    benchmark::DoNotOptimize(flock.position.data());
  }
  state.SetItemsProcessed(static_cast<std::int64_t>(state.iterations()) * scene.count);
  state.counters["boids"] = scene.count;
  state.counters["threads"] = simulator.threads();
}

void registerCpuBenchmarks() {
  const int allThreads = omp_get_max_threads();
  for (const int threads : {1, allThreads}) {
    for (const std::uint32_t n : {1000u, 4000u, 16000u, 64000u, 256000u}) {
      for (const sim::NeighbourSearch search : {sim::NeighbourSearch::Naive, sim::NeighbourSearch::Grid}) {
        if (search == sim::NeighbourSearch::Naive && n > 16000) continue;
        benchmark::RegisterBenchmark(
            fmt::format("BM_Step/default_density/{}/threads:{}/{}", sim::toString(search), threads, n).c_str(),
            [=](benchmark::State& st) { runCpuSteps(st, sim::defaultDensityScene(n), search, threads); })
            ->Unit(benchmark::kMillisecond)
            ->UseRealTime();
      }
    }
    for (const std::uint32_t n : {10000u, 64000u, 100000u}) {
      benchmark::RegisterBenchmark(
          fmt::format("BM_Step/fixed18/cpu/threads:{}/{}", threads, n).c_str(),
          [=](benchmark::State& st) {
            runCpuSteps(st, sim::fixedNeighbourScene(n, 18.0f), sim::NeighbourSearch::Grid, threads);
          })
          ->Unit(benchmark::kMillisecond)
          ->UseRealTime();
    }
  }
}

const bool registered = (registerCpuBenchmarks(), true);

}  // namespace
}  // namespace murmur::bench
