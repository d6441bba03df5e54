#include "world/world.hpp"

#include <algorithm>
#include <stdexcept>
#include <utility>

#include <fmt/format.h>

#include "core/error.hpp"

#include "sim/builders.hpp"
#include "sim/metrics.hpp"
#include "sim/nearest_boids.hpp"
#include "sim/rules.hpp"
#include "sim/scene_loader.hpp"
#include "sim/stability.hpp"
#include "sim/state_csv.hpp"

namespace murmur::world {

World::World(WorldDescription description, std::unique_ptr<FlockBackend> backend)
    : backend_(std::move(backend)) {
  load(std::move(description));
}

void World::load(WorldDescription description) {
  sim::Scene scene = std::move(description.scene);
  sim::validateScene(scene);
  ai::SceneAgents agents = ai::loadSceneAgents(scene, description.dataDirectories);
  sim::FlockState initial;
  if (description.init.empty()) {
    sim::checkRunMemory(scene.count, scene.path);
    backend_->requireCapacity(scene.count);
    initial = sim::spawnFlock(scene, agents.walls.get());
  } else {
    initial = sim::readStateCsv(description.init, scene.model);
    backend_->requireCapacity(initial.size());
    scene.count = static_cast<std::uint32_t>(initial.size());
    scene.groups = std::max(scene.groups, initial.groups);
    initial.groups = scene.groups;
  }
  scene_ = std::move(scene);
  agents_ = std::move(agents);
  initial_ = std::move(initial);
  start();
}

void World::start() {
  inputs_ = sim::staticInputs(scene_, initial_.groups);
  // The boids avoid a navigation map's walls whether or not agents run.
  inputs_.walls = agents_.walls;
  director_ = ai::AgentDirector::create(scene_, agents_);
  backend_->setState(initial_);
  perceiveAtStart(initial_);
  steps_ = 0;
  finiteThrough_ = 0;
}

void World::setInitial(sim::FlockState state, const std::string& source) {
  sim::checkState(state, scene_.model, source);
  backend_->requireCapacity(state.size());
  scene_.count = static_cast<std::uint32_t>(state.size());
  scene_.groups = std::max(scene_.groups, state.groups);
  state.groups = scene_.groups;
  initial_ = std::move(state);
  start();
}

void World::setGoal(std::uint32_t group, std::optional<glm::vec3> goal) {
  if (group >= inputs_.goal.size()) throw std::out_of_range("World::setGoal: no such group");
  inputs_.goal[group] = goal;
}

bool World::leadersUsed() const {
  return sim::leadersUsed(scene_.model, inputs_, scene_.groups);
}

void World::setPredators(std::vector<glm::vec3> points) {
  inputs_.predators = std::move(points);
}

void World::respawn(std::uint32_t count) {
  if (count > sim::kMaxBoids)
    throw InputError(scene_.path, 0, "boids.count", fmt::format("{} is more than {}", count, sim::kMaxBoids));
  sim::checkRunMemory(count, scene_.path);
  backend_->requireCapacity(count);
  scene_.count = count;
  initial_ = sim::spawnFlock(scene_, agents_.walls.get());
  start();
}

void World::switchBackend(std::unique_ptr<FlockBackend> backend) {
  const sim::FlockState state = backend_->state();
  backend->setState(state);
  backend_ = std::move(backend);
  perceiveAtStart(state);
}

void World::tick() {
  steerAgents(perceive());
  stepFlock();
}

AgentPerception World::perceive() {
  // Without agents nothing is perceived (nor asked for: the summaries and the query are GPU work).
  if (!director_) return {};
  if (startPerception_) return *startPerception_;
  return backend_->perceived();
}

void World::perceiveAtStart(const sim::FlockState& state) {
  startPerception_.reset();
  if (director_)
    startPerception_ = AgentPerception{
        sim::summarizeGroups(state),
        sim::NearestBoids(director_->probes().size(), state.groups, ai::AgentDirector::kPerceivedBoids)};
}

void World::steerAgents(const AgentPerception& seen) {
  if (director_) director_->update(scene_.model.dt, seen.groups, seen.boids, inputs_);
}

void World::steerPlayers(const ai::PlayerInput& input) {
  if (director_) director_->steerPlayers(input);
}

void World::setGroupFlocking(std::uint32_t group, bool flocking) {
  if (group >= inputs_.steering.size()) throw std::out_of_range("World::setGroupFlocking: no such group");
  inputs_.steering[group].flocking = flocking;
  // The scene's copy, so that start() keeps it.
  for (sim::GroupSpec& spec : scene_.groupSpecs)
    if (spec.group == group) spec.steering.flocking = flocking;
}

void World::stepFlock() {
  if (director_) {
    backend_->requestPerception(director_->probes(), ai::AgentDirector::kPerceivedBoids);
    startPerception_.reset();
  }
  backend_->step(scene_.model, inputs_);
  ++steps_;
  if (const std::optional<FlockBackend::FiniteCheck> seen = backend_->checkFinite(steps_)) {
    if (!seen->finite) diverged(seen->step, backend_->state());
    finiteThrough_ = std::max(finiteThrough_, seen->step);
  }
}

void World::requireFinite(const sim::FlockState& now) {
  if (!sim::allFinite(now)) diverged(steps_, now);
  finiteThrough_ = steps_;
}

void World::diverged(std::uint64_t step, const sim::FlockState& state) {
  const std::optional<std::size_t> boid = sim::firstNonFinite(state);
  const std::string when = step == finiteThrough_ + 1
                               ? fmt::format("at step {}", step)
                               : fmt::format("between steps {} and {}", finiteThrough_ + 1, step);
  const std::string which =
      boid ? fmt::format("boid {} first (position {}, {}, {}; velocity {}, {}, {})", *boid,
                         state.position[*boid].x, state.position[*boid].y, state.position[*boid].z,
                         state.velocity[*boid].x, state.velocity[*boid].y, state.velocity[*boid].z)
           : std::string("its group means");
  const sim::StabilityTerm cause = sim::likeliestCause(scene_);
  throw StateError(
      fmt::format("{}: on {}, the flock went non-finite {}, {}; the key likeliest to blame: {} ({} "
                  "is {:.3g}, {:.3g}% of its limit {:g}; docs/model.md, Stability)",
                  scene_.path, backend_->name(), when, which, cause.key, cause.what, cause.value,
                  100.0 * cause.load(), cause.limit));
}

}  // namespace murmur::world
