#version 430 core
// The slot of every boid by id (slotOf), from the state's ids by slot: for the readers that go by
// id (the group reduction, the nearest boids' samples, a renderer, position samples). Not part of
// a step: the pipeline runs it when one of them reads a state it has not mapped yet.
layout(local_size_x = WORKGROUP_SIZE) in;
#include "common/Dispatch.glsl"

layout(std430, binding = BINDING_BOID_IDS) readonly buffer BoidIds { uint boidIds[]; };
layout(std430, binding = BINDING_SLOT_OF) writeonly buffer SlotOf { uint slotOf[]; };

// The boids (x): the pipeline may map slots before any step has set the step constants.
layout(std140, binding = PASS_PARAMS_BINDING) uniform SlotParams { uvec4 uSlots; };

void main() {
  uint s = globalInvocationIndex();
  if (s >= uSlots.x) return;
  slotOf[boidIds[s]] = s;
}
