#version 430 core
// The exclusive prefix sum (gpu::PrefixSum) in one pass, for any count. Each work group scans a
// block of WORKGROUP_SIZE * ITEMS consecutive values (ITEMS consecutive values a thread, then the
// thread totals in shared memory, Hillis-Steele) and adds the total of every block before it, which
// it learns by looking back (decoupled look-back, Merrill and Garland 2016): a block publishes its
// own total as soon as it has it and its inclusive prefix once it knows it, each in its status
// word, and sums its predecessors' words back to the nearest inclusive prefix. Two things keep it
// from ever waiting forever, whatever a device's scheduling: blocks take their index from a ticket
// in the order they start, so a block only waits on blocks already running; and a predecessor
// whose word is still empty after uPolls looks is summed from its values by the waiting group
// itself (a decoupled fallback), which is why the input is read-only and must not be the output.
// Totals must stay below 2^30 (the status word's flag takes two bits).
layout(local_size_x = WORKGROUP_SIZE) in;
#include "common/Dispatch.glsl"
#include "common/WorkgroupSum.glsl"

layout(std430, binding = BINDING_SCAN_IN) readonly buffer ValuesIn { uint valuesIn[]; };
layout(std430, binding = BINDING_SCAN_OUT) writeonly buffer ValuesOut { uint valuesOut[]; };
// [0] the next ticket, [1] the groups that have finished, [2 + b] block b's status: all zero
// before each scan; the last group to finish zeroes them again for the next (no clear between
// scans: the driver's clear cost microseconds of its own on NVIDIA's, docs/gpu.md).
layout(std430, binding = BINDING_SCAN_STATUS) coherent buffer ScanStatus { uint scanStatus[]; };
layout(std140, binding = PASS_PARAMS_BINDING) uniform ScanParams { uint uCount; uint uPolls; };

// A status word: empty (0), or a flag and a value below 2^30.
const uint kBlockTotal = 1u << 30;      // the block's own total
const uint kInclusivePrefix = 2u << 30;  // the total of the blocks up to it and itself
const uint kValueMask = kBlockTotal - 1u;

shared uint sharedBlock;
// Predecessors a look-back step reads at once, a thread each (gpu::PrefixSum::kLookBackWindow).
const uint kLookBackWindow =
    WORKGROUP_SIZE < LOOK_BACK_WINDOW ? uint(WORKGROUP_SIZE) : uint(LOOK_BACK_WINDOW);
shared uint sharedWindow[kLookBackWindow];
shared bool sharedLastGroup;
// The block's values, then its sums, in the order of the buffer: the group reads and writes the
// buffer a word a thread side by side (whole memory sectors, where each thread reading its ITEMS
// consecutive words would spread one load over as many sectors as threads), and each thread takes
// its own ITEMS from here. A word of padding every 32 keeps a thread's run off its neighbours'
// banks.
const uint kBlockValues = uint(WORKGROUP_SIZE * ITEMS);
shared uint blockValues[kBlockValues + kBlockValues / 32u];

uint padded(uint i) { return i + (i >> 5); }

// This thread's k-th word of the block from `base` on, the group reading or writing side by side.
uint sideBySide(uint base, int k) { return base + uint(k) * uint(WORKGROUP_SIZE) + gl_LocalInvocationID.x; }

// Value i of the input, 0 past its end (the last block's tail).
uint valueAt(uint i) { return i < uCount ? valuesIn[i] : 0u; }

// The sum of block b's values, read side by side (the order of a sum of integers does not matter);
// every thread of the group calls it (barriers).
uint blockTotal(uint b) {
  uint sum = 0u;
  for (int k = 0; k < ITEMS; ++k)
    sum += valueAt(sideBySide(b * kBlockValues, k));
  workgroupInclusiveSum(sum);
  uint total = workgroupSums[WORKGROUP_SIZE - 1];
  barrier();  // every thread has read the total before workgroupSums is written again
  return total;
}

// Counts this group as finished; the last of the dispatch's groups zeroes the status words of a
// scan of `blocks` blocks. Every group calls it once, after its last use of the words; every
// thread of the group calls it (barriers).
void finishGroup(uint blocks) {
  uint t = gl_LocalInvocationID.x;
  if (t == 0u) {
    memoryBarrierBuffer();  // this group's status words land before its count
    uint groups = gl_NumWorkGroups.x * gl_NumWorkGroups.y;
    sharedLastGroup = atomicAdd(scanStatus[1], 1u) == groups - 1u;
  }
  barrier();
  if (sharedLastGroup)
    for (uint w = t; w < blocks + 2u; w += uint(WORKGROUP_SIZE)) scanStatus[w] = 0u;
}

void main() {
  uint t = gl_LocalInvocationID.x;
  if (t == 0u) sharedBlock = atomicAdd(scanStatus[0], 1u);
  barrier();
  uint block = sharedBlock;
  uint blocks = (uCount + kBlockValues - 1u) / kBlockValues;
  if (block >= blocks) {  // whole group: past the end
    finishGroup(blocks);
    return;
  }

  uint blockStart = block * kBlockValues;
  for (int k = 0; k < ITEMS; ++k) {
    uint i = sideBySide(0u, k);
    blockValues[padded(i)] = valueAt(blockStart + i);
  }
  barrier();
  uint first = t * uint(ITEMS);  // this thread's values within the block
  uint total = 0u;
  for (int k = 0; k < ITEMS; ++k) total += blockValues[padded(first + uint(k))];
  uint upToHere = workgroupInclusiveSum(total);
  uint ownTotal = workgroupSums[WORKGROUP_SIZE - 1];
  if (t == 0u) atomicExchange(scanStatus[2u + block], (block == 0u ? kInclusivePrefix : kBlockTotal) | ownTotal);

  // The look-back, a window of predecessors at a time (one round trip to memory for up to
  // kLookBackWindow of them, nearest first); sharedWindow makes every decision the whole group's.
  uint before = 0u;
  bool found = false;
  for (uint end = block; end > 0u && !found;) {
    uint window = min(end, kLookBackWindow);
    barrier();  // every thread has read sharedWindow and workgroupSums before they are written
    if (t < window) {
      uint status = 0u;
      for (uint poll = 0u; poll < uPolls && status == 0u; ++poll)
        status = atomicOr(scanStatus[2u + end - 1u - t], 0u);
      sharedWindow[t] = status;
    }
    barrier();
    for (uint j = 0u; j < window && !found; ++j) {
      uint status = sharedWindow[j];
      if (status == 0u) {
        before += blockTotal(end - 1u - j);
      } else {
        before += status & kValueMask;
        found = (status & kInclusivePrefix) != 0u;
      }
    }
    end -= window;
  }
  if (t == 0u && block > 0u) atomicExchange(scanStatus[2u + block], kInclusivePrefix | (before + ownTotal));
  finishGroup(blocks);

  // Each thread's values become their sums in place (read again, not held in registers over the
  // look-back).
  uint running = before + upToHere - total;
  for (int k = 0; k < ITEMS; ++k) {
    uint value = blockValues[padded(first + uint(k))];
    blockValues[padded(first + uint(k))] = running;
    running += value;
  }
  barrier();
  for (int k = 0; k < ITEMS; ++k) {
    uint i = sideBySide(0u, k);
    if (blockStart + i < uCount) valuesOut[blockStart + i] = blockValues[padded(i)];
  }
}
