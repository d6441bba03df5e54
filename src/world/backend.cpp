#include "world/backend.hpp"

#include <string>
#include <utility>

#include "gpu/error.hpp"
#include "gpu/flock_pipeline.hpp"
#include "sim/cpu_simulator.hpp"

namespace murmur::world {

std::unique_ptr<FlockBackend> makeCpuBackend(sim::NeighbourSearch search, int threads);
// Throws gpu::ContextError when no GL 4.3 context can be created, gpu::ShaderError when a shader
// does not compile or link.
std::unique_ptr<FlockBackend> makeGpuBackend(int deviceIndex, gpu::Context* context,
                                             gpu::Arithmetic arithmetic);

bool isSoftwareRenderer(std::string_view glRenderer) {
  for (const std::string_view rasteriser : {"llvmpipe", "softpipe", "swrast"})
    if (glRenderer.find(rasteriser) != std::string_view::npos) return true;
  return false;
}

UnknownBackend::UnknownBackend(std::string_view name)
    : std::runtime_error([&] {
        std::string message = "unknown backend '" + std::string(name) + "' (";
        for (std::string_view known : kBackendNames) message += std::string(known) + ", ";
        return message + "auto)";
      }()),
      name_(name) {}

std::unique_ptr<FlockBackend> makeBackend(std::string_view name, int deviceIndex, gpu::Context* context,
                                          AutoChoice* autoChoice, int threads) {
  if (name == "cpu") return makeCpuBackend(sim::NeighbourSearch::Grid, threads);
  if (name == "cpu-naive") return makeCpuBackend(sim::NeighbourSearch::Naive, threads);
  if (name == "gpu") return makeGpuBackend(deviceIndex, context, gpu::Arithmetic::Fast);
  if (name == "gpu-exact") return makeGpuBackend(deviceIndex, context, gpu::Arithmetic::Exact);
  if (name == "auto") {
    AutoChoice choice;
    std::unique_ptr<FlockBackend> chosen;
    try {
      chosen = makeGpuBackend(deviceIndex, context, gpu::Arithmetic::Fast);
      choice.detail = chosen->device();
      if (isSoftwareRenderer(choice.detail)) {
        choice.reason = AutoChoice::Reason::SoftwareRenderer;
        chosen = makeCpuBackend(sim::NeighbourSearch::Grid, threads);
      }
    } catch (const gpu::ContextError& e) {
      choice = {AutoChoice::Reason::NoGpuContext, e.what()};
      chosen = makeCpuBackend(sim::NeighbourSearch::Grid, threads);
    }
    if (autoChoice != nullptr) *autoChoice = std::move(choice);
    return chosen;
  }
  throw UnknownBackend(name);
}

}  // namespace murmur::world
