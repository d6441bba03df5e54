// What the two levels of the group reduction share (gpu::FlockPipeline::reduce): the block partial
// and the pass constants (gpu::layout::ReduceParams).

struct GroupPartial {
  vec4 positionSum;  // xyz, w = count
  vec4 velocitySum;  // xyz, w = leaders
};

layout(std140, binding = PASS_PARAMS_BINDING) uniform ReduceParams {
  uint uCount;   // boids
  uint uGroups;
  uint uBlocks;  // first-level blocks per group
};
