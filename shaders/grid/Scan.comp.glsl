#version 430 core
// One level of the exclusive prefix sum (gpu::PrefixSum): each work group scans a block of
// WORKGROUP_SIZE * ITEMS consecutive values (ITEMS per thread, then the thread totals in shared
// memory, Hillis-Steele) and writes the block's total to blockSums for the next level.
// valuesIn and valuesOut may be the same buffer (each value is read and written by one thread).
layout(local_size_x = WORKGROUP_SIZE) in;
#include "common/Dispatch.glsl"
#include "common/WorkgroupSum.glsl"

layout(std430, binding = BINDING_SCAN_IN) readonly buffer ValuesIn { uint valuesIn[]; };
layout(std430, binding = BINDING_SCAN_OUT) writeonly buffer ValuesOut { uint valuesOut[]; };
layout(std430, binding = BINDING_SCAN_SUMS) writeonly buffer BlockSums { uint blockSums[]; };
layout(std140, binding = PASS_PARAMS_BINDING) uniform ScanParams { uint uCount; };

void main() {
  uint block = workGroupIndex();
  if (block * uint(WORKGROUP_SIZE * ITEMS) >= uCount) return;  // whole group: past the end
  uint t = gl_LocalInvocationID.x;
  uint base = (block * uint(WORKGROUP_SIZE) + t) * uint(ITEMS);
  uint values[ITEMS];
  uint total = 0u;
  for (int k = 0; k < ITEMS; ++k) {
    values[k] = base + uint(k) < uCount ? valuesIn[base + uint(k)] : 0u;
    total += values[k];
  }
  uint upToHere = workgroupInclusiveSum(total);
  uint running = upToHere - total;
  for (int k = 0; k < ITEMS; ++k) {
    if (base + uint(k) < uCount) valuesOut[base + uint(k)] = running;
    running += values[k];
  }
  if (t == uint(WORKGROUP_SIZE) - 1u) blockSums[block] = upToHere;
}
