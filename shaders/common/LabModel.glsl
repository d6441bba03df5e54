// The flocking lab's units ([model] kind = "lab"; docs/model.md, The lab's units), mirroring
// src/sim/lab_model.cpp and the lab's functions of src/sim/rules.cpp operation by operation: the
// polynomials for the angle and the turn, the book's pushes, the rigid body's step. Needs
// common/Rules.glsl (included first, LAB 1), which gathers lateralSeparation and defines labSide,
// sideSign and awaySign.
// Empty unless LAB is 1 (every force pass includes it).
#if LAB

const float kLabDragCentreLengths = 0.12;
const float kLabLookaheadLengths = 25.0;
const float kLabMaxTurnPerStep = 0.5;

// sim::labTurnFraction: acos(cosine) / pi by Abramowitz & Stegun 4.4.46.
float labTurnFraction(float cosine) {
  EXACT float x = abs(clamp(cosine, -1.0, 1.0));
  EXACT float p = -0.0012624911;
  p = p * x + 0.0066700901;
  p = p * x - 0.0170881256;
  p = p * x + 0.0308918810;
  p = p * x - 0.0501743046;
  p = p * x + 0.0889789874;
  p = p * x - 0.2145988016;
  p = p * x + 1.5707963050;
  EXACT float angle = sqrt(1.0 - x) * p;
  const float kPi = 3.14159265;
  EXACT float fraction = (cosine < 0.0 ? kPi - angle : angle) / kPi;
  return fraction;
}

// sim::labTurnHeading.
vec3 labTurnHeading(vec3 heading, float angle) {
  EXACT float a2 = angle * angle;
  EXACT float c = 1.0 + a2 * (-0.5 + a2 * (0.041666668 + a2 * (-0.0013888889 + a2 * 0.000024801587)));
  EXACT float s = angle * (1.0 + a2 * (-0.16666667 + a2 * (0.008333334 + a2 * -0.0001984127)));
  EXACT vec3 turned = c * heading + s * labSide(heading);
  EXACT vec3 unit = turned / sqrt(dot3(turned, turned));
  return unit;
}

// sim::labTurnPush.
float labTurnPush(float full, vec3 velocityHeading, vec3 side, vec3 u) {
  EXACT float len = length3(u);
  if (!(len > kEps)) return 0.0;
  EXACT vec3 toward = u / len;
  EXACT float push = sideSign(dot3(toward, side)) * full * labTurnFraction(dot3(velocityHeading, toward));
  return push;
}

// sim::labPush.
float labPush(BoidView self, NeighbourSums sums) {
  vec3 f = self.heading;
  vec3 side = labSide(f);
  EXACT float push = 0.0;
  if (groupFlocking(self.group)) {
    push += P.labSteering * P.separationRadius * lateralSeparation;
    if (sums.sameGroupCount > 0u) {
      float n = float(sums.sameGroupCount);
      vec3 moving = heading(self.velocity);
      EXACT vec3 centre = sums.offsetSum / n;
      EXACT vec3 meanHeading = sums.headingSum / n;
      push += labTurnPush(P.labSteering, moving, side, centre);
      push += labTurnPush(P.labSteering, moving, side, meanHeading);
    }
  }
  EXACT float lookahead = kLabLookaheadLengths * P.bodyLength;
  for (uint k = 0u; k < P.obstacleCount; ++k) {
    vec4 o = obstacle(k);
    EXACT vec3 a = imageOffset(self.position, o.xyz);
    EXACT float t = dot3(a, f);
    if (!(t > 0.0 && t < lookahead)) continue;
    EXACT vec3 across = a - t * f;
    if (!(length3(across) < o.w)) continue;
    push += awaySign(dot3(a, side)) * P.labSteering * lookahead / length3(a);
  }
  uint role = groupRole(self.group);
  if (role != kRoleFlock && !(groupFlocking(self.group) && sums.frontOccupied)) {
    vec4 target = steeringOf(self.group, 0u);
    vec4 targetVelocity = steeringOf(self.group, 1u);
    EXACT vec3 toTarget = imageOffset(self.position, target.xyz);
    EXACT vec3 aim = pursuitAim(role, toTarget, targetVelocity.xyz, self.velocity, steeringOf(self.group, 2u).z);
    EXACT float len = length3(aim);
    if (len > kEps) push += steeringOf(self.group, 2u).x * sideSign(dot3(aim / len, side)) * P.labSteering;
  }
  return push;
}

// sim::LabUnit.
struct LabUnit {
  vec3 position;
  vec3 velocity;
  vec3 heading;
  float spin;
};

// sim::stepLabUnit with sim::integrateLabUnit.
LabUnit stepLabUnit(BoidView self, float spin, NeighbourSums sums) {
  float push = labPush(self, sums);
  float thrustScale = steeringOf(self.group, 1u).w;
  vec3 f = self.heading;
  vec3 side = labSide(f);
  EXACT vec3 centre = self.velocity - (spin * P.labDragArm) * side;
  EXACT vec3 drag = -(P.labDrag * sqrt(dot3(centre, centre))) * centre;
  EXACT vec3 force = (P.labThrust * thrustScale) * f + push * side + drag;
  EXACT float dragTorque = -P.labDragArm * (f.x * drag.z - f.z * drag.x);
  EXACT float torque = P.labBowArm * push + dragTorque;

  EXACT vec3 v = self.velocity + force / P.mass * P.dt;
  EXACT vec3 pos = self.position + v * P.dt;
  EXACT float nextSpin = (spin + torque / P.labInertia * P.dt) / (1.0 + P.labAngularDrag / P.labInertia * P.dt);
  EXACT float turn = clamp(nextSpin * P.dt, -kLabMaxTurnPerStep, kLabMaxTurnPerStep);
  vec3 nextHeading = labTurnHeading(f, turn);
  for (int k = 0; k < 3; k += 2) pos[k] = wrapCoordinate(pos[k], P.worldMin[k], P.worldMax[k]);
  return LabUnit(pos, v, nextHeading, nextSpin);
}
#endif
