#version 430 core
// The grid's cell counts (cells + 1 words, ITEMS consecutive words a thread) set to zero, after the
// scan has read them and before the force pass counts the next step's cells into them. A pass of
// our own rather than glClearNamedBufferData: on the H100 and the H200 alike that clear took about
// 0.13 ns a cell (31 GB/s; the count stage's time grows with the cells, not with the boids it
// counts: docs/gpu.md, "Clearing the counts"), by that rate 0.29 ms of `density`'s 0.47 ms force
// stage at 1M boids.
layout(local_size_x = WORKGROUP_SIZE) in;
#include "common/Dispatch.glsl"
#include "common/Params.glsl"

layout(std430, binding = BINDING_CELL_COUNTS) writeonly buffer CellCounts { uint cellCounts[]; };

void main() {
  uint words = uint(P.gridCells.w) + 1u;  // w: the cells in all
  uint first = globalInvocationIndex() * uint(ITEMS);
  for (int k = 0; k < ITEMS; ++k)
    if (first + uint(k) < words) cellCounts[first + uint(k)] = 0u;
}
