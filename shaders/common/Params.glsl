// The per-step constants: the uniform block P, generated from src/gpu/step_params.table.
#include "common/StepParams.glsl"

// Obstacles, goals and predators of this step (sim::packInputs), one vec4 each.
layout(std430, binding = BINDING_INPUTS) readonly buffer InputsBlock { vec4 stepInputs[]; };

vec4 obstacle(uint k) { return stepInputs[k]; }           // xyz centre, w radius
vec4 goalOf(uint group) { return stepInputs[P.goalOffset + group]; }  // xyz goal, w 1 active / 0 none
vec3 predator(uint m) { return stepInputs[P.predatorOffset + m].xyz; }
// Group g's steering (sim::packInputs): k = 0 target xyz, w role; 1 target velocity xyz, w thrust;
// 2 x weight, y flocking, z the intercept horizon (s).
vec4 steeringOf(uint group, uint k) { return stepInputs[P.steeringOffset + 3u * group + k]; }

// Map walls (sim::WallGrid): one uint per cell, row-major, 1 = blocked.
layout(std430, binding = BINDING_WALLS) readonly buffer WallsBlock { uint wallCells[]; };
