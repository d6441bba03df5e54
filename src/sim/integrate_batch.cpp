// Compiled once per instruction set Highway targets (foreach_target re-includes this file).
#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "sim/integrate_batch.cpp"
#include <hwy/foreach_target.h>  // IWYU pragma: keep
#include <hwy/highway.h>

#include "sim/integrate_batch.hpp"
#include "sim/simd_lanes.hpp"

#include <algorithm>
#include <initializer_list>

HWY_BEFORE_NAMESPACE();
namespace murmur::sim::HWY_NAMESPACE {

// A vec3 of lanes. Scalable vectors (SVE, RVV) cannot be members, so only where they are sized.
#if !HWY_HAVE_SCALABLE
struct Vec3Lanes {
  FloatVec x, y, z;
};

// The boids' inputs, one array of lanes per float, filled boid by boid: the boids themselves, and
// either step 11's weighted forces (integrateBatch) or the sums they are made from (stepBatch).
struct BatchLanes {
  HWY_ALIGN float position[3][kMaxLanes];
  HWY_ALIGN float velocity[3][kMaxLanes];
  HWY_ALIGN float heading[3][kMaxLanes];
  HWY_ALIGN float thrust[kMaxLanes];
  HWY_ALIGN float force[3][kMaxLanes];  // weightedForce
  HWY_ALIGN float separation[3][kMaxLanes];
  HWY_ALIGN float headingSum[3][kMaxLanes];
  HWY_ALIGN float offsetSum[3][kMaxLanes];
  HWY_ALIGN float sameGroupCount[kMaxLanes];
  HWY_ALIGN float separating[kMaxLanes];  // 1 or 0
};

HWY_INLINE Vec3Lanes load3(const float (&axes)[3][kMaxLanes]) {
  const FloatTag df;
  return {hn::Load(df, axes[0]), hn::Load(df, axes[1]), hn::Load(df, axes[2])};
}

HWY_INLINE FloatVec dotSelf(const Vec3Lanes& a) {
  return dotLanes(a.x, a.y, a.z, a.x, a.y, a.z);
}

HWY_INLINE Vec3Lanes scale(const Vec3Lanes& a, FloatVec s) {
  return {hn::Mul(a.x, s), hn::Mul(a.y, s), hn::Mul(a.z, s)};
}

HWY_INLINE Vec3Lanes divide(const Vec3Lanes& a, FloatVec s) {
  return {hn::Div(a.x, s), hn::Div(a.y, s), hn::Div(a.z, s)};
}

HWY_INLINE Vec3Lanes add(const Vec3Lanes& a, const Vec3Lanes& b) {
  return {hn::Add(a.x, b.x), hn::Add(a.y, b.y), hn::Add(a.z, b.z)};
}

HWY_INLINE Vec3Lanes sub(const Vec3Lanes& a, const Vec3Lanes& b) {
  return {hn::Sub(a.x, b.x), hn::Sub(a.y, b.y), hn::Sub(a.z, b.z)};
}

HWY_INLINE Vec3Lanes select(hn::Mask<FloatTag> m, const Vec3Lanes& yes, const Vec3Lanes& no) {
  return {hn::IfThenElse(m, yes.x, no.x), hn::IfThenElse(m, yes.y, no.y), hn::IfThenElse(m, yes.z, no.z)};
}

HWY_INLINE Vec3Lanes zeroUnless(hn::Mask<FloatTag> m, const Vec3Lanes& a) {
  return {hn::IfThenElseZero(m, a.x), hn::IfThenElseZero(m, a.y), hn::IfThenElseZero(m, a.z)};
}

// Zeroes the given rows of lanes: the lanes past a batch (a vector store a row; a memset of the
// struct cost more).
HWY_INLINE void zeroRows(std::initializer_list<float*> rows) {
  for (float* row : rows) hn::Store(hn::Zero(FloatTag()), FloatTag(), row);
}

// Boids [first, first + n) of the batch into their lanes (lanes past n: 0).
HWY_INLINE void fillSelves(const StepContext& ctx, const BoidView* selves, std::size_t n, BatchLanes& in) {
  if (n < hn::Lanes(FloatTag()))
    zeroRows({in.position[0], in.position[1], in.position[2], in.velocity[0], in.velocity[1], in.velocity[2],
              in.heading[0], in.heading[1], in.heading[2], in.thrust});
  for (std::size_t b = 0; b < n; ++b) {
    const BoidView& self = selves[b];
    for (int a = 0; a < 3; ++a) {
      in.position[a][b] = self.position[a];
      in.velocity[a][b] = self.velocity[a];
      in.heading[a][b] = self.heading[a];
    }
    in.thrust[b] = groupThrust(ctx, self.group);
  }
}

// containmentPush on one axis of every lane: 0, plus the push from below, minus the one from above.
HWY_INLINE FloatVec containmentLanes(FloatVec x, float lo, float hi, float margin, float maxSpeed) {
  const FloatTag df;
  const FloatVec speed = hn::Set(df, maxSpeed), width = hn::Set(df, margin);
  const FloatVec inner = hn::Set(df, lo + margin), outer = hn::Set(df, hi - margin);
  FloatVec force = hn::Zero(df);
  const FloatVec fromBelow = hn::Div(hn::Mul(speed, hn::Sub(inner, x)), width);
  force = hn::IfThenElse(hn::Lt(x, inner), hn::Add(force, fromBelow), force);
  const FloatVec fromAbove = hn::Div(hn::Mul(speed, hn::Add(hn::Sub(x, hn::Set(df, hi)), width)), width);
  return hn::IfThenElse(hn::Gt(x, outer), hn::Sub(force, fromAbove), force);
}

// Steps 7-11 on every lane: weightedForce(computeForces) from the sums, for a step that
// stepBatchServes.
HWY_INLINE Vec3Lanes weightedForceLanes(const StepContext& ctx, const BatchLanes& in) {
  const FloatTag df;
  const ModelParams& p = *ctx.params;
  const Weights& w = p.weights;
  const auto set = [&](float s) { return hn::Set(df, s); };
  const FloatVec maxSpeed = set(p.maxSpeed), zero = hn::Zero(df);
  const Vec3Lanes none{zero, zero, zero};
  const Vec3Lanes velocity = load3(in.velocity), heading = load3(in.heading);
  const FloatVec sameGroup = hn::Load(df, in.sameGroupCount);
  const auto flockmates = hn::Ne(sameGroup, zero);
  // Step 7: separation, alignment and cohesion (separationForce, alignmentForce, cohesionForce).
  const Vec3Lanes separation = scale(load3(in.separation), set(p.maxSpeed * p.separationRadius));
  const Vec3Lanes alignment =
      zeroUnless(flockmates, scale(sub(divide(load3(in.headingSum), sameGroup), heading), maxSpeed));
  const Vec3Lanes centre = divide(load3(in.offsetSum), sameGroup);
  const FloatVec centreLen = hn::Sqrt(dotSelf(centre));
  auto coheres = hn::And(flockmates, hn::Gt(centreLen, set(kEps)));
  if (p.cohesionOnlyWithoutSeparation) coheres = hn::And(coheres, hn::Eq(hn::Load(df, in.separating), zero));
  const Vec3Lanes cohesion = zeroUnless(coheres, sub(scale(divide(centre, centreLen), maxSpeed), velocity));
  // Step 9: containment (containmentForce), then the cruise (cruiseForce).
  Vec3Lanes bounds = none;
  if (p.boundary == Boundary::Contain && p.margin > 0.0f) {
    const Vec3Lanes position = load3(in.position);
    const FloatVec* positionAxes[3] = {&position.x, &position.y, &position.z};
    FloatVec* boundsAxes[3] = {&bounds.x, &bounds.y, &bounds.z};
    for (int k = 0; k < 3; ++k)
      if (!(k == 1 && p.dims == 2))
        *boundsAxes[k] =
            containmentLanes(*positionAxes[k], p.worldMin[k], p.worldMax[k], p.margin, p.maxSpeed);
  }
  const Vec3Lanes cruise = scale(heading, hn::Sub(set(p.cruiseSpeed), hn::Sqrt(dotSelf(velocity))));
  // Step 11, weightedForce's sum term by term in its order, the terms stepBatchServes rules out
  // as 0 (weight times +0, whose sign the weight's gives) included.
  Vec3Lanes force = add(scale(separation, set(w.separation)), scale(alignment, set(w.alignment)));
  force = add(force, scale(cohesion, set(w.cohesion)));
  force = add(force, scale(none, set(w.avoidance)));
  force = add(force, scale(bounds, set(w.bounds)));
  force = add(force, scale(none, set(w.goal)));
  force = add(force, scale(none, set(w.flee)));
  force = add(force, scale(cruise, set(w.cruise)));
  force = add(force, scale(none, set(w.walls)));
  force = add(force, scale(none, set(w.roost)));
  force = add(force, scale(none, set(w.height)));
  if (p.dims == 2) force.y = zero;
  return force;
}

// Steps 12-14 on every lane (integrateForce), the first n lanes' positions and velocities out.
HWY_INLINE void integrateLanes(const StepContext& ctx, const BatchLanes& in, Vec3Lanes force, std::size_t n,
                               glm::vec3* positions, glm::vec3* velocities) {
  const FloatTag df;
  const ModelParams& p = *ctx.params;
  const auto set = [&](float s) { return hn::Set(df, s); };
  // 12. The force clamp, with the group's thrust.
  const FloatVec thrust = hn::Load(df, in.thrust);
  const FloatVec maxForce = hn::Mul(set(p.maxForce), thrust), maxSpeed = hn::Mul(set(p.maxSpeed), thrust);
  const FloatVec forceLen = hn::Sqrt(dotSelf(force));
  force = select(hn::Gt(forceLen, maxForce), scale(force, hn::Div(maxForce, forceLen)), force);
  // 13. The velocity and its limits, then the move.
  const Vec3Lanes velocity = load3(in.velocity);
  const FloatVec mass = set(p.mass), dt = set(p.dt), minSpeed = set(p.minSpeed);
  Vec3Lanes v{hn::Add(velocity.x, hn::Mul(hn::Div(force.x, mass), dt)),
              hn::Add(velocity.y, hn::Mul(hn::Div(force.y, mass), dt)),
              hn::Add(velocity.z, hn::Mul(hn::Div(force.z, mass), dt))};
  const FloatVec speed = hn::Sqrt(dotSelf(v));
  const Vec3Lanes slow = select(hn::Lt(speed, minSpeed), scale(v, hn::Div(minSpeed, speed)), v);
  const Vec3Lanes still = select(hn::Lt(speed, set(kEps)), scale(load3(in.heading), minSpeed), slow);
  v = select(hn::Gt(speed, maxSpeed), scale(v, hn::Div(maxSpeed, speed)), still);
  const Vec3Lanes position = load3(in.position);
  Vec3Lanes pos{hn::Add(position.x, hn::Mul(v.x, dt)), hn::Add(position.y, hn::Mul(v.y, dt)),
                hn::Add(position.z, hn::Mul(v.z, dt))};
  // 14. The boundary, axis by axis (wrapCoordinate, or the walls of a contained world).
  FloatVec* posAxes[3] = {&pos.x, &pos.y, &pos.z};
  FloatVec* velocityAxes[3] = {&v.x, &v.y, &v.z};
  for (int k = 0; k < 3; ++k) {
    if (k == 1 && p.dims == 2) continue;
    const float loScalar = p.worldMin[k], hiScalar = p.worldMax[k];
    const FloatVec lo = set(loScalar), hi = set(hiScalar);
    FloatVec& x = *posAxes[k];
    if (p.boundary == Boundary::Wrap) {
      const FloatVec size = set(hiScalar - loScalar);
      x = hn::Sub(x, hn::Mul(size, hn::Floor(hn::Div(hn::Sub(x, lo), size))));
      x = hn::IfThenElse(hn::Or(hn::Ge(x, hi), hn::Lt(x, lo)), lo, x);
    } else {
      FloatVec& u = *velocityAxes[k];
      const auto below = hn::Lt(x, lo), above = hn::Gt(x, hi);
      x = hn::IfThenElse(below, lo, hn::IfThenElse(above, hi, x));
      u = hn::IfThenElse(below, hn::Abs(u), hn::IfThenElse(above, hn::Neg(hn::Abs(u)), u));
    }
  }
  HWY_ALIGN float out[6][kMaxLanes];
  hn::Store(pos.x, df, out[0]);
  hn::Store(pos.y, df, out[1]);
  hn::Store(pos.z, df, out[2]);
  hn::Store(v.x, df, out[3]);
  hn::Store(v.y, df, out[4]);
  hn::Store(v.z, df, out[5]);
  for (std::size_t b = 0; b < n; ++b) {
    positions[b] = {out[0][b], out[1][b], out[2][b]};
    velocities[b] = {out[3][b], out[4][b], out[5][b]};
  }
}

void IntegrateBatch(const StepContext& ctx, const BoidView* selves, const glm::vec3* forces,
                    std::size_t count, glm::vec3* positions, glm::vec3* velocities) {
  const std::size_t lanes = hn::Lanes(FloatTag());
  BatchLanes in;
  for (std::size_t first = 0; first < count; first += lanes) {
    const std::size_t n = std::min(lanes, count - first);
    fillSelves(ctx, selves + first, n, in);
    if (n < lanes) zeroRows({in.force[0], in.force[1], in.force[2]});
    for (std::size_t b = 0; b < n; ++b)
      for (int a = 0; a < 3; ++a) in.force[a][b] = forces[first + b][a];
    integrateLanes(ctx, in, load3(in.force), n, positions + first, velocities + first);
  }
}

void StepBatch(const StepContext& ctx, const BoidView* selves, const NeighbourSums* sums, std::size_t count,
               glm::vec3* positions, glm::vec3* velocities) {
  const std::size_t lanes = hn::Lanes(FloatTag());
  BatchLanes in;
  for (std::size_t first = 0; first < count; first += lanes) {
    const std::size_t n = std::min(lanes, count - first);
    fillSelves(ctx, selves + first, n, in);
    if (n < lanes)
      zeroRows({in.separation[0], in.separation[1], in.separation[2], in.headingSum[0], in.headingSum[1],
                in.headingSum[2], in.offsetSum[0], in.offsetSum[1], in.offsetSum[2], in.sameGroupCount,
                in.separating});
    for (std::size_t b = 0; b < n; ++b) {
      const NeighbourSums& sum = sums[first + b];
      for (int a = 0; a < 3; ++a) {
        in.separation[a][b] = sum.separation[a];
        in.headingSum[a][b] = sum.headingSum[a];
        in.offsetSum[a][b] = sum.offsetSum[a];
      }
      in.sameGroupCount[b] = static_cast<float>(sum.sameGroupCount);
      in.separating[b] = sum.separating ? 1.0f : 0.0f;
    }
    integrateLanes(ctx, in, weightedForceLanes(ctx, in), n, positions + first, velocities + first);
  }
}
#else
// Scalable vectors: the scalar functions, boid by boid (the weighted force is integrateForce's step
// 11 already).
void IntegrateBatch(const StepContext& ctx, const BoidView* selves, const glm::vec3* forces,
                    std::size_t count, glm::vec3* positions, glm::vec3* velocities) {
  for (std::size_t b = 0; b < count; ++b) {
    const BoidUpdate next = integrateForce(ctx, selves[b], forces[b]);
    positions[b] = next.position;
    velocities[b] = next.velocity;
  }
}

void StepBatch(const StepContext& ctx, const BoidView* selves, const NeighbourSums* sums, std::size_t count,
               glm::vec3* positions, glm::vec3* velocities) {
  for (std::size_t b = 0; b < count; ++b) {
    const BoidUpdate next = integrate(ctx, selves[b], computeForces(ctx, selves[b], sums[b]));
    positions[b] = next.position;
    velocities[b] = next.velocity;
  }
}
#endif

}  // namespace murmur::sim::HWY_NAMESPACE
HWY_AFTER_NAMESPACE();

#if HWY_ONCE
namespace murmur::sim {

HWY_EXPORT(IntegrateBatch);
HWY_EXPORT(StepBatch);

bool stepBatchServes(const StepContext& ctx) {
  const ModelParams& p = *ctx.params;
  if (!integrateBatchServes(ctx) || !ctx.obstacles.empty() || !ctx.predators.empty() || p.roostPulls() ||
      ctx.anyGoal)
    return false;
  for (std::uint32_t g = 0; 3 * std::size_t(g) + 2 < ctx.steering.size(); ++g)
    if (groupRole(ctx, g) != GroupRole::Flock || !groupFlocking(ctx, g)) return false;
  return true;
}

void stepBatch(const StepContext& ctx, const BoidView* selves, const NeighbourSums* sums, std::size_t count,
               glm::vec3* positions, glm::vec3* velocities) {
  HWY_DYNAMIC_DISPATCH(StepBatch)(ctx, selves, sums, count, positions, velocities);
}

void integrateBatch(const StepContext& ctx, const BoidView* selves, const glm::vec3* forces,
                    std::size_t count, glm::vec3* positions, glm::vec3* velocities) {
  HWY_DYNAMIC_DISPATCH(IntegrateBatch)(ctx, selves, forces, count, positions, velocities);
}

}  // namespace murmur::sim
#endif  // HWY_ONCE
