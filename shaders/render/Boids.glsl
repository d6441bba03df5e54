// The boid storage buffers (render::BoidBuffers): std430 arrays indexed by boid, bound by
// render::BoidRenderer at the binding points it defines.
layout(std430, binding = POSITION_BINDING) readonly buffer BoidPositions { vec4 boidPosition[]; };
layout(std430, binding = VELOCITY_BINDING) readonly buffer BoidVelocities { vec4 boidVelocity[]; };
layout(std430, binding = GROUP_BINDING) readonly buffer BoidGroups { uint boidGroup[]; };
layout(std430, binding = FLAGS_BINDING) readonly buffer BoidFlags { uint boidFlags[]; };

// render::GroupSource: 0 (every boid in group 0), GROUP_BUFFER or GROUP_POSITION_W.
layout(location = 1) uniform uint uGroupSource;
// Without a flags buffer there are no leaders.
layout(location = 2) uniform bool uHasFlags;

uint groupOf(uint i) {
  if (uGroupSource == GROUP_BUFFER) return boidGroup[i];
  if (uGroupSource == GROUP_POSITION_W) return uint(boidPosition[i].w);
  return 0u;
}

bool isLeader(uint i) { return uHasFlags && (boidFlags[i] & LEADER_FLAG) != 0u; }

// Leaders are lit up: their group colour pushed towards white.
vec3 boidColour(uint i, bool leader) {
  vec3 colour = groupColour(groupOf(i));
  return leader ? mix(colour, vec3(1.0), 0.55) : colour;
}
