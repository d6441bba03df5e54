#include "sim/starling_model.hpp"

#include <algorithm>
#include <cmath>
#include <numbers>

#include <glm/geometric.hpp>

namespace murmur::sim {

StarlingBody starlingBody(const ModelParams& params) {
  StarlingBody body;
  body.gravity = params.starlingGravity;
  body.thrust = params.starlingGravity / params.starlingLiftDrag;
  body.cruise2 = params.cruiseSpeed * params.cruiseSpeed;
  constexpr double kRadians = std::numbers::pi / 180.0;
  body.maxBank = static_cast<float>(double(params.starlingMaxBank) * kRadians);
  body.rollStep = static_cast<float>(double(params.starlingRollRate) * kRadians * double(params.dt));
  return body;
}

float seriesAtan(float x) {
  const bool inverted = x > 1.0f;
  const float t = inverted ? 1.0f / x : x;
  const float t2 = t * t;
  float p = -0.0040540580f;
  p = p * t2 + 0.0218612288f;
  p = p * t2 - 0.0559098861f;
  p = p * t2 + 0.0964200441f;
  p = p * t2 - 0.1390853351f;
  p = p * t2 + 0.1994653599f;
  p = p * t2 - 0.3332985605f;
  p = p * t2 + 0.9999993329f;
  const float angle = t * p;
  constexpr float kHalfPi = 1.57079633f;
  return inverted ? kHalfPi - angle : angle;
}

CosSin seriesCosSin(float angle) {
  const float a2 = angle * angle;
  float c = 2.0876757e-9f;  // 1 / 12!
  c = c * a2 - 2.7557319e-7f;
  c = c * a2 + 2.4801587e-5f;
  c = c * a2 - 0.0013888889f;
  c = c * a2 + 0.041666668f;
  c = c * a2 - 0.5f;
  c = c * a2 + 1.0f;
  float s = -2.5052108e-8f;  // -1 / 11!
  s = s * a2 + 2.7557319e-6f;
  s = s * a2 - 0.0001984127f;
  s = s * a2 + 0.008333334f;
  s = s * a2 - 0.16666667f;
  s = s * a2 + 1.0f;
  return {c, s * angle};
}

float lateralDemand(const StarlingFrame& level, glm::vec3 steer) {
  const float across = glm::dot(steer, level.right), along = glm::dot(steer, level.forward);
  if (!(along < 0.0f)) return across;
  const float whole = std::sqrt(across * across + along * along);
  return across < 0.0f ? -whole : whole;
}

float targetBank(const StarlingBody& body, float lateral) {
  const float bank = std::min(seriesAtan(std::abs(lateral) / body.gravity), body.maxBank);
  return lateral < 0.0f ? -bank : bank;
}

float rollToward(const StarlingBody& body, float bank, float target) {
  return bank + std::clamp(target - bank, -body.rollStep, body.rollStep);
}

StarlingFrame levelFrame(glm::vec3 forward) {
  const glm::vec3 across(-forward.z, 0.0f, forward.x);
  const float len = std::sqrt(glm::dot(across, across));
  const glm::vec3 right = len < 1e-6f ? glm::vec3(0.0f, 0.0f, 1.0f) : across / len;
  return {forward, right, glm::cross(right, forward)};
}

StarlingFrame bankedFrame(const StarlingFrame& level, float bank) {
  const CosSin roll = seriesCosSin(bank);
  return {level.forward, level.right, roll.c * level.up + roll.s * level.right};
}

glm::vec3 starlingAcceleration(const StarlingBody& body, const StarlingFrame& frame, float speed2,
                               glm::vec3 steer) {
  const float q = speed2 / body.cruise2;
  const float along = body.thrust * (1.0f - q) + glm::dot(steer, frame.forward);
  const float lift = body.gravity * q + glm::dot(steer, frame.up);
  return along * frame.forward + lift * frame.up - glm::vec3(0.0f, body.gravity, 0.0f);
}

}  // namespace murmur::sim
