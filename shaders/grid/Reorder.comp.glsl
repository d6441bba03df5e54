#version 430 core
// Each boid to its stable slot in its cell, with its position, group and heading (grid/ReorderBody.glsl).
#define TURNING 0
#include "grid/ReorderBody.glsl"
