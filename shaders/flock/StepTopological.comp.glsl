#version 430 core
// The force pass with topological neighbours (`[perception] neighbours = K`, docs/model.md step 2):
// each thread keeps its K nearest same-group candidates in private arrays, which AMD's compiler
// places in scratch memory (bench/results/shader-stats); scenes without `neighbours` never run it.
#define TOPOLOGICAL 1
#include "flock/StepBody.glsl"
