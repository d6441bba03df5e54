// The boid storage buffers (render::BoidBuffers): std430 arrays indexed by boid, bound by
// render::BoidRenderer at the binding points it defines, and what a boid's colour and size follow
// from (render/BirdInstances.comp.glsl for birds, render/BoidPoint.vert.glsl for points).
layout(std430, binding = POSITION_BINDING) readonly buffer BoidPositions { vec4 boidPosition[]; };
layout(std430, binding = VELOCITY_BINDING) readonly buffer BoidVelocities { vec4 boidVelocity[]; };
layout(std430, binding = GROUP_BINDING) readonly buffer BoidGroups { uint boidGroup[]; };
layout(std430, binding = SLOT_BINDING) readonly buffer BoidSlots { uint boidSlot[]; };
// A starling's bank, radians, in w (uHasBank; sim::FlockState::attitude).
layout(std430, binding = BANK_BINDING) readonly buffer BoidBanks { vec4 boidBank[]; };

// The constants of one draw (render::BoidDrawParams, std140).
layout(std140, binding = DRAW_PARAMS_BINDING) uniform BoidStyleBlock {
  float uSize;         // body length (birds) or ball diameter (points), world units
  float uMinPixels;    // far boids are scaled up to this length on screen
  // render::GroupSource: 0 (every boid in group 0), GROUP_BUFFER or GROUP_POSITION_W.
  uint uGroupSource;
  // Whether velocity.w holds the leader flag (sim::FlockState::leader: 1.0 a leader); else no leaders.
  bool uHasLeaders;
  // render::BoidColouring: COLOUR_BY_GROUP, COLOUR_BY_HEADING, COLOUR_BY_SPEED or COLOUR_SILHOUETTE;
  // the speed ramp's ends.
  uint uColouring;
  float uSpeedLow;
  float uSpeedHigh;
  // render::LeaderMark: 0 lit up, LEADER_RED the leader colour (only when coloured by group).
  uint uLeaderMark;
  // Birds (render/BirdInstances.comp.glsl): those drawn shorter than this many pixels get the far
  // mesh; the boids of the range drawn; the first of the range's two draw commands; BIRD_COUNT or
  // BIRD_WRITE.
  float uDetailPixels;
  uint uCount;
  uint uFirstCommand;
  uint uPhase;
  bool uHasSlots;  // boid i of the range is element boidSlot[i] of the arrays (render::BoidBuffers::slot)
  float uPointShare;  // points only: the share of silhouette points drawn (render::BoidStyle::pointShare)
  bool uHasBank;      // birds: boidBank is bound, each bird's wings tilted by its bank
};

// The element of the boid arrays that holds boid i of the range; the functions below take elements.
uint boidElement(uint i) { return uHasSlots ? boidSlot[i] : i; }

uint groupOf(uint i) {
  if (uGroupSource == GROUP_BUFFER) return boidGroup[i];
  if (uGroupSource == GROUP_POSITION_W) return uint(boidPosition[i].w);
  return 0u;
}

bool isLeader(uint i) { return uHasLeaders && boidVelocity[i].w != 0.0; }

// A saturated hue (0..1 around the colour wheel), a little muted so that shading keeps it readable.
vec3 hueColour(float hue) {
  vec3 rgb = clamp(abs(fract(hue + vec3(0.0, 2.0 / 3.0, 1.0 / 3.0)) * 6.0 - 3.0) - 1.0, 0.0, 1.0);
  return mix(vec3(0.25), rgb, 0.8);
}

// Deep blue (slow), teal, yellow (fast): distinct from the sky and light enough to shade.
vec3 speedColour(float t) {
  vec3 slow = vec3(0.20, 0.25, 0.80), middle = vec3(0.10, 0.72, 0.62), fast = vec3(0.98, 0.86, 0.15);
  return t < 0.5 ? mix(slow, middle, 2.0 * t) : mix(middle, fast, 2.0 * t - 1.0);
}

bool leadersInRed() { return uColouring == COLOUR_BY_GROUP && uLeaderMark == LEADER_RED; }

// How much larger a leader is drawn: a red leader stands out by size too; a lit-up one only a little.
float leaderScale(bool leader) { return leader ? (leadersInRed() ? 1.6 : 1.25) : 1.0; }

// Leaders: in the leader colour (LeaderMark::Red, by group only), else lit up (their colour pushed
// towards white).
vec3 boidColour(uint i, bool leader) {
  vec3 colour;
  // A silhouette's leader is a grey among black birds: marked, never a bright spot.
  if (uColouring == COLOUR_SILHOUETTE) return leader ? mix(SILHOUETTE_COLOUR, vec3(1.0), 0.3) : SILHOUETTE_COLOUR;
  if (uColouring == COLOUR_BY_HEADING || uColouring == COLOUR_BY_SPEED) {
    vec3 velocity = boidVelocity[i].xyz;
    float speed = length(velocity);
    if (uColouring == COLOUR_BY_SPEED) {
      colour = speedColour(clamp((speed - uSpeedLow) / (uSpeedHigh - uSpeedLow), 0.0, 1.0));
    } else {
      float hue = atan(velocity.z, velocity.x) / 6.2831853 + 0.5;
      float climb = speed > 1e-6 ? velocity.y / speed : 0.0;
      colour = hueColour(hue) * (1.0 + 0.35 * climb);
    }
  } else {
    if (leader && leadersInRed()) return view.leaderColour.rgb;
    colour = groupColour(groupOf(i));
  }
  return leader ? mix(colour, vec3(1.0), 0.55) : colour;
}
