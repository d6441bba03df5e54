#pragma once
// The player unit's motion: the flocking lab's bow thrusters (Bourg & Seemann). The player has a
// heading in the horizontal (x-z) plane that turns at up to its turn rate and a speed along that
// heading that thrust raises or lowers at up to max_force, between 0 and max_speed. It never slides
// sideways. An input drives it: the user's keys in the demo window, else its scripted course
// (courseInput), so that headless runs are reproducible. docs/ai.md, The player.
//
// Units: positions in world units, speeds in units/s, max_force in units/s^2, angles in radians,
// turn rate in radians/s, dt in seconds.
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

// The player's heading and speed (its position is the director's vehicle).
struct PlayerMotion {
  float angle = 0.0f;  // radians, counter-clockwise about +y from +x: heading (cos a, 0, -sin a)
  float speed = 0.0f;  // units/s, in [0, max_speed]
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

}  // namespace murmur::ai
