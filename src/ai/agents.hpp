#pragma once
// What a scene says about its CPU agents: their kind, body, senses and state machine, as plain data
// (the [[agents]] tables, read by scene_agents.hpp; docs/ai.md documents the keys). The director
// (director.hpp) runs them.
//
// Units: positions in world units, speeds in units/s, accelerations in units/s^2, times in seconds,
// angles in radians (the scene gives degrees).
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <glm/vec3.hpp>

#include "ai/perception.hpp"
#include "ai/player.hpp"
#include "ai/steering.hpp"

namespace murmur::ai {

enum class AgentKind : std::uint8_t {
  Leader,    // its position is the goal T_g of its group
  Predator,  // its position is a predator point P_m the boids flee
  Player,    // the user's unit (ai/player.hpp): the target of chase and intercept groups that name it
};
// The names below are the words of the scene files (and what a panel shows).
std::string_view toString(AgentKind kind);

// What an agent does while in a state.
enum class Action : std::uint8_t {
  Patrol,  // visit the state's waypoints in order, looping (A* between them on a navigation grid)
  Seek,    // go to the state's point, else to the target, at full speed
  Arrive,  // the same, slowing down to stop on it
  Pursue,  // intercept the target (seek with the closing-speed prediction), or seek the point
  Flee,    // away from the state's point, else from the target
  Evade,   // away from where the target would intercept the agent
  Wander,  // seeded random wandering
  Rest,    // stand still
};
std::string_view toString(Action action);

// When a transition is taken. "The target" is the boid the agent perceived last (its position where
// it was last perceived, its velocity while it is perceived); a group is perceived through its
// nearest few boids (docs/ai.md, Perception of individual boids).
enum class Condition : std::uint8_t {
  Sees,         // one of a group's nearest boids passes the sight test (the transition's group, else any)
  Hears,        // one of them is loud (speed above loud_speed) and within hearing range by path
  Near,         // distance to the transition's group's centroid, else to the target, below `distance`
  Far,          // the same distance above `distance` (false without a group or target)
  Timer,        // more than `seconds` in the current state
  LostFor,      // the transition's group, else every group, not perceived for more than `seconds`
  SeesPlayer,   // a player agent passes the sight test (cone, range, occlusion)
  HearsPlayer,  // a player agent faster than loud_speed is within hearing range by path
};
std::string_view toString(Condition condition);

struct TransitionSpec {
  Condition when = Condition::Timer;
  std::size_t to = 0;                  // index of the next state in AgentSpec::states
  std::optional<std::uint32_t> group;  // Sees, Hears, Near, Far, LostFor: only this group (< groups)
  float distance = 0.0f;               // Near, Far: units, > 0
  float seconds = 0.0f;                // Timer, LostFor: seconds, >= 0
};

struct StateSpec {
  std::string name;  // unique within the agent
  Action action = Action::Rest;
  std::optional<float> speed;        // units/s, (0, max_speed]: the speed limit in this state
  std::vector<glm::vec3> waypoints;  // Patrol: at least one, in visiting order
  float arrivalRadius = 2.0f;        // Patrol: units, > 0: a waypoint this close is visited
  std::optional<glm::vec3> point;    // Seek, Arrive, Pursue, Flee, Evade: a fixed point instead of the target
  // Patrol, Arrive: units, > 0; nullopt: speed^2 / max_force, the shortest stop from full speed.
  std::optional<float> slowRadius;
  float maxPrediction = 2.0f;               // Pursue, Evade: seconds, >= 0: cap of the intercept prediction
  WanderParams wander;                      // Wander
  std::vector<TransitionSpec> transitions;  // tried in order; the first that holds is taken
};

// How a player moves (kind = "player", key body; ai/player.hpp).
enum class PlayerBody : std::uint8_t {
  Kinematic,  // "kinematic", the default: turns at its turn rate, thrust changes its speed along the heading
  Rigid,      // "rigid": the lab's rigid body pushed by its bow thrusters and thrust (RigidBody)
};

// A player's course and turn rate (kind = "player"; ai/player.hpp).
struct PlayerSpec {
  PlayerBody body = PlayerBody::Kinematic;
  RigidBody rigid;                // Rigid only
  float turnRate = 0.0f;          // radians/s, > 0 (the scene gives degrees/s); Kinematic only
  std::vector<glm::vec3> course;  // waypoints steered through in a loop; empty: it waits for keys
  float arrivalRadius = 2.0f;     // units, > 0: a waypoint this close is passed
};

struct AgentSpec {
  std::string name;  // "" or unique among the scene's agents: how [[groups]] target_agent names it
  AgentKind kind = AgentKind::Predator;
  std::uint32_t group = 0;        // Leader: the group it leads, < groups
  glm::vec3 position{0.0f};       // start, inside the world (and on a passable cell with a grid)
  float maxSpeed = 10.0f;         // units/s, > 0
  float maxForce = 20.0f;         // units/s^2, > 0
  SightParams sight;              // view distance (units) and half the view angle (radians)
  HearingParams hearing;          // loud speed (units/s) and hearing range (units, by path)
  float replanInterval = 0.5f;    // seconds, >= 0: a path to a moving goal is replanned at most this often
  std::vector<StateSpec> states;  // at least one, names unique; none for a player
  std::size_t initial = 0;        // index of the state entered first
  PlayerSpec player;              // Player only
};

}  // namespace murmur::ai
