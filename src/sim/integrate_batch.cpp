// Compiled once per instruction set Highway targets (foreach_target re-includes this file).
#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "sim/integrate_batch.cpp"
#include <hwy/foreach_target.h>  // IWYU pragma: keep
#include <hwy/highway.h>

#include "sim/integrate_batch.hpp"
#include "sim/simd_lanes.hpp"

#include <algorithm>

HWY_BEFORE_NAMESPACE();
namespace murmur::sim::HWY_NAMESPACE {

// A vec3 of lanes. Scalable vectors (SVE, RVV) cannot be members, so only where they are sized.
#if !HWY_HAVE_SCALABLE
struct Vec3Lanes {
  FloatVec x, y, z;
};

// The boids' inputs, one array of lanes per float, filled boid by boid.
struct BatchLanes {
  HWY_ALIGN float force[3][kMaxLanes];  // weightedForce
  HWY_ALIGN float position[3][kMaxLanes];
  HWY_ALIGN float velocity[3][kMaxLanes];
  HWY_ALIGN float heading[3][kMaxLanes];
  HWY_ALIGN float thrust[kMaxLanes];
};

HWY_INLINE Vec3Lanes load3(const float (&axes)[3][kMaxLanes]) {
  const FloatTag df;
  return {hn::Load(df, axes[0]), hn::Load(df, axes[1]), hn::Load(df, axes[2])};
}

HWY_INLINE FloatVec dotSelf(const Vec3Lanes& a) { return dotLanes(a.x, a.y, a.z, a.x, a.y, a.z); }

HWY_INLINE Vec3Lanes scale(const Vec3Lanes& a, FloatVec s) {
  return {hn::Mul(a.x, s), hn::Mul(a.y, s), hn::Mul(a.z, s)};
}

HWY_INLINE Vec3Lanes select(hn::Mask<FloatTag> m, const Vec3Lanes& yes, const Vec3Lanes& no) {
  return {hn::IfThenElse(m, yes.x, no.x), hn::IfThenElse(m, yes.y, no.y), hn::IfThenElse(m, yes.z, no.z)};
}

void IntegrateBatch(const StepContext& ctx, const BoidView* selves, const glm::vec3* forces,
                    std::size_t count, glm::vec3* positions, glm::vec3* velocities) {
  const FloatTag df;
  const std::size_t lanes = hn::Lanes(df);
  const ModelParams& p = *ctx.params;
  const auto set = [&](float s) { return hn::Set(df, s); };
  BatchLanes in;
  for (std::size_t first = 0; first < count; first += lanes) {
    const std::size_t n = std::min(lanes, count - first);
    // Lanes past the batch: 0, a vector store a row (a memset of the struct cost more).
    if (n < lanes) {
      for (float* row : {in.force[0], in.force[1], in.force[2], in.position[0], in.position[1],
                         in.position[2], in.velocity[0], in.velocity[1], in.velocity[2], in.heading[0],
                         in.heading[1], in.heading[2], in.thrust})
        hn::Store(hn::Zero(df), df, row);
    }
    for (std::size_t b = 0; b < n; ++b) {
      const BoidView& self = selves[first + b];
      for (int a = 0; a < 3; ++a) {
        in.force[a][b] = forces[first + b][a];
        in.position[a][b] = self.position[a];
        in.velocity[a][b] = self.velocity[a];
        in.heading[a][b] = self.heading[a];
      }
      in.thrust[b] = groupThrust(ctx, self.group);
    }
    Vec3Lanes force = load3(in.force);
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
      positions[first + b] = {out[0][b], out[1][b], out[2][b]};
      velocities[first + b] = {out[3][b], out[4][b], out[5][b]};
    }
  }
}
#else
// Scalable vectors: the scalar function, boid by boid (the weighted force is its step 11 already).
void IntegrateBatch(const StepContext& ctx, const BoidView* selves, const glm::vec3* forces,
                    std::size_t count, glm::vec3* positions, glm::vec3* velocities) {
  for (std::size_t b = 0; b < count; ++b) {
    const BoidUpdate next = integrateForce(ctx, selves[b], forces[b]);
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

void integrateBatch(const StepContext& ctx, const BoidView* selves, const glm::vec3* forces,
                    std::size_t count, glm::vec3* positions, glm::vec3* velocities) {
  HWY_DYNAMIC_DISPATCH(IntegrateBatch)(ctx, selves, forces, count, positions, velocities);
}

}  // namespace murmur::sim
#endif  // HWY_ONCE
