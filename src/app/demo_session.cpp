#include "app/demo_session.hpp"

#include <algorithm>
#include <utility>
#include <vector>

#include "gpu/flock_pipeline.hpp"
#include "render/overlay.hpp"
#include "render/palette.hpp"
#include "sim/builders.hpp"

namespace murmur::app {

DemoSession::DemoSession(const SceneOptions& scene, const std::string& backend, int device,
                         gpu::Context& context)
    : context_(context),
      device_(device),
      dataDir_(scene.dataDir),
      world_(loadWorld(scene)),
      backend_(makeBackend(backend, device, &context)),
      shaders_(shaderLibrary()),
      renderer_(shaders_) {
  startWorld();
}

void DemoSession::startWorld() {
  overlayCurrent_ = false;
  backend_->setState(world_.initial);
  count_ = static_cast<std::uint32_t>(world_.initial.size());
  steps_ = 0;
  hostBuffersCurrent_ = false;
  options_.boids = world_.view.boids;
  options_.overlay = world_.view.overlay;
  options_.palette = world_.view.palette;
  frameWorld();
}

namespace {

// Frames [min, max] with `camera` in the viewport's part right of leftInset pixels: framed in a
// viewport of that width, then slid so that the box's centre sits in the middle of that part.
void frameBoxBeside(render::Camera& camera, glm::vec3 min, glm::vec3 max, int leftInset) {
  const int width = camera.width(), height = camera.height();
  const int inset = std::clamp(leftInset, 0, width / 2);
  camera.setViewport(width - inset, height);
  camera.frameBox(min, max);
  camera.setViewport(width, height);
  camera.pan(glm::vec2(0.5f * float(inset), 0.0f));
}

}  // namespace

void DemoSession::frameWorld(int leftInset) {
  camera_ = render::sceneCamera(world_.view, world_.scene.model, camera_.width() - std::max(leftInset, 0),
                                camera_.height());
  camera_.setViewport(camera_.width() + std::max(leftInset, 0), camera_.height());
  camera_.pan(glm::vec2(0.5f * float(std::max(leftInset, 0)), 0.0f));
}

bool DemoSession::hasPredator() const {
  for (std::size_t i = 0; i < agentCount(); ++i)
    if (world_.director->kind(i) == ai::AgentKind::Predator) return true;
  return false;
}

void DemoSession::frameFlock(int leftInset) {
  const sim::FlockState state = backend_->state();
  if (state.size() == 0) return;
  glm::vec3 low, high;
  std::vector<float> values(state.size());
  for (int axis = 0; axis < 3; ++axis) {
    for (std::size_t i = 0; i < state.size(); ++i) values[i] = state.position[i][axis];
    const std::size_t lo = values.size() / 50, hi = values.size() - 1 - values.size() / 50;
    std::nth_element(values.begin(), values.begin() + std::ptrdiff_t(lo), values.end());
    low[axis] = values[lo];
    std::nth_element(values.begin(), values.begin() + std::ptrdiff_t(hi), values.end());
    high[axis] = values[hi];
  }
  // At least a few boid lengths across, so that a tight knot is not blown up to fill the screen.
  const glm::vec3 margin(2.0f * options_.boids.size);
  frameBoxBeside(camera_, low - margin, high + margin, leftInset);
}

void DemoSession::step() {
  const auto start = std::chrono::steady_clock::now();
  if (world_.director) {
    advanceAgents(world_, *backend_);
    overlayCurrent_ = false;
  }
  backend_->step(world_.scene.model, world_.inputs);
  lastStepMs_ = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
  ++steps_;
  ++totalSteps_;
  hostBuffersCurrent_ = false;
}

void DemoSession::updateOverlay() {
  render::Overlay overlay = render::sceneOverlay(world_.scene, world_.inputs.walls.get());
  const std::optional<ai::AgentDirector>& director = world_.director;
  for (std::size_t i = 0; director && i < director->size(); ++i) {
    const bool leader = director->kind(i) == ai::AgentKind::Leader;
    const std::uint32_t group = director->group(i);
    overlay.agents.push_back(
        {director->position(i), leader ? render::AgentKind::Leader : render::AgentKind::Predator, group});
    std::vector<glm::vec3> path = director->path(i);
    if (path.size() >= 2)
      overlay.paths.push_back(
          {std::move(path), leader ? render::groupColour(group) : render::kPredatorColour});
  }
  renderer_.setOverlay(overlay);
  overlayCurrent_ = true;
}

render::BoidBuffers DemoSession::boidBuffers() {
  if (const gpu::FlockPipeline* pipeline = backend_->gpuPipeline()) {
    // The pipeline's own buffers: positions with the group in w, velocities with the leader flag in
    // w, in id order.
    render::BoidBuffers buffers;
    buffers.position = pipeline->positionBuffer().id();
    buffers.velocity = pipeline->velocityBuffer().id();
    buffers.groupSource = render::GroupSource::PositionW;
    buffers.leaders = true;
    buffers.count = static_cast<std::uint32_t>(pipeline->size());
    return buffers;
  }
  if (!hostBuffersCurrent_) {
    hostBuffers_.upload(backend_->state());
    hostBuffersCurrent_ = true;
  }
  return hostBuffers_.buffers();
}

void DemoSession::render() {
  if (!overlayCurrent_) updateOverlay();
  renderer_.render(camera_, boidBuffers(), options_);
}

void DemoSession::reset() {
  startAgents(world_);
  overlayCurrent_ = false;
  backend_->setState(world_.initial);
  steps_ = 0;
  hostBuffersCurrent_ = false;
}

void DemoSession::respawn(std::uint32_t count) {
  world_.scene.count = count;
  world_.initial = sim::spawnFlock(world_.scene, world_.agents.walls.get());
  count_ = count;
  reset();
}

void DemoSession::loadScene(const std::string& path) {
  SceneOptions options;
  options.scene = path;
  options.dataDir = dataDir_;
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
