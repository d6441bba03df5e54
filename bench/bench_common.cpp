#include "bench_common.hpp"

#include <omp.h>

#include <algorithm>
#include <array>
#include <cctype>
#include <fstream>
#include <memory>
#include <regex>
#include <stdexcept>
#include <vector>

#include <fmt/format.h>

#include "gpu/error.hpp"
#include "sim/builders.hpp"
#include "sim/grid.hpp"

namespace murmur::bench {
namespace {

constexpr std::array<Workload, 4> kWorkloads = {{
    {"density",
     "defaultDensityScene(N): the default scene's density (10,000 boids in 200 x 100 x 200, containing), "
     "the world grows with N; 21 candidates a boid at 1k, 10 at 64k, 9 at 1M",
     [](std::uint32_t n) { return sim::defaultDensityScene(n); }},
    {"neighbours18",
     "fixedNeighbourScene(N, 18): wrap-around world, about 18 boids within R of each (OpenSteer's boids "
     "plugin), fov 360; 116 to 148 candidates a boid",
     [](std::uint32_t n) { return sim::fixedNeighbourScene(n, 18.0f); }},
    {"candidates200",
     "fixedCandidateScene(N, 200): wrap-around world whose 27 cells around a boid hold about 200 boids "
     "(31 within R), fov 360",
     [](std::uint32_t n) { return sim::fixedCandidateScene(n, 200.0f); }},
    {"world",
     "defaultWorldScene(N): the default 200 x 100 x 200 world for every N, density grows with N; 1.2 "
     "candidates a boid at 1k, 84 at 64k",
     [](std::uint32_t n) { return sim::defaultWorldScene(n); }},
}};

struct GlBenchmarks {
  std::vector<std::string> names;
  std::vector<std::function<void()>> cleanups;
  std::unique_ptr<gpu::Context> context;
  std::string error;
  bool tried = false;
};

GlBenchmarks& gl() {
  static GlBenchmarks state;
  return state;
}

double countCandidates(const sim::GridSpec& grid, const sim::FlockState& flock, int dims) {
  const std::size_t n = flock.size();
  if (n == 0) return 0.0;
  sim::CellOrder order;
  sim::WorkerPool pool;
  order.build(grid, flock.position, pool);
  const int threads = pool.threads();
  std::uint64_t total = 0;
  const auto count = static_cast<std::int64_t>(n);
#pragma omp parallel for num_threads(threads) reduction(+ : total) schedule(static)
  for (std::int64_t i = 0; i < count; ++i) {
    std::uint64_t mine = 0;
    sim::forEachNeighbourRange(grid, order, grid.cellCoord(flock.position[static_cast<std::size_t>(i)]), dims,
                               [&](std::uint32_t begin, std::uint32_t end, bool) { mine += end - begin; });
    total += mine - 1;  // itself
  }
  return static_cast<double>(total) / static_cast<double>(n);
}

}  // namespace

Options& options() {
  static Options value;
  return value;
}

std::span<const Workload> workloads() {
  return kWorkloads;
}

const Workload& workload(std::string_view name) {
  for (const Workload& w : kWorkloads)
    if (w.name == name) return w;
  throw std::invalid_argument(fmt::format("no workload named {}", name));
}

const PreparedCase& prepare(const Workload& workload, std::uint32_t count, std::uint32_t maxCells) {
  static PreparedCase cached;
  const std::string key = fmt::format("{}/{}/{}", workload.name, count, maxCells);
  if (cached.key == key) return cached;
  cached = PreparedCase{};  // frees the previous flock before the next is made
  cached.scene = workload.make(count);
  cached.flock = sim::spawnFlock(cached.scene);
  cached.inputs = sim::staticInputs(cached.scene, cached.scene.groups);
  const sim::GridSpec grid = sim::makeGridSpec(cached.scene.model, maxCells);
  cached.cells = grid.cellCount();
  cached.candidatesPerBoid = countCandidates(grid, cached.flock, cached.scene.model.dims);
  cached.key = key;
  return cached;
}

void setStepCounters(benchmark::State& state, std::uint32_t boids, double candidatesPerBoid,
                     std::uint32_t cells) {
  const double steps = static_cast<double>(state.iterations());
  state.SetItemsProcessed(static_cast<std::int64_t>(state.iterations()) * boids);
  state.counters["boids"] = boids;
  state.counters["candidates_per_boid"] = candidatesPerBoid;
  state.counters["cells"] = cells;
  state.counters["candidates_per_second"] =
      benchmark::Counter(steps * candidatesPerBoid * static_cast<double>(boids), benchmark::Counter::kIsRate);
}

benchmark::internal::Benchmark* registerGlBenchmark(const std::string& name,
                                                    std::function<void(benchmark::State&)> run) {
  gl().names.push_back(name);
  return benchmark::RegisterBenchmark(name.c_str(),
                                      [run = std::move(run)](benchmark::State& state) { run(state); });
}

bool glBenchmarksSelected(std::string filter) {
  const bool negative = !filter.empty() && filter.front() == '-';
  std::string_view spec(filter);
  if (negative) spec.remove_prefix(1);
  if (spec.empty() || spec == "all") spec = ".";
  std::regex pattern;
  try {
    pattern = std::regex(spec.begin(), spec.end(), std::regex::extended);
  } catch (const std::regex_error&) {
    return false;  // Google Benchmark reports the bad filter itself
  }
  // The filter sees the names as Google Benchmark displays them, with the suffixes its options add;
  // the registry has the names as given. Those suffixes are tried too (the ones Murmur's suites
  // use); a GL benchmark the test misses still runs, opening the context itself.
  const std::array<std::string, 4> suffixes = {"", "/real_time", "/manual_time",
                                               fmt::format("/iterations:{}/manual_time", kStageIterations)};
  return std::any_of(gl().names.begin(), gl().names.end(), [&](const std::string& name) {
    return std::any_of(suffixes.begin(), suffixes.end(), [&](const std::string& suffix) {
      return std::regex_search(name + suffix, pattern) != negative;
    });
  });
}

gpu::Context* glContext() {
  GlBenchmarks& state = gl();
  if (!state.tried) {
    state.tried = true;
    try {
      state.context = gpu::createHeadlessContext(options().device);
    } catch (const gpu::ContextError& e) {
      state.error = e.what();
    }
  }
  return state.context.get();
}

const std::string& glContextError() {
  return gl().error;
}

bool& glContextInHeader() {
  static bool value = false;
  return value;
}

void onGlRelease(std::function<void()> cleanup) {
  gl().cleanups.push_back(std::move(cleanup));
}

void releaseGlContext() {
  GlBenchmarks& state = gl();
  while (!state.cleanups.empty()) {
    const std::function<void()> cleanup = std::move(state.cleanups.back());
    state.cleanups.pop_back();
    cleanup();
  }
  state.context.reset();
}

std::string deviceSlug(std::string_view renderer) {
  const std::size_t cut = std::min(renderer.find(" ("), renderer.find('/'));
  if (cut != std::string_view::npos) renderer = renderer.substr(0, cut);
  std::string slug;
  for (const char c : renderer) {
    const auto u = static_cast<unsigned char>(c);
    if (std::isalnum(u) != 0)
      slug += static_cast<char>(std::tolower(u));
    else if (!slug.empty() && slug.back() != '-')
      slug += '-';
  }
  while (!slug.empty() && slug.back() == '-') slug.pop_back();
  return slug.empty() ? "unknown" : slug;
}

std::string cpuModel() {
  std::ifstream cpuinfo("/proc/cpuinfo");
  std::string line;
  while (std::getline(cpuinfo, line))
    if (line.rfind("model name", 0) == 0) return line.substr(line.find(':') + 2);
  return "unknown";
}

}  // namespace murmur::bench
