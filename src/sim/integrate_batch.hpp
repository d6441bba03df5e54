#pragma once
// Steps 12-14 (sim::integrateForce), and where they are simple steps 7-11 (the forces and their
// weighted sum), for the boids of a batch a vector at a time (Google Highway, dispatched at run
// time as the neighbour sweep is): each lane makes exactly the scalar functions' operations in
// their order (the force clamp, the velocity's limits, the move and the boundary), their branches
// as selects, with no fused multiply-add, so every instruction set gives the scalar bytes. One
// boid's integration is a chain of square roots and divisions, each waiting on the last (about 150
// cycles); a vector makes the chains of the batch at once.
#include <cstddef>

#include <glm/vec3.hpp>

#include "sim/rules.hpp"

namespace murmur::sim {

// Whether integrateBatch serves the step: no turn rate, no walls, neither the lab's units nor
// starlings (they keep the scalar functions).
inline bool integrateBatchServes(const StepContext& ctx) {
  return !ctx.turning && ctx.walls == nullptr && !ctx.labUnits && !ctx.starlings;
}

// Whether stepBatch serves the step: integrateBatch does, and of the nine forces only the flocking
// three, the containment and the cruise can be other than 0 (no obstacles, goals, predators or
// roost; every group flocks and pursues nothing).
bool stepBatchServes(const StepContext& ctx);

// For b < count: integrate(ctx, selves[b], computeForces(ctx, selves[b], sums[b])) (steps 7-14),
// its position into positions[b] and its velocity into velocities[b], a vector of boids at a
// time, the forces kept in the lanes from the sums to the move. Only where stepBatchServes(ctx).
void stepBatch(const StepContext& ctx, const BoidView* selves, const NeighbourSums* sums, std::size_t count,
               glm::vec3* positions, glm::vec3* velocities);

// For b < count: integrateForce(ctx, selves[b], forces[b]) (forces: step 11's weighted sums,
// sim::weightedForce), its position into positions[b] and its velocity into velocities[b]. Only
// where integrateBatchServes(ctx).
void integrateBatch(const StepContext& ctx, const BoidView* selves, const glm::vec3* forces,
                    std::size_t count, glm::vec3* positions, glm::vec3* velocities);

}  // namespace murmur::sim
