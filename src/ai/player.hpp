#pragma once
// The player unit's motion: the flocking lab's bow thrusters (Bourg & Seemann). The player has a
// heading in the horizontal (x-z) plane that turns at up to its turn rate and a speed along that
// heading that thrust raises or lowers at up to max_force, between 0 and max_speed. It never slides
// sideways. An input drives it: the user's keys in the demo window, else its scripted course
// (courseInput), so that headless runs are reproducible. docs/ai.md, The player.
//
// Units: positions in world units, speeds in units/s, max_force in units/s^2, angles in radians,
// turn rate in radians/s, dt in seconds.
//
// A player with `body = "rigid"` is instead the lab's rigid body (rigidStep): mass, moment of
// inertia, a forward thrust and the bow thrusters' sideways push at the bow, linear and angular drag,
// integrated by Euler steps; its course input is rigidCourseInput. Forces in mass x units/s^2,
// torques in mass x units^2/s^2.
#include <glm/vec3.hpp>

namespace murmur::ai {

// What drives the player for one step, each part in [-1, 1] (values outside are clamped).
struct PlayerInput {
  float turn = 0.0f;      // +1: full turn left (counter-clockwise seen from above, +y up), -1: right
  float throttle = 0.0f;  // +1: full thrust ahead (speed up), -1: full reverse thrust (slow down)
};

struct PlayerLimits {
  float turnRate = 0.0f;  // radians/s, > 0
  float maxSpeed = 0.0f;  // units/s, > 0
  float maxForce = 0.0f;  // units/s^2, > 0: the thrust at full throttle
};

// The lab's rigid body (docs/ai.md, The rigid-body player): each a scene key of the player.
struct RigidBody {
  float mass = 10.0f;         // > 0 (the book's 10)
  float inertia = 10.0f;      // moment of inertia about the vertical through the centre, > 0 (the book's 10)
  float length = 2.0f;        // L, units, > 0: the bow thrusters push at L/2 ahead of the centre
  float thrust = 40.0f;       // > 0: the forward (or, throttle < 0, reverse) force at full throttle
  float bowThrust = 40.0f;    // > 0: the book's steering force F; the player fires half of it
  float linearDrag = 4.0f;    // >= 0: drag force -linear_drag v (mass/s)
  float angularDrag = 10.0f;  // >= 0: drag torque -angular_drag spin (mass x units^2/s)
};

// The player's heading and speed (its position is the director's vehicle).
struct PlayerMotion {
  float angle = 0.0f;  // radians, counter-clockwise about +y from +x: heading (cos a, 0, -sin a)
  float speed = 0.0f;  // units/s, in [0, max_speed]
  // The velocity (x-z; a rigid body may slide across its heading; only the rigid body reads it) and
  // the rigid body's angular velocity about +y (radians/s, counter-clockwise positive).
  glm::vec3 velocity{0.0f};
  float spin = 0.0f;
};

// The unit heading of an angle: (cos a, 0, -sin a).
glm::vec3 headingOf(float angle);

// One step of dt: angle += turn turn_rate dt; speed = clamp(speed + throttle max_force dt, 0,
// max_speed). Returns the velocity: speed along the new heading.
glm::vec3 thrust(PlayerMotion& motion, PlayerInput input, const PlayerLimits& limits, float dt);

// The input that steers a player at `position` for `waypoint` within the same limits: the turn
// that brings the heading onto the waypoint's bearing (full turn until it is less than one step's
// turn away), and the throttle toward the fastest speed from which the turn still reaches it: the
// circle tangent to the heading through the waypoint has radius d / (2 sin|bearing|), and a
// player turning at turn_rate follows a circle of radius speed / turn_rate, so it aims at
// min(max_speed, turn_rate d / (2 sin|bearing|)) and never circles a waypoint it cannot reach.
PlayerInput courseInput(const PlayerMotion& motion, const glm::vec3& position, const glm::vec3& waypoint,
                        const PlayerLimits& limits, float dt);

// The unit vector to the left of a heading angle (counter-clockwise by 90 degrees seen from above):
// (-sin a, 0, -cos a). The bow thrusters push along it.
glm::vec3 leftOf(float angle);

// One Euler step of dt for the rigid body: input.turn fires the bow thrusters (+1: the starboard
// one at full, pushing the bow to the left; -1: the port one, to the right) with the side force
// turn F/2 along leftOf(a) at the bow, r = (L/2) heading, so the torque about +y is (L/2) turn F/2;
// input.throttle the thrust along the heading. Force F = throttle thrust h + turn (F/2) left -
// linear_drag v, torque tau = (L/2) turn (F/2) - angular_drag spin; then v += F/m dt (clamped to
// maxSpeed), spin += tau/I dt, a += spin dt (the new velocities move it, as the model's step 13).
// Returns the new velocity; motion.speed becomes its length.
glm::vec3 rigidStep(PlayerMotion& motion, PlayerInput input, const RigidBody& body, float maxSpeed, float dt);

// The input that steers the rigid body along its course toward `waypoint`: it wants the velocity
// min(maxSpeed, 0.9 thrust / linear_drag, d / 1 s) toward the waypoint (d its distance), asks for
// the force that would bring its velocity there in 0.5 s against the drag, turns its heading onto
// that force (a wanted spin of the heading error x 4/s, at most sqrt(alpha |error|) so that it can
// stop turning in time, alpha the bow thrusters' angular acceleration, and at most 0.9 of the
// spin the angular drag allows; the torque that reaches it in one step, clamped) and throttles by
// the force's part along the heading (negative: reverse thrust).
PlayerInput rigidCourseInput(const PlayerMotion& motion, const glm::vec3& position, const glm::vec3& waypoint,
                             const RigidBody& body, float maxSpeed, float dt);

}  // namespace murmur::ai
