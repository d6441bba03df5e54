#include "app/demo_session.hpp"

#include <algorithm>
#include <cmath>
#include <optional>
#include <utility>
#include <vector>

#include <glm/common.hpp>
#include <glm/vector_relational.hpp>
#include <glm/trigonometric.hpp>

#include "app/cli_checks.hpp"
#include "gpu/flock_pipeline.hpp"
#include "render/overlay.hpp"
#include "render/palette.hpp"

namespace murmur::app {

DemoSession::DemoSession(const SceneOptions& scene, const std::string& backend, int device,
                         gpu::Context& context)
    : DemoSession(describeWorld(scene), backend, device, context) {
  dataDir_ = scene.dataDir;
}

DemoSession::DemoSession(DescribedWorld described, const std::string& backend, int device, gpu::Context& context)
    : context_(context),
      device_(device),
      view_(std::move(described.view)),
      world_(std::move(described.world), makeBackendFor("--backend", backend, device, &context, &autoChoice_)),
      shaders_(world::shaderLibrary()),
      renderer_(shaders_) {
  startView();
}

void DemoSession::startView() {
  flockRestarted();
  options_ = render::frameOptions(view_);
  frameScene();
}

void DemoSession::frameWorld() {
  camera_ = render::sceneCamera(view_, world_.scene().model, camera_.width(), camera_.height(), camera_.leftInset());
  framedFlock_.reset();
}

bool DemoSession::hasPredator() const {
  for (std::size_t i = 0; i < agentCount(); ++i)
    if (world_.director()->kind(i) == ai::AgentKind::Predator) return true;
  return false;
}

namespace {

// The box of a flock's boids between the 2nd and 98th percentile on each axis (a few strays do not
// widen it), at least a few boid lengths across (a tight knot is not blown up to fill the
// screen); nullopt for no boids.
std::optional<std::pair<glm::vec3, glm::vec3>> flockBox(const std::vector<glm::vec3>& positions, float boidSize) {
  if (positions.empty()) return std::nullopt;
  glm::vec3 low, high;
  std::vector<float> values(positions.size());
  for (int axis = 0; axis < 3; ++axis) {
    for (std::size_t i = 0; i < positions.size(); ++i) values[i] = positions[i][axis];
    const std::size_t lo = values.size() / 50, hi = values.size() - 1 - values.size() / 50;
    std::nth_element(values.begin(), values.begin() + std::ptrdiff_t(lo), values.end());
    low[axis] = values[lo];
    std::nth_element(values.begin(), values.begin() + std::ptrdiff_t(hi), values.end());
    high[axis] = values[hi];
  }
  const glm::vec3 margin(2.0f * boidSize);
  return std::pair{low - margin, high + margin};
}

// An agent's trail (newest point first) into the overlay's trails, split where it jumped more than
// half the world box on an axis: across a wrap world's seam.
void addTrail(render::Overlay& overlay, const std::vector<glm::vec3>& trail, glm::vec3 colour) {
  const glm::vec3 half = 0.5f * (overlay.worldMax - overlay.worldMin);
  render::Polyline piece{{}, colour};
  for (const glm::vec3& point : trail) {
    if (!piece.points.empty() && glm::any(glm::greaterThan(glm::abs(point - piece.points.back()), half))) {
      if (piece.points.size() >= 2) overlay.trails.push_back(piece);
      piece.points.clear();
    }
    piece.points.push_back(point);
  }
  if (piece.points.size() >= 2) overlay.trails.push_back(std::move(piece));
}

// Seconds a following camera lags behind the flock: smooth, without losing it.
constexpr double kFollowSeconds = 1.0;

}  // namespace

void DemoSession::frameFlock() {
  framedFlock_ = flockBox(world_.backend().state().position, options_.boids.size);
  if (framedFlock_) camera_.frameBox(framedFlock_->first, framedFlock_->second);
}

void DemoSession::refitView() {
  if (framedFlock_)
    camera_.frameBox(framedFlock_->first, framedFlock_->second);
  else
    frameWorld();
}

void DemoSession::frameScene() {
  if (view_.cameraMotion == render::CameraMotion::Fixed)
    frameWorld();
  else
    frameFlock();
}

void DemoSession::moveCamera(double seconds) {
  if (view_.cameraMotion == render::CameraMotion::Fixed) return;
  // A sample of 4,096 boids frames the flock as well as all of them, at a 64 KiB read instead of
  // the whole state's (a headless frame waits for its pixels anyway).
  const auto box = flockBox(world_.backend().positionSample(), options_.boids.size);
  if (!box) return;
  render::Camera framed = camera_;
  if (view_.cameraMotion == render::CameraMotion::Orbit)
    framed.setOrbit(camera_.target(), camera_.distance(),
                    camera_.yaw() + glm::radians(render::kOrbitDegreesPerSecond) * float(seconds), camera_.pitch());
  framed.frameBox(box->first, box->second);
  // Exponential smoothing: what is left of the old view after `seconds`.
  const float keep = seconds > 0.0 ? float(std::exp(-seconds / kFollowSeconds)) : 0.0f;
  framed.setOrbit(glm::mix(framed.target(), camera_.target(), keep),
                  glm::mix(framed.distance(), camera_.distance(), keep), framed.yaw(), framed.pitch());
  camera_ = framed;
}

void DemoSession::step() {
  const auto start = std::chrono::steady_clock::now();
  if (world_.director()) overlayCurrent_ = false;  // the agents move
  world_.tick();
  lastStepMs_ = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
  ++steps_;
  ++totalSteps_;
  hostBuffersCurrent_ = false;
  sampleAids();
}

void DemoSession::sampleAids() {
  const render::OverlayStyle& shown = options_.overlay;
  const render::AidStyle& aids = options_.aids;
  const float dt = world_.scene().model.dt;
  if (render::BoidSamples::wanted(steps_, aids, shown)) renderer_.sampleBoids(boidBuffers(), steps_, dt, options_);
  const ai::AgentDirector* director = world_.director();
  if (director == nullptr) return;
  const std::size_t agents = director->size();
  if (shown.trails && steps_ % std::max(aids.trailEvery, 1u) == 0) {
    // A gap in the sampling (the trails were off, or the interval changed) starts the trails again,
    // as the boids' (render::BoidSamples).
    if (agentTrailStep_ + aids.trailEvery != steps_) agentTrails_.clear();
    agentTrailStep_ = steps_;
    agentTrails_.resize(agents);
    const std::size_t length = std::max(aids.trailLength, 2u);
    for (std::size_t i = 0; i < agents; ++i) {
      std::vector<glm::vec3>& trail = agentTrails_[i];
      trail.insert(trail.begin(), director->position(i));
      if (trail.size() > length) trail.resize(length);
    }
  }
  if (shown.vectors) {
    const bool follows = agentVelocities_.size() == agents && agentVelocityStep_ + 1 == steps_ && dt > 0.0f;
    agentForces_.assign(agents, glm::vec3(0.0f));
    for (std::size_t i = 0; i < agents && follows; ++i)
      agentForces_[i] = (director->velocity(i) - agentVelocities_[i]) / dt;
    agentVelocities_.resize(agents);
    for (std::size_t i = 0; i < agents; ++i) agentVelocities_[i] = director->velocity(i);
    agentVelocityStep_ = steps_;
  }
}

void DemoSession::updateOverlay() {
  render::Overlay overlay = render::sceneOverlay(world_.scene(), world_.inputs().walls.get());
  const ai::AgentDirector* director = world_.director();
  for (std::size_t i = 0; director && i < director->size(); ++i) {
    const ai::AgentKind kind = director->kind(i);
    const std::uint32_t group = director->group(i);
    const glm::vec3 position = director->position(i);
    const bool leader = kind == ai::AgentKind::Leader;
    const glm::vec3 colour = kind == ai::AgentKind::Player ? render::kPlayerColour
                             : leader                      ? render::groupColour(group)
                                                           : render::kPredatorColour;
    if (i < agentTrails_.size()) addTrail(overlay, agentTrails_[i], colour);
    if (i < agentForces_.size() && agentVelocityStep_ == steps_) {
      const render::AidStyle& aids = options_.aids;
      overlay.vectors.push_back({{position, position + director->velocity(i) * aids.velocityScale}, render::kVelocityColour});
      overlay.vectors.push_back({{position, position + agentForces_[i] * aids.forceScale}, render::kForceColour});
    }
    if (kind == ai::AgentKind::Player) {  // no senses, no path: a craft and its label
      overlay.agents.push_back({position, render::AgentKind::Player, group, director->heading(i)});
      overlay.labels.push_back({position, std::string(director->stateName(i)), colour});
      continue;
    }
    overlay.agents.push_back({position, leader ? render::AgentKind::Leader : render::AgentKind::Predator, group});
    std::vector<glm::vec3> path = director->path(i);
    if (path.size() >= 2) overlay.paths.push_back({std::move(path), colour});
    const ai::SightParams& sight = director->sight(i);
    overlay.senses.push_back(render::viewCone(position, director->heading(i), sight.halfAngle, sight.viewDistance, colour));
    overlay.senses.push_back(render::horizontalCircle(position, director->hearing(i).range, colour));
    overlay.labels.push_back({position, std::string(director->stateName(i)), colour});
  }
  renderer_.setOverlay(overlay);
  labels_ = std::move(overlay.labels);  // the renderer draws no text
  overlayCurrent_ = true;
}

render::BoidBuffers DemoSession::boidBuffers() {
  if (gpu::FlockPipeline* pipeline = world_.backend().gpuPipeline()) return render::boidBuffers(*pipeline);
  if (!hostBuffersCurrent_) {
    hostBuffers_.upload(world_.backend().state());
    hostBuffersCurrent_ = true;
  }
  return hostBuffers_.buffers();
}

void DemoSession::render() {
  if (!overlayCurrent_) updateOverlay();
  renderer_.render(camera_, boidBuffers(), options_);
}

void DemoSession::flockRestarted() {
  overlayCurrent_ = false;
  renderer_.clearSamples();
  agentTrails_.clear();
  agentVelocities_.clear();
  agentForces_.clear();
  steps_ = 0;
  hostBuffersCurrent_ = false;
}

void DemoSession::reset() {
  world_.start();
  flockRestarted();
}

void DemoSession::respawn(std::uint32_t count) {
  world_.respawn(count);
  flockRestarted();
}

void DemoSession::loadScene(const std::string& path) {
  SceneOptions options;
  options.scene = path;
  options.dataDir = dataDir_;
  DescribedWorld described = describeWorld(options);
  world_.load(std::move(described.world));
  view_ = std::move(described.view);
  startView();
}

void DemoSession::switchBackend(std::string_view name) {
  world_.switchBackend(makeBackendFor("--backend", name, device_, &context_, nullptr));
  hostBuffersCurrent_ = false;
}

}  // namespace murmur::app
