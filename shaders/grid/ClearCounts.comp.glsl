#version 430 core
// The cell counts zeroed for the force pass to count into (grid/ClearCountsBody.glsl).
layout(local_size_x = WORKGROUP_SIZE) in;
#include "common/Dispatch.glsl"
#include "common/Params.glsl"
#include "grid/ClearCountsBody.glsl"

void main() { clearCellCounts(globalInvocationIndex()); }
