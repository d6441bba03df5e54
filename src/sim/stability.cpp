#include "sim/stability.hpp"

#include <algorithm>
#include <cmath>
#include <utility>

#include <fmt/format.h>

#include "sim/scene_loader.hpp"

namespace murmur::sim {
namespace {

constexpr double kLabDragLimit = 0.5;  // the drag's step factor: rings above 0.5, diverges above 1
constexpr double kLabPushLimit = 1.0;  // half the speed at which one drag step overshoots

// The largest thrust and pursuit weight of the scene's groups (1 and 0 without [[groups]]).
std::pair<double, double> groupExtremes(const Scene& scene) {
  double thrust = 1.0, weight = 0.0;
  for (const GroupSpec& spec : scene.groupSpecs) {
    thrust = std::max(thrust, double(spec.steering.thrust));
    weight = std::max(weight, double(spec.steering.weight));
  }
  return {thrust, weight};
}

// Of dt, max_force and max_speed, the key furthest from its default the way that destabilises.
std::string labKey(const ModelParams& m) {
  const ModelParams defaults;
  const std::pair<double, const char*> shares[] = {
      {double(m.dt) / double(defaults.dt), "sim.dt"},
      {double(m.maxForce) / double(defaults.maxForce), "boids.max_force"},
      {double(defaults.maxSpeed) / double(m.maxSpeed), "boids.max_speed"},
  };
  return std::max_element(std::begin(shares), std::end(shares))->second;
}

// The bound of the largest force the first step computes (each steering term is at most a few
// speeds long; separation adds up to max_speed * Rs / d_min per neighbour, every boid a neighbour at
// worst), named at the key that contributes most.
StabilityTerm forceBound(const Scene& scene) {
  const ModelParams& m = scene.model;
  const Weights& w = m.weights;
  // Velocities up to the larger of the speeds a step aims for and those a state CSV may hold.
  const double speed = std::max({double(m.maxSpeed), double(m.cruiseSpeed), std::sqrt(3.0) * kMaxMagnitude});
  // Inside the comfort distance separation is multiplied by comfort_multiplier (step 3).
  const double comfort = m.comfortDistance > 0.0f ? std::max(1.0, double(m.comfortMultiplier)) : 1.0;
  const double separation = double(w.separation) * double(m.maxSpeed) * double(m.separationRadius) /
                            double(m.minDistance) * double(std::max<std::uint32_t>(scene.count, 1)) * comfort;
  const std::pair<const char*, double> terms[] = {
      {"weights.separation", separation},
      {"weights.alignment", double(w.alignment) * 2.0 * speed},
      {"weights.cohesion", double(w.cohesion) * 2.0 * speed},
      {"weights.avoidance", double(w.avoidance) * 4.0 * speed},
      {"weights.bounds", double(w.bounds) * 2.0 * speed},
      {"weights.goal", double(w.goal) * 2.0 * speed},
      {"weights.flee",
       double(w.flee) * 2.0 * speed * double(std::max<std::size_t>(scene.predators.size(), 1))},
      {"weights.cruise", double(w.cruise) * 2.0 * speed},
      {"weights.walls", double(w.walls) * 4.0 * speed},
      {"weights.roost", double(w.roost) * speed},
  };
  double total = 0.0;
  const std::pair<const char*, double>* largest = &terms[0];
  for (const auto& term : terms) {
    total += term.second;
    if (term.second > largest->second) largest = &term;
  }
  return {
      largest->first, "the forces a step could reach", total, kMaxForceBound,
      fmt::format("the forces of a step could reach {:.3g} (weights x speeds; separation also x Rs / "
                  "perception.min_distance x boid count), over the float32-safe {:g} (docs/model.md, Limits)",
                  total, kMaxForceBound)};
}

}  // namespace

double labStableSpeed(const ModelParams& m) {
  return double(m.maxSpeed) * double(m.maxSpeed) / (double(m.maxForce) * double(m.dt));
}

std::vector<StabilityTerm> stabilityTerms(const Scene& scene) {
  const ModelParams& m = scene.model;
  std::vector<StabilityTerm> terms;
  terms.push_back(forceBound(scene));
  const double acceleration = double(m.maxForce) / double(m.mass);
  terms.push_back(
      {"boids.mass", "max_force / mass", acceleration, kMaxForceBound,
       fmt::format("max_force / mass is {:.3g}, over the float32-safe {:g} (docs/model.md, Limits)",
                   acceleration, kMaxForceBound)});
  if (m.unitModel != UnitModel::Lab) return terms;

  const auto [thrust, weight] = groupExtremes(scene);
  const double force = double(m.maxForce), speed = double(m.maxSpeed), dt = double(m.dt);
  const std::string key = labKey(m);
  // Linearised at the cruise speed max_speed sqrt(thrust), the drag's Euler step multiplies a
  // speed's error by 1 - 2 max_force sqrt(thrust) dt / max_speed.
  const double drag = force * std::sqrt(thrust) * dt / speed;
  terms.push_back(
      {key, "max_force x dt x sqrt(thrust) / max_speed", drag, kLabDragLimit,
       fmt::format("max_force x dt x sqrt(thrust) / max_speed is {:.3g}, over {:g}: the lab's drag, "
                   "stepped by explicit Euler, rings above 0.5 and diverges above 1 (docs/model.md, "
                   "Stability); lower sim.dt or boids.max_force, or raise boids.max_speed",
                   drag, kLabDragLimit)});
  // The speed one step can give a unit at cruise: its strongest push (one neighbour at d_min, or a
  // pursuit at full weight) for dt. One drag step overshoots past twice labStableSpeed.
  const double push =
      double(m.labSteering) * force * std::max(double(m.separationRadius) / double(m.minDistance), weight);
  const double reached = speed * std::sqrt(thrust) + push * dt;
  const double overshoot = reached / labStableSpeed(m);
  terms.push_back(
      {key, "the speed one step can reach over the drag's stable speed", overshoot, kLabPushLimit,
       fmt::format("one step's strongest push (model.steering x max_force x perception.separation_radius "
                   "/ perception.min_distance) can reach {:.3g} units/s, {:.3g} x the lab's stable speed "
                   "of {:.3g} (max_speed^2 / (max_force x dt): at twice it one step of the drag, stepped "
                   "by explicit Euler, overshoots; docs/model.md, Stability); lower sim.dt, "
                   "boids.max_force or model.steering",
                   reached, overshoot, labStableSpeed(m))});
  return terms;
}

StabilityTerm likeliestCause(const Scene& scene) {
  std::vector<StabilityTerm> terms = stabilityTerms(scene);
  return std::move(
      *std::max_element(terms.begin(), terms.end(),
                        [](const StabilityTerm& a, const StabilityTerm& b) { return a.load() < b.load(); }));
}

}  // namespace murmur::sim
