#version 430 core
// Per-cell counts (atomics on zeroed counters); each boid keeps its arrival rank in its cell, which
// places it without a second atomic (ScatterIds).
layout(local_size_x = WORKGROUP_SIZE) in;
#include "common/Dispatch.glsl"
#include "common/Params.glsl"

layout(std430, binding = BINDING_CELL_OF) readonly buffer CellOf { uint cellOf[]; };
layout(std430, binding = BINDING_RANK_IN_CELL) writeonly buffer RankInCell { uint rankInCell[]; };
layout(std430, binding = BINDING_CELL_COUNTS) buffer CellCounts { uint cellCounts[]; };

void main() {
  uint i = globalInvocationIndex();
  if (i >= P.boidCount) return;
  rankInCell[i] = atomicAdd(cellCounts[cellOf[i]], 1u);
}
