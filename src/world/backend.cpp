#include "world/backend.hpp"

#include <string>
#include <utility>

#include "core/error.hpp"
#include "sim/cpu_simulator.hpp"

namespace murmur::world {

std::unique_ptr<FlockBackend> makeCpuBackend(sim::NeighbourSearch search);
// Throws gpu::ContextError (a std::runtime_error) when no GL 4.3 context can be created.
std::unique_ptr<FlockBackend> makeGpuBackend(int deviceIndex, gpu::Context* context);

bool isSoftwareRenderer(std::string_view glRenderer) {
  for (const std::string_view rasteriser : {"llvmpipe", "softpipe", "swrast"})
    if (glRenderer.find(rasteriser) != std::string_view::npos) return true;
  return false;
}

std::unique_ptr<FlockBackend> makeBackend(std::string_view name, int deviceIndex, gpu::Context* context,
                                          std::string* autoChoice) {
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
    std::string choice;
    std::unique_ptr<FlockBackend> chosen;
    try {
      chosen = makeGpuBackend(deviceIndex, context);
      const std::string device = chosen->device();
      if (isSoftwareRenderer(device)) {
        choice = "backend cpu: the GL device is a software renderer (" + device +
                 "), where the cpu backend is faster; --backend gpu to use it anyway";
        chosen = makeCpuBackend(sim::NeighbourSearch::Grid);
      } else {
        choice = "backend gpu: a hardware GL device (" + device + ")";
      }
    } catch (const std::runtime_error& e) {
      choice = std::string("backend cpu: no GPU backend (") + e.what() + "); --backend gpu to insist";
      chosen = makeCpuBackend(sim::NeighbourSearch::Grid);
    }
    if (autoChoice != nullptr) *autoChoice = std::move(choice);
    return chosen;
  }
  throw InputError("", 0, "--backend", "unknown backend '" + std::string(name) + "' (gpu, cpu, cpu-naive)");
}

}  // namespace murmur::world
