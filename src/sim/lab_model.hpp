#pragma once
// The flocking lab's units (Bourg & Seemann, "AI for Game Developers", the flocking chapter;
// docs/model.md, The lab's units): `[model] kind = "lab"` in a 2D world.
// Each unit is a rigid body in the x-z plane with a heading (its orientation) and a spin (its
// angular velocity): a constant thrust along the heading, a quadratic drag acting at a point behind
// its centre, and the AI's one control, a sideways push at the bow, which turns it. The rules give
// that push (rules.hpp, labPush); this file holds the body's physics and the arithmetic both
// backends must do alike (shaders/common/LabModel.glsl mirrors it line by line): the angle between
// two directions and the turn of the heading by an angle come from polynomials, not from acos, sin
// and cos, whose results differ between a C library and a GPU.
//
// Units: lengths in world units, times in seconds, angles in radians, forces in mass units/s^2,
// torques in mass units^2/s^2, the moment of inertia in mass units^2.
#include <glm/vec3.hpp>

#include "sim/params.hpp"

namespace murmur::sim {

// The book's craft: its drag acts 0.12 body lengths behind its centre, it looks 25 body lengths
// ahead for obstacles, and its bow (where the push acts) is half a body length ahead.
inline constexpr float kLabDragCentreLengths = 0.12f;
inline constexpr float kLabLookaheadLengths = 25.0f;
inline constexpr float kLabBowLengths = 0.5f;
// The most a heading turns in one step (radians): the turn's polynomials are exact to float there,
// and a body spun faster than this many radians a step is no longer integrated meaningfully anyway.
inline constexpr float kLabMaxTurnPerStep = 0.5f;

// The body's constants, derived from the parameters (docs/model.md, The lab's units).
struct LabBody {
  float mass = 1.0f;         // boids.mass
  float inertia = 1.0f;      // model.inertia m L^2
  float thrust = 0.0f;       // m boids.max_force, along the heading
  float drag = 0.0f;         // thrust / max_speed^2: the drag balances the thrust at max_speed
  float steering = 0.0f;     // F = model.steering thrust: the full sideways push
  float angularDrag = 0.0f;  // the damping torque per radian/s: a full push spins at model.spin_rate
  float bowArm = 0.0f;       // L/2: the push's lever
  float dragArm = 0.0f;      // 0.12 L: the drag's lever, behind the centre
};

LabBody labBody(const ModelParams& params);

// A unit's state as the step reads and writes it.
struct LabUnit {
  glm::vec3 position{0.0f};
  glm::vec3 velocity{0.0f};
  glm::vec3 heading{1.0f, 0.0f, 0.0f};  // unit, y = 0
  float spin = 0.0f;                    // radians/s; positive turns the heading towards labSide
};

// The unit's side: the heading turned a right angle in the x-z plane, (-f.z, 0, f.x). A push along
// it at the bow turns the heading towards it.
inline glm::vec3 labSide(glm::vec3 heading) {
  return {-heading.z, 0.0f, heading.x};
}

// +1, -1 or 0 as `along` (a direction's component along the side) is positive, negative or zero:
// the side to turn to for a target.
inline float sideSign(float along) {
  return along > 0.0f ? 1.0f : (along < 0.0f ? -1.0f : 0.0f);
}
// -1 for something on the side (along > 0), else +1: the side to turn to away from a neighbour or
// an obstacle, dead ahead included (the book leaves that case to chance).
inline float awaySign(float along) {
  return along > 0.0f ? -1.0f : 1.0f;
}

// acos(cosine) / pi for cosine in [-1, 1] (clamped), from Abramowitz & Stegun 4.4.46 (error below
// 2e-8 radians): the book's steering strength, the angle to turn as a fraction of half a turn.
float labTurnFraction(float cosine);

// The unit heading f turned by `angle` (|angle| <= kLabMaxTurnPerStep) towards labSide(f):
// norm(cos(angle) f + sin(angle) side), cos and sin by their Taylor series to the 8th and 7th power.
glm::vec3 labTurnHeading(glm::vec3 heading, float angle);

// One step of dt (explicit Euler for the motion, the spin's damping implicit so that no dt makes it
// oscillate): forces thrust f + push side + drag (-drag |vc| vc, vc the velocity of the drag
// centre); torques bowArm push + (drag centre x drag) - angularDrag spin; then the heading turns by
// spin dt (at most kLabMaxTurnPerStep). thrustScale: the group's thrust (intercepting groups 1.5).
// The position is not wrapped here.
LabUnit integrateLabUnit(const LabBody& body, const LabUnit& unit, float push, float thrustScale, float dt);

}  // namespace murmur::sim
