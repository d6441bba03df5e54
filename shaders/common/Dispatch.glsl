// Linear indices for dispatches that spread their work groups over y when x would pass the
// device's limit (gpu::dispatchSize): threads past the end return early. Include it after the
// shader's layout(local_size_x = ...) declaration (gl_WorkGroupSize needs it).
uint workGroupIndex() { return gl_WorkGroupID.y * gl_NumWorkGroups.x + gl_WorkGroupID.x; }

uint globalInvocationIndex() { return workGroupIndex() * gl_WorkGroupSize.x + gl_LocalInvocationID.x; }
