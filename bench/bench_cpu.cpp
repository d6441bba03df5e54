// CPU reference benchmarks on the shared workloads: all pairs (cpu-naive, all threads) and the
// uniform grid (cpu, one thread and all threads). Real time per step; items_per_second = boid
// updates per second; candidates_per_second = candidates tested per second (the grid: boids in
// the 27 cells around each boid, counted once per case on the host; all pairs: N - 1 a boid).
#include <omp.h>

#include <cstdint>
#include <vector>

#include <fmt/format.h>

#include "bench_common.hpp"
#include "sim/builders.hpp"
#include "sim/cpu_backend.hpp"
#include "sim/metrics.hpp"

namespace murmur::bench {
namespace {

// variant: the model's options a case switches on beyond the workload's (StepVariant).
void runCpuSteps(benchmark::State& state, const Workload& workload, std::uint32_t n,
                 sim::NeighbourSearch search, int threads, bool recordLeaders = true,
                 StepVariant variant = {}) {
  const PreparedCase& prepared = prepare(workload, n);
  sim::ModelParams params = prepared.scene.model;
  variant.apply(params);
  sim::StepInputs inputs = prepared.inputs;
  inputs.recordLeaders = recordLeaders;
  sim::FlockState flock = prepared.flock;
  sim::CpuSimulator simulator(search, threads);
  for (int k = 0; k < kWarmupSteps; ++k) simulator.step(params, inputs, flock);  // sizes the scratch
  flock = prepared.flock;
  int episode = 0;
  for (auto _ : state) {
    if (episode == kEpisodeSteps) {
      state.PauseTiming();
      flock = prepared.flock;  // same sizes: copies, no allocation
      episode = 0;
      state.ResumeTiming();
    }
    simulator.step(params, inputs, flock);
    ++episode;
    benchmark::DoNotOptimize(flock.position.data());
  }
  const double candidates =
      search == sim::NeighbourSearch::Naive ? static_cast<double>(n) - 1.0 : prepared.candidatesPerBoid;
  setStepCounters(state, n, candidates, search == sim::NeighbourSearch::Naive ? 0u : prepared.cells);
  state.counters["threads"] = simulator.threads();
}

struct CpuPlan {
  std::string_view workload;
  std::vector<std::uint32_t> naive;       // all pairs, all threads
  std::vector<std::uint32_t> oneThread;   // grid, one thread
  std::vector<std::uint32_t> allThreads;  // grid, all threads
};

std::vector<CpuPlan> plans(Sweep sweep) {
  if (sweep == Sweep::Quick)
    return {
        {"density",
         {1000, 4000, 16000},
         {1000, 4000, 16000, 64000, 256000},
         {1000, 4000, 16000, 64000, 256000, 1000000}},
        {"neighbours18", {}, {}, {16000, 64000}},
        {"candidates200", {}, {}, {64000, 1000000}},
        {"world", {}, {}, {1000, 4000, 16000, 64000}},
    };
  return {
      {"density",
       {1000, 4000, 16000},
       {1000, 4000, 16000, 64000, 256000, 1000000},
       {1000, 4000, 16000, 64000, 256000, 1000000}},
      {"neighbours18", {}, {16000, 64000, 256000}, {16000, 64000, 256000, 1000000}},
      {"candidates200", {}, {64000, 256000}, {64000, 256000, 1000000}},
      {"world", {1000, 4000, 16000}, {1000, 4000, 16000, 64000}, {1000, 4000, 16000, 64000, 256000}},
  };
}

void add(const Workload& workload, std::uint32_t n, sim::NeighbourSearch search, int threads) {
  const std::string backend = search == sim::NeighbourSearch::Naive ? "cpu-naive" : "cpu";
  benchmark::RegisterBenchmark(
      fmt::format("{}/{}/threads:{}/n:{}", workload.name, backend, threads, n).c_str(),
      [&workload, n, search, threads](benchmark::State& state) {
        runCpuSteps(state, workload, n, search, threads);
      })
      ->Unit(benchmark::kMillisecond)
      ->UseRealTime();
}

// The summary of `murmur run`/`compare` (sim::measureFlock) against one step, in a sparse world: n
// boids spawned in a 2000^3 wrap world (R = 5), where most boids have nobody within R (issue 13:
// the summary scanned every boid for each of those, 61 s against a 0.59 s step at 1e5).
sim::Scene sparseScene(std::uint32_t n) {
  sim::Scene scene;
  scene.model.boundary = sim::Boundary::Wrap;
  scene.model.worldMin = glm::vec3(-1000.0f);
  scene.model.worldMax = glm::vec3(1000.0f);
  scene.count = n;
  return scene;
}

void addSparseSummary(std::uint32_t n) {
  benchmark::RegisterBenchmark(fmt::format("sparse/step/n:{}", n).c_str(), [n](benchmark::State& state) {
    const sim::Scene scene = sparseScene(n);
    const sim::FlockState spawned = sim::spawnFlock(scene);
    const sim::StepInputs inputs = sim::staticInputs(scene, spawned.groups);
    sim::CpuSimulator simulator(sim::NeighbourSearch::Grid);
    sim::FlockState flock = spawned;
    simulator.step(scene.model, inputs, flock);  // sizes the scratch
    for (auto _ : state) {
      simulator.step(scene.model, inputs, flock);
      benchmark::DoNotOptimize(flock.position.data());
    }
    state.SetItemsProcessed(static_cast<std::int64_t>(state.iterations()) * n);
  })->Unit(benchmark::kMillisecond)->UseRealTime();
  benchmark::RegisterBenchmark(fmt::format("sparse/summary/n:{}", n).c_str(), [n](benchmark::State& state) {
    const sim::Scene scene = sparseScene(n);
    const sim::FlockState flock = sim::spawnFlock(scene);
    for (auto _ : state) benchmark::DoNotOptimize(sim::measureFlock(scene.model, flock).meanNearestDistance);
    state.SetItemsProcessed(static_cast<std::int64_t>(state.iterations()) * n);
  })->Unit(benchmark::kMillisecond)->UseRealTime();
}

// What recording the leader flags costs the step (docs/model.md, step 8): the same step with the
// recording off (the front cone untested, as before leaders were recorded) and on, side by side.
void addLeaderFlagCost(int threads) {
  const Workload& w = workload("density");
  constexpr std::uint32_t n = 100'000;
  for (const bool record : {false, true})
    benchmark::RegisterBenchmark(fmt::format("leader-flag/cpu/threads:{}/record:{}/n:{}", threads, int(record), n).c_str(),
                                 [&w, threads, record](benchmark::State& state) {
                                   runCpuSteps(state, w, n, sim::NeighbourSearch::Grid, threads, record);
                                 })
        ->Unit(benchmark::kMillisecond)
        ->UseRealTime();
}

// The topological rule (K = 7, as starlings) against the metric one, side by side, at the default
// scene's density (a few boids within R) and with about 18 within R.
void addNeighbourRuleCost(int threads) {
  for (const std::string_view name : {"density", "neighbours18"}) {
    const Workload& w = workload(name);
    for (const std::uint32_t n : {100'000u, 1'000'000u})
      for (const std::uint32_t k : {0u, 7u})
        benchmark::RegisterBenchmark(
            fmt::format("neighbour-rule/{}/cpu/threads:{}/k:{}/n:{}", name, threads, k, n).c_str(),
            [&w, threads, n, k](benchmark::State& state) {
              runCpuSteps(state, w, n, sim::NeighbourSearch::Grid, threads, true, {.topological = k});
            })
            ->Unit(benchmark::kMillisecond)
            ->UseRealTime();
  }
}

// What the book's leader radius costs when it exceeds R (docs/model.md, step 8): the search and the
// grid's cells grow to it. The same step with the leader radius R (the default's reach) and 1.6 R
// (the lab's narrow radius against its limited view: 50 / 30 body lengths), side by side.
void addLeaderRadiusCost(int threads) {
  const Workload& w = workload("density");
  constexpr std::uint32_t n = 100'000;
  for (const float factor : {1.0f, 1.6f})
    benchmark::RegisterBenchmark(fmt::format("leader-radius/cpu/threads:{}/R:x{}/n:{}", threads, factor, n).c_str(),
                                 [&w, threads, factor](benchmark::State& state) {
                                   const float r = prepare(w, n).scene.model.perceptionRadius;
                                   runCpuSteps(state, w, n, sim::NeighbourSearch::Grid, threads, true, {.leaderRadius = factor * r});
                                 })
        ->Unit(benchmark::kMillisecond)
        ->UseRealTime();
}

}  // namespace

void registerCpuBenchmarks() {
  for (const std::uint32_t n : {100'000u, 1'000'000u}) addSparseSummary(n);
  addLeaderFlagCost(omp_get_max_threads());
  addNeighbourRuleCost(omp_get_max_threads());
  addLeaderRadiusCost(omp_get_max_threads());
  const int allThreads = omp_get_max_threads();
  for (const CpuPlan& plan : plans(options().sweep)) {
    const Workload& w = workload(plan.workload);
    for (const std::uint32_t n : plan.naive) add(w, n, sim::NeighbourSearch::Naive, allThreads);
    for (const std::uint32_t n : plan.oneThread) add(w, n, sim::NeighbourSearch::Grid, 1);
    if (allThreads > 1)
      for (const std::uint32_t n : plan.allThreads) add(w, n, sim::NeighbourSearch::Grid, allThreads);
  }
}

}  // namespace murmur::bench
