// Rendering benchmarks: whole frames (sky, overlay, flock; 4x MSAA resolved) of the default-density
// flock into a 1920x1080 offscreen target, the frame finished (glFinish) inside the timing.
//
//   BM_Render/draw/<shape>/n:N        drawing only, the flock uploaded once (birds or points)
//   BM_Render/look:<look>/n:N         drawing only, in the old day look or the murmuration's (100k, 1M)
//   BM_Render/step+draw/gpu/n:N       a gpu::FlockPipeline step, then the frame from its buffers
//   BM_Render/step+draw/cpu/n:N       a CPU grid step, the state uploaded, then the frame: the
//                                     demo's cpu backend path
//
// N = 10,000 and 100,000, and 1,000,000 (step+draw/gpu only in the quick sweep). Counters:
// boids, fps. items_per_second counts boids drawn.
#include <benchmark/benchmark.h>

#include <algorithm>
#include <cstdlib>
#include <memory>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "bench_common.hpp"
#include "gpu/flock_pipeline.hpp"
#include "gpu/shader_library.hpp"
#include "render/boid_buffers.hpp"
#include "render/boid_renderer.hpp"
#include "render/camera.hpp"
#include "render/frame_renderer.hpp"
#include "render/offscreen.hpp"
#include "render/overlay.hpp"
#include "render/scene_view.hpp"
#include "sim/builders.hpp"
#include "sim/cpu_simulator.hpp"
#include "sim/metrics.hpp"

namespace murmur::bench {
namespace {

constexpr int kWidth = 1920;
constexpr int kHeight = 1080;

// The renderer and the target, made once in the process's GL context and freed by its release
// (onGlRelease), before the context goes: never by static destruction.
struct RenderRig {
  gpu::ShaderLibrary shaders;
  render::FrameRenderer renderer{shaders};
  render::OffscreenTarget target{kWidth, kHeight};
};

RenderRig* rig(benchmark::State& state) {
  if (glContext() == nullptr) {
    state.SkipWithError(("no GL context: " + glContextError()).c_str());
    return nullptr;
  }
  static RenderRig* made = nullptr;
  if (made == nullptr) {
    made = new RenderRig();
    onGlRelease([] {
      delete made;
      made = nullptr;
    });
  }
  return made;
}

// The scene's overlay in the renderer, and a camera framing its world.
render::Camera prepareView(RenderRig& r, const sim::Scene& scene) {
  r.renderer.setOverlay(render::sceneOverlay(scene, nullptr));
  render::Camera camera;
  camera.setViewport(kWidth, kHeight);
  camera.frameBox(scene.model.worldMin, scene.model.worldMax);
  return camera;
}

void drawFrame(RenderRig& r, const render::Camera& camera, const render::BoidBuffers& boids,
               const render::FrameOptions& options) {
  r.target.bind();
  r.renderer.render(camera, boids, options);
  r.target.resolve();
}

void setFrameCounters(benchmark::State& state, std::uint32_t boids) {
  state.SetItemsProcessed(static_cast<std::int64_t>(state.iterations()) * boids);
  state.counters["boids"] = boids;
  state.counters["fps"] =
      benchmark::Counter(static_cast<double>(state.iterations()), benchmark::Counter::kIsRate);
}

render::FrameOptions withShape(render::BoidShape shape) {
  render::FrameOptions options;
  options.boids.shape = shape;
  return options;
}

// The look 3D scenes had before the murmuration's (a day sky, birds coloured by heading, the world
// box and its grid) or the one they have now (render::readSceneView of a 3D scene with no [render]:
// dusk, dark silhouettes, fog, no box or grid).
render::FrameOptions lookOptions(const sim::Scene& scene, bool murmuration) {
  if (murmuration) return render::frameOptions(render::readSceneView(scene));
  render::FrameOptions options;
  options.boids.colouring = render::BoidColouring::Heading;
  options.overlay.box = options.overlay.grid = true;
  options.atmosphere.sky = render::Sky::Day;
  return options;
}

// Drawing alone, the flock uploaded once, the camera framing the world; optionsFor(scene) gives the
// frame's options, silhouette points drawn at the share the demo gives that view (counter
// point_share).
template <class OptionsFor>
void drawOnly(benchmark::State& state, std::uint32_t n, OptionsFor optionsFor) {
  RenderRig* r = rig(state);
  if (r == nullptr) return;
  const sim::Scene scene = sim::defaultDensityScene(n);
  const render::Camera camera = prepareView(*r, scene);
  render::HostBoidBuffers boids;
  const sim::FlockState flock = sim::spawnFlock(scene);
  boids.upload(flock);
  render::FrameOptions options = optionsFor(scene);
  options.boids.pointShare =
      render::silhouettePointShare(camera, sim::samplePositions(flock), n, options.boids);
  drawFrame(*r, camera, boids.buffers(), options);  // warm-up: shader variants, first touches
  glFinish();
  for (auto _ : state) {
    drawFrame(*r, camera, boids.buffers(), options);
    glFinish();
  }
  setFrameCounters(state, n);
  state.counters["point_share"] = options.boids.pointShare;
}

void stepAndDrawGpu(benchmark::State& state, std::uint32_t n) {
  RenderRig* r = rig(state);
  if (r == nullptr) return;
  const sim::Scene scene = sim::defaultDensityScene(n);
  const sim::StepInputs inputs = sim::staticInputs(scene, scene.groups);
  const render::Camera camera = prepareView(*r, scene);
  gpu::FlockPipeline pipeline(*glContext(), r->shaders, gpu::Arithmetic::Fast);
  pipeline.upload(sim::spawnFlock(scene));
  const render::FrameOptions options = withShape(render::BoidShape::Auto);
  auto frame = [&] {
    pipeline.step(scene.model, inputs);
    drawFrame(*r, camera, render::boidBuffers(pipeline), options);
    glFinish();
  };
  frame();
  for (auto _ : state) frame();
  setFrameCounters(state, n);
}

void stepAndDrawCpu(benchmark::State& state, std::uint32_t n) {
  RenderRig* r = rig(state);
  if (r == nullptr) return;
  const sim::Scene scene = sim::defaultDensityScene(n);
  const sim::StepInputs inputs = sim::staticInputs(scene, scene.groups);
  const render::Camera camera = prepareView(*r, scene);
  sim::FlockState flock = sim::spawnFlock(scene);
  sim::CpuSimulator simulator(sim::NeighbourSearch::Grid);
  render::HostBoidBuffers boids;
  const render::FrameOptions options = withShape(render::BoidShape::Auto);
  auto frame = [&] {
    simulator.step(scene.model, inputs, flock);
    boids.upload(flock);
    drawFrame(*r, camera, boids.buffers(), options);
    glFinish();
  };
  frame();
  for (auto _ : state) frame();
  setFrameCounters(state, n);
}

}  // namespace

void registerRenderBenchmarks() {
  std::vector<std::uint32_t> sizes = {10'000, 100'000};
  if (options().sweep == Sweep::Standard) sizes.push_back(1'000'000);
  auto add = [](const std::string& name, auto run) {
    registerGlBenchmark(name, run)->Unit(benchmark::kMillisecond)->UseRealTime();
  };
  for (const std::uint32_t n : sizes) {
    for (const auto& [label, shape] :
         {std::pair{"birds", render::BoidShape::Birds}, std::pair{"points", render::BoidShape::Points}})
      add(fmt::format("BM_Render/draw/{}/n:{}", label, n), [n, shape](benchmark::State& s) {
        drawOnly(s, n, [shape](const sim::Scene&) { return withShape(shape); });
      });
    add(renderStepDrawName("gpu", n), [n](benchmark::State& s) { stepAndDrawGpu(s, n); });
    if (n >= 100'000)
      for (const bool murmuration : {false, true})
        add(fmt::format("BM_Render/look:{}/n:{}", murmuration ? "murmuration" : "day", n),
            [n, murmuration](benchmark::State& s) {
              drawOnly(s, n,
                       [murmuration](const sim::Scene& scene) { return lookOptions(scene, murmuration); });
            });
    if (n <= 100'000) add(renderStepDrawName("cpu", n), [n](benchmark::State& s) { stepAndDrawCpu(s, n); });
  }
  // The figure `murmur bench` reports (render_headline): 1M boids simulated and drawn at 1920x1080.
  if (std::find(sizes.begin(), sizes.end(), kRenderHeadlineBoids) == sizes.end())
    add(renderStepDrawName("gpu", kRenderHeadlineBoids),
        [](benchmark::State& s) { stepAndDrawGpu(s, kRenderHeadlineBoids); });
}

}  // namespace murmur::bench
