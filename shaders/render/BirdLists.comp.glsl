#version 430 core
// Between the two dispatches of render/BirdInstances.comp.glsl (which documents the lists): turns
// each of its workgroups' near and far counts into the workgroup's first near and far record, near
// birds from record 0 on and far birds after them, both in workgroup order (an exclusive prefix sum
// by one workgroup: each invocation sums a run of consecutive workgroups, Hillis-Steele over the
// runs in shared memory, then each writes its run's firsts), and fills the range's two draw
// commands: the near list's vertices, then the far list's.
#include "render/View.glsl"
#include "render/Boids.glsl"

layout(local_size_x = LISTS_WORKGROUP_SIZE) in;

layout(std430, binding = LISTS_BINDING) buffer BirdLists { uvec2 lists[]; };

// glDrawArraysIndirect's command (render::DrawCommand).
struct DrawCommand {
  uint vertexCount;
  uint instanceCount;
  uint firstVertex;
  uint firstInstance;
};
layout(std430, binding = COMMAND_BINDING) writeonly buffer BirdDrawCommands { DrawCommand commands[]; };

shared uvec2 runTotals[LISTS_WORKGROUP_SIZE];

void main() {
  uint t = gl_LocalInvocationID.x;
  uint groups = (uCount + uint(WORKGROUP_SIZE) - 1u) / uint(WORKGROUP_SIZE);
  uint run = (groups + uint(LISTS_WORKGROUP_SIZE) - 1u) / uint(LISTS_WORKGROUP_SIZE);
  uint first = min(t * run, groups), end = min(first + run, groups);
  uvec2 total = uvec2(0u);
  for (uint g = first; g < end; ++g) total += lists[g];
  runTotals[t] = total;
  barrier();
  for (uint offset = 1u; offset < uint(LISTS_WORKGROUP_SIZE); offset <<= 1) {
    uvec2 add = t >= offset ? runTotals[t - offset] : uvec2(0u);
    barrier();
    runTotals[t] += add;
    barrier();
  }
  uvec2 all = runTotals[LISTS_WORKGROUP_SIZE - 1];
  uvec2 next = runTotals[t] - total + uvec2(0u, all.x);  // far records follow the near ones
  for (uint g = first; g < end; ++g) {
    uvec2 count = lists[g];
    lists[g] = next;
    next += count;
  }
  if (t == 0u) {
    commands[uFirstCommand] = DrawCommand(BIRD_VERTICES * all.x, 1u, 0u, 0u);
    commands[uFirstCommand + 1u] = DrawCommand(FAR_BIRD_VERTICES * all.y, 1u, FAR_BIRD_VERTICES * all.x, 0u);
  }
}
