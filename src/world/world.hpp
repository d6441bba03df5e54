#pragma once
// A world: a scene, its flock on a backend, the scene's CPU agents and the inputs of the next step,
// advanced by tick(). What `murmur run`, `compare` and `demo` and the tests step.
//
// The world owns the walls hookup: a navigation map's walls (ai::SceneAgents::walls) go into the step
// inputs when the world starts, whether or not agents run, and the flock spawns clear of them.
#include <cstdint>
#include <filesystem>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "ai/director.hpp"
#include "ai/scene_agents.hpp"
#include "sim/flock.hpp"
#include "sim/metrics.hpp"
#include "sim/scene.hpp"
#include "world/backend.hpp"

namespace murmur::world {

// What a world is made from: plain data, no command-line types.
struct WorldDescription {
  // As loaded (sim::loadScene, sim::parseScene) or built (sim/builders.hpp), with any change of
  // count or seed already made; the world validates it again.
  sim::Scene scene;
  // An initial state CSV (id,group,x,y,z,vx,vy,vz); its boids replace the scene's count, and its
  // groups raise the scene's. Empty: the flock spawns as the scene says.
  std::string init;
  // Where the scene's relative data paths (a [navigation] map) are looked for after the scene's own
  // directory, in order.
  std::vector<std::filesystem::path> dataDirectories;
};

class World {
 public:
  // Loads `description` onto `backend` (see load()).
  World(WorldDescription description, std::unique_ptr<FlockBackend> backend);

  // Replaces the scene, agents and flock with `description`'s, on the same backend, then start().
  // Validates the scene, reads its [navigation] and [[agents]], checks the boid count against the
  // host's memory and the backend's capacity before spawning (or reading the init file).
  // InputError on any bad input; nothing changes then.
  void load(WorldDescription description);
  // The initial flock on the backend, the agents at their start, the step inputs back to the
  // scene's static ones with the map's walls.
  void start();
  // A new initial flock of `count` boids spawned as the scene says, then start(). InputError when
  // the host or the backend cannot hold it (nothing changes then).
  void respawn(std::uint32_t count);
  // Moves the flock onto `backend`, its state carried over (InputError when it cannot hold it;
  // the current backend stays then). The agents' next perceive() sees the flock as it is at the
  // switch, without boids (the new backend has no grid before its first step).
  void switchBackend(std::unique_ptr<FlockBackend> backend);

  // One step of dt: the agents (if any) perceive the flock on the backend (its group summaries and
  // the nearest boids around each agent) as it was one step ago, decide, move and write their
  // goals, predator points and targets into the step inputs; then the backend steps the boids with
  // them. steerAgents(perceive()), then stepFlock().
  //
  // One step late, on every backend: stepFlock() asks the backend what the agents perceive of the
  // flock before it steps it (FlockBackend::requestPerception, around the agents where they are
  // now), and the next tick's perceive() takes that answer. On the GPU the answer then comes back
  // while the step runs, with no wait; the CPU backends give the same answer, so that the backends
  // agree. The first tick after start() perceives the initial flock (its group summaries, no boids:
  // no grid yet), and so does the second (asked before the first step).
  void tick();
  // tick()'s parts, for running two worlds in lockstep (compare: both worlds' agents steer on what
  // one backend perceives).
  // What the agents perceive of the flock on this world's backend: as it was before the last step
  // (before any step: the initial flock); empty without agents.
  AgentPerception perceive();
  // The agents act on `seen` and write into inputs(); nothing without agents.
  void steerAgents(const AgentPerception& seen);
  // Asks the backend what the agents (where they are now) perceive of the flock, for the next
  // perceive(); then the backend steps the boids with inputs() and checks them: StateError as soon
  // as a step is seen non-finite (the step, the first such boid and the key likeliest to blame,
  // sim::likeliestCause). The CPU backends check every step's state; the GPU reads its checks back
  // without a wait, a step or a few late, so that the message names the steps between the last
  // seen finite and the first seen not.
  void stepFlock();
  // The same check of the flock as it is now, which the caller read (`now`, in id order): at the end
  // of a run, where the GPU's checks lag.
  void requireFinite(const sim::FlockState& now);
  // Steps since the flock started (start(), a new flock; a switch of backend keeps the count).
  std::uint64_t steps() const { return steps_; }

  // The user's input for the scene's players (ai::AgentDirector::steerPlayers) until the world
  // restarts; nothing without agents.
  void steerPlayers(const ai::PlayerInput& input);
  // `state` (in id order) as the initial flock, as an init file gives it (WorldDescription::init),
  // then start(): checked as that file is (sim::checkState; InputError naming `source`; nothing
  // changes then), its count the scene's, its groups raising the scene's.
  void setInitial(sim::FlockState state, const std::string& source);
  // Group `group`'s goal and the predators' points in the step inputs, until the world restarts
  // (the scene's agents overwrite what they steer). group < groups (std::out_of_range otherwise).
  void setGoal(std::uint32_t group, std::optional<glm::vec3> goal);
  void setPredators(std::vector<glm::vec3> points);

  // Turns a group's flocking (sim::GroupSteering::flocking: off, every boid of a chase or intercept
  // group pursues) on or off from the next step on; kept when the world restarts. group < groups
  // (std::out_of_range otherwise).
  void setGroupFlocking(std::uint32_t group, bool flocking);

  const sim::Scene& scene() const { return scene_; }
  // The model's parameters, which may be changed between ticks (the demo's sliders).
  sim::ModelParams& model() { return scene_.model; }
  const sim::FlockState& initial() const { return initial_; }
  const sim::StepInputs& inputs() const { return inputs_; }
  // Whether the steps steer by emergent leaders (sim::leadersUsed of the inputs): else none are
  // recorded, and summaries leave them out.
  bool leadersUsed() const;
  // The scene's agents running, or null when it has none.
  const ai::AgentDirector* director() const { return director_ ? &*director_ : nullptr; }
  FlockBackend& backend() { return *backend_; }
  const FlockBackend& backend() const { return *backend_; }

 private:
  std::unique_ptr<FlockBackend> backend_;
  sim::Scene scene_;
  ai::SceneAgents agents_;  // the scene's [navigation] and [[agents]], as loaded
  sim::FlockState initial_;
  sim::StepInputs inputs_;
  std::optional<ai::AgentDirector> director_;

  // What the agents perceive of `state`, the flock at a start or a switch of backend, until the
  // first step asks the backend: its groups (sim::summarizeGroups, the same on every backend) and
  // no boids (no grid yet). Computed here from the state on the CPU, not asked of the backend:
  // nothing would run on the GPU between the request and the first tick's read, which would wait.
  void perceiveAtStart(const sim::FlockState& state);
  std::optional<AgentPerception> startPerception_;  // until the first stepFlock()
  std::uint64_t steps_ = 0;
  std::uint64_t finiteThrough_ = 0;  // the last step seen finite
  // Throws StateError for a flock seen non-finite after step `step`, finite through finiteThrough_
  // (`now`: the flock as it is now).
  [[noreturn]] void diverged(std::uint64_t step, const sim::FlockState& now);
};

}  // namespace murmur::world
