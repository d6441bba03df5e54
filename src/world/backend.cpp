#include "world/backend.hpp"

#include <cstdio>

#include "sim/cpu_backend.hpp"
#include "sim/error.hpp"

namespace murmur::world {

std::unique_ptr<FlockBackend> makeCpuBackend(sim::NeighbourSearch search);
// Throws gpu::ContextError (a std::runtime_error) when no GL 4.3 context can be created.
std::unique_ptr<FlockBackend> makeGpuBackend(int deviceIndex, gpu::Context* context);

bool isSoftwareRenderer(std::string_view glRenderer) {
  for (const std::string_view rasteriser : {"llvmpipe", "softpipe", "swrast"})
    if (glRenderer.find(rasteriser) != std::string_view::npos) return true;
  return false;
}

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
    std::unique_ptr<FlockBackend> gpu;
    try {
      gpu = makeGpuBackend(deviceIndex, context);
    } catch (const std::runtime_error& e) {
      std::fprintf(stderr, "murmur: backend cpu: no GPU backend (%s); --backend gpu to insist\n", e.what());
      return makeCpuBackend(sim::NeighbourSearch::Grid);
    }
    const std::string device = gpu->device();
    if (isSoftwareRenderer(device)) {
      std::fprintf(stderr,
                   "murmur: backend cpu: the GL device is a software renderer (%s), where the cpu backend is "
                   "faster; --backend gpu to use it anyway\n",
                   device.c_str());
      return makeCpuBackend(sim::NeighbourSearch::Grid);
    }
    std::fprintf(stderr, "murmur: backend gpu: a hardware GL device (%s)\n", device.c_str());
    return gpu;
  }
  throw InputError("", 0, "--backend", "unknown backend '" + std::string(name) + "' (gpu, cpu, cpu-naive)");
}

}  // namespace murmur::world
