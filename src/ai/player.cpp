#include "ai/player.hpp"

#include <algorithm>
#include <cmath>
#include <numbers>

#include <glm/geometric.hpp>

namespace murmur::ai {

glm::vec3 headingOf(float angle) {
  return glm::vec3(std::cos(angle), 0.0f, -std::sin(angle));
}

glm::vec3 thrust(PlayerMotion& motion, PlayerInput input, const PlayerLimits& limits, float dt) {
  const float turn = std::clamp(input.turn, -1.0f, 1.0f);
  const float throttle = std::clamp(input.throttle, -1.0f, 1.0f);
  // Kept in (-pi, pi], so that a long run does not lose the angle's precision.
  motion.angle = std::remainder(motion.angle + turn * limits.turnRate * dt, 2.0f * std::numbers::pi_v<float>);
  motion.speed = std::clamp(motion.speed + throttle * limits.maxForce * dt, 0.0f, limits.maxSpeed);
  return motion.speed * headingOf(motion.angle);
}

PlayerInput courseInput(const PlayerMotion& motion, const glm::vec3& position, const glm::vec3& waypoint,
                        const PlayerLimits& limits, float dt) {
  const float dx = waypoint.x - position.x;
  const float dz = waypoint.z - position.z;
  const float distance = std::hypot(dx, dz);
  if (distance <= 0.0f) return {0.0f, -1.0f};
  // The waypoint's bearing relative to the heading, in (-pi, pi]: positive to the left.
  const float bearing = std::remainder(std::atan2(-dz, dx) - motion.angle, 2.0f * std::numbers::pi_v<float>);
  PlayerInput input;
  input.turn = std::clamp(bearing / (limits.turnRate * dt), -1.0f, 1.0f);
  const float sine = std::abs(std::sin(bearing));
  const float reachable = sine > 0.0f ? limits.turnRate * distance / (2.0f * sine) : limits.maxSpeed;
  const float wanted = std::min(limits.maxSpeed, reachable);
  input.throttle = std::clamp((wanted - motion.speed) / (limits.maxForce * dt), -1.0f, 1.0f);
  return input;
}

glm::vec3 leftOf(float angle) {
  return glm::vec3(-std::sin(angle), 0.0f, -std::cos(angle));
}

namespace {

// The player fires its bow thrusters at half the book's steering force (docs/model.md, The lab's units).
float sidePush(const RigidBody& body) {
  return 0.5f * body.bowThrust;
}

float lengthXZ(const glm::vec3& v) {
  return std::hypot(v.x, v.z);
}

}  // namespace

glm::vec3 rigidStep(PlayerMotion& motion, PlayerInput input, const RigidBody& body, float maxSpeed,
                    float dt) {
  const float turn = std::clamp(input.turn, -1.0f, 1.0f);
  const float throttle = std::clamp(input.throttle, -1.0f, 1.0f);
  const glm::vec3 ahead = headingOf(motion.angle);
  const float side = turn * sidePush(body);
  const glm::vec3 force =
      throttle * body.thrust * ahead + side * leftOf(motion.angle) - body.linearDrag * motion.velocity;
  const float torque = 0.5f * body.length * side - body.angularDrag * motion.spin;
  glm::vec3 velocity = motion.velocity + force / body.mass * dt;
  velocity.y = 0.0f;
  const float speed = lengthXZ(velocity);
  if (speed > maxSpeed) velocity *= maxSpeed / speed;
  motion.velocity = velocity;
  motion.spin += torque / body.inertia * dt;
  motion.angle = std::remainder(motion.angle + motion.spin * dt, 2.0f * std::numbers::pi_v<float>);
  motion.speed = lengthXZ(velocity);
  return velocity;
}

PlayerInput rigidCourseInput(const PlayerMotion& motion, const glm::vec3& position, const glm::vec3& waypoint,
                             const RigidBody& body, float maxSpeed, float dt) {
  const glm::vec3 to(waypoint.x - position.x, 0.0f, waypoint.z - position.z);
  const float distance = lengthXZ(to);
  float cruise = maxSpeed;
  if (body.linearDrag > 0.0f) cruise = std::min(cruise, 0.9f * body.thrust / body.linearDrag);
  const float wantedSpeed = std::min(cruise, distance / 1.0f);
  const glm::vec3 wanted = distance > 0.0f ? to * (wantedSpeed / distance) : glm::vec3(0.0f);
  // The force that brings the velocity to the wanted one in 0.5 s, holding it against the drag.
  const glm::vec3 force = body.mass * (wanted - motion.velocity) / 0.5f + body.linearDrag * motion.velocity;
  PlayerInput input;
  const glm::vec3 ahead = headingOf(motion.angle);
  input.throttle = std::clamp(glm::dot(force, ahead) / body.thrust, -1.0f, 1.0f);
  if (lengthXZ(force) <= 0.0f) return input;
  // The force's bearing relative to the heading, in (-pi, pi]: positive to the left.
  const float error =
      std::remainder(std::atan2(-force.z, force.x) - motion.angle, 2.0f * std::numbers::pi_v<float>);
  const float torqueAtFull = 0.5f * body.length * sidePush(body);
  const float alpha = torqueAtFull / body.inertia;
  float spinLimit = std::sqrt(alpha * std::abs(error));
  if (body.angularDrag > 0.0f) spinLimit = std::min(spinLimit, 0.9f * torqueAtFull / body.angularDrag);
  const float wantedSpin = std::copysign(std::min(4.0f * std::abs(error), spinLimit), error);
  // The torque that reaches the wanted spin in one step, against the angular drag.
  const float torque = body.inertia * (wantedSpin - motion.spin) / dt + body.angularDrag * motion.spin;
  input.turn = std::clamp(torque / torqueAtFull, -1.0f, 1.0f);
  return input;
}

}  // namespace murmur::ai
