#version 430 core
// The nearest k boids of one group around one probe, second pass: one work group a list merges
// the k best of its probe's slices (query/NearestBoids.comp.glsl) into the list's k best, which
// thread 0 writes: the count, the ids, and the boids' current positions and velocities (read at
// their slots, slotOf). The same k best as one pass over the whole box: the order is total.
layout(local_size_x = WORKGROUP_SIZE) in;
#include "common/Dispatch.glsl"
#include "query/NearestList.glsl"

layout(std430, binding = BINDING_POSITIONS) readonly buffer Positions { vec4 positions[]; };
layout(std430, binding = BINDING_VELOCITIES) readonly buffer Velocities { vec4 velocities[]; };
layout(std430, binding = BINDING_SLOT_OF) readonly buffer SlotOf { uint slotOf[]; };
// Per (probe, group): the count, then k ids per (probe, group).
layout(std430, binding = BINDING_NEAREST_IDS) writeonly buffer NearestIds { uint nearestIds[]; };
// Per (probe, group) and rank: position, then velocity.
layout(std430, binding = BINDING_NEAREST_SAMPLES) writeonly buffer NearestSamples { vec4 nearestSamples[]; };

void main() {
  uint list = workGroupIndex();
  // Uniform in the work group: all of it returns, or none.
  if (list >= listCount) return;
  uint self = gl_LocalInvocationID.x;
  uint slices = uint(probes[list / groupCount].firstCell.w);
  for (uint slice = self; slice < slices; slice += WORKGROUP_SIZE) {
    uint count = nearestPartials[partialCountAt(list, slice)];
    for (uint r = 0u; r < count; ++r) {
      uint at = partialPairAt(list, slice, r);
      offer(uintBitsToFloat(nearestPartials[at]), nearestPartials[at + 1u]);
    }
  }
  mergeWorkGroup(self);
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
