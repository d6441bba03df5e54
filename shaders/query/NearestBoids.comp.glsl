#version 430 core
// The nearest k boids of one group around one probe (sim/nearest_boids.hpp): one work group per
// (probe, group), over the grid of the last step (cell starts, its sorted ids, which are the
// state's boidIds since that step, and sorted positions: the positions that step started from).
// The threads stride together over the slots of each row of cells along x that the probe's box
// covers (one contiguous run per row), each keeping its own k best; a tree of sorted merges in
// shared memory then leaves the work group's k best, which thread 0 writes with the boids' current
// positions and velocities (read at their slots, slotOf). Ranked by squared distance (dot3, as the
// CPU), ties by id: the CPU's answer exactly.
layout(local_size_x = WORKGROUP_SIZE) in;
#include "common/Dispatch.glsl"
#include "common/Params.glsl"
#include "common/Grid.glsl"
#include "common/Vector.glsl"

layout(std430, binding = BINDING_POSITIONS) readonly buffer Positions { vec4 positions[]; };
layout(std430, binding = BINDING_VELOCITIES) readonly buffer Velocities { vec4 velocities[]; };
layout(std430, binding = BINDING_CELL_STARTS) readonly buffer CellStarts { uint cellStarts[]; };
layout(std430, binding = BINDING_BOID_IDS) readonly buffer BoidIds { uint boidIds[]; };
layout(std430, binding = BINDING_SLOT_OF) readonly buffer SlotOf { uint slotOf[]; };
layout(std430, binding = BINDING_SORTED_POSITIONS) readonly buffer SortedPositions { vec4 sortedPositions[]; };

// gpu::layout::NearestProbe.
struct Probe {
  vec4 sphere;      // xyz centre, w radius^2
  ivec4 firstCell;  // xyz: sim::probeCells
  ivec4 lastCell;
};
layout(std430, binding = BINDING_NEAREST_PROBES) readonly buffer Probes { Probe probes[]; };
// Per (probe, group): the count, then k ids per (probe, group).
layout(std430, binding = BINDING_NEAREST_IDS) writeonly buffer NearestIds { uint nearestIds[]; };
// Per (probe, group) and rank: position, then velocity.
layout(std430, binding = BINDING_NEAREST_SAMPLES) writeonly buffer NearestSamples { vec4 nearestSamples[]; };

// gpu::layout::NearestParams.
layout(std140, binding = PASS_PARAMS_BINDING) uniform NearestParams {
  uint groupCount;
  uint listCount;  // probes * groups
  uint k;          // 1..MAX_K
};

float bestDistance2[MAX_K];
uint bestId[MAX_K];
uint bestCount = 0u;

shared float sharedDistance2[WORKGROUP_SIZE * MAX_K];
shared uint sharedId[WORKGROUP_SIZE * MAX_K];
shared uint sharedCount[WORKGROUP_SIZE];

bool closer(float da, uint ia, float db, uint ib) { return da < db || (da == db && ia < ib); }

// Sorted insert into this thread's k best.
void offer(float distance2, uint id) {
  uint at = bestCount;
  while (at > 0u && closer(distance2, id, bestDistance2[at - 1u], bestId[at - 1u])) --at;
  if (at >= k) return;
  for (uint i = min(bestCount, k - 1u); i > at; --i) {
    bestDistance2[i] = bestDistance2[i - 1u];
    bestId[i] = bestId[i - 1u];
  }
  bestDistance2[at] = distance2;
  bestId[at] = id;
  if (bestCount < k) ++bestCount;
}

void share(uint list) {
  for (uint i = 0u; i < bestCount; ++i) {
    sharedDistance2[list * MAX_K + i] = bestDistance2[i];
    sharedId[list * MAX_K + i] = bestId[i];
  }
  sharedCount[list] = bestCount;
}

void main() {
  uint list = workGroupIndex();
  // Uniform in the work group: all of it returns, or none.
  if (list >= listCount) return;
  uint self = gl_LocalInvocationID.x;
  Probe probe = probes[list / groupCount];
  float group = float(list % groupCount);
  ivec3 first = probe.firstCell.xyz;
  ivec3 last = probe.lastCell.xyz;
  for (int z = first.z; z <= last.z; ++z) {
    for (int y = first.y; y <= last.y; ++y) {
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
  }
  share(self);
  memoryBarrierShared();
  barrier();
  for (uint stride = WORKGROUP_SIZE / 2u; stride > 0u; stride /= 2u) {
    if (self < stride) {
      uint a = self * MAX_K, b = (self + stride) * MAX_K;
      uint na = sharedCount[self], nb = sharedCount[self + stride];
      uint ia = 0u, ib = 0u;
      bestCount = 0u;
      while (bestCount < k && (ia < na || ib < nb)) {
        bool takeA = ib >= nb || (ia < na && closer(sharedDistance2[a + ia], sharedId[a + ia],
                                                    sharedDistance2[b + ib], sharedId[b + ib]));
        uint from = takeA ? a + ia : b + ib;
        bestDistance2[bestCount] = sharedDistance2[from];
        bestId[bestCount] = sharedId[from];
        ++bestCount;
        if (takeA) ++ia; else ++ib;
      }
    }
    memoryBarrierShared();
    barrier();
    if (self < stride) share(self);
    memoryBarrierShared();
    barrier();
  }
  if (self != 0u) return;
  nearestIds[list] = bestCount;
  for (uint r = 0u; r < bestCount; ++r) {
    uint id = bestId[r];
    uint at = list * k + r;
    nearestIds[listCount + at] = id;
    uint slot = slotOf[id];
    nearestSamples[2u * at] = vec4(positions[slot].xyz, 0.0);
    nearestSamples[2u * at + 1u] = vec4(velocities[slot].xyz, 0.0);
  }
}
