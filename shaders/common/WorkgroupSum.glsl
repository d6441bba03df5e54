// The inclusive prefix sum of one uint a thread over a work group (Hillis-Steele in shared memory):
// thread t gets the sum of the values of threads 0..t. Every thread of the work group must call it
// (it has barriers). Needs layout(local_size_x = WORKGROUP_SIZE) declared before it is included.
shared uint workgroupSums[WORKGROUP_SIZE];

uint workgroupInclusiveSum(uint value) {
  uint t = gl_LocalInvocationID.x;
  workgroupSums[t] = value;
  barrier();
  for (uint offset = 1u; offset < uint(WORKGROUP_SIZE); offset <<= 1) {
    uint add = t >= offset ? workgroupSums[t - offset] : 0u;
    barrier();
    workgroupSums[t] += add;
    barrier();
  }
  return workgroupSums[t];
}
