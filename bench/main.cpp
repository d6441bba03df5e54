// murmur_bench: Google Benchmark with Murmur's own flags and the machine in the context.
//
//   murmur_bench [--device I] [--sweep quick|standard] [Google Benchmark flags]
//
// --device I picks the EGL device (numbered as `murmur devices` lists them; default: the first
// that works); --sweep quick registers the reduced sizes of `scripts/bench.sh --quick`. Both are
// taken out of argv before benchmark::Initialize. The context (the JSON's "context" object) names
// the CPU, the build, the commit and, when a GL benchmark is selected, the GL device and driver;
// the GL context is opened only then (CPU-only filters never touch GL).
#include <benchmark/benchmark.h>
#include <omp.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <string_view>
#include <thread>
#include <vector>

#include <fmt/format.h>

#include "bench_common.hpp"
#include "build_info.hpp"
#include "gpu/flock_pipeline.hpp"
#include "sim/neighbour_sweep.hpp"

namespace {

using murmur::bench::Options;
using murmur::bench::Sweep;

// Takes --device and --sweep (as "--flag value" or "--flag=value") out of argv. False on a bad value.
bool parseOwnFlags(int& argc, char** argv, Options& options) {
  std::vector<char*> rest;
  rest.push_back(argv[0]);
  for (int i = 1; i < argc; ++i) {
    const std::string_view arg = argv[i];
    std::string value;
    std::string_view flag;
    for (const std::string_view name : {"--device", "--sweep", "--simd"}) {
      if (arg == name && i + 1 < argc) {
        flag = name;
        value = argv[++i];
      } else if (arg.size() > name.size() && arg.substr(0, name.size()) == name && arg[name.size()] == '=') {
        flag = name;
        value = std::string(arg.substr(name.size() + 1));
      }
    }
    if (flag.empty()) {
      rest.push_back(argv[i]);
      continue;
    }
    if (flag == "--simd") {
      // The CPU reference's instruction set (sim/neighbour_sweep), to compare vector widths.
      bool found = false;
      for (const murmur::sim::SimdTarget& target : murmur::sim::availableSimdTargets())
        if (target.name == value) {
          murmur::sim::forceSimdTarget(target.bits);
          found = true;
        }
      if (!found) {
        std::string names;
        for (const murmur::sim::SimdTarget& target : murmur::sim::availableSimdTargets())
          names += " " + target.name;
        std::fprintf(stderr, "murmur_bench: --simd takes one of%s, not '%s'\n", names.c_str(), value.c_str());
        return false;
      }
    } else if (flag == "--device") {
      char* end = nullptr;
      const long device = std::strtol(value.c_str(), &end, 10);
      if (value.empty() || *end != '\0' || device < -1 || device > 1024) {
        std::fprintf(stderr, "murmur_bench: --device takes an EGL device index (murmur devices), not '%s'\n",
                     value.c_str());
        return false;
      }
      options.device = static_cast<int>(device);
    } else if (value == "quick" || value == "standard") {
      options.sweep = value == "quick" ? Sweep::Quick : Sweep::Standard;
    } else {
      std::fprintf(stderr, "murmur_bench: --sweep takes quick or standard, not '%s'\n", value.c_str());
      return false;
    }
  }
  for (std::size_t i = 0; i < rest.size(); ++i) argv[i] = rest[i];
  argc = static_cast<int>(rest.size());
  argv[argc] = nullptr;
  return true;
}

bool listOnly(int argc, char** argv) {
  for (int i = 1; i < argc; ++i) {
    const std::string_view arg = argv[i];
    if (arg == "--benchmark_list_tests" || arg == "--benchmark_list_tests=true" ||
        arg == "--benchmark_list_tests=1")
      return true;
  }
  return false;
}

void addMachineContext(const Options& options) {
  benchmark::AddCustomContext("cpu_model", murmur::bench::cpuModel());
  benchmark::AddCustomContext("cpu_cores", std::to_string(std::thread::hardware_concurrency()));
  benchmark::AddCustomContext("omp_threads", std::to_string(omp_get_max_threads()));
  benchmark::AddCustomContext("cpu_simd", murmur::sim::simdTargetName());
  benchmark::AddCustomContext("os", murmur::bench::osName());
  benchmark::AddCustomContext("kernel", murmur::bench::kernelName());
  // The cases the readers of the result single out, by the names the suites register
  // (bench_common.hpp), so that `murmur bench` and bench/report.py keep no copy of them.
  std::vector<std::string> gpu, cpu;
  for (const std::string_view w : murmur::bench::kHeadlineWorkloads) {
    gpu.push_back(murmur::bench::gpuStepName(w, murmur::bench::kHeadlineBoids));
    cpu.push_back(murmur::bench::cpuStepName(w, "cpu", omp_get_max_threads(), murmur::bench::kHeadlineBoids));
  }
  benchmark::AddCustomContext("headline_gpu", fmt::format("{}", fmt::join(gpu, ",")));
  benchmark::AddCustomContext("headline_cpu", fmt::format("{}", fmt::join(cpu, ",")));
  benchmark::AddCustomContext("murmur_version", std::string(murmur::buildVersion()));
  benchmark::AddCustomContext("murmur_build_type", std::string(murmur::buildType()));
  benchmark::AddCustomContext("murmur_commit", std::string(murmur::buildCommit()));
  benchmark::AddCustomContext("murmur_sweep", options.sweep == Sweep::Quick ? "quick" : "standard");
  benchmark::AddCustomContext("murmur_warmup_steps", std::to_string(murmur::bench::kWarmupSteps));
  benchmark::AddCustomContext("murmur_episode_steps", std::to_string(murmur::bench::kEpisodeSteps));
  benchmark::AddCustomContext("render_headline",
                              murmur::bench::renderStepDrawName("gpu", murmur::bench::kRenderHeadlineBoids));
  benchmark::AddCustomContext("astar_cases", std::string(murmur::bench::kAStarFamily));
  benchmark::AddCustomContext("astar_textbook_cases", std::string(murmur::bench::kAStarTextbookFamily));
  benchmark::AddCustomContext("bandwidth_cases", std::string(murmur::bench::kBandwidthFamily));
  // The workloads in the order the report shows them (the context itself is sorted by key).
  std::vector<std::string_view> names;
  for (const murmur::bench::Workload& w : murmur::bench::workloads()) {
    names.push_back(w.name);
    benchmark::AddCustomContext("workload_" + std::string(w.name), std::string(w.description));
  }
  benchmark::AddCustomContext("workloads", fmt::format("{}", fmt::join(names, ",")));
  // The step's stages in order, so that the report needs no copy of their names.
  benchmark::AddCustomContext("flock_stages",
                              fmt::format("{}", fmt::join(murmur::gpu::FlockPipeline::kStages, ",")));
  // Those a steady step runs: not the hash and count the force pass does, nor the reduction a reader asks
  // for.
  std::vector<std::string_view> steady;
  for (std::size_t i = 0; i < murmur::gpu::FlockPipeline::kStages.size(); ++i) {
    const auto stage = static_cast<murmur::gpu::FlockStage>(i);
    if (!murmur::gpu::FlockPipeline::foldedIntoForces(stage) &&
        !murmur::gpu::FlockPipeline::forReadersOnly(stage))
      steady.push_back(murmur::gpu::FlockPipeline::stageName(stage));
  }
  benchmark::AddCustomContext("flock_steady_stages", fmt::format("{}", fmt::join(steady, ",")));
}

// The pipeline's byte model (gpu::FlockPipeline::trafficModel) for bench/report.py, one line per
// program and buffer: "stage program buffer elementBytes unit accesses scattered", lines joined by ';'.
std::string trafficContext() {
  static constexpr std::string_view kUnits[] = {"boid", "cell", "candidate", "step"};
  std::vector<std::string> lines;
  for (const murmur::gpu::BufferTraffic& t : murmur::bench::flockTraffic())
    lines.push_back(fmt::format("{} {} {} {} {} {} {}", murmur::gpu::FlockPipeline::stageName(t.stage),
                                t.program, t.buffer, t.elementBytes, kUnits[static_cast<std::size_t>(t.unit)],
                                t.accesses, t.scattered ? 1 : 0));
  return fmt::format("{}", fmt::join(lines, ";"));
}

void addGlContext(const Options& options, bool selected) {
  benchmark::AddCustomContext("egl_device", std::to_string(options.device));
  murmur::gpu::Context* context = selected ? murmur::bench::glContext() : nullptr;
  if (context == nullptr) {
    benchmark::AddCustomContext("gl_context", selected ? "failed: " + murmur::bench::glContextError()
                                                       : "not opened: no GL benchmark selected");
    benchmark::AddCustomContext("device_slug", "cpu-" + murmur::bench::deviceSlug(murmur::bench::cpuModel()));
    return;
  }
  const murmur::gpu::ContextInfo& info = context->info();
  benchmark::AddCustomContext("gl_context", info.platform);
  benchmark::AddCustomContext("gl_vendor", info.vendor);
  benchmark::AddCustomContext("gl_renderer", info.renderer);
  benchmark::AddCustomContext("gl_version", info.version);
  benchmark::AddCustomContext("gl_driver", info.driver);
  benchmark::AddCustomContext("gl_memory_total_mib", std::to_string(info.memoryTotalBytes >> 20));
  benchmark::AddCustomContext("gl_memory_free_mib", std::to_string(info.memoryFreeBytes >> 20));
  benchmark::AddCustomContext("gl_memory_source", info.memorySource);
  benchmark::AddCustomContext("gl_clocks", murmur::bench::gpuClocks(info));
  benchmark::AddCustomContext("gl_software", info.software ? "true" : "false");
  benchmark::AddCustomContext("gl_max_storage_block_mib",
                              std::to_string(info.maxShaderStorageBlockSize >> 20));
  benchmark::AddCustomContext("gl_max_boids", std::to_string(murmur::gpu::FlockPipeline::maxBoids(info)));
  benchmark::AddCustomContext("gl_timestamp_bits", std::to_string(info.timestampBits));
  benchmark::AddCustomContext("device_slug", murmur::bench::deviceSlug(info.renderer));
  benchmark::AddCustomContext("flock_traffic", trafficContext());
  murmur::bench::glContextInHeader() = true;
}

}  // namespace

int main(int argc, char** argv) {
  // Line-buffered even into a pipe: `murmur bench` follows the finished cases as they are printed.
  std::setvbuf(stdout, nullptr, _IOLBF, 0);
  Options& options = murmur::bench::options();
  if (!parseOwnFlags(argc, argv, options)) return 2;
  murmur::bench::registerCpuBenchmarks();
  murmur::bench::registerGpuBenchmarks();
  murmur::bench::registerPerceptionBenchmarks();
  murmur::bench::registerRenderBenchmarks();
  murmur::bench::registerAStarBenchmarks();
  murmur::bench::registerOutputBenchmarks();
  addMachineContext(options);
  const bool list = listOnly(argc, argv);
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 2;
  addGlContext(options, !list && murmur::bench::glBenchmarksSelected(benchmark::GetBenchmarkFilter()));
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  murmur::bench::releaseGlContext();
  return 0;
}
