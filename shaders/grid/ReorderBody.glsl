// Second half of the scatter: each boid's slot is its cell's start plus the number of boids of the
// cell with a smaller id, so the order is the CPU's stable counting sort (sim::CellOrder) whatever
// order the atomics ran in, and every step is reproducible. Costs one pass over the boid's own
// cell (a few boids; a 27th of what the force pass reads). Moves the boid there from its slot in
// the state (the last sort's order, one thread per slot): position and group, velocity, heading,
// id, so that the force pass reads its own boid and its neighbours contiguously and writes the
// next state in the same order. Few boids change cells in a step, so reads and writes here are
// nearly in order too. The body of grid/Reorder.comp.glsl
// (the heading norm(v), TURNING 0) and grid/ReorderTurning.comp.glsl (the stored heading, TURNING 1:
// boids.turn_rate, docs/model.md step 1).
layout(local_size_x = WORKGROUP_SIZE) in;
#include "common/Dispatch.glsl"
#include "common/Params.glsl"
#include "common/Vector.glsl"

layout(std430, binding = BINDING_POSITIONS) readonly buffer Positions { vec4 positions[]; };
layout(std430, binding = BINDING_VELOCITIES) readonly buffer Velocities { vec4 velocities[]; };
layout(std430, binding = BINDING_BOID_IDS) readonly buffer BoidIds { uint boidIds[]; };
layout(std430, binding = BINDING_CELL_OF) readonly buffer CellOf { uint cellOf[]; };
layout(std430, binding = BINDING_CELL_STARTS) readonly buffer CellStarts { uint cellStarts[]; };
layout(std430, binding = BINDING_UNSORTED_IDS) readonly buffer UnsortedIds { uint unsortedIds[]; };
layout(std430, binding = BINDING_SORTED_IDS) writeonly buffer SortedIds { uint sortedIds[]; };
layout(std430, binding = BINDING_SORTED_POSITIONS) writeonly buffer SortedPositions { vec4 sortedPositions[]; };
layout(std430, binding = BINDING_SORTED_VELOCITIES) writeonly buffer SortedVelocities { vec4 sortedVelocities[]; };
layout(std430, binding = BINDING_SORTED_HEADINGS) writeonly buffer SortedHeadings { vec4 sortedHeadings[]; };
#if TURNING
layout(std430, binding = BINDING_HEADINGS) readonly buffer Headings { vec4 headings[]; };
#endif

void main() {
  uint i = globalInvocationIndex();
  if (i >= P.boidCount) return;
  uint id = boidIds[i];
  uint cell = cellOf[i];
  uint begin = cellStarts[cell];
  uint end = cellStarts[cell + 1u];
  uint slot = begin;
  for (uint s = begin; s < end; ++s) slot += unsortedIds[s] < id ? 1u : 0u;
  sortedIds[slot] = id;
  sortedPositions[slot] = positions[i];
  vec4 velocity = velocities[i];
  sortedVelocities[slot] = velocity;
#if TURNING
  sortedHeadings[slot] = headings[i];
#else
  sortedHeadings[slot] = vec4(heading(velocity.xyz), 0.0);
#endif
}
