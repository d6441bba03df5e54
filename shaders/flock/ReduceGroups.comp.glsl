#version 430 core
// Group summaries, second level: one work group per group sums that group's block partials and
// writes count, meanPosition (plain mean of positions), mean velocity and the number of leaders.
layout(local_size_x = WORKGROUP_SIZE) in;
#include "common/Dispatch.glsl"
#include "flock/Reduction.glsl"

struct GroupSummary {
  vec4 meanPosition;
  vec4 meanVelocity;
  uint count;
  uint leaders;
  uint pad0;
  uint pad1;
};

layout(std430, binding = BINDING_PARTIALS) readonly buffer Partials { GroupPartial partials[]; };
layout(std430, binding = BINDING_SUMMARIES) writeonly buffer Summaries { GroupSummary summaries[]; };

shared vec4 positionSums[WORKGROUP_SIZE];
shared vec4 velocitySums[WORKGROUP_SIZE];
shared uint counts[WORKGROUP_SIZE];
shared uint leaderCounts[WORKGROUP_SIZE];

void main() {
  uint g = workGroupIndex();
  if (g >= uGroups) return;  // whole group: past the end
  uint t = gl_LocalInvocationID.x;
  vec4 positionSum = vec4(0.0);
  vec4 velocitySum = vec4(0.0);
  uint count = 0u;
  uint leaders = 0u;
  for (uint b = t; b < uBlocks; b += uint(WORKGROUP_SIZE)) {
    GroupPartial partial = partials[g * uBlocks + b];
    positionSum.xyz += partial.positionSum.xyz;
    velocitySum.xyz += partial.velocitySum.xyz;
    count += uint(partial.positionSum.w);
    leaders += uint(partial.velocitySum.w);
  }
  positionSums[t] = positionSum;
  velocitySums[t] = velocitySum;
  counts[t] = count;
  leaderCounts[t] = leaders;
  barrier();
  for (uint stride = uint(WORKGROUP_SIZE) / 2u; stride > 0u; stride >>= 1) {
    if (t < stride) {
      positionSums[t] += positionSums[t + stride];
      velocitySums[t] += velocitySums[t + stride];
      counts[t] += counts[t + stride];
      leaderCounts[t] += leaderCounts[t + stride];
    }
    barrier();
  }
  if (t != 0u) return;
  uint total = counts[0];
  vec3 meanPosition = total > 0u ? positionSums[0].xyz / float(total) : vec3(0.0);
  vec3 meanVelocity = total > 0u ? velocitySums[0].xyz / float(total) : vec3(0.0);
  summaries[g] = GroupSummary(vec4(meanPosition, 0.0), vec4(meanVelocity, 0.0), total, leaderCounts[0], 0u, 0u);
}
