#include "app/backend.hpp"

#include <cstdio>

#include "sim/cpu_backend.hpp"
#include "sim/error.hpp"

namespace murmur::app {

std::unique_ptr<FlockBackend> makeCpuBackend(sim::NeighbourSearch search);
// Throws gpu::ContextError (a std::runtime_error) when no GL 4.3 context can be created.
std::unique_ptr<FlockBackend> makeGpuBackend(int deviceIndex, gpu::Context* context);

std::unique_ptr<FlockBackend> makeBackend(std::string_view name, int deviceIndex, gpu::Context* context) {
  if (name == "cpu") return makeCpuBackend(sim::NeighbourSearch::Grid);
  if (name == "cpu-naive") return makeCpuBackend(sim::NeighbourSearch::Naive);
  if (name == "gpu") {
    try {
      return makeGpuBackend(deviceIndex, context);
    } catch (const InputError&) {
      throw;
    } catch (const std::runtime_error& e) {
      throw InputError("", 0, "--backend", std::string("gpu: ") + e.what());
    }
  }
  if (name == "auto") {
    try {
      return makeGpuBackend(deviceIndex, context);
    } catch (const std::runtime_error& e) {
      std::fprintf(stderr, "murmur: no GPU backend (%s); using the cpu backend\n", e.what());
      return makeCpuBackend(sim::NeighbourSearch::Grid);
    }
  }
  throw InputError("", 0, "--backend", "unknown backend '" + std::string(name) + "' (gpu, cpu, cpu-naive)");
}

}  // namespace murmur::app
