// The starlings' flight ([model] kind = "starling"; docs/model.md, The starlings' flight), mirroring
// src/sim/starling_model.cpp operation by operation: the polynomials for the arctangent and the
// bank's cosine and sine, the bird's frame, its acceleration. Included by common/Rules.glsl (after
// common/Vector.glsl) where STARLING is 1.

// sim::StarlingFrame.
struct StarlingFrame {
  vec3 forward;
  vec3 right;
  vec3 up;
};

// sim::seriesAtan: Abramowitz & Stegun 4.4.49 on [0, 1], pi/2 - atan(1/x) above.
float seriesAtan(float x) {
  bool inverted = x > 1.0;
  EXACT float t = inverted ? 1.0 / x : x;
  EXACT float t2 = t * t;
  EXACT float p = -0.0040540580;
  p = p * t2 + 0.0218612288;
  p = p * t2 - 0.0559098861;
  p = p * t2 + 0.0964200441;
  p = p * t2 - 0.1390853351;
  p = p * t2 + 0.1994653599;
  p = p * t2 - 0.3332985605;
  p = p * t2 + 0.9999993329;
  EXACT float angle = t * p;
  const float kHalfPi = 1.57079633;
  EXACT float result = inverted ? kHalfPi - angle : angle;
  return result;
}

// sim::seriesCosSin: (cos, sin) by their Taylor series to the 12th and 11th power.
vec2 seriesCosSin(float angle) {
  EXACT float a2 = angle * angle;
  EXACT float c = 2.0876757e-9;
  c = c * a2 - 2.7557319e-7;
  c = c * a2 + 2.4801587e-5;
  c = c * a2 - 0.0013888889;
  c = c * a2 + 0.041666668;
  c = c * a2 - 0.5;
  c = c * a2 + 1.0;
  EXACT float s = -2.5052108e-8;
  s = s * a2 + 2.7557319e-6;
  s = s * a2 - 0.0001984127;
  s = s * a2 + 0.008333334;
  s = s * a2 - 0.16666667;
  s = s * a2 + 1.0;
  EXACT float sine = s * angle;
  return vec2(c, sine);
}

// sim::lateralDemand.
float lateralDemand(StarlingFrame level, vec3 steer) {
  EXACT float across = dot3(steer, level.right);
  EXACT float along = dot3(steer, level.forward);
  if (!(along < 0.0)) return across;
  EXACT float whole = sqrt(across * across + along * along);
  return across < 0.0 ? -whole : whole;
}

// sim::targetBank.
float targetBank(float lateral) {
  EXACT float bank = min(seriesAtan(abs(lateral) / P.starlingGravity), P.starlingMaxBank);
  return lateral < 0.0 ? -bank : bank;
}

// sim::rollToward.
float rollToward(float bank, float target) {
  EXACT float rolled = bank + clamp(target - bank, -P.starlingRollStep, P.starlingRollStep);
  return rolled;
}

// sim::levelFrame, sim::bankedFrame.
StarlingFrame levelFrame(vec3 forward) {
  vec3 across = vec3(-forward.z, 0.0, forward.x);
  EXACT float len = length3(across);
  EXACT vec3 right = len < kEps ? vec3(0.0, 0.0, 1.0) : across / len;
  // glm::cross(right, forward), term by term.
  EXACT vec3 up = vec3(right.y * forward.z - forward.y * right.z, right.z * forward.x - forward.z * right.x,
                       right.x * forward.y - forward.x * right.y);
  return StarlingFrame(forward, right, up);
}

StarlingFrame bankedFrame(StarlingFrame level, float bank) {
  vec2 roll = seriesCosSin(bank);
  EXACT vec3 up = roll.x * level.up + roll.y * level.right;
  return StarlingFrame(level.forward, level.right, up);
}

// sim::starlingAcceleration.
vec3 starlingAcceleration(StarlingFrame frame, float speed2, vec3 steer) {
  EXACT float q = speed2 / P.starlingCruise2;
  EXACT float along = P.starlingThrust * (1.0 - q) + dot3(steer, frame.forward);
  EXACT float lift = P.starlingGravity * q + dot3(steer, frame.up);
  EXACT vec3 a = along * frame.forward + lift * frame.up - vec3(0.0, P.starlingGravity, 0.0);
  return a;
}
