// CPU reference benchmarks on the shared workloads: all pairs (cpu-naive, all threads) and the
// uniform grid (cpu, one thread and all threads). Real time per step; items_per_second = boid
// updates per second; candidates_per_second = candidates tested per second (the grid: boids in
// the 27 cells around each boid, counted once per case on the host; all pairs: N - 1 a boid).
#include <omp.h>

#include <pthread.h>
#include <sched.h>

#include <atomic>
#include <cstdint>
#include <string>
#include <string_view>
#include <thread>
#include <vector>

#include <fmt/format.h>

#include "bench_common.hpp"
#include "sim/builders.hpp"
#include "sim/cpu_simulator.hpp"
#include "sim/metrics.hpp"
#include "sim/neighbour_sweep.hpp"
#include "sim/worker_pool.hpp"

namespace murmur::bench {
namespace {

// variant: the model's options a case switches on beyond the workload's (StepVariant); warmupSteps:
// untimed steps first (on the spawned flock, which the timed steps start from again); checkFinite:
// each step followed by the world's finiteness check (world::World::stepFlock).
void runCpuSteps(benchmark::State& state, const Workload& workload, std::uint32_t n,
                 sim::NeighbourSearch search, int threads, bool recordLeaders = true,
                 StepVariant variant = {}, int warmupSteps = kWarmupSteps, bool checkFinite = false) {
  const PreparedCase& prepared = prepare(workload, n);
  sim::ModelParams params = prepared.scene.model;
  variant.apply(params);
  sim::StepInputs inputs = prepared.inputs;
  inputs.recordLeaders = recordLeaders;
  // The flock resident in the simulator, as `murmur run` steps it (world::CpuFlockBackend): in
  // the cell order of its last step, put back in id order only when read, as the GPU pipeline's;
  // numbered so, as the GPU cases number theirs.
  const sim::FlockState spawned = numberedInCellOrder(prepared.flock, sim::makeGridSpec(params));
  sim::CpuSimulator simulator(search, threads);
  simulator.setAdaptiveRange(variant.adaptiveRange);
  simulator.setState(spawned);
  for (int k = 0; k < warmupSteps; ++k) simulator.step(params, inputs);  // sizes the scratch
  simulator.setState(spawned);
  int episode = 0;
  double gridSeconds = 0.0, stepSeconds = 0.0, waitedSeconds = 0.0, threadSteps = 0.0, settled = 0.0;
  for (auto _ : state) {
    if (episode == kEpisodeSteps) {
      state.PauseTiming();
      simulator.setState(spawned);  // same sizes: copies, no allocation
      episode = 0;
      state.ResumeTiming();
    }
    simulator.step(params, inputs);
    if (checkFinite) benchmark::DoNotOptimize(simulator.residentFinite());
    gridSeconds += simulator.lastStepTimes().grid;
    stepSeconds += simulator.lastStepTimes().grid + simulator.lastStepTimes().forces;
    threadSteps += simulator.lastStepTimes().threads;
    waitedSeconds += simulator.lastStepTimes().waited;
    settled += static_cast<double>(simulator.lastStepRangeSettled());
    ++episode;
  }
  // The share of the step in the grid build and the copies into cell order (the rest: forces and
  // integration).
  state.counters["grid_share"] = stepSeconds > 0.0 ? gridSeconds / stepSeconds : 0.0;
  // The share of the step the calling thread waited for late threads (sim::WorkerPool).
  state.counters["wait_share"] = stepSeconds > 0.0 ? waitedSeconds / stepSeconds : 0.0;
  // The share of the boids whose neighbours the adaptive range settled (the topological rule).
  state.counters["range_settled"] =
      settled / (double(n) * double(std::max<benchmark::IterationCount>(state.iterations(), 1)));
  const double candidates =
      search == sim::NeighbourSearch::Naive ? static_cast<double>(n) - 1.0 : prepared.candidatesPerBoid;
  setStepCounters(state, n, candidates, search == sim::NeighbourSearch::Naive ? 0u : prepared.cells);
  state.counters["threads"] = simulator.threads();
  // The threads the steps ran on, on average: fewer than `threads` where running on the calling
  // thread alone was found faster (sim::ThreadChoice; the busy-core cases).
  state.counters["threads_used"] =
      threadSteps / static_cast<double>(std::max<benchmark::IterationCount>(state.iterations(), 1));
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
  benchmark::RegisterBenchmark(cpuStepName(workload.name, backend, threads, n).c_str(),
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
  benchmark::RegisterBenchmark(fmt::format("sparse/step/n:{}", n).c_str(),
                               [n](benchmark::State& state) {
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
                               })
      ->Unit(benchmark::kMillisecond)
      ->UseRealTime();
  benchmark::RegisterBenchmark(
      fmt::format("sparse/summary/n:{}", n).c_str(),
      [n](benchmark::State& state) {
        const sim::Scene scene = sparseScene(n);
        const sim::FlockState flock = sim::spawnFlock(scene);
        for (auto _ : state)
          benchmark::DoNotOptimize(sim::measureFlock(scene.model, flock).meanNearestDistance);
        state.SetItemsProcessed(static_cast<std::int64_t>(state.iterations()) * n);
      })
      ->Unit(benchmark::kMillisecond)
      ->UseRealTime();
}

// What the per-step finiteness check costs a step (world::World::stepFlock, docs/model.md,
// Stability): the same step without and with it, side by side.
void addFiniteCheckCost(int threads) {
  const Workload& w = workload("density");
  constexpr std::uint32_t n = 100'000;
  for (const bool check : {false, true})
    benchmark::RegisterBenchmark(
        fmt::format("finite-check/cpu/threads:{}/check:{}/n:{}", threads, int(check), n).c_str(),
        [&w, threads, check](benchmark::State& state) {
          runCpuSteps(state, w, n, sim::NeighbourSearch::Grid, threads, true, {}, kWarmupSteps, check);
        })
        ->Unit(benchmark::kMillisecond)
        ->UseRealTime();
}

// What recording the leader flags costs the step (docs/model.md, step 8): the same step with the
// recording off (the front cone untested, as before leaders were recorded) and on, side by side.
void addLeaderFlagCost(int threads) {
  const Workload& w = workload("density");
  constexpr std::uint32_t n = 100'000;
  for (const bool record : {false, true})
    benchmark::RegisterBenchmark(
        fmt::format("leader-flag/cpu/threads:{}/record:{}/n:{}", threads, int(record), n).c_str(),
        [&w, threads, record](benchmark::State& state) {
          runCpuSteps(state, w, n, sim::NeighbourSearch::Grid, threads, record);
        })
        ->Unit(benchmark::kMillisecond)
        ->UseRealTime();
}

// The topological rule (K = 7, as starlings) against the metric one, side by side, at the default
// scene's density (a few boids within R), with about 18 within R, and packed as the murmuration
// (about 330 within R; 100,000 boids: a million cost the metric rule seconds a step).
void addNeighbourRuleCost(int threads) {
  for (const std::string_view name : {"density", "neighbours18", "packed"}) {
    const Workload& w = workload(name);
    for (const std::uint32_t n : {100'000u, 1'000'000u}) {
      if (name == "packed" && n >= 1'000'000u) continue;
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
}

// What the adaptive topological range saves (docs/model.md, step 2): K = 7 in the murmuration's
// packing, every boid searched over R against the range of its last K-th nearest, side by side.
void addAdaptiveRangeCost(int threads) {
  const Workload& w = workload("packed");
  constexpr std::uint32_t n = 100'000;
  for (const bool adaptive : {false, true})
    benchmark::RegisterBenchmark(
        fmt::format("adaptive-range/packed/cpu/threads:{}/range:{}/n:{}", threads, int(adaptive), n).c_str(),
        [&w, threads, adaptive](benchmark::State& state) {
          runCpuSteps(state, w, n, sim::NeighbourSearch::Grid, threads, true,
                      {.topological = 7, .adaptiveRange = adaptive});
        })
        ->Unit(benchmark::kMillisecond)
        ->UseRealTime();
}

// What the book's leader radius costs when it exceeds R (docs/model.md, step 8): the search and the
// grid's cells grow to it. The same step with the leader radius R (the default's reach) and 1.6 R
// (the lab's narrow radius against its limited view: 50 / 30 body lengths), side by side.
void addLeaderRadiusCost(int threads) {
  const Workload& w = workload("density");
  constexpr std::uint32_t n = 100'000;
  for (const float factor : {1.0f, 1.6f})
    benchmark::RegisterBenchmark(
        fmt::format("leader-radius/cpu/threads:{}/R:x{}/n:{}", threads, factor, n).c_str(),
        [&w, threads, factor](benchmark::State& state) {
          const float r = prepare(w, n).scene.model.perceptionRadius;
          runCpuSteps(state, w, n, sim::NeighbourSearch::Grid, threads, true, {.leaderRadius = factor * r});
        })
        ->Unit(benchmark::kMillisecond)
        ->UseRealTime();
}

// What boids.turn_rate costs the step (docs/model.md, steps 1 and 13: a stored heading read in the
// cell-ordered copy and turned after the integration): off and 90 degrees/s, side by side.
void addTurnRateCost(int threads) {
  const Workload& w = workload("density");
  constexpr std::uint32_t n = 100'000;
  for (const float rate : {0.0f, 90.0f})
    benchmark::RegisterBenchmark(
        fmt::format("turn-rate/cpu/threads:{}/turn:{}/n:{}", threads, rate, n).c_str(),
        [&w, threads, rate](benchmark::State& state) {
          runCpuSteps(state, w, n, sim::NeighbourSearch::Grid, threads, true, {.turnRate = rate});
        })
        ->Unit(benchmark::kMillisecond)
        ->UseRealTime();
}

// What the starlings' flight costs against the boids' rule (docs/model.md, The starlings' flight:
// a bank stored and rolled, the flight's frame and acceleration after the forces): K = 7 in the
// murmuration's packing, boids and starlings side by side.
void addFlightModelCost(int threads) {
  const Workload& w = workload("packed");
  for (const std::uint32_t n : {100'000u, 1'000'000u})
    for (const sim::UnitModel units : {sim::UnitModel::Boids, sim::UnitModel::Starling})
      benchmark::RegisterBenchmark(fmt::format("flight-model/packed/cpu/threads:{}/units:{}/n:{}", threads,
                                               units == sim::UnitModel::Starling ? "starling" : "boids", n)
                                       .c_str(),
                                   [&w, n, threads, units](benchmark::State& state) {
                                     runCpuSteps(state, w, n, sim::NeighbourSearch::Grid, threads, true,
                                                 {.topological = 7, .units = units});
                                   })
          ->Unit(benchmark::kMillisecond)
          ->UseRealTime();
}

// The CPU grid step under every instruction set the neighbour sweep was built for and this CPU runs
// (sim::availableSimdTargets: AVX-512, AVX2, SSE4, ...), one thread, side by side in one run: the
// release bundle runs on any x86-64, and most CPUs it meets have no AVX-512, so the narrower sets'
// speed is part of the product (an AVX2 slowdown of 4x once went unseen by cases that ran the
// widest only). Each case restores the set it found (murmur_bench --simd may have chosen one; once
// it looked for it among the sets available, which while a set is forced is that set only, and so
// left the last case's, SCALAR, to every case after it: a quick sweep timed those at scalar speed).
void addSimdWidths() {
  constexpr std::uint32_t n = 16'000;
  for (const std::string_view name : {"neighbours18", "density"})
    for (const sim::SimdTarget& target : sim::availableSimdTargets()) {
      const Workload& w = workload(name);
      benchmark::RegisterBenchmark(
          fmt::format("simd/{}/cpu:{}/threads:1/n:{}", w.name, target.name, n).c_str(),
          [&w, target](benchmark::State& state) {
            const std::int64_t found = sim::forcedSimdTarget();
            sim::forceSimdTarget(target.bits);
            runCpuSteps(state, w, n, sim::NeighbourSearch::Grid, 1);
            sim::forceSimdTarget(found);
          })
          ->Unit(benchmark::kMillisecond)
          ->UseRealTime();
    }
}

// A busy loop pinned to the last core while the case runs: another process holding a core, as on a
// shared machine. The threaded step must not be slower there than the single-threaded one (no
// thread spinning while it waits, no fixed share of the work stuck behind a descheduled thread,
// and one thread where that is found faster: the steady state is timed, after the simulator's
// first trial of one thread, sim::ThreadChoice).
class BusyCore {
 public:
  BusyCore()
      : spinner_([this] {
          cpu_set_t set;
          CPU_ZERO(&set);
          CPU_SET(std::thread::hardware_concurrency() - 1, &set);
          pthread_setaffinity_np(pthread_self(), sizeof(set), &set);
          while (!stop_.load(std::memory_order_relaxed)) {
          }
        }) {}
  ~BusyCore() {
    stop_.store(true);
    spinner_.join();
  }

 private:
  std::atomic<bool> stop_{false};
  std::thread spinner_;
};

void addBusyCore(const Workload& workload, std::uint32_t n, int threads) {
  benchmark::RegisterBenchmark(
      fmt::format("busy-core/{}/cpu/threads:{}/n:{}", workload.name, threads, n).c_str(),
      [&workload, n, threads](benchmark::State& state) {
        const BusyCore busy;
        const sim::ThreadChoice choice(threads);
        const int warmup =
            threads > 1 ? int(choice.firstWait() + sim::ThreadChoice::kTrialSteps) : kWarmupSteps;
        runCpuSteps(state, workload, n, sim::NeighbourSearch::Grid, threads, true, {}, warmup);
      })
      ->Unit(benchmark::kMillisecond)
      ->UseRealTime();
}

}  // namespace

void registerCpuBenchmarks() {
  for (const std::uint32_t n : {100'000u, 1'000'000u}) addSparseSummary(n);
  addLeaderFlagCost(omp_get_max_threads());
  addFiniteCheckCost(omp_get_max_threads());
  addNeighbourRuleCost(omp_get_max_threads());
  addAdaptiveRangeCost(omp_get_max_threads());
  addLeaderRadiusCost(omp_get_max_threads());
  addTurnRateCost(omp_get_max_threads());
  addFlightModelCost(omp_get_max_threads());
  addSimdWidths();
  const int allThreads = omp_get_max_threads();
  for (const CpuPlan& plan : plans(options().sweep)) {
    const Workload& w = workload(plan.workload);
    for (const std::uint32_t n : plan.naive) add(w, n, sim::NeighbourSearch::Naive, allThreads);
    for (const std::uint32_t n : plan.oneThread) add(w, n, sim::NeighbourSearch::Grid, 1);
    if (allThreads > 1)
      for (const std::uint32_t n : plan.allThreads) add(w, n, sim::NeighbourSearch::Grid, allThreads);
  }
  if (allThreads > 1)
    for (const std::uint32_t n : {16'000u, 64'000u})
      for (const int threads : {1, allThreads}) addBusyCore(workload("neighbours18"), n, threads);
}

}  // namespace murmur::bench
