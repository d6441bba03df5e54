#pragma once
// The starlings' flight (docs/model.md, The starlings' flight; `[model] kind = "starling"`), after
// StarDisplay's simplified aerodynamics (Hildenbrandt, Carere & Hemelrijk, Behavioral Ecology 21,
// 2010): a bird flies along its heading with a bank angle; lift along its banked up axis and drag
// both grow with the square of its speed over the cruise speed, where lift equals its weight and a
// constant thrust equals the drag. The social forces steer it only as a bird can: their sideways
// part sets the bank it rolls toward at a limited roll rate (the tilted lift then turns it), their
// part along the heading speeds it up or slows it, their part along its up axis pulls up. A banked
// turn at cruise speed without that pull loses height.
//
// Both backends do this arithmetic alike (shaders/common/StarlingModel.glsl mirrors it line by
// line): the arctangent and the cosine and sine of the bank come from polynomials, not from atan,
// cos and sin, whose results differ between a C library and a GPU.
//
// Units: lengths in world units, times in seconds, angles in radians, accelerations in units/s^2.
#include <glm/vec3.hpp>

#include "sim/params.hpp"

namespace murmur::sim {

// The most a starling may bank (model.max_bank's limit, radians: 80 degrees): the cosine and sine
// series below are exact to float up to there.
inline constexpr double kMaxStarlingBankDegrees = 80.0;

// The flight's constants, derived from the parameters (docs/model.md, The starlings' flight).
struct StarlingBody {
  float gravity = 0.0f;   // g = model.gravity
  float thrust = 0.0f;    // g / model.lift_drag: the thrust's acceleration, the drag's at cruise
  float cruise2 = 1.0f;   // cruise.speed^2: lift and drag are (speed^2 / cruise2) x their cruise values
  float maxBank = 0.0f;   // model.max_bank, radians
  float rollStep = 0.0f;  // model.roll_rate x dt, radians: the most the bank turns in one step
};

StarlingBody starlingBody(const ModelParams& params);

// atan(x) for x >= 0, from Abramowitz & Stegun 4.4.49 on [0, 1] (error below 4e-8 radians) and
// pi/2 - atan(1/x) above.
float seriesAtan(float x);

// cos(angle) and sin(angle) for |angle| <= kMaxStarlingBankDegrees, by their Taylor series to the
// 12th and 11th power.
struct CosSin {
  float c;
  float s;
};
CosSin seriesCosSin(float angle);

// The bank a bird rolls toward for a sideways demand `lateral` (units/s^2, + toward its right): the
// bank whose tilted weight-sized lift would give it, atan(lateral / g), within +-maxBank.
float targetBank(const StarlingBody& body, float lateral);

// The bank after one step's roll from `bank` toward `target`, by at most rollStep.
float rollToward(const StarlingBody& body, float bank, float target);

// A bird's frame: its heading, its right (level, across the heading: norm(-f.z, 0, f.x), or +z for
// a vertical heading) and its up axis: level (right x forward), or rolled by a bank toward the
// right, cos(bank) levelUp + sin(bank) right.
struct StarlingFrame {
  glm::vec3 forward;
  glm::vec3 right;
  glm::vec3 up;
};
StarlingFrame levelFrame(glm::vec3 forward);
StarlingFrame bankedFrame(const StarlingFrame& level, float bank);

// What a bird turns for under the steering acceleration steer (units/s^2): its part toward the
// bird's right, or, where it points behind, its whole size on the side it lies (a bird cannot stop:
// it turns toward what lies behind it; straight behind, to the right).
float lateralDemand(const StarlingFrame& level, glm::vec3 steer);

// The acceleration of a bird of the frame at squared speed speed2 under the steering acceleration
// steer (the social forces over the mass): (thrust (1 - q) + steer.f) f + (g q + steer.u) u - g y,
// q = speed2 / cruise2.
glm::vec3 starlingAcceleration(const StarlingBody& body, const StarlingFrame& frame, float speed2,
                               glm::vec3 steer);

}  // namespace murmur::sim
