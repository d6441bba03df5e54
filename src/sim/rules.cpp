#include "sim/rules.hpp"

#include <numbers>

namespace murmur::sim {
namespace {

glm::vec3 planar(const ModelParams& params, glm::vec3 v) {
  if (params.dims == 2) v.y = 0.0f;
  return v;
}

float length(glm::vec3 v) {
  return std::sqrt(glm::dot(v, v));
}

}  // namespace

glm::vec3 wrapIntoWorld(const ModelParams& params, glm::vec3 p) {
  if (params.boundary != Boundary::Wrap) return p;
  for (int k = 0; k < 3; ++k)
    if (!(k == 1 && params.dims == 2)) p[k] = wrapCoordinate(p[k], params.worldMin[k], params.worldMax[k]);
  return p;
}

bool leadersUsed(const ModelParams& params, const StepInputs& inputs, std::uint32_t groups) {
  for (std::uint32_t g = 0; g < groups; ++g) {
    if (params.goalMode == GoalMode::Front && g < inputs.goal.size() && inputs.goal[g]) return true;
    if (g < inputs.steering.size() && inputs.steering[g].role != GroupRole::Flock &&
        inputs.steering[g].flocking)
      return true;
  }
  return false;
}

PackedInputs packInputs(const ModelParams& params, const StepInputs& inputs, std::uint32_t groups) {
  // Points the boids steer by, in the x-z plane in 2D and on the torus when wrapping.
  const auto place = [&](glm::vec3 p) { return wrapIntoWorld(params, planar(params, p)); };
  PackedInputs packed;
  packed.obstacles.reserve(inputs.obstacleCenter.size());
  for (std::size_t k = 0; k < inputs.obstacleCenter.size(); ++k)
    packed.obstacles.emplace_back(place(inputs.obstacleCenter[k]), inputs.obstacleRadius[k]);
  packed.goals.assign(groups, glm::vec4(0.0f));
  for (std::size_t g = 0; g < inputs.goal.size() && g < groups; ++g)
    if (inputs.goal[g]) packed.goals[g] = glm::vec4(place(*inputs.goal[g]), 1.0f);
  packed.predators.reserve(inputs.predators.size());
  for (const glm::vec3& p : inputs.predators) packed.predators.push_back(place(p));
  packed.steering.reserve(3 * std::size_t(groups));
  for (std::uint32_t g = 0; g < groups; ++g) {
    const GroupSteering s = g < inputs.steering.size() ? inputs.steering[g] : GroupSteering{};
    packed.steering.emplace_back(place(s.target), static_cast<float>(s.role));
    packed.steering.emplace_back(planar(params, s.targetVelocity), s.thrust);
    packed.steering.emplace_back(s.weight, s.flocking ? 1.0f : 0.0f, s.maxInterceptSeconds, 0.0f);
  }
  packed.walls = inputs.walls.get();
  packed.recordLeaders = inputs.recordLeaders || leadersUsed(params, inputs, groups);
  return packed;
}

StepContext makeStepContext(const ModelParams& params, const PackedInputs& packed) {
  StepContext ctx;
  ctx.params = &params;
  ctx.radius2 = params.perceptionRadius * params.perceptionRadius;
  ctx.separationRadius2 = params.separationRadius * params.separationRadius;
  ctx.comfortDistance2 = params.comfortDistance * params.comfortDistance;
  ctx.turning = params.turnRate > 0.0f;
  const double turnAngle =
      std::min(double(params.turnRate) * double(params.dt) * std::numbers::pi / 180.0, std::numbers::pi);
  ctx.turnCos = static_cast<float>(std::cos(turnAngle));
  ctx.turnSin = static_cast<float>(std::sin(turnAngle));
  ctx.leaderRadius2 = params.leaderRadius * params.leaderRadius;
  ctx.searchRadius2 = std::max(ctx.radius2, ctx.leaderRadius2);
  ctx.limitedFov = params.fovDegrees < 360.0f;
  ctx.topological = params.topologicalNeighbours;
  // cos in double, then snapped to exactly 0 near a right angle so that a 180-degree field of view
  // has its edge exactly on the side plane (cos(pi/2) is 6e-17 in double, not 0).
  const double cosHalf = std::cos(double(params.fovDegrees) * 0.5 * std::numbers::pi / 180.0);
  ctx.cosHalfFov = std::abs(cosHalf) < 1e-12 ? 0.0f : static_cast<float>(cosHalf);
  ctx.wrap = params.boundary == Boundary::Wrap;
  ctx.worldSize = params.worldSize();
  ctx.obstacles = packed.obstacles;
  ctx.goals = packed.goals;
  ctx.predators = packed.predators;
  ctx.steering = packed.steering;
  ctx.walls = packed.walls != nullptr && !packed.walls->blocked.empty() ? packed.walls : nullptr;
  ctx.roostCenter = wrapIntoWorld(params, params.roostCenter);
  ctx.labUnits = params.unitModel == UnitModel::Lab;
  if (ctx.labUnits) ctx.lab = labBody(params);
  ctx.starlings = params.unitModel == UnitModel::Starling;
  if (ctx.starlings) ctx.starling = starlingBody(params);
  for (const glm::vec4& g : packed.goals) ctx.anyGoal = ctx.anyGoal || g.w != 0.0f;
  ctx.needFront = packed.recordLeaders;
  return ctx;
}

glm::vec3 separationForce(const StepContext& ctx, const NeighbourSums& sums) {
  const ModelParams& p = *ctx.params;
  return p.maxSpeed * p.separationRadius * sums.separation;
}

glm::vec3 alignmentForce(const StepContext& ctx, const BoidView& self, const NeighbourSums& sums) {
  if (sums.sameGroupCount == 0) return glm::vec3(0.0f);
  const glm::vec3 meanHeading = sums.headingSum / static_cast<float>(sums.sameGroupCount);
  // A starling turns toward the mean heading and keeps its speed: the part across its heading (a
  // mean of unit headings is shorter than one, so the whole difference always brakes).
  if (ctx.starlings)
    return ctx.params->maxSpeed * (meanHeading - glm::dot(meanHeading, self.heading) * self.heading);
  return ctx.params->maxSpeed * (meanHeading - self.heading);
}

glm::vec3 cohesionForce(const StepContext& ctx, const BoidView& self, const NeighbourSums& sums) {
  if (sums.sameGroupCount == 0) return glm::vec3(0.0f);
  if (ctx.params->cohesionOnlyWithoutSeparation && sums.separating) return glm::vec3(0.0f);
  const glm::vec3 c = sums.offsetSum / static_cast<float>(sums.sameGroupCount);
  const float len = length(c);
  if (!(len > kEps)) return glm::vec3(0.0f);
  // A starling's pull leaves out -v: it holds its speed by its flight (docs/model.md, The starlings'
  // flight), and a term that brakes by its own speed would stall it.
  if (ctx.starlings) return ctx.params->maxSpeed * (c / len);
  return ctx.params->maxSpeed * (c / len) - self.velocity;
}

glm::vec3 avoidanceForce(const StepContext& ctx, const BoidView& self) {
  const ModelParams& p = *ctx.params;
  // Inside rule: the obstacle the boid is deepest inside pushes it straight out.
  int deepest = -1;
  float deepestDepth = 0.0f;
  // Offsets to obstacles are minimum images when wrapping: an obstacle across the seam is solid on
  // both sides.
  for (std::size_t k = 0; k < ctx.obstacles.size(); ++k) {
    const glm::vec4 o = ctx.obstacles[k];
    const float depth = (o.w + p.radius) - length(offset(ctx, self.position, glm::vec3(o)));
    if (depth > 0.0f && (deepest < 0 || depth > deepestDepth)) {
      deepest = static_cast<int>(k);
      deepestDepth = depth;
    }
  }
  if (deepest >= 0) {
    const glm::vec3 a = offset(ctx, self.position, glm::vec3(ctx.obstacles[deepest]));
    const float len = length(a);
    const glm::vec3 out = len < kEps ? glm::vec3(1.0f, 0.0f, 0.0f) : -a / len;
    return 2.0f * p.maxSpeed * out;
  }
  // Detection box: the nearest obstacle ahead whose clearance the box overlaps.
  const float reach = p.perceptionRadius + length(self.velocity) * p.lookahead;
  int nearest = -1;
  float nearestT = 0.0f;
  glm::vec3 nearestB{0.0f};
  float nearestSpan = 1.0f;
  for (std::size_t k = 0; k < ctx.obstacles.size(); ++k) {
    const glm::vec4 o = ctx.obstacles[k];
    const glm::vec3 a = offset(ctx, self.position, glm::vec3(o));
    const float re = o.w + p.radius;
    const float t = glm::dot(a, self.heading);
    const glm::vec3 b = a - t * self.heading;
    if (t > 0.0f && t < reach + re && length(b) < re && (nearest < 0 || t < nearestT)) {
      nearest = static_cast<int>(k);
      nearestT = t;
      nearestB = b;
      nearestSpan = reach + re;
    }
  }
  if (nearest < 0) return glm::vec3(0.0f);
  const float s = 1.0f - nearestT / nearestSpan;
  glm::vec3 lateral;
  const float bLen = length(nearestB);
  if (bLen >= kEps) {
    lateral = -nearestB / bLen;
  } else {
    const glm::vec3 side = glm::cross(self.heading, glm::vec3(0.0f, 1.0f, 0.0f));
    const float sideLen = length(side);
    lateral = sideLen < kEps ? glm::vec3(0.0f, 0.0f, 1.0f) : side / sideLen;
  }
  return p.maxSpeed * (1.0f + s) * lateral;
}

glm::vec3 containmentForce(const StepContext& ctx, const BoidView& self) {
  const ModelParams& p = *ctx.params;
  if (p.boundary != Boundary::Contain) return glm::vec3(0.0f);
  return containmentPush(self.position, p.worldMin, p.worldMax, p.margin, p.maxSpeed, p.dims);
}

glm::vec3 containmentPush(glm::vec3 position, glm::vec3 worldMin, glm::vec3 worldMax, float margin,
                          float maxSpeed, int dims) {
  glm::vec3 force(0.0f);
  if (!(margin > 0.0f)) return force;
  for (int k = 0; k < 3; ++k) {
    if (k == 1 && dims == 2) continue;
    const float lo = worldMin[k], hi = worldMax[k], x = position[k];
    if (x < lo + margin) force[k] += maxSpeed * (lo + margin - x) / margin;
    if (x > hi - margin) force[k] -= maxSpeed * (x - hi + margin) / margin;
  }
  return force;
}

glm::vec3 goalForce(const StepContext& ctx, const BoidView& self, const NeighbourSums& sums) {
  if (self.group >= ctx.goals.size()) return glm::vec3(0.0f);
  const glm::vec4 goal = ctx.goals[self.group];
  if (goal.w == 0.0f) return glm::vec3(0.0f);
  if (ctx.params->goalMode == GoalMode::Front && sums.frontOccupied) return glm::vec3(0.0f);
  const glm::vec3 to = offset(ctx, self.position, glm::vec3(goal));
  const float dist = length(to);
  if (!(dist > kEps)) return glm::vec3(0.0f);
  const ModelParams& p = *ctx.params;
  return (to / dist) * p.maxSpeed * std::min(1.0f, dist / p.slowRadius) - self.velocity;
}

glm::vec3 fleeForce(const StepContext& ctx, const BoidView& self) {
  const ModelParams& p = *ctx.params;
  glm::vec3 force(0.0f);
  for (const glm::vec3& predator : ctx.predators) {
    const glm::vec3 e = offset(ctx, predator, self.position);
    const float len = length(e);
    if (len > 0.0f && len < p.fleeRadius)
      force += ((e / len) * p.maxSpeed - self.velocity) * (1.0f - len / p.fleeRadius);
  }
  return force;
}

glm::vec3 pursuitAim(GroupRole role, glm::vec3 toTarget, glm::vec3 targetVelocity, glm::vec3 velocity,
                     float maxSeconds) {
  if (role != GroupRole::Intercept) return toTarget;
  const float closing = length(targetVelocity - velocity);
  const float t = closing < kEps ? maxSeconds : std::min(length(toTarget) / closing, maxSeconds);
  return toTarget + targetVelocity * t;
}

glm::vec3 pursuitForce(const StepContext& ctx, const BoidView& self, const NeighbourSums& sums) {
  const GroupRole role = groupRole(ctx, self.group);
  if (role == GroupRole::Flock) return glm::vec3(0.0f);
  if (groupFlocking(ctx, self.group) && sums.frontOccupied) return glm::vec3(0.0f);  // a follower
  const glm::vec4 target = ctx.steering[3 * self.group];
  const glm::vec4 targetVelocity = ctx.steering[3 * self.group + 1];
  const glm::vec3 to =
      pursuitAim(role, offset(ctx, self.position, glm::vec3(target)), glm::vec3(targetVelocity),
                 self.velocity, ctx.steering[3 * self.group + 2].z);
  const float dist = length(to);
  if (!(dist > kEps)) return glm::vec3(0.0f);
  return (to / dist) * (ctx.params->maxSpeed * targetVelocity.w) - self.velocity;
}

glm::vec3 cruiseForce(const StepContext& ctx, const BoidView& self) {
  return self.heading * (ctx.params->cruiseSpeed - length(self.velocity));
}

glm::vec3 roostForce(const StepContext& ctx, const BoidView& self) {
  const ModelParams& p = *ctx.params;
  if (!(p.roostRadius > 0.0f)) return glm::vec3(0.0f);
  glm::vec3 h = offset(ctx, self.position, ctx.roostCenter);
  h.y = 0.0f;
  const float dist = length(h);
  if (!(dist > p.roostRadius)) return glm::vec3(0.0f);
  return (h / dist) * (p.maxSpeed * std::min(1.0f, (dist - p.roostRadius) / p.roostRadius));
}

glm::vec3 heightForce(const StepContext& ctx, const BoidView& self) {
  const ModelParams& p = *ctx.params;
  const float band = p.roostHeightBand;
  if (!(band > 0.0f)) return glm::vec3(0.0f);
  const float to = offset(ctx, self.position, ctx.roostCenter).y;
  return {0.0f, p.maxSpeed * std::clamp(to / band, -1.0f, 1.0f), 0.0f};
}

glm::vec3 wallForce(const StepContext& ctx, const BoidView& self) {
  if (ctx.walls == nullptr) return glm::vec3(0.0f);
  const WallGrid& walls = *ctx.walls;
  const ModelParams& p = *ctx.params;
  // Inside a wall cell: straight out, away from its centre.
  const std::int64_t own = walls.cellAt(self.position);
  if (own >= 0 && walls.blocked[static_cast<std::size_t>(own)] != 0) {
    glm::vec3 away = self.position - walls.cellCentre(own);
    away.y = 0.0f;
    const float len = length(away);
    return 2.0f * p.maxSpeed * (len < kEps ? glm::vec3(1.0f, 0.0f, 0.0f) : away / len);
  }
  // Probes at L k / 8 along the heading in the x-z plane; the first in a wall cell steers sideways,
  // away from that cell's centre, harder the nearer it is.
  glm::vec3 ahead(self.heading.x, 0.0f, self.heading.z);
  const float aheadLen = length(ahead);
  if (aheadLen < kEps) return glm::vec3(0.0f);
  ahead /= aheadLen;
  const float reach = p.perceptionRadius + length(self.velocity) * p.lookahead;
  for (int k = 1; k <= kWallProbes; ++k) {
    const float t = reach * static_cast<float>(k) / static_cast<float>(kWallProbes);
    const std::int64_t cell = walls.cellAt(self.position + ahead * t);
    if (cell < 0 || walls.blocked[static_cast<std::size_t>(cell)] == 0) continue;
    glm::vec3 away = self.position - walls.cellCentre(cell);
    away.y = 0.0f;
    glm::vec3 lateral = away - glm::dot(away, ahead) * ahead;
    const float lateralLen = length(lateral);
    lateral = lateralLen < kEps ? glm::vec3(-ahead.z, 0.0f, ahead.x) : lateral / lateralLen;
    const float s = 1.0f - t / reach;
    return p.maxSpeed * (1.0f + s) * lateral;
  }
  return glm::vec3(0.0f);
}

Forces computeForces(const StepContext& ctx, const BoidView& self, const NeighbourSums& sums) {
  Forces f;
  if (groupFlocking(ctx, self.group)) {
    f.separation = separationForce(ctx, sums);
    f.alignment = alignmentForce(ctx, self, sums);
    f.cohesion = cohesionForce(ctx, self, sums);
  }
  f.avoidance = avoidanceForce(ctx, self);
  f.bounds = containmentForce(ctx, self);
  f.goal = goalForce(ctx, self, sums);
  f.flee = fleeForce(ctx, self);
  f.cruise = cruiseForce(ctx, self);
  f.walls = wallForce(ctx, self);
  f.pursuit = pursuitForce(ctx, self, sums);
  f.roost = roostForce(ctx, self);
  f.height = heightForce(ctx, self);
  return f;
}

glm::vec3 turnHeading(const StepContext& ctx, glm::vec3 h, glm::vec3 v) {
  const float speed = length(v);
  if (speed < kEps) return h;
  const glm::vec3 t = v / speed;
  const float c = glm::dot(h, t);
  if (c >= ctx.turnCos) return t;
  const glm::vec3 across = t - c * h;
  const float acrossLen = length(across);
  glm::vec3 u;
  if (acrossLen >= kEps) {
    u = across / acrossLen;
  } else {
    const glm::vec3 side(-h.z, 0.0f, h.x);
    const float sideLen = length(side);
    u = sideLen < kEps ? glm::vec3(1.0f, 0.0f, 0.0f) : side / sideLen;
  }
  const glm::vec3 turned = ctx.turnCos * h + ctx.turnSin * u;
  return turned / length(turned);
}

glm::vec3 weightedForce(const StepContext& ctx, const BoidView& self, const Forces& f) {
  const ModelParams& p = *ctx.params;
  const Weights& w = p.weights;
  glm::vec3 force = w.separation * f.separation + w.alignment * f.alignment + w.cohesion * f.cohesion +
                    w.avoidance * f.avoidance + w.bounds * f.bounds + w.goal * f.goal + w.flee * f.flee +
                    w.cruise * f.cruise + w.walls * f.walls;
  if (groupRole(ctx, self.group) != GroupRole::Flock) force += ctx.steering[3 * self.group + 2].x * f.pursuit;
  force += w.roost * f.roost;
  force += w.height * f.height;
  if (p.dims == 2) force.y = 0.0f;
  return force;
}

BoidUpdate integrate(const StepContext& ctx, const BoidView& self, const Forces& f) {
  return integrateForce(ctx, self, weightedForce(ctx, self, f));
}

namespace {

// x shortened to at most `most`.
glm::vec3 clampLength(glm::vec3 x, float most) {
  const float len = length(x);
  return len > most ? x * (most / len) : x;
}

// Step 12's speed limits: v clamped to maxSpeed, raised to minSpeed, along the heading when ~0.
glm::vec3 limitSpeed(const BoidView& self, glm::vec3 v, float maxSpeed, float minSpeed) {
  const float speed = length(v);
  if (speed > maxSpeed) {
    v *= maxSpeed / speed;
  } else if (speed < kEps) {
    v = self.heading * minSpeed;
  } else if (speed < minSpeed) {
    v *= minSpeed / speed;
  }
  return v;
}

// Steps 14 and 15 for the move to pos at velocity v with the stored heading h (0 where none).
BoidUpdate boundMove(const StepContext& ctx, const BoidView& self, glm::vec3 pos, glm::vec3 v, glm::vec3 h) {
  const ModelParams& p = *ctx.params;
  for (int k = 0; k < 3; ++k) {
    if (k == 1 && p.dims == 2) continue;
    const float lo = p.worldMin[k], hi = p.worldMax[k];
    if (p.boundary == Boundary::Wrap) {
      pos[k] = wrapCoordinate(pos[k], lo, hi);
    } else {
      // The heading turns inward with the velocity (it is 0, unused, without a turn rate).
      if (pos[k] < lo) {
        pos[k] = lo;
        v[k] = std::abs(v[k]);
        h[k] = std::abs(h[k]);
      } else if (pos[k] > hi) {
        pos[k] = hi;
        v[k] = -std::abs(v[k]);
        h[k] = -std::abs(h[k]);
      }
    }
  }
  // 15. Walls are solid: a move from a free cell into a wall cell keeps only its x part, else only
  // its z part (sliding along the wall, the velocity across it reflected), else stays put and
  // turns round. A boid already inside a wall cell moves freely; step 6b pushes it out.
  if (ctx.walls != nullptr && ctx.walls->blockedAt(pos) && !ctx.walls->blockedAt(self.position)) {
    const glm::vec3 alongX(pos.x, pos.y, self.position.z), alongZ(self.position.x, pos.y, pos.z);
    if (!ctx.walls->blockedAt(alongX)) {
      pos = alongX;
      v.z = -v.z;
      h.z = -h.z;
    } else if (!ctx.walls->blockedAt(alongZ)) {
      pos = alongZ;
      v.x = -v.x;
      h.x = -h.x;
    } else {
      pos = self.position;
      v = -v;
      h = -h;
    }
  }
  return {pos, v, h};
}

}  // namespace

BoidUpdate integrateForce(const StepContext& ctx, const BoidView& self, glm::vec3 force) {
  const ModelParams& p = *ctx.params;
  // The group's thrust scales both limits (exactly 1 leaves them as they are).
  const float thrust = groupThrust(ctx, self.group);
  force = clampLength(force, p.maxForce * thrust);
  const glm::vec3 v =
      limitSpeed(self, self.velocity + force / p.mass * p.dt, p.maxSpeed * thrust, p.minSpeed);
  // 13. With a turn rate the boid moves along its turned heading at the velocity's speed.
  if (ctx.turning) {
    const glm::vec3 h = turnHeading(ctx, self.heading, v);
    return boundMove(ctx, self, self.position + h * (length(v) * p.dt), v, h);
  }
  return boundMove(ctx, self, self.position + v * p.dt, v, glm::vec3(0.0f));
}

BoidUpdate flyStarling(const StepContext& ctx, const BoidView& self, float bank, glm::vec3 force) {
  const ModelParams& p = *ctx.params;
  const StarlingBody& body = ctx.starling;
  const float thrust = groupThrust(ctx, self.group);
  const glm::vec3 steer = clampLength(force, p.maxForce * thrust) / p.mass;
  // Roll toward the bank the steering's sideways part asks, then fly with the lift so tilted.
  const StarlingFrame level = levelFrame(self.heading);
  const float nextBank = rollToward(body, bank, targetBank(body, lateralDemand(level, steer)));
  const StarlingFrame frame = bankedFrame(level, nextBank);
  const glm::vec3 a = starlingAcceleration(body, frame, glm::dot(self.velocity, self.velocity), steer);
  // No minimum speed: a slow bird loses its lift and dives until it flies again.
  const glm::vec3 v = limitSpeed(self, self.velocity + a * p.dt, p.maxSpeed * thrust, 0.0f);
  const float speed = length(v);
  BoidUpdate next =
      boundMove(ctx, self, self.position + v * p.dt, v, speed < kEps ? self.heading : v / speed);
  next.bank = nextBank;
  return next;
}

float labTurnPush(float full, glm::vec3 velocityHeading, glm::vec3 side, glm::vec3 u) {
  const float len = length(u);
  if (!(len > kEps)) return 0.0f;
  const glm::vec3 toward = u / len;
  return sideSign(glm::dot(toward, side)) * full * labTurnFraction(glm::dot(velocityHeading, toward));
}

float labPush(const StepContext& ctx, const BoidView& self, const NeighbourSums& sums) {
  const ModelParams& p = *ctx.params;
  const LabBody& body = ctx.lab;
  const glm::vec3 f = self.heading;
  const glm::vec3 side = labSide(f);
  float push = 0.0f;
  // Flocking: separation from every unit in view within Rs (5 L in the book's views), F Rs / |d|
  // each; cohesion towards the flockmates' centre and alignment with their mean heading.
  if (groupFlocking(ctx, self.group)) {
    push += body.steering * p.separationRadius * sums.lateralSeparation;
    if (sums.sameGroupCount > 0) {
      const float n = static_cast<float>(sums.sameGroupCount);
      const glm::vec3 moving = heading(self.velocity);
      push += labTurnPush(body.steering, moving, side, sums.offsetSum / n);
      push += labTurnPush(body.steering, moving, side, sums.headingSum / n);
    }
  }
  // Obstacles whose centre lies ahead within the look-ahead (25 L) and whose radius reaches the
  // heading's line: F 25 L / |a| away from their side.
  const float lookahead = kLabLookaheadLengths * p.bodyLength;
  for (const glm::vec4& o : ctx.obstacles) {
    const glm::vec3 a = offset(ctx, self.position, glm::vec3(o));
    const float t = glm::dot(a, f);
    if (!(t > 0.0f && t < lookahead)) continue;
    if (!(length(a - t * f) < o.w)) continue;
    push += awaySign(glm::dot(a, side)) * body.steering * lookahead / length(a);
  }
  // Pursuit (step 8c's roles and leaders): the full push towards the side of the aim point.
  const GroupRole role = groupRole(ctx, self.group);
  if (role != GroupRole::Flock && !(groupFlocking(ctx, self.group) && sums.frontOccupied)) {
    const glm::vec4 target = ctx.steering[3 * self.group];
    const glm::vec4 targetVelocity = ctx.steering[3 * self.group + 1];
    const glm::vec3 aim =
        pursuitAim(role, offset(ctx, self.position, glm::vec3(target)), glm::vec3(targetVelocity),
                   self.velocity, ctx.steering[3 * self.group + 2].z);
    const float len = length(aim);
    if (len > kEps)
      push += ctx.steering[3 * self.group + 2].x * sideSign(glm::dot(aim / len, side)) * body.steering;
  }
  return push;
}

LabUnit stepLabUnit(const StepContext& ctx, const BoidView& self, float spin, const NeighbourSums& sums) {
  const ModelParams& p = *ctx.params;
  LabUnit next = integrateLabUnit(ctx.lab, {self.position, self.velocity, self.heading, spin},
                                  labPush(ctx, self, sums), groupThrust(ctx, self.group), p.dt);
  next.position = wrapIntoWorld(p, next.position);
  return next;
}

}  // namespace murmur::sim
