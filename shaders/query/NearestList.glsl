// What both passes of the nearest-boids query share (query/NearestBoids.comp.glsl,
// query/NearestMerge.comp.glsl): the probes, the pass constants, and one work group's k best by
// (squared distance, id): each thread keeps its own in registers (offer), then a tree of sorted
// merges in shared memory leaves the work group's in thread 0 (mergeWorkGroup). The order is
// total (ids differ within a group), so the k best of a set do not depend on the order the
// candidates come in, nor on how the set is cut among threads and work groups.

// gpu::layout::NearestProbe.
struct Probe {
  vec4 sphere;      // xyz centre, w radius^2
  ivec4 firstCell;  // xyz: sim::probeCells; w: the work groups (slices) its box is cut into
  ivec4 lastCell;
};
layout(std430, binding = BINDING_NEAREST_PROBES) readonly buffer Probes { Probe probes[]; };

// gpu::layout::NearestParams.
layout(std140, binding = PASS_PARAMS_BINDING) uniform NearestParams {
  uint groupCount;
  uint listCount;  // probes * groups
  uint k;          // 1..MAX_K
  uint sliceStride;  // slices a list has room for in nearestPartials (the most of any probe)
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

void share(uint thread) {
  for (uint i = 0u; i < bestCount; ++i) {
    sharedDistance2[thread * MAX_K + i] = bestDistance2[i];
    sharedId[thread * MAX_K + i] = bestId[i];
  }
  sharedCount[thread] = bestCount;
}

// Every thread of the work group calls it; afterwards thread 0's best* hold the work group's k best.
void mergeWorkGroup(uint self) {
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
}

// Per (list, slice), slice-major within a list: the count of its k best, then (squared distance's
// bits, id) pairs, k a (list, slice).
layout(std430, binding = BINDING_NEAREST_PARTIALS) buffer NearestPartials { uint nearestPartials[]; };
uint partialCountAt(uint list, uint slice) { return list * sliceStride + slice; }
uint partialPairAt(uint list, uint slice, uint rank) {
  return listCount * sliceStride + 2u * ((list * sliceStride + slice) * k + rank);
}
