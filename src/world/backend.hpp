#pragma once
// The simulation backends a world steps (world/world.hpp), one interface: cpu-naive and cpu (the
// CPU reference) and gpu and gpu-exact (the compute pipeline on a GL context, in its fast and its
// parity arithmetic).
#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <stdexcept>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "gpu/shader_library.hpp"
#include "gpu/timer.hpp"
#include "sim/flock.hpp"
#include "sim/metrics.hpp"
#include "sim/nearest_boids.hpp"
#include "sim/params.hpp"

namespace murmur::gpu {
class Context;
struct ContextInfo;
class FlockPipeline;
}  // namespace murmur::gpu

namespace murmur::world {

// What a world's agents perceive of the flock before a step: one summary per group (near/far
// transitions use their centroids) and the nearest boids of each group around each agent.
struct AgentPerception {
  std::vector<sim::GroupSummary> groups;
  sim::NearestBoids boids;
};

class FlockBackend {
 public:
  virtual ~FlockBackend() = default;
  virtual std::string_view name() const = 0;
  // Replaces the whole state (an upload on the GPU).
  virtual void setState(const sim::FlockState& state) = 0;
  virtual void step(const sim::ModelParams& params, const sim::StepInputs& inputs) = 0;
  // The whole state in id order (a download on the GPU: only for --dump, compare and tests).
  virtual sim::FlockState state() = 0;
  // The same into `out`, its arrays' capacity reused where the backend can (the library's views).
  virtual void readState(sim::FlockState& out) { out = state(); }
  // Per-group count, centroid and mean velocity after the last step (a few floats on the GPU: one
  // blocking read).
  virtual std::vector<sim::GroupSummary> groupSummaries() = 0;
  // The same for display, without a wait: on the GPU those of a read-back requested by the call
  // before (gpu::FlockPipeline::recentGroupSummaries: a frame old when called once a frame; empty at
  // first), on the CPU the current ones.
  virtual std::vector<sim::GroupSummary> recentGroupSummaries() { return groupSummaries(); }
  // The positions of sim::positionSampleRuns' boids: what the headless demo's following camera
  // frames each frame instead of the whole state (on the GPU one blocking read of at most 64 KiB).
  virtual std::vector<glm::vec3> positionSample() = 0;
  // Asks what the agents perceive of the current state, for perceived() to answer later: the group
  // summaries, and the k nearest boids of each group around each probe (sim/nearest_boids.hpp)
  // through the grid of the last step: selected by the positions that step started from, reported
  // as they are now. Nothing is found before the first step after setState. On the GPU the work is
  // recorded and read back behind a fence (gpu::FlockPipeline::requestPerception): asked before a
  // step, answered after it, it costs no wait. k: 1..sim::kMaxNearestBoids.
  virtual void requestPerception(std::span<const sim::BoidProbe> probes, std::uint32_t k) = 0;
  // The answer to the last requestPerception(), as of the state it was asked on (std::logic_error
  // before any). Both backends give the same answer for the same request, however far the GPU lags.
  virtual AgentPerception perceived() = 0;
  // The flock's finiteness as far as the backend has checked it without a wait, after `step` steps
  // (the world's count since the flock started): the CPU backends check that step's state; the GPU
  // answers a check it read back of an earlier step, and asks for one of `step` when none is
  // pending (none answered yet: nullopt), gpu every FlockPipeline::kFastFiniteCheckEvery steps.
  struct FiniteCheck {
    std::uint64_t step = 0;
    bool finite = true;
  };
  virtual std::optional<FiniteCheck> checkFinite(std::uint64_t step) = 0;
  // The GPU stages' times so far (timer queries; gpu::StageTime), in the pipeline's stage order;
  // empty on the CPU.
  virtual std::vector<gpu::StageTime> stageTimes() { return {}; }
  // The device that runs it ("CPU, 2 threads", GL_RENDERER).
  virtual std::string device() const = 0;
  // InputError naming the count and the limit when this backend cannot hold `boids` (checked
  // before a flock is spawned, so that a too-large request fails at once).
  virtual void requireCapacity(std::uint64_t /*boids*/) const {}
  // The GPU pipeline whose storage buffers hold the state (a renderer draws from them), or null.
  virtual gpu::FlockPipeline* gpuPipeline() { return nullptr; }
  // The GL context the pipeline runs in, or null for the CPU.
  virtual gpu::Context* glContext() { return nullptr; }
  // The GL device the backend runs on (vendor, renderer, driver, memory), or null for the CPU.
  virtual const gpu::ContextInfo* glDevice() const { return nullptr; }
};

// True for Mesa's CPU rasterisers (llvmpipe, softpipe, swrast), named in GL_RENDERER.
bool isSoftwareRenderer(std::string_view glRenderer);

// The shaders: embedded, or loaded from MURMUR_SHADER_DIR when that is set (shader development
// without rebuilding). The gpu backend and the demo's renderer both use it.
gpu::ShaderLibrary shaderLibrary();

// A backend name that is none of makeBackend's (the command maps it to its flag).
class UnknownBackend : public std::runtime_error {
 public:
  explicit UnknownBackend(std::string_view name);
  const std::string& name() const { return name_; }

 private:
  std::string name_;
};

// What "auto" chose and why, for the caller to tell the user (the library prints nothing).
struct AutoChoice {
  enum class Reason {
    HardwareGpu,       // gpu: a hardware GL device
    SoftwareRenderer,  // cpu: the GL device is a software renderer, where the cpu backend is faster
    NoGpuContext,      // cpu: no GL context could be made (gpu::ContextError)
  };
  Reason reason = Reason::HardwareGpu;
  std::string detail;  // the GL device (GL_RENDERER), or why no context could be made
};

// The backends by name, besides "auto" (which picks one of them).
inline constexpr std::string_view kBackendNames[] = {"gpu", "gpu-exact", "cpu", "cpu-naive"};

// name: "cpu", "cpu-naive", "gpu" (gpu::Arithmetic::Fast) or "gpu-exact" (gpu::Arithmetic::Exact: bit
// for bit with cpu on llvmpipe); "auto" picks gpu on a hardware GL 4.3 device and cpu on a
// software renderer (where the cpu backend is faster) or when no GL context can be made, and says
// which and why in *autoChoice when given. The gpu backend runs on `context` when given (it must be
// current and outlive the backend; the demo shares its window or offscreen context this way), else on
// its own headless context (EGL device deviceIndex, -1: the first that works), with shaderLibrary()'s
// shaders. A cpu backend runs on `threads` threads (0: one per hardware thread). Throws UnknownBackend for
// any other name; gpu::ContextError when gpu is asked for and no context can be made. Only a context error
// makes auto fall back: a shader that does not compile or link (gpu::ShaderError) is a bug, and it propagates
// from gpu and auto alike.
std::unique_ptr<FlockBackend> makeBackend(std::string_view name, int deviceIndex = -1,
                                          gpu::Context* context = nullptr, AutoChoice* autoChoice = nullptr,
                                          int threads = 0);

}  // namespace murmur::world
