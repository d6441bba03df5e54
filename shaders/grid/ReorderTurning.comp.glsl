#version 430 core
// grid/Reorder.comp.glsl with boids.turn_rate on: the sorted heading is the boid's stored one.
#define TURNING 1
#include "grid/ReorderBody.glsl"
