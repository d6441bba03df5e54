#pragma once
// The rules that keep a step's arithmetic finite (docs/model.md, Stability): each a term of the
// scene's parameters and the most it may be. The scene loader refuses a scene whose term passes its
// limit, naming the term's key; a flock that diverges anyway is blamed on the term nearest its limit.
#include <string>
#include <vector>

#include "sim/params.hpp"
#include "sim/scene.hpp"

namespace murmur::sim {

struct StabilityTerm {
  std::string key;   // the scene key a refusal names
  std::string what;  // what the value is, as a phrase ("max_force x dt x sqrt(thrust) / max_speed")
  double value = 0.0;
  double limit = 0.0;   // refused above it
  std::string refusal;  // the refusal's message, value and limit included
  double load() const { return value / limit; }
};

// Every term for `scene`, in the order they are checked: the force bound and max_force / mass
// (float32 headroom), then for the lab's units the drag's and the push's stability.
std::vector<StabilityTerm> stabilityTerms(const Scene& scene);

// The fastest a lab unit may start (an --init velocity): half the speed above which one step of the
// quadratic drag, stepped by explicit Euler, overshoots to a larger speed the other way
// (docs/model.md, Stability).
double labStableSpeed(const ModelParams& model);

// The term nearest its limit (the largest load()): the key likeliest to blame for a divergence.
StabilityTerm likeliestCause(const Scene& scene);

}  // namespace murmur::sim
