#pragma once
// The agent director: runs a scene's CPU agents (leaders, predators and players) once per simulation step and
// writes what they decide into the step's inputs. Each agent perceives the boids themselves: the
// nearest few of each group around it (probes(), answered by a backend's nearest-boids query over its
// grid, sim/nearest_boids.hpp). A group is seen when one of them passes the sight test, heard when one
// moving faster than the agent's loud speed is within hearing range by A* path; the agent's target is
// the nearest boid it perceives (docs/ai.md, Perception). Then it runs its state machine
// (ai/fsm.hpp; states, transitions and actions from the scene, ai/agents.hpp), follows or replans its
// A* path, and moves: steering (ai/steering.hpp), then clamped to the world box, never into a blocked
// navigation cell (it slides along the wall instead). A player runs no machine and perceives nothing:
// its thrusters (ai/player.hpp) follow its scripted course until the user steers it (steerPlayers).
//
// Deterministic: the same scene (seed included), summaries and boids give the same agents.
#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <string_view>
#include <vector>

#include <glm/vec3.hpp>

#include "ai/agents.hpp"
#include "ai/scene_agents.hpp"
#include "sim/flock.hpp"
#include "sim/metrics.hpp"
#include "sim/nearest_boids.hpp"
#include "sim/scene.hpp"

namespace murmur::ai {

class AgentDirector {
 public:
  // The director of a loaded scene's [[agents]] (loadSceneAgents), or nullopt when it has none.
  // Throws murmur::InputError for bad [navigation] or [[agents]] input.
  static std::optional<AgentDirector> fromScene(const sim::Scene& scene);
  // The same from sections already read (e.g. to take SceneAgents::walls when there are no agents);
  // nullopt when agents.agents is empty.
  static std::optional<AgentDirector> create(const sim::Scene& scene, SceneAgents agents);

  // scene: the world box, dims, obstacles, seed and static [[targets]] / [[predators]] come from it.
  // agents: validated against this scene (loadSceneAgents does it; code that builds specs must keep
  // their limits: points inside the world and on passable cells, indices in range).
  AgentDirector(const sim::Scene& scene, SceneAgents agents);
  ~AgentDirector();
  AgentDirector(AgentDirector&&) noexcept;
  AgentDirector& operator=(AgentDirector&&) noexcept;
  AgentDirector(const AgentDirector&) = delete;
  AgentDirector& operator=(const AgentDirector&) = delete;

  // How many boids of each group an agent perceives at most: the k of the nearest-boids query.
  static constexpr std::uint32_t kPerceivedBoids = 4;

  // Where the agents look and listen before the next update: probe i is agent i's position with the
  // larger of its view distance and hearing range (0 for an agent that perceives nothing). Ask the
  // backend's nearest-boids query for them with k = kPerceivedBoids and pass the answer to update.
  std::vector<sim::BoidProbe> probes() const;

  // One step of every agent, in scene order. dt: seconds since the last update, > 0 and finite
  // (std::invalid_argument otherwise); flock: one summary per group from the state the boids are in
  // (the centroids of near/far transitions that name a group); boids: the answer for probes() (an
  // empty answer perceives nothing). Then rewrites inputs from the scene's static inputs: goal (its
  // size is kept; [[targets]] first, then each leader's position as the goal of its group), predators
  // ([[predators]], then every predator agent's position) and the target of every [[groups]]
  // target_agent group (that agent's position and velocity). Walls and obstacles are left as they
  // are: the boids' walls (SceneAgents::walls) are hooked into the step inputs by world::World.
  void update(double dt, std::span<const sim::GroupSummary> flock, const sim::NearestBoids& boids,
              sim::StepInputs& inputs);

  // The user's input for every player from the next update on, in place of their courses: once
  // called, the players follow the last input given (call it every frame; {0, 0} coasts) until the
  // director is made again (the world restarts). Without a call they follow their courses, so that
  // runs without a user are reproducible.
  void steerPlayers(const PlayerInput& input);
  // Whether steerPlayers was called.
  bool playersSteered() const;

  // The grid the agents plan on; null without [navigation].
  const NavigationGrid* navigation() const;

  // ---- For rendering and tests: agents are indexed in scene order, i < size(). ----
  std::size_t size() const;
  AgentKind kind(std::size_t agent) const;
  // The scene's `name` ("" when it has none).
  std::string_view name(std::size_t agent) const;
  // The group a leader leads (meaningless for predators and players).
  std::uint32_t group(std::size_t agent) const;
  glm::vec3 position(std::size_t agent) const;
  glm::vec3 velocity(std::size_t agent) const;
  // Unit facing: the direction of the last non-zero velocity (the start: +x).
  glm::vec3 heading(std::size_t agent) const;
  // The current state's name; "player" for a player.
  std::string_view stateName(std::size_t agent) const;
  const SightParams& sight(std::size_t agent) const;
  const HearingParams& hearing(std::size_t agent) const;
  // The current state's action; nullopt for a player (it has no state machine).
  std::optional<Action> action(std::size_t agent) const;
  // Where the current action steered to (or away from) in the last update: a patrol waypoint, the
  // state's point or the target's position; nullopt for rest, wander, or an action with no target yet.
  std::optional<glm::vec3> goal(std::size_t agent) const;
  // The boid the agent perceived last (it keeps it while perceived), or nullopt before any.
  struct PerceivedTarget {
    std::uint32_t group = 0;
    std::uint32_t boid = 0;     // its id
    glm::vec3 position{0.0f};   // when last perceived
    bool perceivedNow = false;  // perceived in the last update (else remembered)
  };
  std::optional<PerceivedTarget> target(std::size_t agent) const;
  // The A* path being followed, from the agent's position through the waypoints still ahead; empty
  // while the agent steers straight at its goal (in clear line of sight, or without a grid).
  std::vector<glm::vec3> path(std::size_t agent) const;

 private:
  struct Runtime;  // the agents and what they share (director.cpp)
  std::unique_ptr<Runtime> runtime_;
};

}  // namespace murmur::ai
