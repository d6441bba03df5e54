// GPU benchmarks: gpu::FlockPipeline on the shared workloads, timed by GL timestamp queries.
//
//   <workload>/gpu/n:N          one full step (manual time: GPU time from a timestamp before the
//                               step to one after it); counters: wall_ms (wall-clock time per step,
//                               CPU recording included), gpu_ms, and <stage>_ms for every stage of
//                               FlockPipeline::kStages a step runs (the pipeline's GpuTimer's time
//                               per step: hash and count run only on the step after each restore
//                               of the initial flock; the group reduction is no part of a step)
//   <workload>/gpu:<stage>/n:N  the same steps, manual time = that stage's GPU time (a fixed
//                               kStageIterations steps; for reduce, each step followed by a
//                               read-back request, the reduction's one reader; none for hash and
//                               count, folded into the forces on steady steps)
//   bandwidth/gpu-copy/mib:M    a compute shader copying M MiB (vec4 reads and writes, the stages'
//                               own kind of access): bytes_per_second = 2 M MiB / time, the
//                               device's practical memory-bandwidth floor for bench/report.py
//   bandwidth/gpu-clear/mib:M   the driver's clear (gpu::Buffer::fill, glClearNamedBufferData) of
//                               M MiB: bytes_per_second = M MiB / time; the clear the pipeline
//                               stopped using (docs/gpu.md, "Clearing the counts")
//   scan/gpu/threads:T/values:V/cells:C
//                               gpu::PrefixSum alone over C counts in blocks of V values, T threads
//                               a group (V / T values a thread): bytes_per_second = 8 C / time (each
//                               count read and each start written once). The pipeline's block is
//                               fixed (PrefixSum::kBlockValues); here other blocks are measured.
//                               Standard sweep, hardware devices only
//
// Timing never stalls the pipeline: kInFlight steps are queued before the loop, and iteration i
// records step i + kInFlight and then reports the GPU time of step i (whose stamps are done by
// then), so SetIterationTime is called once per iteration with one step's time and the GPU always
// has work queued. The pipeline's GpuTimer is resolved after the loop.
//
// Sizes beyond the device are reported with SkipWithError, not left out: more boids than one
// storage buffer addresses (FlockPipeline::maxBoids), an estimate of the memory the case needs
// above what the device reports free (GL_NVX_gpu_memory_info, GL_ATI_meminfo; host memory for a
// software renderer), or an allocation the driver refuses.
#include <algorithm>
#include <array>
#include <chrono>
#include <cstdint>
#include <deque>
#include <fstream>
#include <initializer_list>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "bench_common.hpp"
#include "gpu/error.hpp"
#include "gpu/flock_pipeline.hpp"
#include "gpu/gl_objects.hpp"
#include "gpu/prefix_sum.hpp"
#include "gpu/shader_library.hpp"
#include "sim/grid.hpp"
#include "sim/worker_pool.hpp"
#include "world/backend.hpp"

namespace murmur::bench {
namespace {

constexpr int kInFlight = 2;
constexpr std::size_t kRing = kInFlight + 1;
// Device bytes a boid takes: the pipeline's (src/gpu/flock_layout.hpp) plus the 32 of the
// spawned-state copy that episodes restore from and the 4 of the identity ids they restore.
constexpr std::uint64_t kDeviceBytesPerBoid = gpu::layout::kBytesPerBoid + 32 + 4;
// Host bytes a boid takes while a case is prepared and uploaded (spawned state, grid for the
// candidate count, the copy numbered in cell order and its sort, upload staging): generous.
constexpr std::uint64_t kHostBytesPerBoid = 160;

using Clock = std::chrono::steady_clock;

std::uint64_t hostAvailableBytes() {
  std::ifstream meminfo("/proc/meminfo");
  std::string key;
  std::uint64_t kib = 0;
  std::string unit;
  while (meminfo >> key >> kib >> unit)
    if (key == "MemAvailable:") return kib * 1024;
  return 0;
}

// The pipeline and what a case keeps on the device, made once per process.
struct GpuRig {
  gpu::Context& context;
  gpu::ShaderLibrary shaders;
  gpu::FlockPipeline pipeline;
  std::array<gpu::Query, kRing> begins, ends;
  std::string loadedKey;  // PreparedCase::key of the flock the pipeline holds
  gpu::Buffer initialPositions, initialVelocities;
  gpu::Program copy;  // bandwidth/gpu-copy, compiled on first use

  explicit GpuRig(gpu::Context& c, gpu::WorkGroupSizes sizes = {})
      : context(c),
        shaders(world::shaderLibrary()),
        pipeline(context, shaders, gpu::Arithmetic::Fast, sizes) {
    for (std::size_t k = 0; k < kRing; ++k) {
      begins[k] = gpu::Query("bench begin", GL_TIMESTAMP);
      ends[k] = gpu::Query("bench end", GL_TIMESTAMP);
    }
  }

  // The flock back to its spawned state (GPU copies; no wait).
  void restore() {
    const auto bytes = static_cast<GLsizeiptr>(pipeline.size() * sizeof(glm::vec4));
    glCopyNamedBufferSubData(initialPositions.id(), pipeline.positionBuffer().id(), 0, 0, bytes);
    glCopyNamedBufferSubData(initialVelocities.id(), pipeline.velocityBuffer().id(), 0, 0, bytes);
    pipeline.stateReplaced();
  }

  // Uploads the case numbered in the cell order of `grid` (once while it stays loaded) and
  // snapshots it. Throws gpu::CapacityError.
  void load(const PreparedCase& prepared, const sim::GridSpec& grid) {
    if (loadedKey == prepared.key) return;
    loadedKey.clear();
    initialPositions = gpu::Buffer();
    initialVelocities = gpu::Buffer();
    pipeline.upload(numberedInCellOrder(prepared.flock, grid));
    const std::size_t bytes = pipeline.size() * sizeof(glm::vec4);
    gpu::takeGlError();
    initialPositions = gpu::Buffer("bench initial positions", bytes, 0);
    initialVelocities = gpu::Buffer("bench initial velocities", bytes, 0);
    if (gpu::takeGlError() == GL_OUT_OF_MEMORY) {
      initialPositions = gpu::Buffer();
      initialVelocities = gpu::Buffer();
      throw gpu::CapacityError(
          fmt::format("out of GPU memory copying the spawned state of {} boids", pipeline.size()),
          pipeline.size(), 0);
    }
    const auto size = static_cast<GLsizeiptr>(bytes);
    glCopyNamedBufferSubData(pipeline.positionBuffer().id(), initialPositions.id(), 0, 0, size);
    glCopyNamedBufferSubData(pipeline.velocityBuffer().id(), initialVelocities.id(), 0, 0, size);
    loadedKey = prepared.key;
  }
};

std::unique_ptr<GpuRig>& rigSlot() {
  static std::unique_ptr<GpuRig> rig;
  return rig;
}

// The rig, made on the first call; null when it cannot be made (`error` says why).
GpuRig* sharedRig(std::string& error) {
  static std::string rigError;
  std::unique_ptr<GpuRig>& slot = rigSlot();
  if (!slot && rigError.empty()) {
    gpu::Context* context = glContext();
    if (context == nullptr) {
      rigError = "no OpenGL context: " + glContextError();
    } else {
      try {
        slot = std::make_unique<GpuRig>(*context);
        onGlRelease([] { rigSlot().reset(); });
      } catch (const gpu::GpuError& e) {
        rigError = std::string("the flock pipeline does not build: ") + e.what();
      }
    }
  }
  error = rigError;
  return slot.get();
}

// The rig, or null with the benchmark skipped on the reason.
GpuRig* rig(benchmark::State& state) {
  std::string error;
  GpuRig* made = sharedRig(error);
  if (made == nullptr) state.SkipWithError(error.c_str());
  return made;
}

// The rig of the work-group study: a second pipeline built with other sizes, kept while the next
// case asks for the same ones (one at a time, so the study holds at most one more flock).
GpuRig* rig(benchmark::State& state, const gpu::WorkGroupSizes& sizes) {
  if (sizes == gpu::WorkGroupSizes{}) return rig(state);
  std::string error;
  GpuRig* shared = sharedRig(error);
  if (shared == nullptr) {
    state.SkipWithError(error.c_str());
    return nullptr;
  }
  static std::unique_ptr<GpuRig> study;
  static gpu::WorkGroupSizes studySizes;
  if (!study || !(studySizes == sizes)) {
    study.reset();
    try {
      study = std::make_unique<GpuRig>(shared->context, sizes);
      studySizes = sizes;
      static const bool released = (onGlRelease([] { study.reset(); }), true);
      (void)released;
    } catch (const std::exception& e) {
      state.SkipWithError(
          fmt::format("the flock pipeline does not build with these sizes: {}", e.what()).c_str());
      return nullptr;
    }
  }
  return study.get();
}

std::uint32_t pipelineMaxCells(const gpu::ContextInfo& info) {
  // As FlockPipeline: 2^24 cells, less when a storage buffer cannot hold cells + 1 counts.
  return static_cast<std::uint32_t>(
      std::min<std::int64_t>(std::int64_t{1} << 24, info.maxShaderStorageBlockSize / 4 - 1));
}

// Leaves no framebuffer bound (another suite, e.g. the render benchmarks, may have left its
// offscreen target bound). On llvmpipe a timestamp query issued while a framebuffer is bound is
// binned into the rasterizer's scene and only written at the scene's next flush, which the next
// glMemoryBarrier makes after the next compute dispatch has run: every stage's time then moves to
// the stage before it (measured: "scatter" takes the forces time, "forces" almost none).
void unbindFramebuffer() {
  glBindFramebuffer(GL_FRAMEBUFFER, 0);
}

double seconds(const gpu::Query& begin, const gpu::Query& end) {
  const std::uint64_t b = begin.result();
  const std::uint64_t e = end.result();
  return e > b ? static_cast<double>(e - b) * 1e-9 : 0.0;
}

// One stage's time per step from the pipeline's GpuTimer, in step order. Samples arrive in batches
// (whatever poll() finds done); a batch of k samples is handed out as k equal shares of its total.
class StageFeed {
 public:
  explicit StageFeed(std::string_view stage) : stage_(stage) {}
  double next(gpu::GpuTimer& timer) {
    if (pending_.empty()) take(timer, false);
    if (pending_.empty()) take(timer, true);
    if (pending_.empty()) return 0.0;
    const double value = pending_.front();
    pending_.pop_front();
    return value;
  }

 private:
  void take(gpu::GpuTimer& timer, bool wait) {
    if (wait)
      timer.resolve();
    else
      timer.poll();
    const gpu::StageTime* stage = timer.stage(stage_);
    if (stage == nullptr || stage->samples <= seenSamples_) return;
    const std::uint64_t count = stage->samples - seenSamples_;
    const double share = (stage->totalMs - seenMs_) * 1e-3 / static_cast<double>(count);
    pending_.insert(pending_.end(), count, share);
    seenSamples_ = stage->samples;
    seenMs_ = stage->totalMs;
  }

  std::string_view stage_;
  std::uint64_t seenSamples_ = 0;
  double seenMs_ = 0.0;
  std::deque<double> pending_;
};

// A case the device cannot take, as a message; nullopt when it fits.
std::optional<std::string> beyondDevice(const gpu::ContextInfo& info, std::uint32_t n) {
  const std::uint64_t maxBoids = gpu::FlockPipeline::maxBoids(info);
  if (n > maxBoids)
    return fmt::format(
        "{} boids exceed the {} that one storage buffer of {} addresses "
        "(GL_MAX_SHADER_STORAGE_BLOCK_SIZE {} MiB)",
        n, maxBoids, info.renderer, info.maxShaderStorageBlockSize >> 20);
  const std::uint64_t host = hostAvailableBytes();
  if (host > 0 && std::uint64_t{n} * kHostBytesPerBoid > host)
    return fmt::format("{} boids need about {} MiB of host memory to prepare; {} MiB available", n,
                       (std::uint64_t{n} * kHostBytesPerBoid) >> 20, host >> 20);
  const std::uint64_t device = gpu::freeDeviceMemory(info);
  const std::uint64_t need =
      std::uint64_t{n} * kDeviceBytesPerBoid + (std::uint64_t{pipelineMaxCells(info)} + 1) * 8;
  if (device > 0 && need > device - device / 10)
    return fmt::format("{} boids need about {} MiB on {}; {} MiB free", n, need >> 20, info.renderer,
                       device >> 20);
  return std::nullopt;
}

// stage < 0: the full step. recordLeaders: StepInputs::recordLeaders (off only to measure its cost).
// variant: the model's options a case switches on beyond the workload's (StepVariant).
// sizes: the pipeline's work-group sizes (the defaults but for the work-group study). checkFinite:
// the gpu backend's finiteness check after every kFastFiniteCheckEvery-th step (world::World).
void runGpuSteps(benchmark::State& state, const Workload& workload, std::uint32_t n, int stage,
                 bool recordLeaders = true, StepVariant variant = {}, gpu::WorkGroupSizes sizes = {},
                 bool checkFinite = false) {
  GpuRig* r = rig(state, sizes);
  if (r == nullptr) return;
  const gpu::ContextInfo& info = r->context.info();
  if (const std::optional<std::string> reason = beyondDevice(info, n)) {
    state.SkipWithError(reason->c_str());
    return;
  }
  const PreparedCase& prepared = prepare(workload, n, pipelineMaxCells(info));
  try {
    r->load(prepared, sim::makeGridSpec(prepared.scene.model, pipelineMaxCells(info)));
  } catch (const gpu::CapacityError& e) {
    state.SkipWithError(e.what());
    return;
  }
  gpu::FlockPipeline& pipeline = r->pipeline;
  gpu::GpuTimer& timer = pipeline.timer();
  sim::ModelParams params = prepared.scene.model;
  variant.apply(params);
  sim::StepInputs inputs = prepared.inputs;
  inputs.recordLeaders = recordLeaders;

  unbindFramebuffer();
  r->restore();
  for (int k = 0; k < kWarmupSteps; ++k) pipeline.step(params, inputs);
  r->restore();
  glFinish();
  timer.resolve();
  timer.reset();

  const bool measuresReduce = stage == static_cast<int>(gpu::FlockStage::Reduce);
  std::uint64_t issued = 0;
  int episode = 0;
  auto issue = [&] {
    if (episode == kEpisodeSteps) {
      r->restore();
      episode = 0;
    }
    const std::size_t slot = issued % kRing;
    glQueryCounter(r->begins[slot].id(), GL_TIMESTAMP);
    pipeline.step(params, inputs);
    // The group reduction runs only for a reader (a world with agents asks every step): its stage
    // is measured with one.
    if (measuresReduce) pipeline.requestPerception({}, 1);
    if (checkFinite && issued % gpu::FlockPipeline::kFastFiniteCheckEvery == 0) pipeline.checkFinite(issued);
    glQueryCounter(r->ends[slot].id(), GL_TIMESTAMP);
    ++issued;
    ++episode;
  };
  std::optional<StageFeed> feed;
  if (stage >= 0) feed.emplace(gpu::FlockPipeline::kStages[static_cast<std::size_t>(stage)]);

  for (int k = 0; k < kInFlight; ++k) issue();
  std::uint64_t reported = 0;
  double stepTotal = 0.0;
  const Clock::time_point start = Clock::now();
  for (auto _ : state) {
    issue();
    const std::size_t slot = reported % kRing;
    const double step = seconds(r->begins[slot], r->ends[slot]);
    stepTotal += step;
    state.SetIterationTime(feed ? feed->next(timer) : step);
    ++reported;
  }
  glFinish();
  const double wall = std::chrono::duration<double>(Clock::now() - start).count();
  timer.resolve();

  const double iterations = static_cast<double>(std::max<benchmark::IterationCount>(state.iterations(), 1));
  setStepCounters(state, n, prepared.candidatesPerBoid, pipeline.grid().cellCount());
  state.counters["wall_ms"] = 1e3 * wall / iterations;
  state.counters["gpu_ms"] = 1e3 * stepTotal / iterations;
  if (stage < 0) {
    // Per step, so that the stages add up to the step: hash and count run only on the step after
    // each restore (the force pass does their work on the others).
    for (const std::string_view name : gpu::FlockPipeline::kStages)
      if (const gpu::StageTime* s = timer.stage(name))
        state.counters[fmt::format("{}_ms", name)] =
            s->totalMs / static_cast<double>(std::max<std::uint64_t>(issued, 1));
  }
  std::string label = glContextInHeader() ? "" : info.renderer;
  if (pipeline.grid().cellCount() != prepared.cells)
    label += fmt::format("{}candidates counted on a grid of {} cells, the GPU used {}",
                         label.empty() ? "" : "; ", prepared.cells, pipeline.grid().cellCount());
  if (!label.empty()) state.SetLabel(label);
}

constexpr const char* kCopyShader = R"(#version 430 core
layout(local_size_x = 256) in;
layout(std430, binding = 0) readonly buffer Src { vec4 src[]; };
layout(std430, binding = 1) writeonly buffer Dst { vec4 dst[]; };
layout(std140, binding = 0) uniform CopyParams { uint uCount; };
void main() {
  uint stride = gl_NumWorkGroups.x * 256u;
  for (uint i = gl_GlobalInvocationID.x; i < uCount; i += stride) dst[i] = src[i];
}
)";

// The copy program, compiled here (a benchmark-only shader, not part of the library's set).
gpu::Program copyProgram(std::string& error) {
  const GLuint shader = glCreateShader(GL_COMPUTE_SHADER);
  glShaderSource(shader, 1, &kCopyShader, nullptr);
  glCompileShader(shader);
  GLint ok = GL_FALSE;
  glGetShaderiv(shader, GL_COMPILE_STATUS, &ok);
  if (ok != GL_TRUE) {
    std::array<char, 2048> log{};
    glGetShaderInfoLog(shader, static_cast<GLsizei>(log.size()), nullptr, log.data());
    glDeleteShader(shader);
    error = std::string("the copy shader does not compile: ") + log.data();
    return {};
  }
  const GLuint program = glCreateProgram();
  glAttachShader(program, shader);
  glLinkProgram(program);
  glDeleteShader(shader);
  glGetProgramiv(program, GL_LINK_STATUS, &ok);
  if (ok != GL_TRUE) {
    glDeleteProgram(program);
    error = "the copy shader does not link";
    return {};
  }
  return gpu::Program(program, "bench copy");
}

// The rig, or null with the case skipped when M MiB exceed one storage buffer of the device.
GpuRig* bandwidthRig(benchmark::State& state, std::uint64_t mib) {
  GpuRig* r = rig(state);
  if (r == nullptr) return nullptr;
  const gpu::ContextInfo& info = r->context.info();
  if ((mib << 20) > static_cast<std::uint64_t>(info.maxShaderStorageBlockSize)) {
    state.SkipWithError(fmt::format("{} MiB exceed one storage buffer of {} ({} MiB)", mib, info.renderer,
                                    info.maxShaderStorageBlockSize >> 20)
                            .c_str());
    return nullptr;
  }
  return r;
}

// One buffer of `bytes` for each label; none, with the case skipped, when the device has not the
// memory for all of them.
std::vector<gpu::Buffer> caseBuffers(benchmark::State& state, std::initializer_list<const char*> labels,
                                     std::uint64_t bytes) {
  gpu::takeGlError();
  std::vector<gpu::Buffer> buffers;
  for (const char* label : labels) buffers.emplace_back(label, bytes, 0);
  if (gpu::takeGlError() != GL_OUT_OF_MEMORY) return buffers;
  const std::string mib = fmt::format("{} MiB", bytes >> 20);
  state.SkipWithError(fmt::format("out of GPU memory allocating {}",
                                  labels.size() == 1 ? mib : fmt::format("{} x {}", labels.size(), mib))
                          .c_str());
  return {};
}

// Times `record` (the GL calls of one operation, recorded between two time stamps) as the steps
// are timed: kInFlight operations queued ahead, each iteration one operation's GPU time;
// bytes_per_second from the bytes one operation moves.
template <class Record>
void timeBandwidth(benchmark::State& state, GpuRig& r, std::uint64_t mib, std::uint64_t bytesMoved,
                   Record record) {
  std::uint64_t issued = 0;
  auto issue = [&] {
    const std::size_t slot = issued % kRing;
    glQueryCounter(r.begins[slot].id(), GL_TIMESTAMP);
    record();
    glMemoryBarrier(GL_SHADER_STORAGE_BARRIER_BIT);
    glQueryCounter(r.ends[slot].id(), GL_TIMESTAMP);
    ++issued;
  };
  for (int k = 0; k < kWarmupSteps; ++k) issue();
  glFinish();
  issued = 0;
  for (int k = 0; k < kInFlight; ++k) issue();
  std::uint64_t reported = 0;
  for (auto _ : state) {
    issue();
    const std::size_t slot = reported % kRing;
    state.SetIterationTime(seconds(r.begins[slot], r.ends[slot]));
    ++reported;
  }
  glFinish();
  state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations()) *
                          static_cast<std::int64_t>(bytesMoved));
  state.counters["mib"] = static_cast<double>(mib);
  if (!glContextInHeader()) state.SetLabel(r.context.info().renderer);
}

void runCopy(benchmark::State& state, std::uint64_t mib) {
  GpuRig* r = bandwidthRig(state, mib);
  if (r == nullptr) return;
  std::string error;
  if (!r->copy) r->copy = copyProgram(error);
  if (!r->copy) {
    state.SkipWithError(error.c_str());
    return;
  }
  const std::uint64_t bytes = mib << 20;
  const std::vector<gpu::Buffer> buffers =
      caseBuffers(state, {"bench copy source", "bench copy destination"}, bytes);
  if (buffers.empty()) return;
  const gpu::Buffer &src = buffers[0], &dst = buffers[1];
  src.fill(1u);
  unbindFramebuffer();
  const auto count = static_cast<std::uint32_t>(bytes / sizeof(glm::vec4));
  const gpu::UniformBlock<std::uint32_t> params("bench copy constants", 0);
  params.set(count);
  const auto groups = static_cast<GLuint>(std::min<std::uint64_t>((count + 255) / 256, 65535));
  src.bindBase(GL_SHADER_STORAGE_BUFFER, 0);
  dst.bindBase(GL_SHADER_STORAGE_BUFFER, 1);
  r->copy.use();
  // Each byte read and written.
  timeBandwidth(state, *r, mib, 2 * bytes, [&] { glDispatchCompute(groups, 1, 1); });
}

void runClear(benchmark::State& state, std::uint64_t mib) {
  GpuRig* r = bandwidthRig(state, mib);
  if (r == nullptr) return;
  const std::vector<gpu::Buffer> buffers = caseBuffers(state, {"bench clear"}, mib << 20);
  if (buffers.empty()) return;
  timeBandwidth(state, *r, mib, mib << 20, [&] { buffers[0].fill(0u); });
}

void runScan(benchmark::State& state, std::uint32_t threads, std::uint32_t values, std::uint32_t cells) {
  GpuRig* r = rig(state);
  if (r == nullptr) return;
  if (r->context.info().software) {
    state.SkipWithError("the scan's block study measures hardware devices only");
    return;
  }
  std::optional<gpu::PrefixSum> scan;
  try {
    scan.emplace(r->context, r->shaders, threads, values / threads);
  } catch (const std::invalid_argument& e) {
    state.SkipWithError(e.what());
    return;
  }
  const std::uint64_t bytes = std::uint64_t{cells} * sizeof(std::uint32_t);
  const std::vector<gpu::Buffer> buffers =
      caseBuffers(state, {"bench scan counts", "bench scan starts"}, bytes);
  if (buffers.empty()) return;
  const gpu::Buffer &counts = buffers[0], &starts = buffers[1];
  counts.fill(1u);  // the scan's work does not depend on the counts; ones make the sums known
  unbindFramebuffer();
  timeBandwidth(state, *r, bytes >> 20, 2 * bytes, [&] { scan->exclusiveScan(counts, starts, cells); });
  // Every count is 1, so start i is i: a block the tests cannot run (larger than llvmpipe's shared
  // memory) is checked here, on the device that times it.
  glMemoryBarrier(GL_BUFFER_UPDATE_BARRIER_BIT);
  const std::vector<std::uint32_t> sums = starts.download<std::uint32_t>(cells);
  for (std::uint32_t i = 0; i < cells; ++i)
    if (sums[i] != i) {
      state.SkipWithError(fmt::format("wrong sums: start {} is {}", i, sums[i]).c_str());
      return;
    }
}

struct GpuPlan {
  std::string_view workload;
  std::vector<std::uint32_t> steps;   // full step
  std::vector<std::uint32_t> stages;  // one benchmark per stage
};

std::vector<GpuPlan> plans(Sweep sweep) {
  if (sweep == Sweep::Quick)
    return {
        {"density", {1000, 4000, 16000, 64000, 256000, 1000000}, {16000, 64000}},
        {"neighbours18", {16000, 64000}, {}},
        {"candidates200", {64000, 1000000}, {}},
        {"world", {1000, 4000, 16000, 64000}, {}},
    };
  const std::vector<std::uint32_t> upTo10M = {1000, 4000, 16000, 64000, 256000, 1000000, 4000000, 10000000};
  return {
      {"density", upTo10M, {16000, 256000, 1000000}},
      {"neighbours18", {16000, 64000, 256000, 1000000, 4000000, 10000000}, {}},
      {"candidates200", {64000, 256000, 1000000, 4000000, 10000000}, {1000000}},
      {"world", {1000, 4000, 16000, 64000, 256000, 1000000}, {}},
  };
}

}  // namespace

std::vector<gpu::BufferTraffic> flockTraffic() {
  std::string error;
  const GpuRig* made = sharedRig(error);
  return made != nullptr ? made->pipeline.trafficModel() : std::vector<gpu::BufferTraffic>{};
}

void registerGpuBenchmarks() {
  for (const GpuPlan& plan : plans(options().sweep)) {
    const Workload& w = workload(plan.workload);
    for (const std::uint32_t n : plan.steps)
      registerGlBenchmark(gpuStepName(w.name, n),
                          [&w, n](benchmark::State& state) { runGpuSteps(state, w, n, -1); })
          ->Unit(benchmark::kMillisecond)
          ->UseManualTime();
    for (const std::uint32_t n : plan.stages) {
      for (std::size_t s = 0; s < gpu::FlockPipeline::kStages.size(); ++s) {
        // The hash and count passes run only after an upload or a grid change (the force pass hashes
        // and counts the positions it writes): a steady run has no time of theirs to feed.
        if (gpu::FlockPipeline::foldedIntoForces(static_cast<gpu::FlockStage>(s))) continue;
        registerGlBenchmark(
            fmt::format("{}/gpu:{}/n:{}", w.name, gpu::FlockPipeline::kStages[s], n),
            [&w, n, s](benchmark::State& state) { runGpuSteps(state, w, n, static_cast<int>(s)); })
            ->Unit(benchmark::kMillisecond)
            ->UseManualTime()
            ->Iterations(kStageIterations);
      }
    }
  }
  // What the finiteness check costs a step (world::World::stepFlock), at the gpu backend's cadence:
  // without and with it, the whole step timed, side by side.
  for (const std::uint32_t n : {100'000u, 1'000'000u})
    for (const bool check : {false, true}) {
      const Workload& w = workload("density");
      registerGlBenchmark(
          fmt::format("finite-check/gpu/check:{}/n:{}", int(check), n),
          [&w, n, check](benchmark::State& state) { runGpuSteps(state, w, n, -1, true, {}, {}, check); })
          ->Unit(benchmark::kMillisecond)
          ->UseManualTime()
          ->Iterations(kStageIterations);
    }
  // What recording the leader flags costs the force pass: recording off (the front cone untested,
  // as before leaders were recorded) and on, side by side.
  for (const bool record : {false, true}) {
    const Workload& w = workload("density");
    constexpr std::uint32_t n = 100'000;
    registerGlBenchmark(fmt::format("leader-flag/gpu:forces/record:{}/n:{}", int(record), n),
                        [&w, record](benchmark::State& state) {
                          runGpuSteps(state, w, n, static_cast<int>(gpu::FlockStage::Forces), record);
                        })
        ->Unit(benchmark::kMillisecond)
        ->UseManualTime()
        ->Iterations(kStageIterations);
  }
  // The topological rule (K = 7, as starlings) against the metric one: the force pass, where they
  // differ, side by side, at the default scene's density, with about 18 boids within R and packed
  // as the murmuration (100,000 boids only, as bench_cpu.cpp's).
  for (const std::string_view name : {"density", "neighbours18", "packed"}) {
    const Workload& w = workload(name);
    for (const std::uint32_t n : {100'000u, 1'000'000u}) {
      if (name == "packed" && n >= 1'000'000u) continue;
      for (const std::uint32_t k : {0u, 7u})
        registerGlBenchmark(fmt::format("neighbour-rule/{}/gpu:forces/k:{}/n:{}", name, k, n),
                            [&w, n, k](benchmark::State& state) {
                              runGpuSteps(state, w, n, static_cast<int>(gpu::FlockStage::Forces), true,
                                          {.topological = k});
                            })
            ->Unit(benchmark::kMillisecond)
            ->UseManualTime()
            ->Iterations(n >= 1'000'000u ? 8 : kStageIterations);
    }
  }
  // What the book's leader radius costs the force pass when it exceeds R (bench_cpu.cpp's
  // leader-radius): R against 1.6 R.
  for (const float factor : {1.0f, 1.6f}) {
    const Workload& w = workload("density");
    constexpr std::uint32_t n = 100'000;
    registerGlBenchmark(fmt::format("leader-radius/gpu:forces/R:x{}/n:{}", factor, n),
                        [&w, factor](benchmark::State& state) {
                          const float r = prepare(w, n).scene.model.perceptionRadius;
                          runGpuSteps(state, w, n, static_cast<int>(gpu::FlockStage::Forces), true,
                                      {.leaderRadius = factor * r});
                        })
        ->Unit(benchmark::kMillisecond)
        ->UseManualTime()
        ->Iterations(kStageIterations);
  }
  // What boids.turn_rate costs the whole step (its reorder copies the stored headings, its force
  // pass turns and writes them): off and 90 degrees/s, side by side, with the stages as counters.
  for (const float rate : {0.0f, 90.0f}) {
    const Workload& w = workload("density");
    constexpr std::uint32_t n = 100'000;
    registerGlBenchmark(
        fmt::format("turn-rate/gpu:step/turn:{}/n:{}", rate, n),
        [&w, rate](benchmark::State& state) { runGpuSteps(state, w, n, -1, true, {.turnRate = rate}); })
        ->Unit(benchmark::kMillisecond)
        ->UseManualTime()
        ->Iterations(kStageIterations);
  }
  // What the starlings' flight costs the whole step against the boids' rule: K = 7 in the
  // murmuration's packing, boids and starlings side by side, with the stages as counters (8 steps
  // at 1e6, as the neighbour rule's).
  for (const std::uint32_t n : {100'000u, 1'000'000u})
    for (const sim::UnitModel units : {sim::UnitModel::Boids, sim::UnitModel::Starling}) {
      const Workload& w = workload("packed");
      registerGlBenchmark(fmt::format("flight-model/packed/gpu:step/units:{}/n:{}",
                                      units == sim::UnitModel::Starling ? "starling" : "boids", n),
                          [&w, n, units](benchmark::State& state) {
                            runGpuSteps(state, w, n, -1, true, {.topological = 7, .units = units});
                          })
          ->Unit(benchmark::kMillisecond)
          ->UseManualTime()
          ->Iterations(n > 100'000u ? 8 : kStageIterations);
    }
  // The work-group sizes (docs/gpu.md, Work-group sizes), standard sweep only: each pass's time
  // against its threads per group, the others at their defaults. The force pass on both metric
  // workloads at 1M boids; the scatter (the grid passes' size) at 1M; the scan, whose look-back
  // chain grows with the number of blocks, at 1M and at the largest flock the sweep steps. A
  // question for cards: on a software renderer the cases are skipped (llvmpipe would spend 5
  // minutes on them).
  if (options().sweep == Sweep::Standard) {
    struct Study {
      std::string_view workload;
      gpu::FlockStage stage;
      std::uint32_t n;
      std::uint32_t gpu::WorkGroupSizes::*size;
      std::initializer_list<std::uint32_t> values;
    };
    for (const Study& study :
         {Study{"density",
                gpu::FlockStage::Forces,
                1'000'000,
                &gpu::WorkGroupSizes::forces,
                {32, 64, 128, 256, 512}},
          Study{"neighbours18",
                gpu::FlockStage::Forces,
                1'000'000,
                &gpu::WorkGroupSizes::forces,
                {32, 64, 128, 256, 512}},
          Study{"density",
                gpu::FlockStage::Scatter,
                1'000'000,
                &gpu::WorkGroupSizes::grid,
                {64, 128, 256, 512, 1024}},
          Study{
              "density", gpu::FlockStage::Scan, 1'000'000, &gpu::WorkGroupSizes::scan, {128, 256, 512, 1024}},
          Study{"density",
                gpu::FlockStage::Scan,
                10'000'000,
                &gpu::WorkGroupSizes::scan,
                {128, 256, 512, 1024}}}) {
      const Workload& w = workload(study.workload);
      for (const std::uint32_t value : study.values) {
        gpu::WorkGroupSizes sizes;
        sizes.*study.size = value;
        registerGlBenchmark(
            fmt::format("work-group/{}/gpu:{}/size:{}/n:{}", w.name,
                        gpu::FlockPipeline::stageName(study.stage), value, study.n),
            [&w, n = study.n, stage = static_cast<int>(study.stage), sizes](benchmark::State& state) {
              const GpuRig* shared = rig(state);
              if (shared == nullptr) return;
              if (shared->context.info().software) {
                state.SkipWithError("the work-group study measures hardware devices only");
                return;
              }
              runGpuSteps(state, w, n, stage, true, {}, sizes);
            })
            ->Unit(benchmark::kMillisecond)
            ->UseManualTime()
            ->Iterations(kStageIterations);
      }
    }
  }
  // The scan's block (threads x values a thread): the pipeline's 4096 values against half and
  // twice that, at the cells of `density` near 1M and 10M boids (2.3M and 16.3M) in round powers
  // of two; 2^24 is the pipeline's most.
  if (options().sweep == Sweep::Standard) {
    for (const std::uint32_t cells : {1u << 21, 1u << 24})
      for (const std::uint32_t values : {2048u, gpu::PrefixSum::kBlockValues, 8192u})
        for (const std::uint32_t threads : {256u, 512u, 1024u})
          registerGlBenchmark(
              fmt::format("scan/gpu/threads:{}/values:{}/cells:{}", threads, values, cells),
              [threads, values, cells](benchmark::State& state) { runScan(state, threads, values, cells); })
              ->Unit(benchmark::kMillisecond)
              ->UseManualTime();
  }
  const std::uint64_t mib = options().sweep == Sweep::Quick ? 64 : 256;
  registerGlBenchmark(fmt::format("{}/mib:{}", kBandwidthFamily, mib),
                      [mib](benchmark::State& state) { runCopy(state, mib); })
      ->Unit(benchmark::kMillisecond)
      ->UseManualTime();
  registerGlBenchmark(fmt::format("bandwidth/gpu-clear/mib:{}", mib),
                      [mib](benchmark::State& state) { runClear(state, mib); })
      ->Unit(benchmark::kMillisecond)
      ->UseManualTime();
}

}  // namespace murmur::bench
