#version 430 core
// The force pass of starlings ([model] kind = "starling"; docs/model.md, The starlings' flight) with
// metric neighbours: a boid's forces, then the bird's flight; the stored heading and the bank are
// state (headings buffer: xyz and w).
#define TOPOLOGICAL 0
#define STARLING 1
#include "flock/StepBody.glsl"
