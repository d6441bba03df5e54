#pragma once
// The parameters of the flocking model (docs/model.md). The real-valued ones are rows of the
// parameter table (param_table.hpp: key, default, limits, unit, meaning); the world's shape and the
// named choices are read by the scene loader. Scene loading validates the limits; code may assume
// them.
#include <cstdint>

#include <glm/vec3.hpp>

namespace murmur::sim {

enum class Boundary : std::uint32_t { Contain = 0, Wrap = 1 };
enum class GoalMode : std::uint32_t { Front = 0, All = 1 };
// [model] kind: Murmur's boids (point masses steered by weighted forces), the flocking lab's units
// (rigid bodies steered by a sideways push at the bow; 2D worlds; sim/lab_model.hpp) or starlings
// (birds that bank into their turns, lift against gravity; 3D worlds; sim/starling_model.hpp).
enum class UnitModel : std::uint32_t { Boids = 0, Lab = 1, Starling = 2 };
// Whether such units have an attitude besides their heading (FlockState::attitude): a lab unit's
// spin, a starling's bank.
inline bool hasAttitude(UnitModel units) {
  return units != UnitModel::Boids;
}

// The largest K of topological neighbours ([perception] neighbours; the GPU keeps that many per
// thread). Starlings use 6 to 7 (Ballerini et al. 2008).
inline constexpr std::uint32_t kMaxTopologicalNeighbours = 16;

struct ModelParams;
struct Weights;
// The defaults of the real-valued parameters: their rows of the parameter table (param_table.hpp),
// which owns their keys, defaults, limits, units and meanings. A member that asks for the default
// of a member without a row throws std::logic_error the first time a ModelParams is made.
float modelDefault(float ModelParams::*member);
float modelDefault(float Weights::*member);

// [weights]: dimensionless multipliers of the nine forces.
struct Weights {
  float separation = modelDefault(&Weights::separation);
  float alignment = modelDefault(&Weights::alignment);
  float cohesion = modelDefault(&Weights::cohesion);
  float avoidance = modelDefault(&Weights::avoidance);
  float bounds = modelDefault(&Weights::bounds);
  float goal = modelDefault(&Weights::goal);
  float flee = modelDefault(&Weights::flee);
  float cruise = modelDefault(&Weights::cruise);
  float walls = modelDefault(&Weights::walls);    // the wall term (map worlds; docs/model.md step 6b)
  float roost = modelDefault(&Weights::roost);    // the roost's pull (docs/model.md step 8d)
  float height = modelDefault(&Weights::height);  // the pull of the roost's height band (step 8d)
};

struct ModelParams {
  // [world]
  int dims = 3;                                  // 2 (x-z plane, y = 0) or 3
  glm::vec3 worldMin{-100.0f, -50.0f, -100.0f};  // units; min < max on every active axis
  glm::vec3 worldMax{100.0f, 50.0f, 100.0f};
  Boundary boundary = Boundary::Contain;
  float margin = modelDefault(&ModelParams::margin);
  // [sim]
  float dt = modelDefault(&ModelParams::dt);
  // [boids]
  float mass = modelDefault(&ModelParams::mass);
  float maxSpeed = modelDefault(&ModelParams::maxSpeed);
  float minSpeed = modelDefault(&ModelParams::minSpeed);
  float maxForce = modelDefault(&ModelParams::maxForce);
  float radius = modelDefault(&ModelParams::radius);
  float bodyLength = modelDefault(&ModelParams::bodyLength);  // L: view modes are in body lengths
  // The Unity notes' gradual heading (docs/model.md steps 1 and 13): a stored heading turns toward
  // the velocity at most turnRate degrees a second and the boid moves along it at the velocity's
  // speed; 0, the default, is off (the heading is the velocity's direction, nothing is stored).
  float turnRate = modelDefault(&ModelParams::turnRate);
  // [perception]
  float perceptionRadius = modelDefault(&ModelParams::perceptionRadius);
  float separationRadius = modelDefault(&ModelParams::separationRadius);
  float fovDegrees = modelDefault(&ModelParams::fovDegrees);
  float minDistance = modelDefault(&ModelParams::minDistance);
  // The group-steering note's comfort distance (docs/model.md step 3): separation from a neighbour
  // closer than comfortDistance is multiplied by comfortMultiplier; 0, the default, is off.
  float comfortDistance = modelDefault(&ModelParams::comfortDistance);
  float comfortMultiplier = modelDefault(&ModelParams::comfortMultiplier);
  // Topological neighbours (docs/model.md, step 2): alignment and cohesion use the K nearest
  // same-group neighbours within R; 0 (the default) is the metric rule, every one within R.
  std::uint32_t topologicalNeighbours = 0;
  float leaderRadius = modelDefault(&ModelParams::leaderRadius);  // the leader test's reach (step 8)
  // [avoidance]
  float lookahead = modelDefault(&ModelParams::lookahead);
  // [goal]
  GoalMode goalMode = GoalMode::Front;
  float slowRadius = modelDefault(&ModelParams::slowRadius);
  // [flee]
  float fleeRadius = modelDefault(&ModelParams::fleeRadius);
  // [cruise]
  float cruiseSpeed = modelDefault(&ModelParams::cruiseSpeed);
  // [roost] (docs/model.md step 8d): a horizontal pull towards the circle of roostRadius around
  // roostCenter's x-z; radius 0, the default, is no roost. A vertical pull back into the band of
  // roostHeightBand above and below roostCenter's y; 0, the default, is none.
  glm::vec3 roostCenter{0.0f};
  float roostRadius = modelDefault(&ModelParams::roostRadius);
  float roostHeightBand = modelDefault(&ModelParams::roostHeightBand);
  Weights weights;
  // [model] (docs/model.md, The lab's units): the kind of unit, and the lab's body: its push as a
  // fraction of its thrust, its moment of inertia in m L^2, and the spin a full push holds (degrees/s).
  UnitModel unitModel = UnitModel::Boids;
  float labSteering = modelDefault(&ModelParams::labSteering);
  float labInertia = modelDefault(&ModelParams::labInertia);
  float labSpinRate = modelDefault(&ModelParams::labSpinRate);
  // And the starlings' flight (docs/model.md, The starlings' flight): the roll rate and the most bank
  // (degrees/s, degrees), the lift-to-drag ratio and gravity (units/s^2).
  float starlingRollRate = modelDefault(&ModelParams::starlingRollRate);
  float starlingMaxBank = modelDefault(&ModelParams::starlingMaxBank);
  float starlingLiftDrag = modelDefault(&ModelParams::starlingLiftDrag);
  float starlingGravity = modelDefault(&ModelParams::starlingGravity);
  // [weights] cohesion_only_without_separation, the Unity notes' cohesion "only where no separation
  // is happening" (docs/model.md step 5): a boid with any separation neighbour gets no cohesion.
  bool cohesionOnlyWithoutSeparation = false;

  glm::vec3 worldSize() const { return worldMax - worldMin; }
  // Whether each boid's heading is state (FlockState::heading): with boids.turn_rate and for the
  // lab's units and the starlings; else it is norm(velocity).
  bool storesHeading() const { return turnRate > 0.0f || unitModel != UnitModel::Boids; }
  // Whether each unit has an attitude besides its heading (FlockState::attitude).
  bool storesAttitude() const { return hasAttitude(unitModel); }
  // Whether the roost pulls at all: a circle or a height band (docs/model.md, step 8d).
  bool roostPulls() const { return roostRadius > 0.0f || roostHeightBand > 0.0f; }
  // How far the neighbour search reaches: R, or the leader radius where that is larger (the grid's
  // cells are at least this wide).
  float searchRadius() const { return perceptionRadius > leaderRadius ? perceptionRadius : leaderRadius; }
};

}  // namespace murmur::sim
