#pragma once
// The rules of one model step (docs/model.md), as pure functions shared by the naive and the grid
// CPU searches, and mirrored line by line in shaders/common/Rules.glsl. A step for boid i is:
//   sums = fold accumulateNeighbour over every j != i     (the neighbour search differs per backend)
//   forces = computeForces(context, self, sums)
//   result = integrate(context, self, forces)
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <span>
#include <vector>

#include <glm/geometric.hpp>
#include <glm/vec3.hpp>
#include <glm/vec4.hpp>

#include "sim/flock.hpp"
#include "sim/lab_model.hpp"
#include "sim/params.hpp"
#include "sim/starling_model.hpp"

namespace murmur::sim {

inline constexpr float kEps = 1e-6f;
inline constexpr float kCos45 = 0.70710678118654752f;

// Step constants derived once per step from the parameters and inputs.
struct StepContext {
  const ModelParams* params = nullptr;
  float radius2 = 0.0f;            // R^2: |d| < R is tested as d.d < R^2
  float leaderRadius2 = 0.0f;      // RL^2: the leader test's reach (step 8)
  float searchRadius2 = 0.0f;      // max(R, RL)^2: candidates farther than this are skipped at once
  float separationRadius2 = 0.0f;  // Rs^2
  float comfortDistance2 = 0.0f;   // the comfort distance squared: 0 leaves separation as it is
  // boids.turn_rate (docs/model.md, step 13): the heading is state and turns at most by the angle
  // turnCos, turnSin describe (min(turn_rate dt, 180 degrees), computed in double once a step).
  bool turning = false;
  float turnCos = 1.0f;
  float turnSin = 0.0f;
  float cosHalfFov = -1.0f;
  bool limitedFov = false;        // fov < 360
  std::uint32_t topological = 0;  // K of topological neighbours; 0: the metric rule
  // The front cone is tested and the leader flags recorded: leadersUsed or StepInputs::recordLeaders.
  bool needFront = false;
  bool wrap = false;
  glm::vec3 worldSize{0.0f};
  std::span<const glm::vec4> obstacles;  // xyz centre (y = 0 in 2D), w radius
  std::span<const glm::vec4> goals;      // per group: xyz goal (y = 0 in 2D), w = 1 active, 0 none
  bool anyGoal = false;                  // some group's goal is active
  std::span<const glm::vec3> predators;  // y = 0 in 2D
  // Per group g, 3 vec4 (packInputs): [3g] target xyz, w role; [3g+1] target velocity xyz,
  // w thrust; [3g+2] x weight, y flocking (1 or 0), z the intercept horizon (s).
  std::span<const glm::vec4> steering;
  const WallGrid* walls = nullptr;  // map walls, or null
  glm::vec3 roostCenter{0.0f};      // wrapIntoWorld(params.roostCenter)
  bool labUnits = false;            // [model] kind = "lab": the book's units (stepLabUnit)
  LabBody lab;                      // their body's constants (labBody), with labUnits
  bool starlings = false;           // [model] kind = "starling": birds that bank (stepStarling)
  StarlingBody starling;            // their flight's constants (starlingBody), with starlings
};

// Flattened step inputs (the layout the GPU uploads too); owns the storage StepContext points at.
struct PackedInputs {
  std::vector<glm::vec4> obstacles;
  std::vector<glm::vec4> goals;
  std::vector<glm::vec3> predators;
  std::vector<glm::vec4> steering;
  const WallGrid* walls = nullptr;
  bool recordLeaders = false;  // leadersUsed or StepInputs::recordLeaders
};

// Whether the step steers by its emergent leaders (docs/model.md, step 8): goal mode "front" with a
// goal for one of the `groups`, or a flocking chase or intercept group (its leaders pursue).
bool leadersUsed(const ModelParams& params, const StepInputs& inputs, std::uint32_t groups);

// walls is shared with (not copied from) the inputs, which must outlive the packed form.
PackedInputs packInputs(const ModelParams& params, const StepInputs& inputs, std::uint32_t groups);
StepContext makeStepContext(const ModelParams& params, const PackedInputs& packed);

// f = norm(v), or (1,0,0) for a (near) zero velocity.
inline glm::vec3 heading(glm::vec3 v) {
  const float len = std::sqrt(glm::dot(v, v));
  return len < kEps ? glm::vec3(1.0f, 0.0f, 0.0f) : v / len;
}

// f_i of boid i of a state (docs/model.md, step 1): its stored heading while boids.turn_rate is on
// or the units are the lab's, else the velocity's.
inline glm::vec3 stateHeading(const FlockState& state, std::size_t i) {
  return state.heading.empty() ? heading(state.velocity[i]) : state.heading[i];
}

// Minimum-image offset: each component folded into [-size/2, size/2). Positions on a torus lie in
// [lo, hi), so |d| < size and one comparison each way decides the fold exactly (no rounding in the
// test, unlike d - size * floor(d / size + 0.5), which also costs a division per component).
inline float foldComponent(float d, float size) {
  const float half = 0.5f * size;
  return d >= half ? d - size : (d < -half ? d + size : d);
}
inline glm::vec3 minimumImage(glm::vec3 d, glm::vec3 size) {
  return {foldComponent(d.x, size.x), foldComponent(d.y, size.y), foldComponent(d.z, size.z)};
}

// x folded onto the torus [lo, hi): x - size floor((x - lo) / size), and lo where that rounds to hi
// (a coordinate a rounding below lo lands exactly on hi; on the torus that is lo).
inline float wrapCoordinate(float x, float lo, float hi) {
  const float size = hi - lo;
  x -= size * std::floor((x - lo) / size);
  return x >= hi || x < lo ? lo : x;
}
// A point folded into the world on every active axis when wrapping (unchanged when containing):
// obstacle centres, goals, targets and predators are packed so, which keeps every offset to them
// within (-size, size) on a wrapped axis, where minimumImage is exact.
glm::vec3 wrapIntoWorld(const ModelParams& params, glm::vec3 p);

// The offset d_ij = p_j - p_i the model uses (minimum image when wrapping).
inline glm::vec3 offset(const StepContext& ctx, glm::vec3 pi, glm::vec3 pj) {
  const glm::vec3 d = pj - pi;
  return ctx.wrap ? minimumImage(d, ctx.worldSize) : d;
}

// A candidate topological neighbour: ranked by squared distance, ties by id.
struct NearNeighbour {
  float distance2;
  std::uint32_t id;
  glm::vec3 offset;   // d_ij
  glm::vec3 heading;  // f_j
};

inline bool nearer(const NearNeighbour& a, const NearNeighbour& b) {
  return a.distance2 < b.distance2 || (a.distance2 == b.distance2 && a.id < b.id);
}

// What boid i gathers from its neighbours.
struct NeighbourSums {
  glm::vec3 separation{0.0f};        // sum over S_i of u_ij / max(|d_ij|, d_min)
  glm::vec3 headingSum{0.0f};        // sum over G_i of f_j
  glm::vec3 offsetSum{0.0f};         // sum over G_i of d_ij
  std::uint32_t sameGroupCount = 0;  // |G_i|
  bool separating = false;           // S_i is not empty (cohesion_only_without_separation)
  bool frontOccupied = false;        // a boid (any group) within RL lies in the 45-degree front cone
  // The lab's units only: the sum over S_i of the book's sideways separation, +-1 / max(|d_ij|,
  // d_min), away from the side d_ij lies on (awaySign).
  float lateralSeparation = 0.0f;
  // Topological neighbours only: the K nearest same-group candidates so far, nearest first (left
  // uninitialised past nearestCount: a metric step never touches them).
  std::uint32_t nearestCount = 0;
  NearNeighbour nearest[kMaxTopologicalNeighbours];
};

// A sorted insert into the k nearest so far (topological neighbours).
inline void offerNearest(std::uint32_t k, const NearNeighbour& candidate, NeighbourSums& sums) {
  std::uint32_t at = sums.nearestCount;
  while (at > 0 && nearer(candidate, sums.nearest[at - 1])) --at;
  if (at >= k) return;
  for (std::uint32_t r = std::min(sums.nearestCount, k - 1); r > at; --r)
    sums.nearest[r] = sums.nearest[r - 1];
  sums.nearest[at] = candidate;
  if (sums.nearestCount < k) ++sums.nearestCount;
}

// After the last candidate: with topological neighbours, G_i is the K nearest, summed nearest
// first (so the sums do not depend on the order the candidates came in); the metric rule summed
// them as they came and needs nothing here.
inline void finishNeighbours(const StepContext& ctx, NeighbourSums& sums) {
  if (ctx.topological == 0) return;
  for (std::uint32_t r = 0; r < sums.nearestCount; ++r) {
    sums.headingSum += sums.nearest[r].heading;
    sums.offsetSum += sums.nearest[r].offset;
  }
  sums.sameGroupCount = sums.nearestCount;
}

// Whether boid i is an emergent leader this step (docs/model.md, step 8): no other boid (any group)
// within the leader radius RL in its 45-degree front cone. Read from the sums the forces use, so
// recording it costs no extra pass over the neighbours; 0 when the step does not record leaders.
inline std::uint8_t leaderFlag(const StepContext& ctx, const NeighbourSums& sums) {
  return ctx.needFront && !sums.frontOccupied ? 1 : 0;
}

struct BoidView {
  glm::vec3 position;
  glm::vec3 velocity;
  glm::vec3 heading;  // heading(velocity)
  std::uint32_t id;
  std::uint32_t group;
};

// j's term of the separation sum: u_ij / max(|d_ij|, d_min), u_ij = -d_ij / |d_ij| (coincident
// boids part by id), times the comfort multiplier within the comfort distance. d2 = d.d, dist = its
// square root.
inline glm::vec3 separationPush(const StepContext& ctx, const BoidView& self, glm::vec3 d, float d2,
                                float dist, std::uint32_t idj) {
  const glm::vec3 away = dist < kEps ? glm::vec3(self.id < idj ? -1.0f : 1.0f, 0.0f, 0.0f) : -d / dist;
  glm::vec3 push = away / std::max(dist, ctx.params->minDistance);
  if (d2 < ctx.comfortDistance2) push *= ctx.params->comfortMultiplier;
  return push;
}

// Folds candidate j (offset d = d_ij, heading fj) into boid i's sums. The caller skips j == i, and
// calls finishNeighbours after the last candidate. Terms: which of j's terms it folds in: all of
// them, or, for the two passes of the topological rule's grid sweep (sim/neighbour_sweep), those
// that depend on no order (the first pass: the front cone and the offer to the K nearest) or all
// but the offer (the second, for the candidates the first offered).
enum class NeighbourTerms { All, AllButSeparation, AllButNearest };

template <NeighbourTerms Terms = NeighbourTerms::All>
inline void accumulateNeighbour(const StepContext& ctx, const BoidView& self, glm::vec3 d, glm::vec3 fj,
                                std::uint32_t idj, std::uint32_t groupj, NeighbourSums& sums) {
  const float d2 = glm::dot(d, d);
  if (!(d2 < ctx.searchRadius2)) return;
  const float dist = std::sqrt(d2);
  const bool coincident = dist < kEps;
  const bool sameGroup = groupj == self.group;
  const float along = glm::dot(self.heading, d);
  if (ctx.needFront && d2 < ctx.leaderRadius2 && (coincident || along >= dist * kCos45))
    sums.frontOccupied = true;
  if (!(d2 < ctx.radius2)) return;
  if (ctx.limitedFov && !coincident && along < dist * ctx.cosHalfFov) return;
  if (Terms != NeighbourTerms::AllButSeparation && d2 < ctx.separationRadius2) {
    sums.separation += separationPush(ctx, self, d, d2, dist, idj);
    sums.separating = true;
    if (ctx.labUnits)
      sums.lateralSeparation +=
          awaySign(glm::dot(d, labSide(self.heading))) / std::max(dist, ctx.params->minDistance);
  }
  if (sameGroup && ctx.topological != 0) {
    if (Terms != NeighbourTerms::AllButNearest) offerNearest(ctx.topological, {d2, idj, d, fj}, sums);
  } else if (sameGroup) {
    sums.headingSum += fj;
    sums.offsetSum += d;
    ++sums.sameGroupCount;
  }
}

// The forces, unweighted: model.md's eight, the wall term, the pursuit of chase and intercept
// groups and the roost.
struct Forces {
  glm::vec3 separation{0.0f};
  glm::vec3 alignment{0.0f};
  glm::vec3 cohesion{0.0f};
  glm::vec3 avoidance{0.0f};
  glm::vec3 bounds{0.0f};
  glm::vec3 goal{0.0f};
  glm::vec3 flee{0.0f};
  glm::vec3 cruise{0.0f};
  glm::vec3 walls{0.0f};
  glm::vec3 pursuit{0.0f};
  glm::vec3 roost{0.0f};
  glm::vec3 height{0.0f};
};

glm::vec3 separationForce(const StepContext& ctx, const NeighbourSums& sums);
glm::vec3 alignmentForce(const StepContext& ctx, const BoidView& self, const NeighbourSums& sums);
glm::vec3 cohesionForce(const StepContext& ctx, const BoidView& self, const NeighbourSums& sums);
glm::vec3 avoidanceForce(const StepContext& ctx, const BoidView& self);
glm::vec3 containmentForce(const StepContext& ctx, const BoidView& self);
// containmentForce's rule (docs/model.md, step 7) for any point: on each active axis (not y in 2D),
// within margin (> 0; else no push) of a side of [worldMin, worldMax], a push inward growing from 0
// to maxSpeed at the side. The agents (ai) steer back inside the world with it too.
glm::vec3 containmentPush(glm::vec3 position, glm::vec3 worldMin, glm::vec3 worldMax, float margin,
                          float maxSpeed, int dims);
glm::vec3 goalForce(const StepContext& ctx, const BoidView& self, const NeighbourSums& sums);
glm::vec3 fleeForce(const StepContext& ctx, const BoidView& self);
glm::vec3 cruiseForce(const StepContext& ctx, const BoidView& self);
// Step 8d: outside the roost's circle, a horizontal pull towards its centre growing from 0 at the
// circle to max_speed one radius further out; 0 inside, and with no roost.
glm::vec3 roostForce(const StepContext& ctx, const BoidView& self);
// Step 8d's height band: a vertical pull toward the roost's height, growing from 0 there to max_speed
// a band's height above or below it, and no more beyond; 0 with no band.
glm::vec3 heightForce(const StepContext& ctx, const BoidView& self);

// The group's role, thrust, weight and flocking switch, as packed for the step.
inline GroupRole groupRole(const StepContext& ctx, std::uint32_t group) {
  return static_cast<GroupRole>(static_cast<std::uint32_t>(ctx.steering[3 * group].w));
}
inline float groupThrust(const StepContext& ctx, std::uint32_t group) {
  return ctx.steering[3 * group + 1].w;
}
inline bool groupFlocking(const StepContext& ctx, std::uint32_t group) {
  return ctx.steering[3 * group + 2].y != 0.0f;
}
// Where a pursuing boid aims, as an offset from its position (step 8c): toTarget = Sr, the target's
// offset; chase: Sr; intercept: Sr + v_target t with t = |Sr| / |Vr| (Vr = v_target - v_boid)
// capped at maxSeconds (the group's max_intercept_seconds), and the cap itself when |Vr| < eps.
glm::vec3 pursuitAim(GroupRole role, glm::vec3 toTarget, glm::vec3 targetVelocity, glm::vec3 velocity,
                     float maxSeconds);
// Step 8c: a pursuing boid of a chase or intercept group steers at full (thrust-scaled) speed for
// its aim point; every other boid: 0.
glm::vec3 pursuitForce(const StepContext& ctx, const BoidView& self, const NeighbourSums& sums);
// Probes the wall grid ahead of the boid (docs/model.md, step 6b).
inline constexpr int kWallProbes = 8;
glm::vec3 wallForce(const StepContext& ctx, const BoidView& self);

Forces computeForces(const StepContext& ctx, const BoidView& self, const NeighbourSums& sums);

struct BoidUpdate {
  glm::vec3 position;
  glm::vec3 velocity;
  glm::vec3 heading{0.0f};  // the new stored heading when turning (StepContext::turning) or a starling
  float bank = 0.0f;        // a starling's new bank
};

// Step 13 with boids.turn_rate: the unit heading h turned toward the direction of the new velocity
// v by at most the step's angle, as a spherical interpolation (Slerp) would: onto it when within
// the angle, else h cos + u sin with u the unit part of v's direction across h (when v points
// straight back, (-h.z, 0, h.x), or (1, 0, 0) where that vanishes), normalised. h unchanged when
// |v| < eps. The step's cos and sin come from the host, so both backends compute no trigonometry.
glm::vec3 turnHeading(const StepContext& ctx, glm::vec3 h, glm::vec3 v);

// Step 11: the weighted sum of the forces (with the pursuit term for a pursuing group's boids),
// y = 0 in 2D.
glm::vec3 weightedForce(const StepContext& ctx, const BoidView& self, const Forces& forces);

// Steps 11-14: weighted sum, force clamp, velocity and position update, boundary.
BoidUpdate integrate(const StepContext& ctx, const BoidView& self, const Forces& forces);
// Steps 12-14 from step 11's weighted force.
BoidUpdate integrateForce(const StepContext& ctx, const BoidView& self, glm::vec3 force);

inline BoidUpdate stepBoid(const StepContext& ctx, const BoidView& self, const NeighbourSums& sums) {
  return integrate(ctx, self, computeForces(ctx, self, sums));
}

// ---- Starlings ([model] kind = "starling"; docs/model.md, The starlings' flight) ----
// Their step reads the same sums and forces as a boid's; step 11's weighted force, clamped, then
// steers the flight (sim/starling_model.hpp) in place of step 12: the bird rolls toward the bank
// its sideways part asks, and its new velocity is its acceleration's (lift, drag, thrust, gravity
// and the steering along its heading and up axis), clamped to max_speed but raised to no minimum;
// the stored heading is its direction. Steps 13-15 as a boid's.
BoidUpdate flyStarling(const StepContext& ctx, const BoidView& self, float bank, glm::vec3 force);
inline BoidUpdate stepStarling(const StepContext& ctx, const BoidView& self, float bank,
                               const NeighbourSums& sums) {
  return flyStarling(ctx, self, bank, weightedForce(ctx, self, computeForces(ctx, self, sums)));
}

// ---- The lab's units ([model] kind = "lab"; docs/model.md, The lab's units) ----
// Their step reads the same sums (self.heading is the unit's stored heading, the neighbours' f_j
// theirs), then replaces the forces and the integration: the book's steering gives one sideways push
// at the bow, and the rigid body moves (integrateLabUnit).

// The push towards direction u of a unit heading along f moving along v: the full push F, the side
// u lies on, scaled by the angle between v and u over pi (the book's cohesion and alignment); 0 for
// a (near) zero u.
float labTurnPush(float full, glm::vec3 velocityHeading, glm::vec3 side, glm::vec3 u);
// The sum of the book's pushes (separation, cohesion, alignment, obstacles ahead, pursuit), in the
// force units of LabBody::steering; + turns towards labSide(self.heading).
float labPush(const StepContext& ctx, const BoidView& self, const NeighbourSums& sums);

// The unit's next state, its position wrapped into the world.
LabUnit stepLabUnit(const StepContext& ctx, const BoidView& self, float spin, const NeighbourSums& sums);

}  // namespace murmur::sim
