// murmur_bench: Google Benchmark with the machine in the context (CPU model, cores, build type).
#include <benchmark/benchmark.h>
#include <omp.h>

#include <fstream>
#include <string>
#include <thread>

namespace {

std::string cpuModel() {
  std::ifstream cpuinfo("/proc/cpuinfo");
  std::string line;
  while (std::getline(cpuinfo, line))
    if (line.rfind("model name", 0) == 0) return line.substr(line.find(':') + 2);
  return "unknown";
}

}  // namespace

int main(int argc, char** argv) {
  benchmark::AddCustomContext("cpu_model", cpuModel());
  benchmark::AddCustomContext("cpu_cores", std::to_string(std::thread::hardware_concurrency()));
  benchmark::AddCustomContext("omp_threads", std::to_string(omp_get_max_threads()));
#ifdef NDEBUG
  benchmark::AddCustomContext("murmur_build_type", "release");
#else
  benchmark::AddCustomContext("murmur_build_type", "debug");
#endif
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 2;
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
