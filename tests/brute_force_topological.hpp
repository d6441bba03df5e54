#pragma once
// One model step with topological neighbours (docs/model.md, step 2) by brute force, apart from the
// backends' neighbour searches and their sorted insert: for each boid every other boid is tested,
// the same-group ones within R and in view are sorted by (squared distance, id) with std::sort, and
// the first K are summed nearest first. Separation is summed in id order, not the backends' cell
// order, so a step equals the backends' bit for bit only with weights.separation = 0 (a product by
// 0 is 0 whatever the sum); the neighbour selection, the tie rule and the summation order are what
// this checks.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <vector>

#include <glm/geometric.hpp>

#include "sim/flock.hpp"
#include "sim/params.hpp"
#include "sim/random.hpp"
#include "sim/rules.hpp"
#include "sim/scene.hpp"

namespace murmur::test {

inline sim::FlockState bruteForceTopologicalStep(const sim::ModelParams& params,
                                                 const sim::StepInputs& inputs,
                                                 const sim::FlockState& state) {
  const sim::PackedInputs packed = sim::packInputs(params, inputs, state.groups);
  const sim::StepContext ctx = sim::makeStepContext(params, packed);
  sim::FlockState next = state;
  next.leader.resize(state.size());
  struct Candidate {
    float distance2;
    std::uint32_t id;
    glm::vec3 offset;
  };
  for (std::uint32_t i = 0; i < state.size(); ++i) {
    const sim::BoidView self{state.position[i], state.velocity[i], sim::stateHeading(state, i), i,
                             state.group[i]};
    sim::NeighbourSums sums;
    std::vector<Candidate> candidates;
    for (std::uint32_t j = 0; j < state.size(); ++j) {
      if (j == i) continue;
      const glm::vec3 d = sim::offset(ctx, self.position, state.position[j]);
      const float d2 = glm::dot(d, d);
      const float dist = std::sqrt(d2);
      const bool coincident = dist < sim::kEps, sameGroup = state.group[j] == self.group;
      // The leader test (docs/model.md, step 8): any group, within the leader radius.
      if (ctx.needFront && d2 < ctx.leaderRadius2 &&
          (coincident || glm::dot(self.heading, d) >= dist * sim::kCos45))
        sums.frontOccupied = true;
      if (!(d2 < ctx.radius2)) continue;
      if (ctx.limitedFov && !coincident && glm::dot(self.heading, d) < dist * ctx.cosHalfFov) continue;
      if (d2 < ctx.separationRadius2) {
        sums.separation += (coincident ? glm::vec3(i < j ? -1.0f : 1.0f, 0.0f, 0.0f) : -d / dist) /
                           std::max(dist, params.minDistance);
        sums.separating = true;  // cohesion_only_without_separation
      }
      if (sameGroup) candidates.push_back({d2, j, d});
    }
    std::sort(candidates.begin(), candidates.end(), [](const Candidate& a, const Candidate& b) {
      return a.distance2 < b.distance2 || (a.distance2 == b.distance2 && a.id < b.id);
    });
    candidates.resize(std::min<std::size_t>(candidates.size(), params.topologicalNeighbours));
    for (const Candidate& c : candidates) {
      sums.headingSum += sim::stateHeading(state, c.id);
      sums.offsetSum += c.offset;
    }
    sums.sameGroupCount = static_cast<std::uint32_t>(candidates.size());
    const sim::BoidUpdate update = sim::stepBoid(ctx, self, sums);
    next.position[i] = update.position;
    next.velocity[i] = update.velocity;
    next.leader[i] = sim::leaderFlag(ctx, sums);
  }
  return next;
}

// Boids on the integer points of a wrap-around cube of side `side` (its corners at +-side/2), in
// `groups` groups (boid i in group i % groups), with random headings at speeds in [2, 10]: every
// distance repeats, so K nearest often cuts through a tie. R = 2.5 (dozens within R), Rs = 1.2,
// fov 270, K = 7, and separation weighted 0 (see bruteForceTopologicalStep).
inline sim::Scene latticeScene(int side, std::uint32_t groups) {
  sim::Scene scene;
  const float half = 0.5f * static_cast<float>(side);
  scene.model.worldMin = glm::vec3(-half);
  scene.model.worldMax = glm::vec3(half);
  scene.model.boundary = sim::Boundary::Wrap;
  scene.model.perceptionRadius = 2.5f;
  scene.model.separationRadius = 1.2f;
  scene.model.fovDegrees = 270.0f;
  scene.model.topologicalNeighbours = 7;
  scene.model.weights.separation = 0.0f;
  scene.count = static_cast<std::uint32_t>(side * side * side);
  scene.groups = groups;
  return scene;
}

inline sim::FlockState latticeFlock(const sim::Scene& scene, int side, std::uint64_t seed) {
  sim::FlockState state;
  state.resize(scene.count);
  state.groups = scene.groups;
  sim::Pcg32 rng(seed);
  const float half = 0.5f * static_cast<float>(side);
  std::uint32_t i = 0;
  for (int x = 0; x < side; ++x)
    for (int y = 0; y < side; ++y)
      for (int z = 0; z < side; ++z, ++i) {
        state.position[i] = glm::vec3(float(x), float(y), float(z)) - half;
        glm::vec3 v(rng.uniform(-1.0f, 1.0f), rng.uniform(-1.0f, 1.0f), rng.uniform(-1.0f, 1.0f));
        state.velocity[i] = glm::normalize(v) * rng.uniform(2.0f, 10.0f);
        state.group[i] = i % scene.groups;
      }
  return state;
}

}  // namespace murmur::test
