#version 430 core
// The force pass of the metric rule (every same-group neighbour within R; docs/model.md step 2).
// Scenes with topological neighbours run flock/StepTopological.comp.glsl, whose K-nearest lists
// would cost this one registers it does not need.
#define TOPOLOGICAL 0
#include "flock/StepBody.glsl"
