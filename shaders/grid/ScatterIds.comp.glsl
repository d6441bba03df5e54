#version 430 core
// First half of the scatter: the id of every boid (one thread per slot of the state) into its
// cell's range, in arrival order (unstable).
layout(local_size_x = WORKGROUP_SIZE) in;
#include "common/Dispatch.glsl"
#include "common/Params.glsl"

layout(std430, binding = BINDING_CELL_OF) readonly buffer CellOf { uint cellOf[]; };
layout(std430, binding = BINDING_RANK_IN_CELL) readonly buffer RankInCell { uint rankInCell[]; };
layout(std430, binding = BINDING_BOID_IDS) readonly buffer BoidIds { uint boidIds[]; };
layout(std430, binding = BINDING_CELL_STARTS) readonly buffer CellStarts { uint cellStarts[]; };
layout(std430, binding = BINDING_UNSORTED_IDS) writeonly buffer UnsortedIds { uint unsortedIds[]; };

void main() {
  uint i = globalInvocationIndex();
  if (i >= P.boidCount) return;
  unsortedIds[cellStarts[cellOf[i]] + rankInCell[i]] = boidIds[i];
}
