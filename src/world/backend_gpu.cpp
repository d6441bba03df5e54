// The gpu backend: gpu::FlockPipeline on a headless EGL context (or a context the caller shares).
#include <cstdlib>
#include <string_view>
#include <utility>

#include <fmt/format.h>

#include "core/error.hpp"
#include "gpu/context.hpp"
#include "gpu/error.hpp"
#include "gpu/flock_pipeline.hpp"
#include "gpu/shader_library.hpp"
#include "world/backend.hpp"

namespace murmur::world {
gpu::ShaderLibrary shaderLibrary() {
  const char* dir = std::getenv("MURMUR_SHADER_DIR");
  return dir != nullptr && *dir != '\0' ? gpu::ShaderLibrary(dir) : gpu::ShaderLibrary();
}

namespace {

class GpuFlockBackend final : public FlockBackend {
 public:
  GpuFlockBackend(std::unique_ptr<gpu::Context> owned, gpu::Context& context, gpu::Arithmetic arithmetic)
      : owned_(std::move(owned)),
        context_(context),
        shaders_(shaderLibrary()),
        pipeline_(context_, shaders_, arithmetic),
        arithmetic_(arithmetic) {}

  std::string_view name() const override {
    return arithmetic_ == gpu::Arithmetic::Exact ? "gpu-exact" : "gpu";
  }
  void setState(const sim::FlockState& state) override {
    try {
      pipeline_.upload(state);
    } catch (const gpu::CapacityError& e) {
      throw InputError("", 0, "boids", e.what());
    }
  }
  void step(const sim::ModelParams& params, const sim::StepInputs& inputs) override {
    pipeline_.step(params, inputs);
  }
  void requireCapacity(std::uint64_t boids) const override {
    try {
      gpu::FlockPipeline::requireCapacity(context_.info(), boids);
    } catch (const gpu::CapacityError& e) {
      throw InputError("", 0, "boids", e.what());
    }
  }
  sim::FlockState state() override { return pipeline_.download(); }
  void requestPerception(std::span<const sim::BoidProbe> probes, std::uint32_t k) override {
    pipeline_.requestPerception(probes, k);
  }
  AgentPerception perceived() override {
    gpu::FlockPipeline::Perception answer = pipeline_.perception();
    return {std::move(answer.groups), std::move(answer.boids)};
  }
  std::optional<FiniteCheck> checkFinite(std::uint64_t step) override {
    if (arithmetic_ == gpu::Arithmetic::Fast && step % gpu::FlockPipeline::kFastFiniteCheckEvery != 0)
      return std::nullopt;
    const std::optional<gpu::FlockPipeline::FiniteCheck> seen = pipeline_.checkFinite(step);
    if (!seen) return std::nullopt;
    return FiniteCheck{seen->tag, seen->finite};
  }
  std::vector<sim::GroupSummary> groupSummaries() override { return pipeline_.groupSummaries(); }
  std::vector<sim::GroupSummary> recentGroupSummaries() override { return pipeline_.recentGroupSummaries(); }
  std::vector<glm::vec3> positionSample() override { return pipeline_.positionSample(); }
  // In the step's order (the reduction may first run before a step: a request at the start), each
  // stage that ran.
  std::vector<gpu::StageTime> stageTimes() override {
    pipeline_.timer().poll();
    std::vector<gpu::StageTime> stages;
    for (const std::string_view name : gpu::FlockPipeline::kStages)
      if (const gpu::StageTime* stage = pipeline_.timer().stage(name); stage != nullptr && stage->samples > 0)
        stages.push_back(*stage);
    return stages;
  }
  std::string device() const override { return context_.info().renderer; }
  gpu::FlockPipeline* gpuPipeline() override { return &pipeline_; }
  gpu::Context* glContext() override { return &context_; }
  const gpu::ContextInfo* glDevice() const override { return &context_.info(); }

 private:
  std::unique_ptr<gpu::Context> owned_;
  gpu::Context& context_;
  gpu::ShaderLibrary shaders_;
  gpu::FlockPipeline pipeline_;
  gpu::Arithmetic arithmetic_;
};

}  // namespace

std::unique_ptr<FlockBackend> makeGpuBackend(int deviceIndex, gpu::Context* context,
                                             gpu::Arithmetic arithmetic) {
  if (context != nullptr) return std::make_unique<GpuFlockBackend>(nullptr, *context, arithmetic);
  std::unique_ptr<gpu::Context> owned = gpu::createHeadlessContext(deviceIndex);
  gpu::Context& ref = *owned;
  return std::make_unique<GpuFlockBackend>(std::move(owned), ref, arithmetic);
}

}  // namespace murmur::world
