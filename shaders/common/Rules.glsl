// The rules of one model step (docs/model.md), mirroring src/sim/rules.hpp and rules.cpp function by
// function and operation by operation, so that a GPU step gives the CPU's floats wherever the
// driver's arithmetic is IEEE (llvmpipe): lengths are sqrt(dot) rather than length(), directions
// x / |x| rather than normalize() or inversesqrt(), dot products are summed left to right like
// glm's, and results are EXACT: `precise` (no fused multiply-add, no reassociation) in the parity
// variant of the pipeline's programs, nothing in the fast one (gpu::Arithmetic, common/Vector.glsl).
// Needs common/Params.glsl and MAX_TOPOLOGICAL_NEIGHBOURS (sim::kMaxTopologicalNeighbours); the
// including shader defines readId(slot) and readHeading(slot), and TOPOLOGICAL 1 where the step
// has topological neighbours (the K-nearest lists below exist only there; 0 or undefined: none),
// and TURNING 1 where the heading turns at a rate (the turn below exists only there).
#ifndef TOPOLOGICAL
#define TOPOLOGICAL 0
#endif
// TURNING 1 where boids.turn_rate is on (the heading is state: BoidUpdate carries the new one).
#ifndef TURNING
#define TURNING 0
#endif
// LAB 1 for the flocking lab's units ([model] kind = "lab"; common/LabModel.glsl, included after
// this file, steps them): separation also gathers the book's sideways sum below.
#ifndef LAB
#define LAB 0
#endif
// STARLING 1 for starlings ([model] kind = "starling"; common/StarlingModel.glsl): the step's force
// flies the bird (integrate below), its bank in and out through starlingBank.
#ifndef STARLING
#define STARLING 0
#endif
// The heading is state in BoidUpdate: it turns at a rate, or it is a starling's.
#define STORED_HEADING (TURNING || STARLING)

// The optional terms (gpu::StepFeature), 1 compiled in, 0 out (a zero vector, as the CPU's term is
// for a step without it): FEATURE_WALLS, FEATURE_OBSTACLES, FEATURE_AGENTS (goals, flight from
// predators, pursuit), FEATURE_ROOST. Undefined: in.
#ifndef FEATURE_WALLS
#define FEATURE_WALLS 1
#endif
#ifndef FEATURE_OBSTACLES
#define FEATURE_OBSTACLES 1
#endif
#ifndef FEATURE_AGENTS
#define FEATURE_AGENTS 1
#endif
#ifndef FEATURE_ROOST
#define FEATURE_ROOST 1
#endif
const bool kWallsTerm = FEATURE_WALLS != 0;
const bool kObstaclesTerm = FEATURE_OBSTACLES != 0;
const bool kAgentsTerms = FEATURE_AGENTS != 0;
const bool kRoostTerm = FEATURE_ROOST != 0;

#include "common/Vector.glsl"

#if STARLING
#include "common/StarlingModel.glsl"
// The bird's bank (sim::FlockState::attitude): its last step's before integrate, its new one after.
float starlingBank = 0.0;
#endif

#if LAB
// sim::labSide, sim::sideSign, sim::awaySign.
vec3 labSide(vec3 heading) { return vec3(-heading.z, 0.0, heading.x); }
float sideSign(float along) { return along > 0.0 ? 1.0 : (along < 0.0 ? -1.0 : 0.0); }
float awaySign(float along) { return along > 0.0 ? -1.0 : 1.0; }
// sim::NeighbourSums::lateralSeparation, beside the sums (one unit per thread).
float lateralSeparation = 0.0;
#endif

const float kCos45 = 0.70710678118654752;

struct NeighbourSums {
  vec3 separation;      // sum over S_i of u_ij / max(|d_ij|, d_min)
  vec3 headingSum;      // sum over G_i of f_j
  vec3 offsetSum;       // sum over G_i of d_ij
  uint sameGroupCount;  // |G_i|
  // S_i is not empty (cohesion_only_without_separation): 1 or 0, a uint because a bool lives in
  // scalar registers as a lane mask, and one more of those spilled on navi21.
  uint separating;
  bool frontOccupied;   // a boid (any group) within RL lies in the 45-degree front cone
  uint nearestCount;    // topological neighbours: how many of the nearest* entries are used
};

NeighbourSums noNeighbours() { return NeighbourSums(vec3(0.0), vec3(0.0), vec3(0.0), 0u, 0u, false, 0u); }

#if TOPOLOGICAL
// Topological neighbours (sim::NeighbourSums::nearest): this thread's K nearest same-group
// candidates so far, nearest first, as private arrays beside the sums (one boid per thread). The
// slot stands for the id, read only to break a tie in distance, and for the offset and heading,
// read again from it when the list is summed (finishNeighbours): two values a neighbour instead of
// eight, which had put the arrays in scratch memory on AMD's RDNA3.
float nearestDistance2[MAX_TOPOLOGICAL_NEIGHBOURS];
uint nearestSlot[MAX_TOPOLOGICAL_NEIGHBOURS];
#endif

struct BoidView {
  vec3 position;
  vec3 velocity;
  vec3 heading;
  // The boid's slot in the sorted copy, where sim::BoidView has its id: the id is readId(slot),
  // read only in the rare case that needs it rather than held through the neighbour loop.
  uint slot;
  uint group;
};

// The id, the heading and the position of the boid in sorted slot `slot`, defined by the including
// shader. accumulateNeighbour needs id_j only for coincident boids and f_j only within R, so it
// takes j's slot and reads them on demand; the topological sums read p_j again.
uint readId(uint slot);
vec3 readHeading(uint slot);
vec3 readPosition(uint slot);

#if TOPOLOGICAL
// sim::nearer: ranked by squared distance, ties by id.
bool nearer(float d2a, uint slota, float d2b, uint slotb) {
  return d2a < d2b || (d2a == d2b && readId(slota) < readId(slotb));
}

// sim::offerNearest (the offset and heading stay behind: the slot finds them again).
void offerNearest(float d2, uint slot, inout NeighbourSums sums) {
  uint k = P.topologicalNeighbours;
  uint at = sums.nearestCount;
  while (at > 0u && nearer(d2, slot, nearestDistance2[at - 1u], nearestSlot[at - 1u])) --at;
  if (at >= k) return;
  for (uint r = min(sums.nearestCount, k - 1u); r > at; --r) {
    nearestDistance2[r] = nearestDistance2[r - 1u];
    nearestSlot[r] = nearestSlot[r - 1u];
  }
  nearestDistance2[at] = d2;
  nearestSlot[at] = slot;
  if (sums.nearestCount < k) ++sums.nearestCount;
}
#endif

vec3 imageOffset(vec3 pi, vec3 pj);

// sim::finishNeighbours: topological neighbours summed nearest first. Each offset is the one the
// candidate loop computed, bit for bit: the minimum image wherever the world wraps, which returns
// the plain difference unchanged on the runs the loop did not image (|d| below half the world).
void finishNeighbours(BoidView self, inout NeighbourSums sums) {
#if TOPOLOGICAL
  if (P.topologicalNeighbours == 0u) return;
  for (uint r = 0u; r < sums.nearestCount; ++r) {
    uint slot = nearestSlot[r];
    EXACT vec3 headingSum = sums.headingSum + readHeading(slot);
    EXACT vec3 offsetSum = sums.offsetSum + imageOffset(self.position, readPosition(slot));
    sums.headingSum = headingSum;
    sums.offsetSum = offsetSum;
  }
  sums.sameGroupCount = sums.nearestCount;
#endif
}

// The step constants the neighbour loop reads, loaded once per boid: from the uniform block, a
// compiler may reload them for every candidate (RADV does).
struct NeighbourConstants {
  float radius2;
  float leaderRadius2;
  float searchRadius2;
  float separationRadius2;
  float cosHalfFov;
  float minDistance;
  bool needFront;
  bool limitedFov;
};

NeighbourConstants neighbourConstants() {
  return NeighbourConstants(P.radius2, P.leaderRadius2, P.searchRadius2, P.separationRadius2, P.cosHalfFov,
                            P.minDistance, P.needFront != 0u, P.limitedFov != 0u);
}

#if TOPOLOGICAL
// The squared distance within which a candidate may still change boid i's sums under the
// topological rule (as the CPU's sweep, src/sim/neighbour_sweep.cpp): the K-th nearest's once
// there are K, else R^2; at least Rs^2, and RL^2 while the front cone is tested and empty.
float topologicalReach2(NeighbourConstants k, NeighbourSums sums) {
  uint kth = P.topologicalNeighbours;
  float nearest = sums.nearestCount == kth ? nearestDistance2[kth - 1u] : k.radius2;
  float front = k.needFront && !sums.frontOccupied ? k.leaderRadius2 : 0.0;
  return max(max(nearest, k.separationRadius2), front);
}
#endif

// sim::NeighbourTerms: which of j's terms accumulateNeighbour folds in (all but for the two passes
// of the topological sweep, flock/StepBody.glsl). A constant at every call but those, so the
// compiler folds the tests away.
const uint kAllTerms = 0u;
const uint kAllButSeparation = 1u;
const uint kAllButNearest = 2u;

// Folds candidate j (offset d = d_ij, in sorted slot slotj, of i's group or not) into boid i's
// sums; the caller skips j == i and calls finishNeighbours after the last candidate.
void accumulateNeighbour(BoidView self, NeighbourConstants k, vec3 d, uint slotj, bool sameGroup, uint terms,
                         inout NeighbourSums sums) {
  EXACT float d2 = dot3(d, d);
  if (!(d2 < k.searchRadius2)) return;
  EXACT float dist = sqrt(d2);
  bool coincident = dist < kEps;
  EXACT float along = dot3(self.heading, d);
  EXACT float frontEdge = dist * kCos45;
  if (k.needFront && d2 < k.leaderRadius2 && (coincident || along >= frontEdge)) sums.frontOccupied = true;
  if (!(d2 < k.radius2)) return;
  EXACT float fovEdge = dist * k.cosHalfFov;
  if (k.limitedFov && !coincident && along < fovEdge) return;
  if (terms != kAllButSeparation && d2 < k.separationRadius2) {
    EXACT vec3 away = coincident ? vec3(readId(self.slot) < readId(slotj) ? -1.0 : 1.0, 0.0, 0.0) : -d / dist;
    EXACT vec3 term = away / max(dist, k.minDistance);
    // The comfort distance (off by default) is read from the block here, not held through the loop
    // with the constants above, which fill navi21's scalar registers.
    if (d2 < P.comfortDistance2) term *= P.comfortMultiplier;
    EXACT vec3 separation = sums.separation + term;
    sums.separation = separation;
    sums.separating = 1u;
#if LAB
    EXACT float lateral = lateralSeparation + awaySign(dot3(d, labSide(self.heading))) / max(dist, k.minDistance);
    lateralSeparation = lateral;
#endif
  }
#if TOPOLOGICAL
  if (sameGroup && P.topologicalNeighbours != 0u) {
    if (terms != kAllButNearest) offerNearest(d2, slotj, sums);
    return;
  }
#endif
  if (sameGroup) {
    EXACT vec3 headingSum = sums.headingSum + readHeading(slotj);
    EXACT vec3 offsetSum = sums.offsetSum + d;
    sums.headingSum = headingSum;
    sums.offsetSum = offsetSum;
    ++sums.sameGroupCount;
  }
}

// sim::offset: pj - pi, the minimum image when wrapping.
vec3 imageOffset(vec3 pi, vec3 pj) {
  EXACT vec3 d = pj - pi;
  if (P.wrap != 0u) d = minimumImage(d, P.worldSize.xyz);
  return d;
}

vec3 separationForce(NeighbourSums sums) {
  EXACT vec3 f = P.maxSpeed * P.separationRadius * sums.separation;
  return f;
}

vec3 alignmentForce(BoidView self, NeighbourSums sums) {
  if (sums.sameGroupCount == 0u) return vec3(0.0);
  EXACT vec3 meanHeading = sums.headingSum / float(sums.sameGroupCount);
#if STARLING
  EXACT vec3 across = P.maxSpeed * (meanHeading - dot3(meanHeading, self.heading) * self.heading);
  return across;
#else
  EXACT vec3 f = P.maxSpeed * (meanHeading - self.heading);
  return f;
#endif
}

vec3 cohesionForce(BoidView self, NeighbourSums sums) {
  if (sums.sameGroupCount == 0u) return vec3(0.0);
  if (P.cohesionOnlyWithoutSeparation != 0u && sums.separating != 0u) return vec3(0.0);
  EXACT vec3 c = sums.offsetSum / float(sums.sameGroupCount);
  EXACT float len = length3(c);
  if (!(len > kEps)) return vec3(0.0);
#if STARLING
  EXACT vec3 pull = P.maxSpeed * (c / len);
  return pull;
#else
  EXACT vec3 f = P.maxSpeed * (c / len) - self.velocity;
  return f;
#endif
}

vec3 avoidanceForce(BoidView self) {
  // Inside rule: the obstacle the boid is deepest inside pushes it straight out.
  int deepest = -1;
  float deepestDepth = 0.0;
  for (uint k = 0u; k < P.obstacleCount; ++k) {
    vec4 o = obstacle(k);
    EXACT float depth = (o.w + P.boidRadius) - length3(imageOffset(self.position, o.xyz));
    if (depth > 0.0 && (deepest < 0 || depth > deepestDepth)) {
      deepest = int(k);
      deepestDepth = depth;
    }
  }
  if (deepest >= 0) {
    EXACT vec3 a = imageOffset(self.position, obstacle(uint(deepest)).xyz);
    EXACT float len = length3(a);
    EXACT vec3 out_ = len < kEps ? vec3(1.0, 0.0, 0.0) : -a / len;
    EXACT vec3 f = 2.0 * P.maxSpeed * out_;
    return f;
  }
  // Detection box: the nearest obstacle ahead whose clearance the box overlaps.
  EXACT float reach = P.perceptionRadius + length3(self.velocity) * P.lookahead;
  int nearest = -1;
  float nearestT = 0.0;
  vec3 nearestB = vec3(0.0);
  float nearestSpan = 1.0;
  for (uint k = 0u; k < P.obstacleCount; ++k) {
    vec4 o = obstacle(k);
    EXACT vec3 a = imageOffset(self.position, o.xyz);
    EXACT float re = o.w + P.boidRadius;
    EXACT float t = dot3(a, self.heading);
    EXACT vec3 b = a - t * self.heading;
    EXACT float span = reach + re;
    if (t > 0.0 && t < span && length3(b) < re && (nearest < 0 || t < nearestT)) {
      nearest = int(k);
      nearestT = t;
      nearestB = b;
      nearestSpan = span;
    }
  }
  if (nearest < 0) return vec3(0.0);
  EXACT float s = 1.0 - nearestT / nearestSpan;
  EXACT vec3 lateral;
  EXACT float bLen = length3(nearestB);
  if (bLen >= kEps) {
    lateral = -nearestB / bLen;
  } else {
    EXACT vec3 side = cross(self.heading, vec3(0.0, 1.0, 0.0));
    EXACT float sideLen = length3(side);
    lateral = sideLen < kEps ? vec3(0.0, 0.0, 1.0) : side / sideLen;
  }
  EXACT vec3 f = P.maxSpeed * (1.0 + s) * lateral;
  return f;
}

vec3 containmentForce(BoidView self) {
  EXACT vec3 force = vec3(0.0);
  if (P.wrap != 0u || !(P.margin > 0.0)) return force;
  for (int k = 0; k < 3; ++k) {
    if (k == 1 && P.dims == 2u) continue;
    float lo = P.worldMin[k], hi = P.worldMax[k], x = self.position[k];
    EXACT float inner = lo + P.margin;
    EXACT float outer = hi - P.margin;
    if (x < inner) force[k] += P.maxSpeed * (inner - x) / P.margin;
    if (x > outer) force[k] -= P.maxSpeed * (x - hi + P.margin) / P.margin;
  }
  return force;
}

vec3 goalForce(BoidView self, NeighbourSums sums) {
  if (self.group >= P.groupCount) return vec3(0.0);
  vec4 goal = goalOf(self.group);
  if (goal.w == 0.0) return vec3(0.0);
  if (P.goalModeAll == 0u && sums.frontOccupied) return vec3(0.0);
  EXACT vec3 to = imageOffset(self.position, goal.xyz);
  EXACT float dist = length3(to);
  if (!(dist > kEps)) return vec3(0.0);
  EXACT vec3 f = (to / dist) * P.maxSpeed * min(1.0, dist / P.slowRadius) - self.velocity;
  return f;
}

vec3 fleeForce(BoidView self) {
  EXACT vec3 force = vec3(0.0);
  for (uint m = 0u; m < P.predatorCount; ++m) {
    EXACT vec3 e = imageOffset(predator(m), self.position);
    EXACT float len = length3(e);
    if (len > 0.0 && len < P.fleeRadius) force += ((e / len) * P.maxSpeed - self.velocity) * (1.0 - len / P.fleeRadius);
  }
  return force;
}

const uint kRoleFlock = 0u;
const uint kRoleIntercept = 2u;

uint groupRole(uint group) { return uint(steeringOf(group, 0u).w); }
bool groupFlocking(uint group) { return steeringOf(group, 2u).y != 0.0; }

// sim::pursuitAim.
vec3 pursuitAim(uint role, vec3 toTarget, vec3 targetVelocity, vec3 velocity, float maxSeconds) {
  if (role != kRoleIntercept) return toTarget;
  EXACT float closing = length3(targetVelocity - velocity);
  EXACT float t = closing < kEps ? maxSeconds : min(length3(toTarget) / closing, maxSeconds);
  EXACT vec3 aim = toTarget + targetVelocity * t;
  return aim;
}

// sim::pursuitForce.
vec3 pursuitForce(BoidView self, NeighbourSums sums) {
  uint role = groupRole(self.group);
  if (role == kRoleFlock) return vec3(0.0);
  if (groupFlocking(self.group) && sums.frontOccupied) return vec3(0.0);
  vec4 target = steeringOf(self.group, 0u);
  vec4 targetVelocity = steeringOf(self.group, 1u);
  EXACT vec3 toTarget = imageOffset(self.position, target.xyz);
  EXACT vec3 to = pursuitAim(role, toTarget, targetVelocity.xyz, self.velocity, steeringOf(self.group, 2u).z);
  EXACT float dist = length3(to);
  if (!(dist > kEps)) return vec3(0.0);
  EXACT float speed = P.maxSpeed * targetVelocity.w;
  EXACT vec3 f = (to / dist) * speed - self.velocity;
  return f;
}

// sim::roostForce.
vec3 roostForce(BoidView self) {
  if (!(P.roostRadius > 0.0)) return vec3(0.0);
  EXACT vec3 h = imageOffset(self.position, P.roostCenter.xyz);
  h.y = 0.0;
  EXACT float dist = length3(h);
  if (!(dist > P.roostRadius)) return vec3(0.0);
  EXACT float pull = P.maxSpeed * min(1.0, (dist - P.roostRadius) / P.roostRadius);
  EXACT vec3 f = (h / dist) * pull;
  return f;
}

// sim::heightForce.
vec3 heightForce(BoidView self) {
  EXACT float band = P.roostHeightBand;
  if (!(band > 0.0)) return vec3(0.0);
  EXACT float to = imageOffset(self.position, P.roostCenter.xyz).y;
  EXACT float pull = P.maxSpeed * clamp(to / band, -1.0, 1.0);
  return vec3(0.0, pull, 0.0);
}

vec3 cruiseForce(BoidView self) {
  EXACT vec3 f = self.heading * (P.cruiseSpeed - length3(self.velocity));
  return f;
}

// sim::WallGrid::cellAt (grid units as sim::GridPlacement::gridUnits): the cell containing p, or -1
// outside the grid.
int wallCellAt(vec3 p) {
  EXACT float fx = (p.x - P.wallOrigin.x) / P.wallCellSize;
  EXACT float fz = (p.z - P.wallOrigin.y) / P.wallCellSize;
  if (!(fx >= 0.0) || !(fz >= 0.0)) return -1;
  uint cx = uint(fx), cz = uint(fz);
  if (cx >= P.wallWidth || cz >= P.wallHeight) return -1;
  return int(cz * P.wallWidth + cx);
}

bool wallBlockedAt(vec3 p) {
  int cell = wallCellAt(p);
  return cell >= 0 && wallCells[cell] != 0u;
}

// sim::WallGrid::cellCentre (sim::GridPlacement::centreOf).
vec3 wallCellCentre(int cell) {
  EXACT float cx = float(uint(cell) % P.wallWidth), cz = float(uint(cell) / P.wallWidth);
  EXACT vec3 c = vec3(P.wallOrigin.x + (cx + 0.5) * P.wallCellSize, 0.0, P.wallOrigin.y + (cz + 0.5) * P.wallCellSize);
  return c;
}

// sim::wallForce: probes the wall grid ahead of the boid (docs/model.md, step 6b).
const int kWallProbes = 8;
vec3 wallForce(BoidView self) {
  if (P.wallWidth == 0u) return vec3(0.0);
  int own = wallCellAt(self.position);
  if (own >= 0 && wallCells[own] != 0u) {
    EXACT vec3 away = self.position - wallCellCentre(own);
    away.y = 0.0;
    EXACT float len = length3(away);
    EXACT vec3 f = 2.0 * P.maxSpeed * (len < kEps ? vec3(1.0, 0.0, 0.0) : away / len);
    return f;
  }
  EXACT vec3 ahead = vec3(self.heading.x, 0.0, self.heading.z);
  EXACT float aheadLen = length3(ahead);
  if (aheadLen < kEps) return vec3(0.0);
  ahead /= aheadLen;
  EXACT float reach = P.perceptionRadius + length3(self.velocity) * P.lookahead;
  for (int k = 1; k <= kWallProbes; ++k) {
    EXACT float t = reach * float(k) / float(kWallProbes);
    int cell = wallCellAt(self.position + ahead * t);
    if (cell < 0 || wallCells[cell] == 0u) continue;
    EXACT vec3 away = self.position - wallCellCentre(cell);
    away.y = 0.0;
    EXACT vec3 lateral = away - dot3(away, ahead) * ahead;
    EXACT float lateralLen = length3(lateral);
    lateral = lateralLen < kEps ? vec3(-ahead.z, 0.0, ahead.x) : lateral / lateralLen;
    EXACT float s = 1.0 - t / reach;
    EXACT vec3 f = P.maxSpeed * (1.0 + s) * lateral;
    return f;
  }
  return vec3(0.0);
}

// Step 11's weighted sum of the forces (sim::computeForces, then sim::integrate's sum), each force
// added as soon as it is computed, in the sum's order (the same operations as the CPU's): eleven
// vec3 held at once until the sum would cost navi21 8 more registers than the neighbour loop needs.
vec3 weightedForce(BoidView self, NeighbourSums sums) {
  vec3 separation = vec3(0.0), alignment = vec3(0.0), cohesion = vec3(0.0);
  if (groupFlocking(self.group)) {
    separation = separationForce(sums);
    alignment = alignmentForce(self, sums);
    cohesion = cohesionForce(self, sums);
  }
  EXACT vec3 force = P.wSeparation * separation + P.wAlignment * alignment + P.wCohesion * cohesion;
  force += P.wAvoidance * (kObstaclesTerm ? avoidanceForce(self) : vec3(0.0));
  force += P.wBounds * containmentForce(self);
  force += P.wGoal * (kAgentsTerms ? goalForce(self, sums) : vec3(0.0));
  force += P.wFlee * (kAgentsTerms ? fleeForce(self) : vec3(0.0));
  force += P.wCruise * cruiseForce(self);
  force += P.wWalls * (kWallsTerm ? wallForce(self) : vec3(0.0));
  if (kAgentsTerms && groupRole(self.group) != kRoleFlock)
    force += steeringOf(self.group, 2u).x * pursuitForce(self, sums);
  force += P.wRoost * (kRoostTerm ? roostForce(self) : vec3(0.0));
  force += P.wHeight * (kRoostTerm ? heightForce(self) : vec3(0.0));
  return force;
}

struct BoidUpdate {
  vec3 position;
  vec3 velocity;
#if STORED_HEADING
  vec3 heading;  // the new stored heading
#endif
};

#if TURNING
// sim::turnHeading: h turned toward v's direction by at most the step's angle (P.turnCos, P.turnSin).
vec3 turnHeading(vec3 h, vec3 v) {
  EXACT float speed = length3(v);
  if (speed < kEps) return h;
  EXACT vec3 t = v / speed;
  EXACT float c = dot3(h, t);
  if (c >= P.turnCos) return t;
  EXACT vec3 across = t - c * h;
  EXACT float acrossLen = length3(across);
  EXACT vec3 u;
  if (acrossLen >= kEps) {
    u = across / acrossLen;
  } else {
    EXACT vec3 side = vec3(-h.z, 0.0, h.x);
    EXACT float sideLen = length3(side);
    u = sideLen < kEps ? vec3(1.0, 0.0, 0.0) : side / sideLen;
  }
  EXACT vec3 turned = P.turnCos * h + P.turnSin * u;
  return turned / length3(turned);
}
#endif

// sim::wrapCoordinate: x folded onto the torus [lo, hi); a coordinate a rounding below lo can land
// exactly on hi, which on the torus is lo.
float wrapCoordinate(float x, float lo, float hi) {
  EXACT float size = hi - lo;
  EXACT float wrapped = x - size * floor((x - lo) / size);
  return wrapped >= hi || wrapped < lo ? lo : wrapped;
}

// Steps 11-14: weighted sum, force clamp, velocity and position update, boundary.
BoidUpdate integrate(BoidView self, vec3 weighted) {
  EXACT vec3 force = weighted;
  if (P.dims == 2u) force.y = 0.0;
  // The group's thrust scales both limits (exactly 1 leaves them as they are).
  float thrust = steeringOf(self.group, 1u).w;
  EXACT float maxForce = P.maxForce * thrust;
  EXACT float maxSpeed = P.maxSpeed * thrust;
  EXACT float forceLen = length3(force);
  if (forceLen > maxForce) force *= maxForce / forceLen;

#if STARLING
  // sim::flyStarling: roll toward the bank the steering's sideways part asks, then fly with the
  // lift so tilted.
  EXACT vec3 steer = force / P.mass;
  StarlingFrame level = levelFrame(self.heading);
  starlingBank = rollToward(starlingBank, targetBank(lateralDemand(level, steer)));
  StarlingFrame frame = bankedFrame(level, starlingBank);
  EXACT vec3 v = self.velocity + starlingAcceleration(frame, dot3(self.velocity, self.velocity), steer) * P.dt;
#else
  EXACT vec3 v = self.velocity + force / P.mass * P.dt;
#endif
#if STARLING
  // No minimum speed: a slow bird loses its lift and dives until it flies again.
  const float minSpeed = 0.0;
#else
  float minSpeed = P.minSpeed;
#endif
  EXACT float speed = length3(v);
  if (speed > maxSpeed) {
    v *= maxSpeed / speed;
  } else if (speed < kEps) {
    v = self.heading * minSpeed;
  } else if (speed < minSpeed) {
    v *= minSpeed / speed;
  }
#if TURNING
  // 13. The boid moves along its turned heading at the velocity's speed.
  EXACT vec3 h = turnHeading(self.heading, v);
  EXACT vec3 pos = self.position + h * (length3(v) * P.dt);
#elif STARLING
  // A starling heads where it flies.
  EXACT float flown = length3(v);
  EXACT vec3 h = flown < kEps ? self.heading : v / flown;
  EXACT vec3 pos = self.position + v * P.dt;
#else
  EXACT vec3 pos = self.position + v * P.dt;
#endif

  for (int k = 0; k < 3; ++k) {
    if (k == 1 && P.dims == 2u) continue;
    float lo = P.worldMin[k], hi = P.worldMax[k];
    if (P.wrap != 0u) {
      pos[k] = wrapCoordinate(pos[k], lo, hi);
    } else {
      if (pos[k] < lo) {
        pos[k] = lo;
        v[k] = abs(v[k]);
#if STORED_HEADING
        h[k] = abs(h[k]);
#endif
      } else if (pos[k] > hi) {
        pos[k] = hi;
        v[k] = -abs(v[k]);
#if STORED_HEADING
        h[k] = -abs(h[k]);
#endif
      }
    }
  }
  // 15. Walls are solid (sim::integrate): slide along x, else along z, else stay and turn round.
  if (kWallsTerm && P.wallWidth != 0u && wallBlockedAt(pos) && !wallBlockedAt(self.position)) {
    vec3 alongX = vec3(pos.x, pos.y, self.position.z), alongZ = vec3(self.position.x, pos.y, pos.z);
    if (!wallBlockedAt(alongX)) {
      pos = alongX;
      v.z = -v.z;
#if STORED_HEADING
      h.z = -h.z;
#endif
    } else if (!wallBlockedAt(alongZ)) {
      pos = alongZ;
      v.x = -v.x;
#if STORED_HEADING
      h.x = -h.x;
#endif
    } else {
      pos = self.position;
      v = -v;
#if STORED_HEADING
      h = -h;
#endif
    }
  }
#if STORED_HEADING
  return BoidUpdate(pos, v, h);
#else
  return BoidUpdate(pos, v);
#endif
}

BoidUpdate stepBoid(BoidView self, NeighbourSums sums) { return integrate(self, weightedForce(self, sums)); }
