#include "app/demo_session.hpp"

#include <algorithm>
#include <utility>

#include "gpu/flock_pipeline.hpp"
#include "render/overlay.hpp"
#include "sim/builders.hpp"

namespace murmur::app {
namespace {

// A bird as long as the body is wide, times three: close to its neighbours at the separation
// distance, as a flock should look. A scene without a body radius falls back on the perception radius.
float boidSize(const sim::ModelParams& model) {
  return model.radius > 0.0f ? 3.2f * model.radius : 0.32f * model.perceptionRadius;
}

}  // namespace

DemoSession::DemoSession(const SceneOptions& scene, const std::string& backend, int device, gpu::Context& context)
    : context_(context),
      device_(device),
      world_(loadWorld(scene)),
      backend_(makeBackend(backend, device, &context)),
      renderer_(shaders_) {
  startWorld();
}

void DemoSession::startWorld() {
  backend_->setState(world_.initial);
  count_ = static_cast<std::uint32_t>(world_.initial.size());
  steps_ = 0;
  hostBuffersCurrent_ = false;
  renderer_.setOverlay(render::simulationOverlay(world_.scene.model, world_.inputs));
  options_.boids.size = boidSize(world_.scene.model);
  frameWorld();
}

void DemoSession::frameWorld() {
  // Flat worlds are seen from higher up: the flock spreads over the plane.
  const float pitch = world_.scene.model.dims == 2 ? 0.9f : 0.32f;
  camera_.setOrbit(camera_.target(), camera_.distance(), 0.55f, pitch);
  camera_.frameBox(world_.scene.model.worldMin, world_.scene.model.worldMax);
}

void DemoSession::step() {
  const auto start = std::chrono::steady_clock::now();
  backend_->step(world_.scene.model, world_.inputs);
  lastStepMs_ = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
  ++steps_;
  hostBuffersCurrent_ = false;
}

render::BoidBuffers DemoSession::boidBuffers() {
  if (const gpu::FlockPipeline* pipeline = backend_->gpuPipeline()) {
    // The pipeline's own buffers: positions with the group in w, velocities, in id order.
    render::BoidBuffers buffers;
    buffers.position = pipeline->positionBuffer().id();
    buffers.velocity = pipeline->velocityBuffer().id();
    buffers.groupSource = render::GroupSource::PositionW;
    buffers.count = static_cast<std::uint32_t>(pipeline->size());
    return buffers;
  }
  if (!hostBuffersCurrent_) {
    hostBuffers_.upload(backend_->state());
    hostBuffersCurrent_ = true;
  }
  return hostBuffers_.buffers();
}

void DemoSession::render() { renderer_.render(camera_, boidBuffers(), options_); }

void DemoSession::reset() {
  backend_->setState(world_.initial);
  steps_ = 0;
  hostBuffersCurrent_ = false;
}

void DemoSession::respawn(std::uint32_t count) {
  world_.scene.count = count;
  world_.initial = sim::spawnFlock(world_.scene);
  world_.inputs = sim::staticInputs(world_.scene, world_.initial.groups);
  count_ = count;
  reset();
}

void DemoSession::loadScene(const std::string& path) {
  SceneOptions options;
  options.scene = path;
  world_ = loadWorld(options);
  startWorld();
}

void DemoSession::switchBackend(std::string_view name) {
  std::unique_ptr<FlockBackend> next = makeBackend(name, device_, &context_);
  next->setState(backend_->state());
  backend_ = std::move(next);
  hostBuffersCurrent_ = false;
}

}  // namespace murmur::app
