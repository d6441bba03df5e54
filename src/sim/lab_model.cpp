#include "sim/lab_model.hpp"

#include <algorithm>
#include <cmath>
#include <numbers>

#include <glm/geometric.hpp>

namespace murmur::sim {

LabBody labBody(const ModelParams& params) {
  LabBody body;
  const float length = params.bodyLength;
  body.mass = params.mass;
  body.inertia = params.labInertia * params.mass * length * length;
  body.thrust = params.mass * params.maxForce;
  body.drag = body.thrust / (params.maxSpeed * params.maxSpeed);
  body.steering = params.labSteering * body.thrust;
  body.bowArm = kLabBowLengths * length;
  body.dragArm = kLabDragCentreLengths * length;
  const float fullSpin = static_cast<float>(double(params.labSpinRate) * std::numbers::pi / 180.0);
  body.angularDrag = body.bowArm * body.steering / fullSpin;
  return body;
}

float labTurnFraction(float cosine) {
  const float x = std::abs(std::clamp(cosine, -1.0f, 1.0f));
  float p = -0.0012624911f;
  p = p * x + 0.0066700901f;
  p = p * x - 0.0170881256f;
  p = p * x + 0.0308918810f;
  p = p * x - 0.0501743046f;
  p = p * x + 0.0889789874f;
  p = p * x - 0.2145988016f;
  p = p * x + 1.5707963050f;
  const float angle = std::sqrt(1.0f - x) * p;  // acos(|cosine|)
  constexpr float kPi = 3.14159265f;
  return (cosine < 0.0f ? kPi - angle : angle) / kPi;
}

glm::vec3 labTurnHeading(glm::vec3 heading, float angle) {
  const float a2 = angle * angle;
  const float c = 1.0f + a2 * (-0.5f + a2 * (0.041666668f + a2 * (-0.0013888889f + a2 * 0.000024801587f)));
  const float s = angle * (1.0f + a2 * (-0.16666667f + a2 * (0.008333334f + a2 * -0.0001984127f)));
  const glm::vec3 turned = c * heading + s * labSide(heading);
  return turned / std::sqrt(glm::dot(turned, turned));
}

LabUnit integrateLabUnit(const LabBody& body, const LabUnit& unit, float push, float thrustScale, float dt) {
  const glm::vec3 f = unit.heading;
  const glm::vec3 side = labSide(f);
  // The drag centre, dragArm behind the centre, moves at v + spin x r = v - spin dragArm side.
  const glm::vec3 centre = unit.velocity - (unit.spin * body.dragArm) * side;
  const glm::vec3 drag = -(body.drag * std::sqrt(glm::dot(centre, centre))) * centre;
  const glm::vec3 force = (body.thrust * thrustScale) * f + push * side + drag;
  // r x D for r = -dragArm f, in the plane: r.x D.z - r.z D.x.
  const float dragTorque = -body.dragArm * (f.x * drag.z - f.z * drag.x);
  const float torque = body.bowArm * push + dragTorque;

  LabUnit next;
  next.velocity = unit.velocity + force / body.mass * dt;
  next.position = unit.position + next.velocity * dt;
  next.spin = (unit.spin + torque / body.inertia * dt) / (1.0f + body.angularDrag / body.inertia * dt);
  const float turn = std::clamp(next.spin * dt, -kLabMaxTurnPerStep, kLabMaxTurnPerStep);
  next.heading = labTurnHeading(f, turn);
  return next;
}

}  // namespace murmur::sim
