#version 430 core
// The force pass of the flocking lab's units ([model] kind = "lab"; docs/model.md, The lab's
// units): the metric neighbours and the book's sideways push, then the rigid body's step; the
// stored heading and the spin are state (headings buffer: xyz and w).
#define TOPOLOGICAL 0
#define TURNING 0
#define LAB 1
#include "flock/StepBody.glsl"
