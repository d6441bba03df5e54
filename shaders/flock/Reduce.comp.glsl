#version 430 core
// Group summaries, first level: each work group sums position, velocity, count and leaders (the
// leader flags in velocities.w) of its block of
// WORKGROUP_SIZE * ITEMS boids per group (a shared-memory tree per group) into
// partials[group * uBlocks + block]. ReduceGroups sums the blocks. Blocks of ids, not of slots:
// the sums come out the same whatever order the state is kept in (each boid read at its slot).
layout(local_size_x = WORKGROUP_SIZE) in;
#include "common/Dispatch.glsl"
#include "flock/Reduction.glsl"

layout(std430, binding = BINDING_POSITIONS) readonly buffer Positions { vec4 positions[]; };
layout(std430, binding = BINDING_VELOCITIES) readonly buffer Velocities { vec4 velocities[]; };
layout(std430, binding = BINDING_SLOT_OF) readonly buffer SlotOf { uint slotOf[]; };
layout(std430, binding = BINDING_PARTIALS) writeonly buffer Partials { GroupPartial partials[]; };

shared vec4 positionSums[WORKGROUP_SIZE];
shared vec4 velocitySums[WORKGROUP_SIZE];

const uint kNoGroup = 0xffffffffu;

void main() {
  uint block = workGroupIndex();
  if (block >= uBlocks) return;  // whole group: past the end
  uint t = gl_LocalInvocationID.x;
  vec4 position[ITEMS];
  vec4 velocity[ITEMS];
  uint group[ITEMS];
  for (int k = 0; k < ITEMS; ++k) {
    // Strided by the group size so that neighbouring threads read neighbouring boids.
    uint i = (block * uint(ITEMS) + uint(k)) * uint(WORKGROUP_SIZE) + t;
    group[k] = kNoGroup;
    if (i < uCount) {
      uint slot = slotOf[i];
      vec4 p = positions[slot];
      position[k] = vec4(p.xyz, 1.0);
      velocity[k] = velocities[slot];
      group[k] = uint(p.w);
    }
  }
  for (uint g = 0u; g < uGroups; ++g) {
    vec4 positionSum = vec4(0.0);
    vec4 velocitySum = vec4(0.0);
    for (int k = 0; k < ITEMS; ++k) {
      if (group[k] != g) continue;
      positionSum += position[k];
      velocitySum += velocity[k];
    }
    positionSums[t] = positionSum;
    velocitySums[t] = velocitySum;
    barrier();
    for (uint stride = uint(WORKGROUP_SIZE) / 2u; stride > 0u; stride >>= 1) {
      if (t < stride) {
        positionSums[t] += positionSums[t + stride];
        velocitySums[t] += velocitySums[t + stride];
      }
      barrier();
    }
    if (t == 0u) partials[g * uBlocks + block] = GroupPartial(positionSums[0], velocitySums[0]);
    barrier();  // thread 0 has read the sums before the next group overwrites them
  }
}
