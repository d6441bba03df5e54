#version 430 core
// The positions of the boids asked for by id (gpu::FlockPipeline::positionSample), read at their
// slots: a few thousand values for a read-back, where the state itself is in slot order.
layout(local_size_x = WORKGROUP_SIZE) in;
#include "common/Dispatch.glsl"

layout(std430, binding = BINDING_POSITIONS) readonly buffer Positions { vec4 positions[]; };
layout(std430, binding = BINDING_SLOT_OF) readonly buffer SlotOf { uint slotOf[]; };
layout(std430, binding = BINDING_SAMPLE_IDS) readonly buffer SampleIds { uint sampleIds[]; };
layout(std430, binding = BINDING_SAMPLE_POSITIONS) writeonly buffer SamplePositions { vec4 samplePositions[]; };

// The ids asked for (x).
layout(std140, binding = PASS_PARAMS_BINDING) uniform SampleParams { uvec4 uSample; };

void main() {
  uint k = globalInvocationIndex();
  if (k >= uSample.x) return;
  samplePositions[k] = positions[slotOf[sampleIds[k]]];
}
