#version 430 core
// Hash: the grid cell of every boid, one thread per slot of the state.
layout(local_size_x = WORKGROUP_SIZE) in;
#include "common/Dispatch.glsl"
#include "common/Params.glsl"
#include "common/Grid.glsl"

layout(std430, binding = BINDING_POSITIONS) readonly buffer Positions { vec4 positions[]; };
layout(std430, binding = BINDING_CELL_OF) writeonly buffer CellOf { uint cellOf[]; };

void main() {
  uint i = globalInvocationIndex();
  if (i >= P.boidCount) return;
  cellOf[i] = cellIndex(cellCoord(positions[i].xyz));
}
