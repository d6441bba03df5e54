#version 430 core
// The exclusive prefix sum (gpu::PrefixSum) in one pass, for any count. Each work group scans a
// block of WORKGROUP_SIZE * ITEMS consecutive values (ITEMS per thread, then the thread totals in
// shared memory, Hillis-Steele) and adds the total of every block before it, which it learns by
// looking back (decoupled look-back, Merrill and Garland 2016): a block publishes its own total as
// soon as it has it and its inclusive prefix once it knows it, each in its status word, and sums
// its predecessors' words back to the nearest inclusive prefix. Two things keep it from ever
// waiting forever, whatever a device's scheduling: blocks take their index from a ticket in the
// order they start, so a block only waits on blocks already running; and a predecessor whose word
// is still empty after uPolls looks is summed from its values by the waiting group itself (a
// decoupled fallback), which is why the input is read-only and must not be the output. Totals must
// stay below 2^30 (the status word's flag takes two bits).
layout(local_size_x = WORKGROUP_SIZE) in;
#include "common/Dispatch.glsl"
#include "common/WorkgroupSum.glsl"

layout(std430, binding = BINDING_SCAN_IN) readonly buffer ValuesIn { uint valuesIn[]; };
layout(std430, binding = BINDING_SCAN_OUT) writeonly buffer ValuesOut { uint valuesOut[]; };
// [0] the next ticket, [1 + b] block b's status; all zero before each scan (gpu::PrefixSum).
layout(std430, binding = BINDING_SCAN_STATUS) coherent buffer ScanStatus { uint scanStatus[]; };
layout(std140, binding = PASS_PARAMS_BINDING) uniform ScanParams { uint uCount; uint uPolls; };

// A status word: empty (0), or a flag and a value below 2^30.
const uint kBlockTotal = 1u << 30;      // the block's own total
const uint kInclusivePrefix = 2u << 30;  // the total of the blocks up to it and itself
const uint kValueMask = kBlockTotal - 1u;

shared uint sharedBlock;
shared uint sharedStatus;

// The first of the ITEMS values this thread takes of block b.
uint threadBase(uint b) { return (b * uint(WORKGROUP_SIZE) + gl_LocalInvocationID.x) * uint(ITEMS); }

// Value i of the input, 0 past its end (the last block's tail).
uint valueAt(uint i) { return i < uCount ? valuesIn[i] : 0u; }

// The sum of block b's values; every thread of the group calls it (barriers).
uint blockTotal(uint b) {
  uint base = threadBase(b);
  uint sum = 0u;
  for (int k = 0; k < ITEMS; ++k) sum += valueAt(base + uint(k));
  workgroupInclusiveSum(sum);
  uint total = workgroupSums[WORKGROUP_SIZE - 1];
  barrier();  // every thread has read the total before workgroupSums is written again
  return total;
}

void main() {
  uint t = gl_LocalInvocationID.x;
  if (t == 0u) sharedBlock = atomicAdd(scanStatus[0], 1u);
  barrier();
  uint block = sharedBlock;
  uint blockSize = uint(WORKGROUP_SIZE * ITEMS);
  if (block >= (uCount + blockSize - 1u) / blockSize) return;  // whole group: past the end

  uint base = threadBase(block);
  uint values[ITEMS];
  uint total = 0u;
  for (int k = 0; k < ITEMS; ++k) {
    values[k] = valueAt(base + uint(k));
    total += values[k];
  }
  uint upToHere = workgroupInclusiveSum(total);
  uint ownTotal = workgroupSums[WORKGROUP_SIZE - 1];
  if (t == 0u) atomicExchange(scanStatus[1u + block], (block == 0u ? kInclusivePrefix : kBlockTotal) | ownTotal);

  // The look-back; sharedStatus makes every decision the whole group's.
  uint before = 0u;
  for (uint b = block; b > 0u;) {
    --b;
    barrier();  // every thread has read sharedStatus and workgroupSums before they are written
    if (t == 0u) {
      uint status = 0u;
      for (uint poll = 0u; poll < uPolls && status == 0u; ++poll) status = atomicOr(scanStatus[1u + b], 0u);
      sharedStatus = status;
    }
    barrier();
    uint status = sharedStatus;
    if (status == 0u) {
      before += blockTotal(b);
    } else {
      before += status & kValueMask;
      if ((status & kInclusivePrefix) != 0u) break;
    }
  }
  if (t == 0u && block > 0u) atomicExchange(scanStatus[1u + block], kInclusivePrefix | (before + ownTotal));

  uint running = before + upToHere - total;
  for (int k = 0; k < ITEMS; ++k) {
    if (base + uint(k) < uCount) valuesOut[base + uint(k)] = running;
    running += values[k];
  }
}
