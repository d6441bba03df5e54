#version 430 core
// The boids whose trails and vectors are drawn (render::BoidSamples), copied after a step out of the
// boid buffers (render::BoidBuffers) into a samples buffer: boid i * uStride for i < uCount. A trail
// sample is the position (w: the group); a vector sample is the position, the velocity and the
// steering force, which the step does not store: the velocity's change since the sample of the step
// before, over dt.
layout(local_size_x = WORKGROUP_SIZE) in;

layout(std430, binding = POSITION_BINDING) readonly buffer BoidPositions { vec4 boidPosition[]; };
layout(std430, binding = VELOCITY_BINDING) readonly buffer BoidVelocities { vec4 boidVelocity[]; };
layout(std430, binding = SAMPLES_BINDING) buffer Samples { vec4 samples[]; };
// With uHasSlots, boid i's element in the two arrays above (render::BoidBuffers::slot).
layout(std430, binding = SLOT_BINDING) readonly buffer BoidSlots { uint boidSlot[]; };

// render::SampleParams (std140).
layout(std140, binding = DRAW_PARAMS_BINDING) uniform SampleParams {
  uint uCount;
  uint uStride;
  uint uFirst;       // SAMPLE_TRAIL: where the trail's ring slot starts (vec4s)
  uint uMode;        // SAMPLE_TRAIL: a vec4 per boid; SAMPLE_VECTORS: three (position, velocity, force)
  bool uGroupInW;    // the boid buffers hold the group in position.w (else every boid is in group 0)
  float uInverseDt;  // 1 / dt; 0 when the samples hold no velocity of the step before
  bool uHasSlots;
};

void main() {
  uint i = gl_GlobalInvocationID.x;
  if (i >= uCount) return;
  uint id = uHasSlots ? boidSlot[i * uStride] : i * uStride;
  vec4 position = vec4(boidPosition[id].xyz, uGroupInW ? boidPosition[id].w : 0.0);
  if (uMode == SAMPLE_TRAIL) {
    samples[uFirst + i] = position;
    return;
  }
  vec3 velocity = boidVelocity[id].xyz;
  vec3 before = samples[3u * i + 1u].xyz;
  samples[3u * i] = position;
  samples[3u * i + 1u] = vec4(velocity, 0.0);
  // w: whether the force is known.
  samples[3u * i + 2u] = uInverseDt > 0.0 ? vec4((velocity - before) * uInverseDt, 1.0) : vec4(0.0);
}
