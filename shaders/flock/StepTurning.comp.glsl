#version 430 core
// The force pass of the metric rule with boids.turn_rate on (docs/model.md, steps 1 and 13): the
// heading is state, read from the sorted copy and written back turned. Scenes without a turn rate
// run flock/Step.comp.glsl, which neither reads nor writes stored headings.
#define TOPOLOGICAL 0
#define TURNING 1
#include "flock/StepBody.glsl"
