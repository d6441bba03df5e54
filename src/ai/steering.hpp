#pragma once
// Steering behaviours for the CPU agents (Reynolds, "Steering Behaviors For Autonomous Characters",
// 1999): seek, arrive, flee, pursue and evade with intercept prediction, wander, and path following.
//
// An agent is a Vehicle: a point mass (mass 1) with a position, a velocity, a top speed and a top
// acceleration. A behaviour returns a steering vector (units/s): the change of velocity it asks for,
// its desired velocity minus the current velocity. Behaviours combine by adding their vectors.
// applySteering turns the sum into an acceleration of at most maxForce that makes the change as fast
// as that limit allows (so max_force is the agent's real agility, and a small error is corrected in
// one step instead of decaying over a second as with a force proportional to it).
//
// Units: positions in world units, velocities in units/s, times in seconds. dims = 2 is the x-z
// plane of model.md: y components are dropped by applySteering and by wander.
#include <cstddef>
#include <cstdint>
#include <vector>

#include <glm/vec3.hpp>

#include "ai/nav.hpp"

namespace murmur::ai {

struct Vehicle {
  glm::vec3 position{0.0f};
  glm::vec3 velocity{0.0f};
  float maxSpeed = 10.0f;  // units/s, > 0
  float maxForce = 20.0f;  // largest acceleration, units/s^2 (mass 1), > 0
};

// Toward target at full speed. At the target: brakes (the desired velocity is zero).
glm::vec3 seek(const Vehicle& vehicle, const glm::vec3& target);

// Toward target, slowing down linearly inside slowRadius (units, > 0) to stop on it: the desired
// speed is maxSpeed * min(1, distance / slowRadius). With slowRadius >= maxSpeed^2 / maxForce the
// agent can always brake in time, so it stops without overshooting.
glm::vec3 arrive(const Vehicle& vehicle, const glm::vec3& target, float slowRadius);

// Away from threat at full speed. On the threat itself: away along +x (any direction would do).
glm::vec3 flee(const Vehicle& vehicle, const glm::vec3& threat);

// How fast the distance between two moving points shrinks, units/s (negative: it grows): their
// relative velocity projected on the line of sight. Symmetric in the two points; 0 when they coincide.
float closingSpeed(const glm::vec3& positionA, const glm::vec3& velocityA, const glm::vec3& positionB,
                   const glm::vec3& velocityB);

// Where a pursuer should aim to meet a target moving at constant velocity: the target's position
// after t = |range| / closing speed seconds, with t capped at maxPrediction (seconds, >= 0). When the
// two are not closing in, the target's current position (no prediction would be finite).
glm::vec3 interceptPoint(const Vehicle& pursuer, const glm::vec3& targetPosition,
                         const glm::vec3& targetVelocity, float maxPrediction);

// Seek the intercept point of a target moving at targetVelocity (plain seek when not closing in).
glm::vec3 pursue(const Vehicle& vehicle, const glm::vec3& targetPosition, const glm::vec3& targetVelocity,
                 float maxPrediction);

// Flee the point where a threat moving at threatVelocity would meet this vehicle (the mirror of
// pursue: the same closing-speed prediction, capped at maxPrediction seconds).
glm::vec3 evade(const Vehicle& vehicle, const glm::vec3& threatPosition, const glm::vec3& threatVelocity,
                float maxPrediction);

// Turns a steering vector into motion for dt seconds (> 0): the acceleration steering / dt is clamped
// to maxForce, the velocity to maxSpeed. Changes the velocity only (the caller moves the vehicle, so
// that it may refuse a move into a wall). dims: 2 drops every y component, 3 keeps them.
void applySteering(Vehicle& vehicle, glm::vec3 steering, float dt, int dims);

// applySteering, then position += velocity * dt (an open world: nothing refuses the move).
void stepVehicle(Vehicle& vehicle, const glm::vec3& steering, float dt, int dims);

// ---- Wander --------------------------------------------------------------------------------------

struct WanderParams {
  float distance = 6.0f;  // units, >= 0: how far ahead of the vehicle the wander circle's centre lies
  float radius = 3.0f;    // units, > 0: radius of the wander circle (a sphere in 3D)
  float jitter = 8.0f;    // units/s, >= 0: how fast the point on the circle drifts at random
};

// Reynolds' wander: a point on a circle (sphere) ahead of the vehicle drifts at random each step and
// the vehicle seeks it, so the heading changes smoothly. Seeded: the same seed and calls give the
// same motion on every platform (its own generator, no std:: distributions).
class Wander {
 public:
  explicit Wander(std::uint64_t seed);

  // heading: the vehicle's unit facing (where the circle lies); dt: seconds since the last call,
  // >= 0; dims: 2 or 3.
  glm::vec3 steer(const Vehicle& vehicle, const glm::vec3& heading, float dt, int dims,
                  const WanderParams& params);

 private:
  // Uniform in [-1, 1).
  float nextSigned();

  std::uint64_t state_;
  glm::vec3 offset_{0.0f};  // the wander point relative to the circle's centre, length radius
};

// ---- Path following ------------------------------------------------------------------------------

struct PathFollowParams {
  float reachRadius = 1.0f;  // units, > 0: a waypoint this close counts as reached
  float slowRadius = 5.0f;   // units, > 0: arrive's slow-down radius at the last waypoint
  bool arriveAtEnd = true;   // arrive at (stop on) the last waypoint, else seek it
};

// Follows a polyline of world points (an A* path through cell centres, smoothed with line of sight)
// waypoint by waypoint: it seeks the next waypoint, passes on to the one after it when within
// reachRadius or as soon as that one is in clear line of sight (so an agent carried past a corner
// never turns back to it), and arrives at the last one.
class PathFollower {
 public:
  // waypoints: the first is where the vehicle stands (it aims at the second); fewer than two: the
  // vehicle aims at the only one, or nothing (inactive).
  void assign(std::vector<glm::vec3> waypoints);
  void clear();

  bool active() const { return !waypoints_.empty(); }
  const std::vector<glm::vec3>& waypoints() const { return waypoints_; }
  // Index of the waypoint aimed at.
  std::size_t next() const { return next_; }
  // The waypoint aimed at; active() only.
  const glm::vec3& target() const { return waypoints_[next_]; }

  // The steering vector toward the path (zero when inactive). map: where lookahead checks line of
  // sight (segmentClear through placement); null: waypoints are passed on within reachRadius only.
  glm::vec3 steer(const Vehicle& vehicle, const PathFollowParams& params, const GridMap* map,
                  const GridPlacement& placement);

 private:
  std::vector<glm::vec3> waypoints_;
  std::size_t next_ = 0;
};

}  // namespace murmur::ai
