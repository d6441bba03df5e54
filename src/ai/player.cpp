#include "ai/player.hpp"

#include <algorithm>
#include <cmath>
#include <numbers>

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
  const float bearing =
      std::remainder(std::atan2(-dz, dx) - motion.angle, 2.0f * std::numbers::pi_v<float>);
  PlayerInput input;
  input.turn = std::clamp(bearing / (limits.turnRate * dt), -1.0f, 1.0f);
  const float sine = std::abs(std::sin(bearing));
  const float reachable = sine > 0.0f ? limits.turnRate * distance / (2.0f * sine) : limits.maxSpeed;
  const float wanted = std::min(limits.maxSpeed, reachable);
  input.throttle = std::clamp((wanted - motion.speed) / (limits.maxForce * dt), -1.0f, 1.0f);
  return input;
}

}  // namespace murmur::ai
