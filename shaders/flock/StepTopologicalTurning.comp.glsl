#version 430 core
// The force pass with topological neighbours and boids.turn_rate on (flock/StepTopological.comp.glsl
// and flock/StepTurning.comp.glsl together).
#define TOPOLOGICAL 1
#define TURNING 1
#include "flock/StepBody.glsl"
