#version 430 core
// The nearest k boids of one group around one probe (sim/nearest_boids.hpp), first pass: the
// probe's box of cells (over the grid of the last step: cell starts, its sorted ids, which are the
// state's boidIds since that step, and sorted positions, the positions that step started from) is
// cut into slices (Probe.firstCell.w work groups), each taking every slices-th row of cells along
// x (one contiguous run of slots a row), and each work group leaves the k best of its rows in
// nearestPartials; query/NearestMerge.comp.glsl merges a list's slices. One work group a list
// made a falcon with a 400-unit view scan a whole flock on one multiprocessor (11 ms a step at 1M
// boids on an H200; docs/gpu.md). Ranked by squared distance (dot3, as the CPU), ties by id.
layout(local_size_x = WORKGROUP_SIZE) in;
#include "common/Dispatch.glsl"
#include "common/Params.glsl"
#include "common/Grid.glsl"
#include "common/Vector.glsl"
#include "query/NearestList.glsl"

layout(std430, binding = BINDING_CELL_STARTS) readonly buffer CellStarts { uint cellStarts[]; };
layout(std430, binding = BINDING_BOID_IDS) readonly buffer BoidIds { uint boidIds[]; };
layout(std430, binding = BINDING_SORTED_POSITIONS) readonly buffer SortedPositions { vec4 sortedPositions[]; };

void main() {
  uint list = workGroupIndex() / sliceStride;
  uint slice = workGroupIndex() % sliceStride;
  // Uniform in the work group: all of it returns, or none.
  if (list >= listCount) return;
  Probe probe = probes[list / groupCount];
  uint slices = uint(probe.firstCell.w);
  if (slice >= slices) return;
  uint self = gl_LocalInvocationID.x;
  float group = float(list % groupCount);
  ivec3 first = probe.firstCell.xyz;
  ivec3 last = probe.lastCell.xyz;
  int rowsY = last.y - first.y + 1;
  bool empty = last.x < first.x || last.y < first.y || last.z < first.z;
  int rows = empty ? 0 : rowsY * (last.z - first.z + 1);
  for (int row = int(slice); row < rows; row += int(slices)) {
    int y = first.y + row % rowsY;
    int z = first.z + row / rowsY;
    uint begin = cellStarts[cellIndex(ivec3(first.x, y, z))];
    uint end = cellStarts[cellIndex(ivec3(last.x, y, z)) + 1u];
    for (uint s = begin + self; s < end; s += WORKGROUP_SIZE) {
      vec4 boid = sortedPositions[s];
      if (boid.w != group) continue;
      EXACT vec3 d = boid.xyz - probe.sphere.xyz;
      float distance2 = dot3(d, d);
      if (distance2 <= probe.sphere.w) offer(distance2, boidIds[s]);
    }
  }
  mergeWorkGroup(self);
  if (self != 0u) return;
  nearestPartials[partialCountAt(list, slice)] = bestCount;
  for (uint r = 0u; r < bestCount; ++r) {
    uint at = partialPairAt(list, slice, r);
    nearestPartials[at] = floatBitsToUint(bestDistance2[r]);
    nearestPartials[at + 1u] = bestId[r];
  }
}
