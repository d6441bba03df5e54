#version 430 core
// Adds each block's scanned offset (the next level's exclusive sums) to the block's values.
layout(local_size_x = WORKGROUP_SIZE) in;
#include "common/Dispatch.glsl"

layout(std430, binding = BINDING_SCAN_OUT) buffer Values { uint values[]; };
layout(std430, binding = BINDING_SCAN_SUMS) readonly buffer BlockOffsets { uint blockOffsets[]; };
layout(std140, binding = PASS_PARAMS_BINDING) uniform ScanParams { uint uCount; };

void main() {
  uint i = globalInvocationIndex();
  if (i >= uCount) return;
  uint block = i / uint(SCAN_BLOCK);
  if (block > 0u) values[i] += blockOffsets[block];
}
