#pragma once
// What the suites of murmur_bench share: the command-line options, the named workloads (built by
// the scene builders of src/sim/builders.hpp, never copies of them), the prepared case of a
// workload (spawned flock and its neighbour-candidate count), the benchmark naming scheme that
// bench/report.py parses, and the one GL context of the process.
//
// Names: <workload>/<backend>[/threads:T]/n:<N>, e.g. density/cpu/threads:1/n:16000,
// density/gpu/n:1000000, density/gpu:forces/n:65536 (one GPU stage), bandwidth/gpu-copy/mib:256.
//
// The GL context is made lazily, once per process: main() opens it before the run only when the
// benchmark filter selects a GL benchmark (registered with registerGlBenchmark), so that CPU-only
// filters never touch GL; glContext() opens it on first use otherwise.
#include <array>
#include <cstdint>
#include <functional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include <benchmark/benchmark.h>

#include "gpu/context.hpp"
#include "gpu/flock_pipeline.hpp"
#include "sim/flock.hpp"
#include "sim/scene.hpp"

namespace murmur::bench {

enum class Sweep { Quick, Standard };

struct Options {
  int device = -1;                // --device I: EGL device index (-1: the first that works)
  Sweep sweep = Sweep::Standard;  // --sweep quick|standard
};
Options& options();

// Steps run before timing (shader specialisation, first-touch page faults, caches), and the length
// of an episode: every kEpisodeSteps timed steps the flock is put back to its spawned state
// (outside the timed region), so every backend and every iteration count measures the same
// workload; without it the flock would clump over thousands of steps and a fast backend (which
// runs more iterations) would time a denser flock than a slow one. 32 steps at dt = 1/60 s move a
// boid at most 5.3 units, about one perception radius.
constexpr int kWarmupSteps = 3;
constexpr int kEpisodeSteps = 32;
// Steps a per-stage GPU benchmark times: a fixed count, since each runs whole steps and a stage can
// be a hundredth of one (timing it to --benchmark_min_time would run a hundred times as many steps).
constexpr benchmark::IterationCount kStageIterations = 64;

struct Workload {
  std::string_view name;
  std::string_view description;
  sim::Scene (*make)(std::uint32_t count);
};
// density, neighbours18, candidates200, world (see bench/README.md).
std::span<const Workload> workloads();
const Workload& workload(std::string_view name);

// A workload at N boids, spawned, with the grid search's neighbour candidates counted on the host
// (boids in the 27 cells around each boid, itself excluded; 9 cells in 2D) for the grid that
// sim::makeGridSpec(params, maxCells) makes. Cached: the last case prepared is kept, so the
// repeated calls Google Benchmark makes of one benchmark prepare it once.
struct PreparedCase {
  std::string key;
  sim::Scene scene;
  sim::FlockState flock;
  sim::StepInputs inputs;
  double candidatesPerBoid = 0.0;  // grid search, mean over boids
  std::uint32_t cells = 0;
};
const PreparedCase& prepare(const Workload& workload, std::uint32_t count, std::uint32_t maxCells = 1u << 24);

// The flock numbered in the cell order of `grid` (sim::CellOrder's sort, the GPU pipeline's bit for
// bit): put back in id order, it is then in the order a running flock keeps between steps on either
// backend (each step writes the state at its sorted slots). With the spawn's own numbering,
// spatially random, the first step of every episode sorted a random permutation of the whole
// flock, which a run does once: at 10,000,000 boids on an H100 that one step in kEpisodeSteps made
// the scatter stage 4.4 ms of a mean step of 8.7 (bench/results/nvidia-h100-80gb-hbm3/README.md).
// The ids only order the boids of a cell, so the workload is the same flock.
sim::FlockState numberedInCellOrder(const sim::FlockState& flock, const sim::GridSpec& grid);

// The names of the full-step cases (the scheme above, before Google Benchmark's suffixes): the
// suites register them and the headline below is made of them.
std::string gpuStepName(std::string_view workload, std::uint32_t n);
std::string cpuStepName(std::string_view workload, std::string_view backend, int threads, std::uint32_t n);

// The headline score (bench/README.md, "Headline score"): the geometric mean of boid updates per
// second over these workloads at kHeadlineBoids boids, for the gpu backend and for the CPU grid on
// all threads. Every sweep registers these cases; main() writes their names into the context
// (headline_gpu, headline_cpu) so that `murmur bench` and bench/report.py read them from the result.
constexpr std::uint32_t kHeadlineBoids = 1'000'000;
constexpr std::array<std::string_view, 2> kHeadlineWorkloads = {"density", "candidates200"};

// The other cases `murmur bench`'s summary and bench/report.py single out, named in the context
// too: render_headline, the frame of kRenderHeadlineBoids boids stepped on the GPU and drawn;
// astar_cases and astar_textbook_cases, the two A* families (one case per scenario file,
// <family>/<map>); bandwidth_cases, a compute shader copying M MiB (<family>/mib:M), the rate the
// report's memory floor divides by.
constexpr std::uint32_t kRenderHeadlineBoids = 1'000'000;
std::string renderStepDrawName(std::string_view backend,
                               std::uint32_t n);                       // BM_Render/step+draw/<backend>/n:N
constexpr std::string_view kAStarFamily = "BM_AStar";                  // Murmur's A*
constexpr std::string_view kAStarTextbookFamily = "BM_AStarTextbook";  // the textbook one it is held against
constexpr std::string_view kBandwidthFamily = "bandwidth/gpu-copy";

// Counters every step benchmark reports (bench/report.py reads them): boids, candidates_per_boid,
// cells, and the rates items_per_second (boid updates) and candidates_per_second.
void setStepCounters(benchmark::State& state, std::uint32_t boids, double candidatesPerBoid,
                     std::uint32_t cells);

// Registers a benchmark that needs the GL context (its name is remembered for the filter test).
benchmark::internal::Benchmark* registerGlBenchmark(const std::string& name,
                                                    std::function<void(benchmark::State&)> run);
// True when `filter` (Google Benchmark's --benchmark_filter: a POSIX extended regex searched in the
// name, "-" in front negates, "" and "all" select everything) selects a GL benchmark.
bool glBenchmarksSelected(std::string filter);

// The process's GL context on options().device, created on the first call; null when there is
// none (glContextError() says why; the error is kept, no second attempt).
gpu::Context* glContext();
const std::string& glContextError();
// Set by main when the context's GL_RENDERER went into the run's context block; a GL benchmark
// that opens the context later (a filter glBenchmarksSelected missed) names the renderer in its
// label instead.
bool& glContextInHeader();
// Runs the cleanups given to onGlRelease (last given, first run), then destroys the context
// (main, after the run): GL objects and the context are never left to static destruction, which
// runs after libEGL's own exit handlers. A suite that keeps GL objects in statics frees them in a
// cleanup it registers when it makes them.
void onGlRelease(std::function<void()> cleanup);
void releaseGlContext();

// "llvmpipe (LLVM 15.0.6, 256 bits)" -> "llvmpipe", "NVIDIA H100 80GB HBM3/PCIe/SSE2" ->
// "nvidia-h100-80gb-hbm3": the directory under bench/results/.
std::string deviceSlug(std::string_view renderer);
std::string cpuModel();
// The machine beyond the CPU, for the report's machines table: the distribution (/etc/os-release's
// PRETTY_NAME), the kernel (uname: "Linux 6.1.0-18-amd64"), and the GPU's highest core and memory
// clocks where a tool of the driver reports them (GL has no query for clocks; see bench_common.cpp),
// else "".
std::string osName();
std::string kernelName();
std::string gpuClocks(const gpu::ContextInfo& info);

// The suites of bench_cpu.cpp, bench_gpu.cpp, bench_perception.cpp, bench_render.cpp,
// bench_astar.cpp and bench_output.cpp, registered by main() once the options are parsed.
void registerCpuBenchmarks();
void registerGpuBenchmarks();
// The flock pipeline's byte model (gpu::FlockPipeline::trafficModel) from the pipeline the GPU
// suite steps (made here when no case has yet); empty when it cannot be made.
std::vector<gpu::BufferTraffic> flockTraffic();
void registerPerceptionBenchmarks();
void registerRenderBenchmarks();
void registerAStarBenchmarks();
void registerOutputBenchmarks();

// Model options a benchmark case switches on beyond its workload's: topological neighbours
// (docs/model.md, step 2; 0 the metric rule), a leader radius (step 8; 0 the workload's) and a turn
// rate (steps 1 and 13, degrees/s; 0 off); the CPU's adaptive topological range (step 2; the GPU
// has none) on or off; the units (boids or starlings: docs/model.md, The starlings' flight).
struct StepVariant {
  std::uint32_t topological = 0;
  float leaderRadius = 0.0f;
  float turnRate = 0.0f;
  bool adaptiveRange = true;
  sim::UnitModel units = sim::UnitModel::Boids;
  void apply(sim::ModelParams& params) const {
    params.topologicalNeighbours = topological;
    if (leaderRadius > 0.0f) params.leaderRadius = leaderRadius;
    params.turnRate = turnRate;
    params.unitModel = units;
  }
};

}  // namespace murmur::bench
