#include "ai/steering.hpp"

#include <algorithm>
#include <cmath>
#include <utility>

#include <glm/geometric.hpp>

namespace murmur::ai {
namespace {

constexpr float kEpsilon = 1e-6f;

// Unit vector along v, or fallback when v is (nearly) zero.
glm::vec3 directionOr(const glm::vec3& v, const glm::vec3& fallback) {
  const float length = glm::length(v);
  return length > kEpsilon ? v / length : fallback;
}

glm::vec3 clampLength(const glm::vec3& v, float limit) {
  const float length = glm::length(v);
  return length > limit ? v * (limit / length) : v;
}

// SplitMix64 (Steele, Lea, Flood 2014): a full-period 64-bit generator whose output is the same on
// every platform, unlike the std:: distributions.
std::uint64_t splitMix64(std::uint64_t& state) {
  std::uint64_t z = (state += 0x9E3779B97F4A7C15ull);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}

}  // namespace

glm::vec3 seek(const Vehicle& vehicle, const glm::vec3& target) {
  const glm::vec3 desired = directionOr(target - vehicle.position, glm::vec3(0.0f)) * vehicle.maxSpeed;
  return desired - vehicle.velocity;
}

glm::vec3 arrive(const Vehicle& vehicle, const glm::vec3& target, float slowRadius) {
  const glm::vec3 offset = target - vehicle.position;
  const float distance = glm::length(offset);
  if (distance <= kEpsilon) return -vehicle.velocity;
  const float speed = vehicle.maxSpeed * std::min(1.0f, distance / slowRadius);
  return offset * (speed / distance) - vehicle.velocity;
}

glm::vec3 flee(const Vehicle& vehicle, const glm::vec3& threat) {
  const glm::vec3 away = directionOr(vehicle.position - threat, glm::vec3(1.0f, 0.0f, 0.0f));
  return away * vehicle.maxSpeed - vehicle.velocity;
}

float closingSpeed(const glm::vec3& positionA, const glm::vec3& velocityA, const glm::vec3& positionB,
                   const glm::vec3& velocityB) {
  const glm::vec3 range = positionB - positionA;
  const float distance = glm::length(range);
  if (distance <= kEpsilon) return 0.0f;
  return glm::dot(velocityA - velocityB, range) / distance;
}

glm::vec3 interceptPoint(const Vehicle& pursuer, const glm::vec3& targetPosition,
                         const glm::vec3& targetVelocity, float maxPrediction) {
  const float closing = closingSpeed(pursuer.position, pursuer.velocity, targetPosition, targetVelocity);
  if (closing <= kEpsilon) return targetPosition;
  const float time = std::min(glm::length(targetPosition - pursuer.position) / closing, maxPrediction);
  return targetPosition + targetVelocity * time;
}

glm::vec3 pursue(const Vehicle& vehicle, const glm::vec3& targetPosition, const glm::vec3& targetVelocity,
                 float maxPrediction) {
  return seek(vehicle, interceptPoint(vehicle, targetPosition, targetVelocity, maxPrediction));
}

glm::vec3 evade(const Vehicle& vehicle, const glm::vec3& threatPosition, const glm::vec3& threatVelocity,
                float maxPrediction) {
  // The threat's view: where it would meet this vehicle if it pursued it.
  const float closing = closingSpeed(threatPosition, threatVelocity, vehicle.position, vehicle.velocity);
  if (closing <= kEpsilon) return flee(vehicle, threatPosition);
  const float time = std::min(glm::length(vehicle.position - threatPosition) / closing, maxPrediction);
  return flee(vehicle, threatPosition + threatVelocity * time);
}

void applySteering(Vehicle& vehicle, glm::vec3 steering, float dt, int dims) {
  if (dims == 2) steering.y = 0.0f;
  const glm::vec3 acceleration = clampLength(steering / dt, vehicle.maxForce);
  vehicle.velocity = clampLength(vehicle.velocity + acceleration * dt, vehicle.maxSpeed);
  if (dims == 2) vehicle.velocity.y = 0.0f;
}

void stepVehicle(Vehicle& vehicle, const glm::vec3& steering, float dt, int dims) {
  applySteering(vehicle, steering, dt, dims);
  vehicle.position += vehicle.velocity * dt;
}

// ---- Wander ----

Wander::Wander(std::uint64_t seed) : state_(seed) {}

float Wander::nextSigned() {
  // The top 24 bits: exactly representable floats in [0, 1), then scaled to [-1, 1).
  const auto bits = static_cast<std::uint32_t>(splitMix64(state_) >> 40);
  return static_cast<float>(bits) * (2.0f / 16777216.0f) - 1.0f;
}

glm::vec3 Wander::steer(const Vehicle& vehicle, const glm::vec3& heading, float dt, int dims,
                        const WanderParams& params) {
  // Three draws every call, also in 2D, so that the sequence does not depend on dims.
  glm::vec3 jitter(nextSigned(), nextSigned(), nextSigned());
  if (dims == 2) jitter.y = 0.0f;
  const glm::vec3 drifted = offset_ + jitter * (params.jitter * dt);
  offset_ = directionOr(drifted, heading) * params.radius;
  const glm::vec3 target = vehicle.position + heading * params.distance + offset_;
  return seek(vehicle, target);
}

// ---- Path following ----

void PathFollower::assign(std::vector<glm::vec3> waypoints) {
  waypoints_ = std::move(waypoints);
  next_ = waypoints_.size() > 1 ? 1 : 0;
}

void PathFollower::clear() {
  waypoints_.clear();
  next_ = 0;
}

glm::vec3 PathFollower::steer(const Vehicle& vehicle, const PathFollowParams& params, const GridMap* map,
                              const GridPlacement& placement) {
  if (!active()) return glm::vec3(0.0f);
  const std::size_t last = waypoints_.size() - 1;
  while (next_ < last) {
    const bool reached = glm::length(waypoints_[next_] - vehicle.position) < params.reachRadius;
    const bool seesBeyond =
        map != nullptr && segmentClear(*map, placement, vehicle.position, waypoints_[next_ + 1]);
    if (!reached && !seesBeyond) break;
    ++next_;
  }
  if (next_ == last && params.arriveAtEnd) return arrive(vehicle, waypoints_[last], params.slowRadius);
  return seek(vehicle, waypoints_[next_]);
}

}  // namespace murmur::ai
