#include "session/session.hpp"

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <optional>
#include <stdexcept>
#include <string>
#include <system_error>
#include <utility>
#include <vector>

#include <fmt/format.h>
#include <glm/common.hpp>
#include <glm/trigonometric.hpp>
#include <glm/vector_relational.hpp>

#include "build_info.hpp"
#include "core/error.hpp"
#include "core/output_path.hpp"
#include "gpu/flock_pipeline.hpp"
#include "render/overlay.hpp"
#include "render/palette.hpp"
#include "session/scene_sections.hpp"
#include "sim/scene_loader.hpp"
#include "sim/scene_toml.hpp"

namespace murmur::session {

Session::Start Session::start(const SceneOptions& scene, const std::string& backend, int device,
                              gpu::Context& context) {
  Start start;
  start.backend = makeBackendFor("--backend", backend, device, &context, &start.autoChoice, scene.threads);
  start.described = describeWorld(scene, start.backend->gpuPipeline() != nullptr);
  return start;
}

Session::Start Session::start(const SceneOptions& scene, std::unique_ptr<world::FlockBackend> backend) {
  Start start;
  start.described = describeWorld(scene, backend->gpuPipeline() != nullptr);
  start.backend = std::move(backend);
  return start;
}

Session::Session(const SceneOptions& scene, const std::string& backend, int device, gpu::Context& context)
    : Session(start(scene, backend, device, context), scene, device, &context) {}

Session::Session(const SceneOptions& scene, std::unique_ptr<world::FlockBackend> backend, int device,
                 gpu::Context* context)
    : Session(start(scene, std::move(backend)), scene, device, context) {}

Session::Session(Start start, const SceneOptions& scene, int device, gpu::Context* context)
    : context_(context),
      device_(device),
      threads_(scene.threads),
      dataDirs_(scene.dataDirs),
      view_(std::move(start.described.view)),
      autoChoice_(std::move(start.autoChoice)),
      countNote_(start.described.countNote),
      world_(std::move(start.described.world), std::move(start.backend)),
      shaders_(world::shaderLibrary()) {
  if (context_ != nullptr) renderer_.emplace(shaders_);
  startView();
}

void Session::attachContext(gpu::Context& context) {
  if (renderer_) return;
  context_ = &context;
  renderer_.emplace(shaders_);
  // What the new renderer draws is made at the next render(); the flock and its steps stay.
  overlayCurrent_ = false;
  hostBuffersCurrent_ = false;
}

const gpu::ContextInfo& Session::contextInfo() const {
  if (context_ == nullptr) throw std::logic_error("Session::contextInfo without a context");
  return context_->info();
}

void Session::startView() {
  flockRestarted();
  options_ = render::frameOptions(view_);
  frameScene();
}

void Session::frameWorld() {
  camera_ = render::sceneCamera(view_, world_.scene().model, camera_.width(), camera_.height(),
                                camera_.leftInset());
  framedFlock_.reset();
}

std::vector<render::TextTag> programTags() {
  return {{"Software", "murmur " + std::string(buildVersion())}, {"commit", std::string(buildCommit())}};
}

std::vector<render::TextTag> Session::pictureTags() const {
  const sim::Scene& scene = world_.scene();
  std::vector<render::TextTag> tags = programTags();
  tags.insert(tags.end(), {{"scene", scene.path.empty()
                                         ? "(built in code)"
                                         : std::filesystem::absolute(scene.path).lexically_normal().string()},
                           {"seed", std::to_string(scene.seed)},
                           {"step", std::to_string(steps_)},
                           {"backend", std::string(world_.backend().name())},
                           {"boids", std::to_string(boidCount())}});
  return tags;
}

void Session::saveScene(const std::string& path, const std::string& option) const {
  const sim::Scene& scene = world_.scene();
  if (!scene.document) throw InputError("", 0, option, "a scene built in code has no file to save from");
  std::vector<sim::SceneOverride> extra;
  const toml::node* map = scene.document->root.at_path("navigation.map").node();
  if (const std::optional<std::string> name = map ? map->value<std::string>() : std::nullopt) {
    const std::filesystem::path beside = std::filesystem::path(scene.path).parent_path() / *name;
    std::error_code error;
    if (std::filesystem::path(*name).is_relative() && std::filesystem::exists(beside, error))
      extra.push_back({"navigation.map",
                       sim::overrideValue(std::filesystem::absolute(beside).lexically_normal().string(), path,
                                          "navigation.map"),
                       path, 0});
  }
  const std::string text =
      fmt::format("# Saved by murmur {} (commit {}) at step {} of {}: its parameters as they were then.\n{}",
                  buildVersion(), buildCommit(), steps_, scene.path,
                  sim::savedSceneText(scene, boidCount(), kSceneSections, extra));
  core::TemporaryOutput output(path, option);
  output.write(text.data(), text.size());
  output.commit();
}

bool Session::hasPredator() const {
  for (std::size_t i = 0; i < agentCount(); ++i)
    if (world_.director()->kind(i) == ai::AgentKind::Predator) return true;
  return false;
}

namespace {

// How a camera films a flock: the outline of a sample of it fills this share of the view (the sky
// around it frames it), leaving out this share of the sample at each side of each screen axis (10
// of 4,096: a long thin tail of the flock stays in view, a few strays do not set the view).
constexpr float kFlockFill = 0.8f;
constexpr float kFlockTrim = 0.0025f;

// What a camera that films the flock frames: a sample of its boids and, so that a tight knot is
// not blown up to fill the screen, the corners of a cube 4 boid lengths wide at their mean.
std::vector<glm::vec3> flockOutline(std::vector<glm::vec3> sample, float boidSize) {
  if (sample.empty()) return sample;
  glm::dvec3 sum(0.0);
  for (const glm::vec3& position : sample) sum += glm::dvec3(position);
  const glm::vec3 mean(sum / double(sample.size()));
  for (int corner = 0; corner < 8; ++corner)
    sample.push_back(mean + 2.0f * boidSize *
                                glm::vec3((corner & 1) ? 1.0f : -1.0f, (corner & 2) ? 1.0f : -1.0f,
                                          (corner & 4) ? 1.0f : -1.0f));
  return sample;
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

// Seconds a following camera lags behind the flock: smooth, without losing it. It backs away three
// times as fast (a flock that spreads or turns towards the camera is not cut by the frame's edge).
constexpr double kFollowSeconds = 0.5;

// What is left of the old view after `seconds` of following (exponential smoothing); 0: none.
float followKeep(double seconds) {
  return seconds > 0.0 ? float(std::exp(-seconds / kFollowSeconds)) : 0.0f;
}

}  // namespace

void Session::setPointShare(const std::vector<glm::vec3>& sample, float keep) {
  const float share = render::silhouettePointShare(camera_, sample, boidCount(), options_.boids);
  options_.boids.pointShare = glm::mix(share, options_.boids.pointShare, keep);
}

void Session::frameFlock() {
  // A sample frames the flock as well as all of it, at a 64 KiB read instead of the whole state's.
  const std::vector<glm::vec3> sample = world_.backend().positionSample();
  if (sample.empty()) return;
  framedFlock_ = flockOutline(sample, options_.boids.size);
  camera_.framePoints(*framedFlock_, kFlockFill, kFlockTrim);
  standOnGround();
  setPointShare(sample, 0.0f);
}

void Session::standOnGround() {
  if (view_.cameraMotion != render::CameraMotion::Ground) return;
  const sim::ModelParams& model = world_.scene().model;
  const glm::vec3 centre = 0.5f * (model.worldMin + model.worldMax);
  const glm::vec3 spot(view_.target ? view_.target->x : centre.x, model.worldMin.y + render::kGroundEyeHeight,
                       view_.target ? view_.target->z : centre.z);
  const glm::vec3 fromTarget = spot - camera_.target();
  const float distance = glm::length(fromTarget);
  if (!(distance > render::kGroundEyeHeight)) return;  // the flock on the spot: nothing to look up at
  camera_.setOrbit(camera_.target(), distance, std::atan2(fromTarget.x, fromTarget.z),
                   std::asin(std::clamp(fromTarget.y / distance, -1.0f, 1.0f)));
}

void Session::updatePointShare(double seconds) {
  if (render::drawsSilhouettePoints(options_.boids, boidCount()))
    setPointShare(world_.backend().positionSample(), followKeep(seconds));
}

void Session::refitView() {
  if (framedFlock_)
    camera_.framePoints(*framedFlock_, kFlockFill, kFlockTrim);
  else
    frameWorld();
}

void Session::frameScene() {
  if (view_.cameraMotion == render::CameraMotion::Fixed)
    frameWorld();
  else
    frameFlock();
}

void Session::moveCamera(double seconds) {
  const bool moves = view_.cameraMotion != render::CameraMotion::Fixed;
  if (!moves && !render::drawsSilhouettePoints(options_.boids, boidCount())) return;
  // A sample of 4,096 boids frames the flock as well as all of them, at a 64 KiB read instead of
  // the whole state's (a headless frame waits for its pixels anyway).
  const std::vector<glm::vec3> sample = world_.backend().positionSample();
  if (sample.empty()) return;
  const float keep = followKeep(seconds);
  if (moves) follow(sample, seconds, keep);
  setPointShare(sample, keep);
}

void Session::follow(const std::vector<glm::vec3>& sample, double seconds, float keep) {
  render::Camera framed = camera_;
  if (view_.cameraMotion == render::CameraMotion::Orbit)
    framed.setOrbit(camera_.target(), camera_.distance(),
                    camera_.yaw() + glm::radians(render::kOrbitDegreesPerSecond) * float(seconds),
                    camera_.pitch());
  framed.framePoints(flockOutline(sample, options_.boids.size), kFlockFill, kFlockTrim);
  const float keepDistance = framed.distance() > camera_.distance() ? keep * keep * keep : keep;
  framed.setOrbit(glm::mix(framed.target(), camera_.target(), keep),
                  glm::mix(framed.distance(), camera_.distance(), keepDistance), framed.yaw(),
                  framed.pitch());
  camera_ = framed;
  standOnGround();
}

void Session::step() {
  const auto start = std::chrono::steady_clock::now();
  if (world_.director()) overlayCurrent_ = false;  // the agents move
  world_.tick();
  lastStepMs_ = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
  ++steps_;
  ++totalSteps_;
  hostBuffersCurrent_ = false;
  sampleAids();
}

void Session::sampleAids() {
  const render::OverlayStyle& shown = options_.overlay;
  const render::AidStyle& aids = options_.aids;
  const float dt = world_.scene().model.dt;
  if (renderer_ && render::BoidSamples::wanted(steps_, aids, shown))
    renderer_->sampleBoids(boidBuffers(), steps_, dt, options_);
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

void Session::updateOverlay() {
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
      overlay.vectors.push_back(
          {{position, position + director->velocity(i) * aids.velocityScale}, render::kVelocityColour});
      overlay.vectors.push_back(
          {{position, position + agentForces_[i] * aids.forceScale}, render::kForceColour});
    }
    if (kind == ai::AgentKind::Player) {  // no senses, no path: a craft and its label
      overlay.agents.push_back({position, render::AgentKind::Player, group, director->heading(i)});
      overlay.labels.push_back({position, std::string(director->stateName(i)), colour});
      continue;
    }
    overlay.agents.push_back(
        {position, leader ? render::AgentKind::Leader : render::AgentKind::Predator, group});
    if (!leader) overlay.raptors.push_back({position, director->velocity(i)});
    std::vector<glm::vec3> path = director->path(i);
    if (path.size() >= 2) overlay.paths.push_back({std::move(path), colour});
    const ai::SightParams& sight = director->sight(i);
    overlay.senses.push_back(
        render::viewCone(position, director->heading(i), sight.halfAngle, sight.viewDistance, colour));
    overlay.senses.push_back(render::horizontalCircle(position, director->hearing(i).range, colour));
    overlay.labels.push_back({position, std::string(director->stateName(i)), colour});
  }
  renderer_->setOverlay(overlay);
  labels_ = std::move(overlay.labels);  // the renderer draws no text
  overlayCurrent_ = true;
}

render::BoidBuffers Session::boidBuffers() {
  if (gpu::FlockPipeline* pipeline = world_.backend().gpuPipeline()) return render::boidBuffers(*pipeline);
  if (!hostBuffersCurrent_) {
    hostBuffers_.upload(world_.backend().state(), world_.scene().model.unitModel);
    hostBuffersCurrent_ = true;
  }
  return hostBuffers_.buffers();
}

void Session::render() {
  if (!renderer_) throw std::logic_error("Session::render without a context");
  if (!overlayCurrent_) updateOverlay();
  renderer_->render(camera_, boidBuffers(), options_);
}

void Session::flockRestarted() {
  overlayCurrent_ = false;
  if (renderer_) renderer_->clearSamples();
  agentTrails_.clear();
  agentVelocities_.clear();
  agentForces_.clear();
  steps_ = 0;
  hostBuffersCurrent_ = false;
}

void Session::reset() {
  world_.start();
  flockRestarted();
}

void Session::respawn(std::uint32_t count) {
  world_.respawn(count);
  flockRestarted();
}

void Session::setInitial(sim::FlockState state, const std::string& source) {
  world_.setInitial(std::move(state), source);
  flockRestarted();
}

void Session::loadScene(const std::string& path) {
  SceneOptions options;
  options.scene = path;
  options.dataDirs = dataDirs_;
  DescribedWorld described = describeWorld(options, world_.backend().gpuPipeline() != nullptr);
  world_.load(std::move(described.world));
  view_ = std::move(described.view);
  startView();
}

void Session::switchBackend(std::string_view name) {
  world_.switchBackend(makeBackendFor("--backend", name, device_, context_, nullptr, threads_));
  hostBuffersCurrent_ = false;
}

}  // namespace murmur::session
