#include "bench_common.hpp"

#include <omp.h>
#include <sys/utsname.h>

#include <algorithm>
#include <array>
#include <cctype>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <memory>
#include <regex>
#include <stdexcept>
#include <vector>

#include <fmt/format.h>

#include "gpu/error.hpp"
#include "sim/builders.hpp"
#include "sim/grid.hpp"
#include "sim/worker_pool.hpp"

namespace murmur::bench {
namespace {

constexpr std::array<Workload, 5> kWorkloads = {{
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
    {"packed",
     "packedFlockScene(N): a ball as packed as scenes/murmuration.toml's flock (about 330 others within R), "
     "containing, fov 300, separation within R/4: the topological rule's dense case",
     [](std::uint32_t n) { return sim::packedFlockScene(n); }},
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

// The highest level of an amdgpu DPM table ("0: 500Mhz\n1: 2600Mhz *": levels in rising order), in
// MHz; "" when it cannot be read.
std::string highestLevel(const std::filesystem::path& table) {
  std::ifstream in(table);
  std::string line, mhz;
  while (std::getline(in, line)) {
    const std::size_t colon = line.find(": ");
    const std::size_t unit = line.find("Mhz");
    if (colon != std::string::npos && unit != std::string::npos && unit > colon + 2)
      mhz = line.substr(colon + 2, unit - colon - 2);
  }
  return mhz;
}

// nvidia-smi's maximum clocks of the GPU whose name starts GL_RENDERER ("NVIDIA H100 80GB HBM3" of
// "NVIDIA H100 80GB HBM3/PCIe/SSE2"); "" without nvidia-smi or such a GPU.
std::string nvidiaClocks(const std::string& renderer) {
  FILE* pipe = ::popen(
      "nvidia-smi --query-gpu=name,clocks.max.graphics,clocks.max.memory --format=csv,noheader,nounits "
      "2>/dev/null",
      "r");
  if (pipe == nullptr) return "";
  std::string text;
  char buffer[256];
  while (std::fgets(buffer, sizeof buffer, pipe) != nullptr) text += buffer;
  ::pclose(pipe);
  static const std::regex row(R"(([^,\n]+), *([0-9]+), *([0-9]+))");
  for (auto it = std::sregex_iterator(text.begin(), text.end(), row); it != std::sregex_iterator(); ++it)
    if (renderer.rfind((*it)[1].str(), 0) == 0)
      return fmt::format("core {} MHz, memory {} MHz (nvidia-smi, maximum)", (*it)[2].str(), (*it)[3].str());
  return "";
}

// amdgpu's DPM tables in sysfs when exactly one card has them (with several, which one GL drives is
// not known here).
std::string amdgpuClocks() {
  std::vector<std::filesystem::path> cards;
  std::error_code ec;
  for (const auto& entry : std::filesystem::directory_iterator("/sys/class/drm", ec))
    if (std::filesystem::exists(entry.path() / "device" / "pp_dpm_sclk", ec) &&
        std::regex_match(entry.path().filename().string(), std::regex("card[0-9]+")))
      cards.push_back(entry.path() / "device");
  if (cards.size() != 1) return "";
  const std::string core = highestLevel(cards.front() / "pp_dpm_sclk");
  const std::string memory = highestLevel(cards.front() / "pp_dpm_mclk");
  if (core.empty() || memory.empty()) return "";
  return fmt::format("core {} MHz, memory {} MHz (amdgpu sysfs, highest level)", core, memory);
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

sim::FlockState numberedInCellOrder(const sim::FlockState& flock, const sim::GridSpec& grid) {
  sim::WorkerPool pool;
  sim::CellOrder cells;
  cells.build(grid, flock.position, pool);
  sim::FlockState numbered;
  numbered.groups = flock.groups;
  const auto gather = [&cells](const auto& from, auto& to) {
    if (from.empty()) return;
    to.resize(from.size());
    for (std::size_t slot = 0; slot < cells.order.size(); ++slot) to[slot] = from[cells.order[slot]];
  };
  gather(flock.position, numbered.position);
  gather(flock.velocity, numbered.velocity);
  gather(flock.group, numbered.group);
  gather(flock.leader, numbered.leader);
  gather(flock.heading, numbered.heading);
  gather(flock.attitude, numbered.attitude);
  return numbered;
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

std::string gpuStepName(std::string_view workload, std::uint32_t n) {
  return fmt::format("{}/gpu/n:{}", workload, n);
}

std::string cpuStepName(std::string_view workload, std::string_view backend, int threads, std::uint32_t n) {
  return fmt::format("{}/{}/threads:{}/n:{}", workload, backend, threads, n);
}

std::string renderStepDrawName(std::string_view backend, std::uint32_t n) {
  return fmt::format("BM_Render/step+draw/{}/n:{}", backend, n);
}

std::string osName() {
  std::ifstream release("/etc/os-release");
  std::string line;
  while (std::getline(release, line))
    if (line.rfind("PRETTY_NAME=", 0) == 0) {
      std::string name = line.substr(line.find('=') + 1);
      if (name.size() >= 2 && name.front() == '"' && name.back() == '"')
        name = name.substr(1, name.size() - 2);
      return name;
    }
  return "unknown";
}

std::string kernelName() {
  utsname system{};
  if (::uname(&system) != 0) return "unknown";
  return fmt::format("{} {}", system.sysname, system.release);
}

std::string gpuClocks(const gpu::ContextInfo& info) {
  if (info.software) return "";
  if (info.vendor.find("NVIDIA") != std::string::npos) return nvidiaClocks(info.renderer);
  if (info.vendor.find("AMD") != std::string::npos || info.renderer.find("AMD") != std::string::npos)
    return amdgpuClocks();
  return "";
}

}  // namespace murmur::bench
