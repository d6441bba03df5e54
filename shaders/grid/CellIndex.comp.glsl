#version 430 core
// Hash: the grid cell of every boid, one thread per slot of the state; and the cell counts zeroed
// for grid/Count (grid/ClearCountsBody.glsl), ITEMS quads of words a thread: the pass runs on as
// many threads as either needs.
layout(local_size_x = WORKGROUP_SIZE) in;
#include "common/Dispatch.glsl"
#include "common/Params.glsl"
#include "common/Grid.glsl"
#include "grid/ClearCountsBody.glsl"

layout(std430, binding = BINDING_POSITIONS) readonly buffer Positions { vec4 positions[]; };
layout(std430, binding = BINDING_CELL_OF) writeonly buffer CellOf { uint cellOf[]; };

void main() {
  uint i = globalInvocationIndex();
  clearCellCounts(i);
  if (i >= P.boidCount) return;
  cellOf[i] = cellIndex(cellCoord(positions[i].xyz));
}
